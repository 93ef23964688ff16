#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The external suite's table for bench/RESULTS.md, from the JSON of one wavefit_bench_external run.

    python3 bench/external_report.py external.json [--out FILE]

For each kernel and size: the original launch's median time, and each port's speed against it
(original time / port time: above 1 the port is faster than the project's own launch); the run's
own noise for that kernel; then the geometric means and the issue's targets (plan >= 0.97 on every
kernel and >= 1.00 on average; tuned >= 1.00 within the noise on every kernel and >= 1.03 on
average). Times are the benchmarks' `median_us` counters (the median launch of a repetition), taken
as the median over repetitions. The noise of a kernel is the larger of the original's relative
spread over repetitions and |1 - original / original_repeat| (the same launch measured twice in the
same run); a plan or tuned port that launches the original's own grid and block is such a repeat too,
so its difference from the original counts as noise. A port slower than the original by more than that
noise is marked "slower".

Python 3 standard library only. Exit 0 with the report on stdout (or in --out); 2 on bad input, with
one line on stderr.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gbench_json  # noqa: E402

PORTS = ("plan", "tuned", "gs_plan", "gs_tuned")
PLAN_FLOOR = 0.97
PLAN_MEAN = 1.00
TUNED_MEAN = 1.03


class Row:
    """One kernel at one size: the original's time and each port's speed."""

    def __init__(self, kernel, size):
        self.kernel = kernel  # "<project>_<kernel>"
        self.size = size
        self.original_us = None
        self.speed = {}  # port -> original time / port time
        self.noise = 0.0
        self.errors = []  # "variant: message"
        self.config = {}  # variant -> "grid x block y"


def parse_name(name):
    """("<project>_<kernel>", variant, size) of `ext/<project>_<kernel>/<variant>/<size>`, else None."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != "ext" or not all(parts[1:]):
        return None
    return parts[1], parts[2], parts[3]


def launch_time(bench):
    """The median launch time in microseconds: the `median_us` counter, else the benchmark's time."""
    t = bench.counter("median_us")
    if t is not None and t > 0:
        return t
    center = bench.center("real_time")
    return center * 1e6 if center else None


def repetition_noise(bench):
    vals = [v for v in bench.values("median_us") if v > 0]
    if len(vals) >= 2:
        return bench.relative_noise("median_us")
    return bench.relative_noise("real_time")


def config_text(bench):
    grid, block = bench.counter("grid"), bench.counter("block")
    if grid is None or block is None:
        return ""
    return f"{int(grid)} x {int(block)}"


# The ports that launch the project's own kernel (the gs_ ports launch a grid-stride rewrite of it).
SAME_KERNEL_PORTS = ("plan", "tuned")


def build_rows(runs, timer_tick_us=0.0):
    groups = {}
    for name, bench in runs.items():
        parsed = parse_name(name)
        if parsed is None:
            continue
        kernel, variant, size = parsed
        groups.setdefault((kernel, size), {})[variant] = bench
    rows = []
    for (kernel, size), variants in groups.items():
        row = Row(kernel, size)
        for variant, bench in variants.items():
            for message in dict.fromkeys(bench.errors):  # once each, not once per repetition
                row.errors.append(f"{variant}: {message}")
            if not bench.failed:
                row.config[variant] = config_text(bench)
        original = variants.get("original")
        if original is not None and not original.failed:
            row.original_us = launch_time(original)
            noise = repetition_noise(original)
            repeat = variants.get("original_repeat")
            if repeat is not None and not repeat.failed:
                t = launch_time(repeat)
                if t and row.original_us:
                    noise = max(noise, abs(1.0 - row.original_us / t), repetition_noise(repeat))
            # Medians of event times move in whole ticks of the event timer: one tick is noise too.
            if timer_tick_us > 0 and row.original_us:
                noise = max(noise, timer_tick_us / row.original_us)
            row.noise = noise
        for port, bench in variants.items():
            if port in ("original", "original_repeat") or bench.failed or not row.original_us:
                continue
            t = launch_time(bench)
            if t:
                row.speed[port] = row.original_us / t
        # The original kernel launched through wavefit with the original's grid and block (the gs_ ports
        # run another kernel) is the same launch measured again: how far apart the two read is noise.
        original_config = row.config.get("original")
        for port in SAME_KERNEL_PORTS:
            if original_config and row.config.get(port) == original_config and port in row.speed:
                row.noise = max(row.noise, abs(1.0 - row.speed[port]))
        rows.append(row)
    rows.sort(key=lambda r: (r.kernel, r.size))
    return rows


