#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What one launch costs a translation unit to compile: the compile-cost benchmark.

Builds one TU with one saxpy kernel and one launch three ways, with each GPU compiler found:
  raw        hipLaunchKernelGGL (raw.hip) or <<<>>> (raw.cu): the baseline
  header     wavefit::launch through <wavefit/launch.hpp> (wavefit.hip), header-only (the default)
  separate   the same source with WAVEFIT_SEPARATE_COMPILATION: the library's non-template code is
             compiled once elsewhere (wavefit::compiled; not built or counted here: a program builds
             it once)
hipcc compiles for gfx90a and gfx940, nvcc for sm_90, both at -O2. Each variant is compiled
--repeat times, interleaved (raw, header, separate, raw, ...) so that load on the machine falls on
all three alike. The time is the compile's CPU time (user + system, of the compiler and every process
it runs): it leaves out the time a compile waits for a core while other jobs run (two busy loops on
this 2-core machine took hipcc's raw compile from 2.6 s to 4.1 s of wall time, 3.0 s of CPU time),
though not the slowdown that shared caches cause. Medians of both and the object's size are reported;
a ratio to raw is the median of each round's ratio (the variant over the raw compile of the same
round), which a machine whose speed drifts during the run moves less than a ratio of medians (on a
2-core machine the raw compile read 1.81 s to 2.38 s within one run of five rounds). The bounds hold the CPU-time
ratio.

--check fails (exit 1) when a ratio passes its bound. The targets (issue "pay for what you use"):
  header-only  <= 1.75x the time and <= raw + 192 KB of object
  separate     <= 1.2x the time and <= raw + 32 KB of object
The report says of every ratio whether it meets its target. CI holds each to a regression bound
instead, because a gate must give the same verdict on every run and these ratios move by more than
their distance to the target between machines and runs: hipcc header-only read 1.38x on one 2-core
machine, 1.50-1.74x on another and 1.76x in one CI run, with the same code; the separately compiled
files read 1.00-1.25x (their added time is 0.1-0.5 s, the parse of the launch headers). The bounds
(BOUNDS) sit past that spread and short of the regressions they exist to catch: a launch file that
compiled the launch engine again (separately compiled mode: about +1.2 s, 1.5x or more) or the tuner
again (about +1.5 s). nvcc header-only does not meet the time target on any machine (nvcc compiles the
host side twice, cudafe++ and then g++ at -O2, and the planning and validation of a header-only launch
is host code): it read 2.3x where the raw compile took 1.6 s and 2.98-3.81x where it took 0.8-1.1 s,
the same 2.2-2.8 s added on both (bench/README.md).
A compiler that is missing is skipped and said so; --require hipcc makes its absence a failure.
--check also fails when the header-only object defines the explanation prose (describe, plan_reason,
one_pass_phrase): a launch file leaves it to the registered explainer (runtime/launch_explainer.hpp).

--phases (nvcc only) says where the time goes: nvcc's own timing of each step (`nvcc --time`) for
every variant, and a fourth variant, parse (raw_with_launch_headers.cu: the raw launch with the
header-only launch headers included and unused), whose ratio is what parsing those headers costs
before any of their code is compiled.

Usage: measure.py [--compilers hipcc,nvcc] [--repeat N] [--check] [--json FILE] [--require hipcc] [--phases]
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
INCLUDE = ROOT / "include"

TARGETS = {"header": (1.75, 192 * 1024), "separate": (1.2, 32 * 1024)}
# What CI holds each ratio to: (time ratio, extra object bytes); the module docstring says why.
BOUNDS = {
    "hipcc": {"header": (2.0, 192 * 1024), "separate": (1.4, 32 * 1024)},
    "nvcc": {"header": (4.5, 224 * 1024), "separate": (1.4, 32 * 1024)},
}


# The prose a launch file must not compile; `nm -C --defined-only` lines of the header-only object.
PROSE = re.compile(r"::(describe|plan_reason|one_pass_phrase)\b")


def prose_defined(nm_lines):
    """The explanation functions an object defines, from the lines of `nm -C --defined-only`."""
    found = set()
    for line in nm_lines:
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[1] in "TtWw" and PROSE.search(parts[2]):
            found.add(parts[2])
    return sorted(found)


