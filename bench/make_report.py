#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds bench/RESULTS.md (and one plot per kernel and size) from the JSON of one benchmark run.

    make_report.py [--zoo ZOO.json] [--launch LAUNCH.json] [--external EXTERNAL.json] [--out bench/RESULTS.md]
                   [--plots DIR]
    make_report.py --summary [--zoo ZOO.json] [--launch LAUNCH.json] [--external EXTERNAL.json]

ZOO.json comes from wavefit_bench_zoo, LAUNCH.json from wavefit_bench_launch (bench/run_h200.sh runs
both), EXTERNAL.json from wavefit_bench_external (bench/run_external.sh; its section is
bench/external_report.py's table). The report has the device and the exact commands, each target with its measured figure and
PASS/FAIL, a table per kernel (GB/s per strategy, % of the memcpy bandwidth measured in the same run,
ratio to the sweep's best and to hard-coded 256) and a plot per kernel and size of bandwidth against
block size with wavefit's choice marked. --summary prints the targets and a short table instead
(standard library only; the plots need matplotlib, e.g. Debian's python3-matplotlib).
Exit status: 0 written, 2 bad input.
"""

import argparse
import os
import re
import sys

import external_report  # noqa: E402  (beside this file)
from gbench_json import BadInput, load

# BabelStream 5.0, CUDA, on this H200, 2^28 doubles (docs/performance.md): GB/s.
BABELSTREAM_H200 = {"copy": 3989, "mul": 3976, "add": 4384, "triad": 4387, "dot": 4535}
STREAM_KERNELS = ("copy", "mul", "add", "triad", "dot")
FIXED_STRATEGIES = ("original", "b256", "b1024", "occupancy_api", "wavefit", "tuned")
# Kernels of public benchmarks (bench/external/): judged against their own configuration, not a sweep.
EXTERNAL_PREFIXES = ("babelstream_",)
LAUNCH_FORMS = ("wavefit_config", "wavefit_elements", "wavefit_tuned")
SWEEP = re.compile(r"^sweep_b(\d+)_g(cover|\d+x)$")
VARIANT = re.compile(r"^(.*)_v(\d+)u(\d+)$")

# Targets (issue text): wavefit within 3% of the sweep's best, never more than 2% behind
# hard-coded 256, copy at 95% of memcpy, launch overhead at most 2%, a first launch under 50 us.
PLAN_VS_BEST = 0.97
PLAN_VS_256 = 0.98
# Tuned launches (issue text): within 1% of the sweep's best, never slower than the plan or an external
# kernel's own configuration beyond the measured noise, and at most a second of tuning per kernel and size.
TUNED_VS_BEST = 0.99
TUNING_MS = 1000.0
NOISE_FACTOR = 2.0
COPY_VS_MEMCPY = 0.95
LAUNCH_OVERHEAD_PCT = 2.0
FIRST_LAUNCH_US = 50.0


class Measure:
    """One zoo benchmark: its median time per launch and what one launch did."""

    def __init__(self, kernel, strategy, size, bench):
        self.kernel = kernel
        self.strategy = strategy
        self.size = size
        self.error = bench.errors[0] if bench.failed else None
        self.seconds = None if bench.failed else bench.center("real_time")
        self.noise = None if bench.failed else bench.relative_noise("real_time")
        self.tuning_ms = bench.counter("tuning_ms")
        self.tuning_candidates = bench.counter("tuning_candidates")
        self.block = bench.counter("block")
        self.grid = bench.counter("grid")
        bytes_per_launch = bench.counter("bytes_per_launch")
        flop_per_launch = bench.counter("flop_per_launch")
        self.gbps = None
        self.gflops = None
        if self.seconds:
            if bytes_per_launch is not None:
                self.gbps = bytes_per_launch / self.seconds / 1e9
            else:
                rate = bench.counter("bytes_per_second")
                self.gbps = None if rate is None else rate / 1e9
            if flop_per_launch:
                self.gflops = flop_per_launch / self.seconds / 1e9
        m = SWEEP.match(strategy)
        self.sweep_block = int(m.group(1)) if m else None
        self.sweep_grid = m.group(2) if m else None

    @property
    def value(self):
        """The figure the kernel is judged by: GFLOP/s for compute-bound kernels, else GB/s."""
        return self.gflops if self.gflops is not None else self.gbps


class Zoo:
    """The zoo's measurements: {(kernel, size): {strategy: Measure}} in the order of the run."""

    def __init__(self, runs):
        self.groups = {}
        for name, bench in runs.items():
            parts = name.split("/")
            if len(parts) != 3:
                continue
            kernel, strategy, size = parts
            self.groups.setdefault((kernel, size), {})[strategy] = Measure(kernel, strategy, size, bench)

    def memcpy(self, size):
        m = self.groups.get(("memcpy", size), {}).get("runtime")
        return m.gbps if m else None

    def memcpy_for(self, size):
        """The ceiling for a size: the memcpy of the same size, else of the largest size measured."""
        own = self.memcpy(size)
        if own:
            return own, size
        sizes = [s for (k, s) in self.groups if k == "memcpy" and self.memcpy(s)]
        if not sizes:
            return None, None
        largest = max(sizes, key=size_order)
        return self.memcpy(largest), largest

    def kernels(self, variants=False, external=False):
        seen = []
        for kernel, _ in self.groups:
            if kernel == "memcpy" or kernel in seen or bool(VARIANT.match(kernel)) != variants:
                continue
            if is_external(kernel) != external:
                continue
            seen.append(kernel)
        return seen

    def sizes(self, kernel):
        return [s for (k, s) in self.groups if k == kernel]


def is_external(kernel):
    return kernel.startswith(EXTERNAL_PREFIXES)


def size_order(size):
    m = re.match(r"^2\^(\d+)$", size)
    if m:
        return 2 ** int(m.group(1))
    m = re.match(r"^(\d+)x(\d+)$", size)
    if m:
        return int(m.group(1)) * int(m.group(2))
    return 0


def best_sweep(group):
    sweeps = [m for m in group.values() if m.sweep_block is not None and m.value]
    return max(sweeps, key=lambda m: m.value) if sweeps else None


def ratio(a, b):
    return a / b if a and b else None


def same_configuration(a, b):
    return a.block is not None and a.block == b.block and a.grid is not None and a.grid == b.grid


def combined_noise(a, b):
    """How far below 1.00 a ratio of two measurements may fall and still count as "not slower": twice
    their spreads added in quadrature (the regression checker's default noise factor), at least 0.1%."""
    na = a.noise or 0.0
    nb = b.noise or 0.0
    return max(0.001, NOISE_FACTOR * (na * na + nb * nb) ** 0.5)


class Target:
    def __init__(self, what, measured, required, passed):
        self.what = what
        self.measured = measured
        self.required = required
        self.passed = passed  # True, False, or None when it could not be measured

    @property
    def verdict(self):
        return "n/a" if self.passed is None else ("PASS" if self.passed else "FAIL")


def unit(m):
    return "GFLOP/s" if m.gflops is not None else "GB/s"


def zoo_targets(zoo):
    targets = []
    for kernel in zoo.kernels():
        for size in zoo.sizes(kernel):
            group = zoo.groups[(kernel, size)]
            w = group.get("wavefit")
            best = best_sweep(group)
            b256 = group.get("b256")
            label = f"{kernel}/{size}"
            if w is None:
                continue
            if w.value is None:
                targets.append(Target(f"{label}: wavefit runs", w.error or "no data", "runs and checks", False))
                continue
            if best is not None:
                r = ratio(w.value, best.value)
                targets.append(Target(f"{label}: wavefit vs sweep best", f"{r:.3f} ({w.value:.0f} vs {best.value:.0f} {unit(w)}, "
                                      f"best {best.strategy})", f">= {PLAN_VS_BEST:.2f}", r >= PLAN_VS_BEST))
            if b256 is not None:
                if b256.value:
                    r = ratio(w.value, b256.value)
                    targets.append(Target(f"{label}: wavefit vs b256", f"{r:.3f}", f">= {PLAN_VS_256:.2f}", r >= PLAN_VS_256))
                else:
                    targets.append(Target(f"{label}: wavefit vs b256", f"b256 failed: {b256.error}", f">= {PLAN_VS_256:.2f}", True))
            targets += tuned_targets(label, group, best)
    for kernel in zoo.kernels(external=True):
        for size in zoo.sizes(kernel):
            group = zoo.groups[(kernel, size)]
            label = f"{kernel}/{size}"
            original = group.get("original")
            for name in ("tuned",):
                m = group.get(name)
                if m is None or original is None:
                    continue
                if m.value is None or original.value is None:
                    targets.append(Target(f"{label}: {name} vs the benchmark's own configuration", (m.error or original.error or "no data"),
                                          ">= 1.00", False))
                    continue
                r = ratio(m.value, original.value)
                noise = combined_noise(m, original)
                targets.append(Target(f"{label}: {name} vs the benchmark's own configuration",
                                      f"{r:.4f} ({m.value:.0f} vs {original.value:.0f} {unit(m)})",
                                      f">= 1.00 (noise {100 * noise:.2f}%)", r >= 1.0 - noise))
            targets += tuned_targets(label, group, None)
    for kernel in STREAM_KERNELS:
        w = zoo.groups.get((kernel, "2^28"), {}).get("wavefit")
        if w is not None:
            figure = BABELSTREAM_H200[kernel]
            ok = w.gbps is not None and w.gbps >= figure
            targets.append(Target(f"{kernel}/2^28: wavefit vs BabelStream 5.0 (H200)",
                                  "-" if w.gbps is None else f"{w.gbps:.0f} GB/s", f">= {figure} GB/s", ok))
    copy = zoo.groups.get(("copy", "2^28"), {}).get("wavefit")
    ceiling = zoo.memcpy("2^28")
    if copy is not None and ceiling:
        r = ratio(copy.gbps, ceiling)
        targets.append(Target("copy/2^28: wavefit vs device memcpy", "-" if r is None else f"{r:.3f} ({copy.gbps:.0f} vs {ceiling:.0f} GB/s)",
                              f">= {COPY_VS_MEMCPY:.2f}", r is not None and r >= COPY_VS_MEMCPY))
    return targets


def tuned_targets(label, group, best):
    """The tuned strategy of one kernel and size: against the sweep's best (when there is a sweep),
    against the plan within the noise, and the tuning's cost."""
    t = group.get("tuned")
    if t is None:
        return []
    if t.value is None:
        return [Target(f"{label}: tuned runs", t.error or "no data", "runs and checks", False)]
    out = []
    if best is not None:
        r = ratio(t.value, best.value)
        out.append(Target(f"{label}: tuned vs sweep best", f"{r:.3f} ({t.value:.0f} vs {best.value:.0f} {unit(t)}, best {best.strategy})",
                          f">= {TUNED_VS_BEST:.2f}", r >= TUNED_VS_BEST))
    w = group.get("wavefit")
    if w is not None and w.value:
        r = ratio(t.value, w.value)
        if same_configuration(t, w):
            # The tuner kept the plan: both benchmarks launch the same thing, and their difference is
            # the drift between two benchmarks of the run, not a choice.
            out.append(Target(f"{label}: tuned vs wavefit plan", f"{r:.4f} (the plan kept: the same block and grid)",
                              ">= 1.00 (noise)", True))
        else:
            noise = combined_noise(t, w)
            out.append(Target(f"{label}: tuned vs wavefit plan", f"{r:.4f}", f">= 1.00 (noise {100 * noise:.2f}%)", r >= 1.0 - noise))
    if t.tuning_ms is not None:
        out.append(Target(f"{label}: tuning cost", f"{t.tuning_ms:.0f} ms ({t.tuning_candidates or 0:.0f} candidates)",
                          f"<= {TUNING_MS:.0f} ms", t.tuning_ms <= TUNING_MS))
    return out


class Launch:
    """The launch-overhead run: {(group, form, kernel): Benchmark}."""

    def __init__(self, runs):
        self.runs = {}
        for name, bench in runs.items():
            parts = name.split("/")
            if len(parts) == 3:
                self.runs[tuple(parts)] = bench

    def counter(self, group, form, kernel, key):
        b = self.runs.get((group, form, kernel))
        return None if b is None or b.failed else b.counter(key)

    def time_us(self, group, form, kernel):
        b = self.runs.get((group, form, kernel))
        if b is None or b.failed:
            return None
        t = b.center("real_time")
        return None if t is None else t * 1e6

    def kernels(self):
        return sorted({k for (g, _, k) in self.runs if g.startswith("launch_enqueue")})


def launch_targets(launch):
    targets = []
    for kernel in launch.kernels():
        for form in LAUNCH_FORMS:
            pct = launch.counter("launch_enqueue_paired", form, kernel, "overhead_pct")
            raw = launch.counter("launch_enqueue_paired", form, kernel, "raw_us")
            wf = launch.counter("launch_enqueue_paired", form, kernel, "wavefit_us")
            if pct is None:
                continue
            targets.append(Target(f"launch {kernel}: {form} enqueue vs raw", f"{pct:+.2f}% ({wf:.2f} vs {raw:.2f} us)",
                                  f"<= +{LAUNCH_OVERHEAD_PCT:.0f}%", pct <= LAUNCH_OVERHEAD_PCT))
    raw_median = launch.counter("launch_first", "raw", "cold", "latency_median_us")
    for form in ("wavefit_config", "wavefit_elements"):
        med = launch.counter("launch_first", form, "cold", "latency_median_us")
        top = launch.counter("launch_first", form, "cold", "latency_max_us")
        if med is None or raw_median is None:
            continue
        targets.append(Target(f"first launch, {form}: median extra over raw", f"{med - raw_median:.1f} us ({med:.1f} vs {raw_median:.1f} us)",
                              f"< {FIRST_LAUNCH_US:.0f} us", med - raw_median < FIRST_LAUNCH_US))
        if top is not None:
            targets.append(Target(f"first launch, {form}: max extra over raw median", f"{top - raw_median:.1f} us (max {top:.1f} us)",
                                  f"< {FIRST_LAUNCH_US:.0f} us", top - raw_median < FIRST_LAUNCH_US))
    wf = launch.counter("launch_first", "wavefit_process", "cold", "latency_us")
    raw = launch.counter("launch_first", "wavefit_process", "cold", "raw_latency_us")
    if wf is not None and raw is not None:
        targets.append(Target("first wavefit launch of the process (limits + attributes + plan): extra over raw",
                              f"{wf - raw:.1f} us ({wf:.1f} vs {raw:.1f} us)", f"< {FIRST_LAUNCH_US:.0f} us", wf - raw < FIRST_LAUNCH_US))
    return targets


# --- text ---------------------------------------------------------------------------------------

def fmt(v, digits=0):
    return "-" if v is None else f"{v:,.{digits}f}"


def fmt_ratio(v):
    return "-" if v is None else f"{v:.3f}"


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def text_table(header, rows):
    table = [tuple(header)] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in table)


def device_lines(context):
    c = context
    if not c.get("device_name"):
        return ["Device: not recorded"]
    peak = c.get("peak_bandwidth_gbps")
    peak_text = f", peak {float(peak):,.0f} GB/s" if peak else ""
    l2 = c.get("l2_cache_bytes")
    l2_text = f", L2 {int(l2) / 2**20:.0f} MiB" if l2 and l2.isdigit() else ""
    return [f"Device: {c.get('device_name')} ({c.get('device_arch', '?')}), {c.get('compute_units', '?')} SMs/CUs, "
            f"wave {c.get('wave_size', '?')}, memory {int(c.get('memory_clock_khz', '0') or 0) / 1000:.0f} MHz x "
            f"{c.get('memory_bus_width_bits', '?')}-bit{peak_text}{l2_text}; {c.get('gpu_runtime', '?')} runtime "
            f"{c.get('runtime_version', '?')}, driver {c.get('driver_version', '?')}; wavefit {c.get('wavefit_version', '?')}",
            f"Run: {c.get('date', '?')} on {c.get('host_name', '?')}"]


def zoo_rows(zoo, kernel, size):
    group = zoo.groups[(kernel, size)]
    ceiling, ceiling_size = zoo.memcpy_for(size)
    best = best_sweep(group)
    b256 = group.get("b256")
    shown = [group[s] for s in FIXED_STRATEGIES if s in group]
    if best is not None:
        shown.append(best)
    rows = []
    for m in shown:
        label = m.strategy if m is not best else f"{m.strategy} (sweep best)"
        if m.value is None:
            rows.append((label, fmt(m.block), fmt(m.grid), f"failed: {m.error}", "-", "-", "-"))
            continue
        pct = "-" if m.gflops is not None or not ceiling else f"{100 * m.gbps / ceiling:.1f}%"
        rows.append((label, fmt(m.block), fmt(m.grid), fmt(m.value), pct,
                     fmt_ratio(ratio(m.value, best.value if best else None)),
                     fmt_ratio(ratio(m.value, b256.value if b256 else None))))
    return rows, ceiling_size


def plot_name(kernel, size):
    return f"{kernel}_{size.replace('^', 'p')}.png"


def write_plot(zoo, kernel, size, path, device):
    import matplotlib  # imported here: --summary and the tests of the tables need no matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    group = zoo.groups[(kernel, size)]
    sweeps = [m for m in group.values() if m.sweep_block is not None and m.value]
    if not sweeps:
        return False
    metric = unit(sweeps[0])
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for policy in ("cover", "1x", "2x", "4x"):
        points = sorted((m.sweep_block, m.value) for m in sweeps if m.sweep_grid == policy)
        if points:
            label = "one item per thread" if policy == "cover" else f"{policy} occupancy-saturated grid"
            ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", linewidth=1, label=label)
    markers = {"b256": ("s", "hard-coded 256"), "b1024": ("^", "hard-coded 1024"),
               "occupancy_api": ("D", "runtime's suggestion")}
    for strategy, (marker, label) in markers.items():
        m = group.get(strategy)
        if m is not None and m.value and m.block:
            # Hollow and larger than the star, so a strategy that chose wavefit's block stays visible.
            ax.scatter([m.block], [m.value], marker=marker, s=140, facecolors="none", edgecolors=f"C{4 + len(ax.collections)}",
                       linewidths=1.5, zorder=5, label=f"{label} (block {m.block:.0f})")
    w = group.get("wavefit")
    if w is not None and w.value and w.block:
        ax.scatter([w.block], [w.value], marker="*", s=260, color="red", zorder=4,
                   label=f"wavefit (block {w.block:.0f}): {w.value:,.0f} {metric}")
    ceiling, _ = zoo.memcpy_for(size)
    if ceiling and metric == "GB/s":
        ax.axhline(ceiling, color="gray", linestyle="--", linewidth=1, label=f"device memcpy {ceiling:,.0f} GB/s")
    ax.set_xlabel("threads per block")
    ax.set_ylabel(metric)
    ax.set_xlim(0, 1056)
    ax.set_title(f"{kernel} {size}" + (f" on {device}" if device else ""))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def variant_section(zoo, context):
    variants = zoo.kernels(variants=True)
    if not variants:
        return []
    columns = ["b256", "b1024", "occupancy_api", "wavefit", "sweep_b256_g1x", "sweep_b256_g2x", "sweep_b256_g4x"]
    rows = []
    for base in zoo.kernels():
        mine = [v for v in variants if VARIANT.match(v).group(1) == base]
        for size in (zoo.sizes(mine[0]) if mine else []):
            for kernel in [base] + mine:
                group = zoo.groups.get((kernel, size))
                if group is None:
                    continue
                cells = []
                for c in columns:
                    m = group.get(c)
                    cells.append("-" if m is None else (fmt(m.value) if m.value else "failed"))
                rows.append([kernel + (" (default)" if kernel == base else ""), size] + cells)
    defaults = context.get("stream_default_variants")
    return ["## Work per thread: the STREAM kernels' variants", "",
            "GB/s. `vVuU`: V elements per access, U independent accesses per thread per step; the plain name is the "
            "variant each kernel runs with above" + (f" ({defaults})" if defaults else "") +
            ". `sweep_b256_gKx`: block 256 with K times the occupancy-saturated grid.", "",
            markdown_table(["kernel", "size"] + columns, rows), ""]


EXTERNAL_STRATEGIES = ("original", "wavefit", "tuned")


def external_rows(zoo, kernel, size):
    group = zoo.groups[(kernel, size)]
    original = group.get("original")
    rows = []
    for name in EXTERNAL_STRATEGIES:
        m = group.get(name)
        if m is None:
            continue
        if m.value is None:
            rows.append((name, fmt(m.block), fmt(m.grid), f"failed: {m.error}", "-", "-"))
            continue
        rows.append((name, fmt(m.block), fmt(m.grid), fmt(m.value), fmt_ratio(ratio(m.value, original.value if original else None)),
                     "-" if m.tuning_ms is None else f"{m.tuning_ms:.0f} ms, {m.tuning_candidates or 0:.0f} candidates"))
    return rows


def external_section(zoo):
    kernels = zoo.kernels(external=True)
    if not kernels:
        return []
    out = ["## External kernels", "",
           "Kernels of a public benchmark that nobody here wrote (bench/external/: based on a variant of BabelStream 5.0's "
           "CUDA kernels), launched with the benchmark's own configuration (`original`), with wavefit's plan, and tuned. "
           "GB/s from the median device-event time per launch; `/ original` is the ratio to the benchmark's own configuration.", ""]
    for kernel in kernels:
        for size in zoo.sizes(kernel):
            out += [f"{kernel} {size}:", "",
                    markdown_table(["strategy", "block", "grid", "GB/s", "/ original", "tuning"], external_rows(zoo, kernel, size)), ""]
    return out


def launch_section(launch):
    if launch is None:
        return []
    out = ["## Launch overhead", ""]
    rows = []
    for kernel in launch.kernels():
        for form in ("raw",) + LAUNCH_FORMS:
            if form != "raw" and launch.runs.get(("launch_enqueue", form, kernel)) is None:
                continue
            rows.append((kernel, form, fmt(launch.counter("launch_enqueue", form, kernel, "us_per_launch"), 2),
                         fmt(launch.time_us("launch_latency", form, kernel), 2),
                         fmt(launch.counter("launch_enqueue_paired", form, kernel, "overhead_pct"), 2) if form != "raw" else "-",
                         fmt(launch.counter("launch_latency_paired", form, kernel, "overhead_pct"), 2) if form != "raw" else "-"))
    out += [markdown_table(["kernel", "form", "enqueue us/launch", "launch + sync us", "paired enqueue overhead %",
                            "paired latency overhead %"], rows), ""]
    first = []
    for form in ("raw", "wavefit_config", "wavefit_elements"):
        first.append((form, fmt(launch.counter("launch_first", form, "cold", "latency_median_us"), 1),
                      fmt(launch.counter("launch_first", form, "cold", "latency_max_us"), 1),
                      fmt(launch.counter("launch_first", form, "cold", "enqueue_median_us"), 1),
                      fmt(launch.counter("launch_first", form, "cold", "samples"))))
    out += ["First launches of never-launched kernels (host clock, launch + synchronize):", "",
            markdown_table(["form", "median us", "max us", "enqueue median us", "kernels"], first), ""]
    wf = launch.counter("launch_first", "wavefit_process", "cold", "latency_us")
    if wf is not None:
        out += [f"First wavefit launch of the process (device limits read too): {wf:.1f} us; the first raw launch of "
                f"another never-launched kernel: {fmt(launch.counter('launch_first', 'wavefit_process', 'cold', 'raw_latency_us'), 1)} us; "
                f"one get-device-properties call: "
                f"{fmt(launch.counter('launch_first', 'wavefit_process', 'cold', 'get_device_properties_us'), 1)} us.", ""]
    return out


def report(zoo_ctx, zoo, launch_ctx, launch, plots_dir, plots_rel, with_plots):
    context = zoo_ctx or launch_ctx or {}
    out = ["# wavefit benchmark results", ""]
    out += [line + "  " for line in device_lines(context)] + [""]
    out += ["Commands that produced the JSON:", "", "```"]
    for ctx in (launch_ctx, zoo_ctx):
        if ctx and ctx.get("command_line"):
            out.append(ctx["command_line"])
    out += ["```", ""]
    targets = (launch_targets(launch) if launch else []) + (zoo_targets(zoo) if zoo else [])
    passed = sum(1 for t in targets if t.passed)
    failed = sum(1 for t in targets if t.passed is False)
    out += ["## Targets", "", f"{passed} pass, {failed} fail.", "",
            markdown_table(["target", "measured", "required", "result"],
                           [(t.what, t.measured, t.required, f"**{t.verdict}**" if t.passed is False else t.verdict) for t in targets]),
            ""]
    out += launch_section(launch)
    if zoo:
        out += ["## Kernel zoo", ""]
        ceilings = [f"{s}: {zoo.memcpy(s):,.0f} GB/s" for (k, s) in zoo.groups if k == "memcpy" and zoo.memcpy(s)]
        end = zoo.groups.get(("memcpy", "2^28"), {}).get("runtime_end")
        out += [f"Device memcpy (bytes read + written): {', '.join(ceilings) or 'not measured'}" +
                (f"; again at the end of the run: {end.gbps:,.0f} GB/s" if end is not None and end.gbps else "") + ".", ""]
        out += ["Columns: GB/s (GFLOP/s for the compute-bound kernel) from the median device-event time per launch; "
                "% of the memcpy bandwidth of the same size (the largest size for kernels of other sizes); ratios to the "
                "sweep's best configuration and to hard-coded 256.", ""]
        device = context.get("device_name", "")
        for kernel in zoo.kernels():
            out += [f"### {kernel}", ""]
            for size in zoo.sizes(kernel):
                rows, ceiling_size = zoo_rows(zoo, kernel, size)
                unit_name = "GFLOP/s" if any(m.gflops for m in zoo.groups[(kernel, size)].values()) else "GB/s"
                note = "" if ceiling_size in (None, size) else f" (memcpy at {ceiling_size})"
                out += [f"{kernel} {size}{note}:", "",
                        markdown_table(["strategy", "block", "grid", unit_name, "% memcpy", "/ sweep best", "/ b256"], rows), ""]
                if with_plots:
                    name = plot_name(kernel, size)
                    if write_plot(zoo, kernel, size, os.path.join(plots_dir, name), device):
                        out += [f"![{kernel} {size}]({plots_rel}/{name})", ""]
        out += variant_section(zoo, context)
        out += external_section(zoo)
    return "\n".join(out).rstrip() + "\n"


def summary(zoo, launch):
    """Short enough to read at the end of a console log: the zoo's plan targets folded into one table."""
    lines = []
    launch_list = launch_targets(launch) if launch else []
    zoo_list = zoo_targets(zoo) if zoo else []
    per_group = {}
    for t in zoo_list:
        label, _, kind = t.what.partition(": ")
        per_group.setdefault(label, []).append(t)
    folded = set()
    if zoo:
        rows = []
        for kernel in zoo.kernels():
            for size in zoo.sizes(kernel):
                group = zoo.groups[(kernel, size)]
                w, best, b256 = group.get("wavefit"), best_sweep(group), group.get("b256")
                tuned = group.get("tuned")
                plan = [t for t in per_group.get(f"{kernel}/{size}", [])
                        if t.what.endswith(": wavefit vs sweep best") or t.what.endswith("vs b256") or t.what.endswith(": wavefit runs")]
                folded.update(id(t) for t in plan)
                verdict = "FAIL" if any(t.passed is False for t in plan) else ("PASS" if plan else "-")
                rows.append((f"{kernel}/{size}", fmt(w.value if w else None), fmt(w.block if w else None),
                             fmt(best.value if best else None), best.strategy if best else "-",
                             fmt(b256.value if b256 else None),
                             fmt_ratio(ratio(w.value if w else None, best.value if best else None)),
                             fmt_ratio(ratio(w.value if w else None, b256.value if b256 else None)),
                             fmt(tuned.value if tuned else None),
                             fmt_ratio(ratio(tuned.value if tuned else None, best.value if best else None)), verdict))
        lines += [f"zoo (GB/s; GFLOP/s for regheavy); plan targets: wf/best >= {PLAN_VS_BEST}, wf/b256 >= {PLAN_VS_256}",
                  text_table(["kernel/size", "wavefit", "block", "sweep best", "best config", "b256", "wf/best", "wf/b256",
                              "tuned", "tuned/best", "plan"], rows), ""]
        external = []
        for kernel in zoo.kernels(external=True):
            for size in zoo.sizes(kernel):
                g = zoo.groups[(kernel, size)]
                o, w, t = g.get("original"), g.get("wavefit"), g.get("tuned")
                external.append((f"{kernel}/{size}", fmt(o.value if o else None), fmt(w.value if w else None), fmt(t.value if t else None),
                                 fmt_ratio(ratio(w.value if w else None, o.value if o else None)),
                                 fmt_ratio(ratio(t.value if t else None, o.value if o else None))))
        if external:
            lines += ["external kernels (GB/s)", text_table(["kernel/size", "original", "wavefit", "tuned", "wf/original",
                                                             "tuned/original"], external), ""]
    others = launch_list + [t for t in zoo_list if id(t) not in folded]
    lines += ["targets", text_table(["target", "measured", "required", "result"],
                                    [(t.what, t.measured, t.required, t.verdict) for t in others])]
    every = launch_list + zoo_list
    failed = sum(1 for t in every if t.passed is False)
    lines.append(f"{len(every)} targets: {len(every) - failed} pass or n/a, {failed} fail")
    return "\n".join(lines) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"make_report.py: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv=None, out=sys.stdout):
    here = os.path.dirname(os.path.abspath(__file__))
    p = _Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--zoo", help="wavefit_bench_zoo's JSON")
    p.add_argument("--launch", help="wavefit_bench_launch's JSON")
    p.add_argument("--external", help="wavefit_bench_external's JSON (the external suite's section)")
    p.add_argument("--out", default=os.path.join(here, "RESULTS.md"), help="the Markdown report (default bench/RESULTS.md)")
    p.add_argument("--plots", default=None, help="folder for the PNG plots (default: results/ beside --out)")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("--summary", action="store_true", help="print the targets and a short table; write nothing")
    args = p.parse_args(argv)
    if not args.zoo and not args.launch and not args.external:
        p.error("give --zoo, --launch and/or --external")
    try:
        zoo_ctx, zoo_runs = load(args.zoo) if args.zoo else (None, None)
        launch_ctx, launch_runs = load(args.launch) if args.launch else (None, None)
        external_text = ""
        if args.external:
            ext_ctx, ext_runs = load(args.external)
            external_text = external_report.report(ext_ctx, ext_runs)
    except BadInput as e:
        print(f"make_report.py: {e}", file=sys.stderr)
        return 2
    zoo = Zoo(zoo_runs) if zoo_runs is not None else None
    launch = Launch(launch_runs) if launch_runs is not None else None
    if zoo is not None and not zoo.groups:
        print(f"make_report.py: {args.zoo}: no kernel/strategy/size benchmarks", file=sys.stderr)
        return 2
    if launch is not None and not launch.runs:
        print(f"make_report.py: {args.launch}: no launch benchmarks", file=sys.stderr)
        return 2
    if args.summary:
        if zoo is not None or launch is not None:
            out.write(summary(zoo, launch))
        if external_text:
            out.write("external suite\n" + "\n".join(line for line in external_text.splitlines()
                                                     if line.startswith("- ")) + "\n")
        return 0
    out_dir = os.path.dirname(os.path.abspath(args.out))
    plots_dir = args.plots or os.path.join(out_dir, "results")
    with_plots = not args.no_plots and zoo is not None
    if with_plots:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("make_report.py: matplotlib is missing: writing tables only (Debian: apt-get install python3-matplotlib)",
                  file=sys.stderr)
            with_plots = False
    try:
        os.makedirs(out_dir, exist_ok=True)
        if with_plots:
            os.makedirs(plots_dir, exist_ok=True)
    except OSError as e:
        print(f"make_report.py: cannot create {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    if zoo is not None or launch is not None:
        text = report(zoo_ctx, zoo, launch_ctx, launch, plots_dir, os.path.relpath(plots_dir, out_dir).replace(os.sep, "/"),
                      with_plots)
    else:
        text = "# wavefit benchmark results\n"
    if external_text:
        text = text.rstrip("\n") + "\n\n" + external_text
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out}" + (f" and plots in {plots_dir}" if with_plots else ""), file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