def geometric_mean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def code(text):
    return f"`{text}`" if text else ""


def fmt(v, digits=3):
    return "–" if v is None else f"{v:.{digits}f}"


def speed_cell(row, port):
    s = row.speed.get(port)
    if s is None:
        return "–"
    mark = " (slower)" if s < 1.0 - row.noise else ""
    return f"{s:.3f}{mark}"


def targets(rows):
    """Lines saying whether each of the issue's targets holds on this run."""
    lines = []
    plan = [(r, r.speed["plan"]) for r in rows if "plan" in r.speed]
    tuned = [(r, r.speed["tuned"]) for r in rows if "tuned" in r.speed]
    if plan:
        worst = min(plan, key=lambda p: p[1])
        low = [f"{r.kernel} {r.size} ({s:.3f})" for r, s in plan if s < PLAN_FLOOR]
        lines.append(f"- plan >= {PLAN_FLOOR:.2f} x the original on every kernel: {'PASS' if not low else 'FAIL'} "
                     f"(lowest {worst[1]:.3f}, {worst[0].kernel} {worst[0].size}"
                     + (f"; below: {', '.join(low)}" if low else "") + ")")
        g = geometric_mean([s for _, s in plan])
        lines.append(f"- plan geometric mean >= {PLAN_MEAN:.2f}: {'PASS' if g >= PLAN_MEAN else 'FAIL'} ({g:.3f})")
    if tuned:
        slower = [f"{r.kernel} {r.size} ({s:.3f}, noise {r.noise:.3f})" for r, s in tuned if s < 1.0 - r.noise]
        lines.append(f"- tuned >= 1.00 x the original within the noise on every kernel: {'PASS' if not slower else 'FAIL'}"
                     + (f" (slower: {', '.join(slower)})" if slower else ""))
        g = geometric_mean([s for _, s in tuned])
        lines.append(f"- tuned geometric mean >= {TUNED_MEAN:.2f}: {'PASS' if g >= TUNED_MEAN else 'FAIL'} ({g:.3f})")
    failed = sum(len({e.split(":", 1)[0] for e in r.errors}) for r in rows)
    lines.append(f"- no benchmark failed (wrong results or a launch error): {'PASS' if not failed else 'FAIL'}"
                 + (f" ({failed} failed)" if failed else ""))
    return lines


def context_value(context, prefix, kernel, *rest):
    return context.get(prefix + kernel + "".join("/" + r for r in rest), "")


def timer_tick(context):
    """The event timer's tick in microseconds, as the suite measured it (0 when it did not say)."""
    try:
        tick = float(context.get("ext_timer_tick_us", "0"))
    except ValueError:
        raise gbench_json.BadInput("ext_timer_tick_us in the context is not a number") from None
    return tick if math.isfinite(tick) and tick > 0 else 0.0