def object_prose(obj):
    nm = shutil.which("nm")
    if nm is None:
        return None
    done = subprocess.run([nm, "-C", "--defined-only", str(obj)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=False)
    return prose_defined(done.stdout.splitlines()) if done.returncode == 0 else None


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    default = "/usr/local/cuda/bin/nvcc"
    return default if os.access(default, os.X_OK) else None


def commands(compiler, path, workdir, phases=False):
    """The compile command of each variant: {variant: (argv, object path, nvcc --time file or None)}."""
    if compiler == "hipcc":
        base = [path, "-std=c++17", "-O2", "--offload-arch=gfx90a", "--offload-arch=gfx940", "-c"]
        sources = {"raw": HERE / "raw.hip", "header": HERE / "wavefit.hip", "separate": HERE / "wavefit.hip"}
        language = []
    else:
        base = [path, "-std=c++17", "-O2", "-arch=sm_90", "-c"]
        sources = {"raw": HERE / "raw.cu", "header": HERE / "wavefit.hip", "separate": HERE / "wavefit.hip"}
        if phases:
            sources["parse"] = HERE / "raw_with_launch_headers.cu"
        language = ["-x", "cu"]
    out = {}
    for variant, source in sources.items():
        obj = workdir / f"{compiler}-{variant}.o"
        argv = base + [f"-I{INCLUDE}"]
        if variant == "separate":
            argv.append("-DWAVEFIT_SEPARATE_COMPILATION")
        timing = workdir / f"{compiler}-{variant}-phases.csv" if phases else None
        if timing is not None:
            argv += ["--time", str(timing)]
        argv += (language if variant in ("header", "separate") else []) + [str(source), "-o", str(obj)]
        out[variant] = (argv, obj, timing)
    return out


def nvcc_phases(csv_path):
    """{phase: milliseconds} from one compile's `nvcc --time` file (columns: source, phase, inputs,
    output, arch, tool, metric, unit), each phase's rows summed; the file is removed, since nvcc
    appends to it."""
    phases = {}
    if not csv_path.is_file():
        sys.exit(f"measure.py: nvcc wrote no --time file ({csv_path}); this nvcc may not support --time")
    lines = csv_path.read_text().splitlines()[1:]
    csv_path.unlink()
    for line in lines:
        cells = [c.strip() for c in line.split(",")]
        if len(cells) >= 8 and cells[-1] == "ms":
            try:
                phases[cells[1]] = phases.get(cells[1], 0.0) + float(cells[-2])
            except ValueError:
                continue
    return phases


def compile_once(argv):
    """(wall seconds, CPU seconds) of one compile: the CPU time is user + system time of the compiler
    and every process it ran (the children's rusage), which load on a shared machine (other jobs, a
    virtual machine's neighbours) inflates far less than the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"measure.py: compiling failed: {' '.join(argv)}\n{done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def measure(compiler, path, repeat, workdir, phases=False):
    cmds = commands(compiler, path, workdir, phases)
    times = {variant: [] for variant in cmds}
    phase_times = {variant: [] for variant in cmds}
    for _ in range(repeat):
        for variant, (argv, _obj, timing) in cmds.items():
            times[variant].append(compile_once(argv))
            if timing is not None:
                phase_times[variant].append(nvcc_phases(timing))
    result = {"compiler": compiler, "command": {v: " ".join(a) for v, (a, _o, _t) in cmds.items()}, "variants": {}}
    for variant, (_argv, obj, _timing) in cmds.items():
        wall = [w for w, _cpu in times[variant]]
        cpu = [c for _wall, c in times[variant]]
        result["variants"][variant] = {"seconds": statistics.median(cpu), "all_seconds": cpu,
                                       "wall_seconds": statistics.median(wall), "all_wall_seconds": wall,
                                       "object_bytes": obj.stat().st_size}
        if phase_times[variant]:
            names = sorted({name for run in phase_times[variant] for name in run})
            result["variants"][variant]["phase_ms"] = {
                name: statistics.median([run.get(name, 0.0) for run in phase_times[variant]]) for name in names}
    result["variants"]["header"]["prose"] = object_prose(cmds["header"][1])
    raw = result["variants"]["raw"]
    for variant in [v for v in cmds if v != "raw"]:
        v = result["variants"][variant]
        v["time_ratio"] = paired_ratio(v["all_seconds"], raw["all_seconds"])
        v["wall_ratio"] = paired_ratio(v["all_wall_seconds"], raw["all_wall_seconds"])
        v["extra_object_bytes"] = v["object_bytes"] - raw["object_bytes"]
    return result


def paired_ratio(times, raw_times):
    """The median over rounds of a variant's time over the raw compile's time in the same round: a
    machine that speeds up or slows down during the run moves both sides of each ratio alike."""
    return statistics.median([t / r for t, r in zip(times, raw_times) if r > 0])


def report(results):
    print("| compiler | launch | CPU s (median) | x raw (rounds) | wall s (median) | x raw (rounds) | object | + raw |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        for variant, v in r["variants"].items():
            ratio = f"{v['time_ratio']:.2f}" if "time_ratio" in v else "1"
            wall_ratio = f"{v['wall_ratio']:.2f}" if "wall_ratio" in v else "1"
            extra = f"{v['extra_object_bytes'] / 1024:+.0f} KB" if "extra_object_bytes" in v else "-"
            print(f"| {r['compiler']} | {variant} | {v['seconds']:.2f} | {ratio} | {v['wall_seconds']:.2f} | {wall_ratio} | "
                  f"{v['object_bytes'] / 1024:.0f} KB | {extra} |")


def report_phases(results):
    """nvcc's steps, median milliseconds of each variant (--phases)."""
    for r in results:
        variants = [v for v in r["variants"] if "phase_ms" in r["variants"][v]]
        if not variants:
            continue
        names = []
        for v in variants:
            names += [n for n in r["variants"][v]["phase_ms"] if n not in names]
        print(f"\n{r['compiler']} steps, median ms: " + ", ".join(variants))
        print("| step | " + " | ".join(variants) + " |")
        print("|---|" + "---|" * len(variants))
        for name in names + ["total"]:
            cells = []
            for v in variants:
                ms = r["variants"][v]["phase_ms"]
                cells.append(f"{sum(ms.values()) if name == 'total' else ms.get(name, 0.0):.0f}")
            print(f"| {name} | " + " | ".join(cells) + " |")


def check(results):
    failures = []
    for r in results:
        prose = r["variants"]["header"].get("prose")
        if prose is None:
            print(f"NOTE {r['compiler']} header: no nm here, the object's symbols were not checked")
        elif prose:
            failures.append(f"{r['compiler']} header: a launch file compiled the explanation prose: {', '.join(prose)}")
        for variant, target in TARGETS.items():
            v = r["variants"][variant]
            max_ratio, max_extra = BOUNDS.get(r["compiler"], {}).get(variant, target)
            met = v["time_ratio"] <= target[0] and v["extra_object_bytes"] <= target[1]
            print(f"NOTE {r['compiler']} {variant}: {v['time_ratio']:.2f}x, {v['extra_object_bytes'] / 1024:+.0f} KB: "
                  f"the target ({target[0]}x, +{target[1] // 1024} KB) is {'met' if met else 'not met'}; "
                  f"held to {max_ratio}x, +{max_extra // 1024} KB")
            if v["time_ratio"] > max_ratio:
                failures.append(f"{r['compiler']} {variant}: {v['time_ratio']:.2f}x the raw compile's CPU time "
                                f"({v['seconds']:.2f} s vs {r['variants']['raw']['seconds']:.2f} s), bound <= {max_ratio}x")
            if v["extra_object_bytes"] > max_extra:
                failures.append(f"{r['compiler']} {variant}: object {v['extra_object_bytes'] / 1024:+.0f} KB over raw, "
                                f"bound <= +{max_extra // 1024} KB")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compilers", default="hipcc,nvcc")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--json")
    parser.add_argument("--require", default="", help="compilers whose absence is a failure")
    parser.add_argument("--phases", action="store_true", help="nvcc: time each step, and the headers' parse alone")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    found = {"hipcc": shutil.which("hipcc"), "nvcc": find_nvcc()}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for compiler in [c for c in args.compilers.split(",") if c]:
            if compiler not in found:
                parser.error(f"unknown compiler '{compiler}' (hipcc, nvcc)")
            if not found[compiler]:
                if compiler in args.require.split(","):
                    sys.exit(f"measure.py: {compiler} is required and was not found")
                print(f"{compiler}: not found, skipped")
                continue
            results.append(measure(compiler, found[compiler], args.repeat, Path(tmp), args.phases and compiler == "nvcc"))
    report(results)
    report_phases(results)
    if args.json:
        Path(args.json).write_text(json.dumps({"repeat": args.repeat, "results": results}, indent=1) + "\n")
    if args.check:
        failures = check(results)
        for f in failures:
            print(f"FAIL {f}")
        if failures:
            return 1
        print(f"PASS: every ratio within its bound ({len(results)} compiler(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
