#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The parts of the process's first wavefit launch (bench/first_launch_parts.hip), one process per
# sample: runs BENCH (a wavefit_bench_first) N times and prints each part's median and range in
# microseconds (and the page faults of those that count them), with the sum of wavefit's parts over
# the raw first launch. ORDER (wavefit_first by default, runtime_first or attributes_first) is the
# program's --parts_order.
#   bench/first_launch_parts.sh N BENCH [ORDER]
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: bench/first_launch_parts.sh N BENCH [ORDER]" >&2; exit 2; }
n=$1 bin=$2 order=${3:-wavefit_first}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$n"); do
  "$bin" --parts_order="$order" --benchmark_format=json --benchmark_out="$tmp/$i.json" > /dev/null
done
python3 - "$tmp" <<'PY'
import glob, json, statistics, sys
runs = [json.load(open(p))["benchmarks"][0] for p in sorted(glob.glob(f"{sys.argv[1]}/*.json"))]
parts = ["raw_first", "device_count", "device_limits", "attributes_again", "attribute_slowest", "kernel_resources",
         "wavefit_launch_enqueue", "wavefit_launch", "attributes_direct", "attributes_then_raw", "raw_last",
         "second_launch"]
for part in parts:
    xs = sorted(r[part + "_us"] for r in runs)
    faults = sorted(r[part + "_faults"] for r in runs if part + "_faults" in r)
    tail = f"  faults median {statistics.median(faults):.0f} (max {faults[-1]:.0f})" if faults else ""
    print(f"{part:24s} median {statistics.median(xs):8.1f} us  (min {xs[0]:.1f}, max {xs[-1]:.1f}){tail}")
extra = sorted(r["device_count_us"] + r["device_limits_us"] + r["kernel_resources_us"] + r["wavefit_launch_us"]
               - r["raw_first_us"] for r in runs)
print(f"{'wavefit parts - raw_first':24s} median {statistics.median(extra):8.1f} us  (min {extra[0]:.1f}, max {extra[-1]:.1f})"
      f"  over {len(runs)} processes")
PY
