#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Paired enqueue overhead of two builds of wavefit_bench_launch, interleaved round by round so that
# drift of the machine falls on both alike: each round runs A, then B, every launch_enqueue_paired
# benchmark with 10 repetitions. Prints, per benchmark, each round's median overhead over the raw
# launch for A and for B (bench/paired_report.py, which also keeps the medians in a small file with
# --json), and leaves the JSON in OUTDIR.
#   bench/paired_builds.sh ROUNDS OUTDIR BENCH_A BENCH_B
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: bench/paired_builds.sh ROUNDS OUTDIR BENCH_A BENCH_B" >&2; exit 2; }
rounds=$1 outdir=$2 a=$3 b=$4
mkdir -p "$outdir"
for r in $(seq "$rounds"); do
  for side in a b; do
    bin=$a; [ "$side" = b ] && bin=$b
    "$bin" --benchmark_filter=enqueue_paired --benchmark_repetitions=10 --benchmark_display_aggregates_only=true \
      --benchmark_min_time=0.05 --benchmark_format=json --benchmark_out="$outdir/$side-$r.json" \
      > "$outdir/$side-$r.log" 2>&1 || { tail -5 "$outdir/$side-$r.log" >&2; exit 1; }
  done
done
python3 "$(dirname "$0")/paired_report.py" "$outdir"