def report(context, runs):
    rows = build_rows(runs, timer_tick(context))
    if not rows:
        raise gbench_json.BadInput("no ext/<project>_<kernel>/<variant>/<size> benchmarks in the file")
    out = ["## External kernels (wavefit_bench_external)", ""]
    device = context.get("device_name", "unknown device")
    out.append(f"Device: {device}; {context.get('gpu_runtime', '')} runtime {context.get('runtime_version', '?')}, "
               f"wavefit {context.get('wavefit_version', '?')}. Command: `{context.get('command_line', '?')}`.")
    checks = context.get("ext_checks_before_timing")
    if checks:
        out.append(f"Checks before timing (reference, reproducibility, negative controls, plan, tuning, use): {checks}.")
    out += ["",
            "Speed = the original launch's median time / the port's (above 1: faster than the project's own "
            "launch). `noise` is the run's own: the larger of the original's spread over repetitions and "
            "|1 - original / original_repeat| and one tick of the event timer (" + fmt(timer_tick(context)) +
            " µs, measured by the suite) over the original's time, and |1 - speed| of a plan or tuned port that "
            "launches the original's own grid and block (the same launch again). \"(slower)\" marks a port slower "
            "than the original beyond it.",
            "",
            "| kernel | size | original µs | plan | tuned | gs_plan | gs_tuned | noise | original grid x block | tuned grid x block |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r.kernel} | {r.size} | {fmt(r.original_us, 1)} | " +
                   " | ".join(speed_cell(r, p) for p in PORTS) +
                   f" | {fmt(r.noise)} | {r.config.get('original', '–') or '–'} | {r.config.get('tuned', '–') or '–'} |")
    means = [geometric_mean([r.speed.get(p) for r in rows]) for p in PORTS]
    out.append("| **geometric mean** | | | " + " | ".join(f"**{fmt(m)}**" for m in means) + " | | | |")
    best = geometric_mean([max(r.speed.get("tuned", 0), r.speed.get("gs_tuned", 0)) or None for r in rows])
    out += ["", f"Best of tuned and gs_tuned per kernel, geometric mean: {fmt(best)}.", "", "Targets:", ""]
    out += targets(rows)
    extra = [(r, p) for r in rows for p in sorted(r.speed) if p not in PORTS]
    if extra:
        out += ["", "Other ports (`plan_free`, `tuned_free`: the block left to wavefit where the kernel's bits follow "
                "the block, checked against the original kernel launched with the same block):", "",
                "| kernel | size | port | speed | grid x block | contract |", "|---|---|---|---|---|---|"]
        for r, p in extra:
            contract = code(context_value(context, "ext_contract:", r.kernel, p, r.size)) or "–"
            out.append(f"| {r.kernel} | {r.size} | {p} | {speed_cell(r, p)} | {r.config.get(p) or '–'} | {contract} |")
    failed = [(r, e) for r in rows for e in r.errors]
    if failed:
        out += ["", "Failed benchmarks:", ""]
        out += [f"- {r.kernel} {r.size} {e}" for r, e in failed]
    sources = sorted({(r.kernel, r.size) for r in rows})
    out += ["", "| kernel | size | original (source) | shape | original config | natural port | grid-stride port |",
            "|---|---|---|---|---|---|---|"]
    for kernel, size in sources:
        cells = [context_value(context, "ext_source:", kernel, size), context_value(context, "ext_shape:", kernel, size),
                 context_value(context, "ext_original:", kernel, size)]
        cells += [code(context_value(context, "ext_contract:", kernel, port, size)) for port in ("plan", "gs_plan")]
        out.append(f"| {kernel} | {size} | " + " | ".join(c or "–" for c in cells) + " |")
    return "\n".join(out) + "\n"


def main(argv=None, out=sys.stdout):
    parser = argparse.ArgumentParser(description="The external suite's table from wavefit_bench_external's JSON.")
    parser.add_argument("run", help="Google Benchmark JSON (.json or .json.gz) of wavefit_bench_external")
    parser.add_argument("--out", help="write the report here instead of stdout")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        context, runs = gbench_json.load(args.run)
        text = report(context, runs)
    except gbench_json.BadInput as e:
        print(f"external_report.py: {e}", file=sys.stderr)
        return 2
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print(f"external_report.py: cannot write {args.out}: {e.strerror}", file=sys.stderr)
            return 2
    else:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
