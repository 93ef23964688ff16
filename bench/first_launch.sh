#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The process's first wavefit launch against a raw first launch, over many processes: each run of
# launch_first/wavefit_process/cold measures one first launch per process, so one run is one sample.
#   bench/first_launch.sh N BENCH [BENCH_B]
# N processes per binary (interleaved when two are given, so drift falls on both alike); BENCH is a
# wavefit_bench_launch (build/h200/bench/wavefit_bench_launch). Prints, per binary, the median and the
# samples of the extra latency (launch to synchronized) and the extra enqueue time over the raw launch.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/first_launch.sh N BENCH [BENCH_B]" >&2; exit 2; }
n=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$n"); do
  b=0
  for bin in "$@"; do
    "$bin" --benchmark_filter='launch_first/wavefit_process' --benchmark_format=json \
      --benchmark_out="$tmp/$b.$i.json" > /dev/null
    b=$((b + 1))
  done
done
python3 - "$tmp" "$@" <<'PY'
import glob, json, statistics, sys
tmp, bins = sys.argv[1], sys.argv[2:]
for b, name in enumerate(bins):
    latency, enqueue = [], []
    for path in glob.glob(f"{tmp}/{b}.*.json"):
        run = [x for x in json.load(open(path))["benchmarks"] if x["name"].startswith("launch_first/wavefit_process")][0]
        latency.append(run["latency_us"] - run["raw_latency_us"])
        enqueue.append(run["enqueue_us"] - run["raw_enqueue_us"])
    samples = " ".join(f"{x:.1f}" for x in sorted(latency))
    print(f"{name}: extra latency median {statistics.median(latency):.1f} us (samples {samples}), "
          f"extra enqueue median {statistics.median(enqueue):.1f} us")
PY
