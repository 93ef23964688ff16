#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Paired enqueue overhead of two builds of wavefit_bench_launch, interleaved round by round so that
# drift of the machine falls on both alike: each round runs A, then B, every launch_enqueue_paired
# benchmark with 10 repetitions. Prints, per benchmark, each round's median overhead over the raw
# launch for A and for B, and leaves the JSON in OUTDIR.
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
python3 - "$outdir" "$rounds" <<'PY'
import json, sys
outdir, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for side in "ab":
    for r in range(1, rounds + 1):
        for b in json.load(open(f"{outdir}/{side}-{r}.json"))["benchmarks"]:
            if b.get("aggregate_name") == "median":
                name = b["name"].replace("launch_enqueue_paired/", "").replace("/real_time_median", "")
                rows.setdefault(name, {"a": [], "b": []})[side].append(b["overhead_pct"])
for name, v in rows.items():
    fmt = lambda xs: " / ".join(f"{x:+.2f}%" for x in xs)
    print(f"{name:34s} A {fmt(v['a'])}   B {fmt(v['b'])}")
PY
