#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the external suite (wavefit_bench_external) on an NVIDIA GPU and writes under OUT_DIR:
#   external.json   Google Benchmark JSON, every repetition (median_us, spread, grid, block counters)
#   external.log    the console: every check (PASS/FAIL), the tuning phase, the aggregates
#   external.md     the table for bench/RESULTS.md (bench/external_report.py)
#   build.log       only when this script had to build
#
#   bench/run_external.sh BUILD_DIR OUT_DIR [extra flags for wavefit_bench_external]
#
# BUILD_DIR holds a CUDA build (-DWAVEFIT_GPU=CUDA); when bench/wavefit_bench_external is missing the
# script configures and builds it there (Release, sm_90, Google Benchmark from the staged .devdeps
# prefix when there is one). Exit status: the suite's (1 when a check failed or a negative control
# passed), else the report's. About 5 minutes on the H200 plus about 2 to build (bench/README.md).
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: bench/run_external.sh BUILD_DIR OUT_DIR [wavefit_bench_external flags]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2

deps="$root/.devdeps/usr"
for dir in "$deps/lib/x86_64-linux-gnu" /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

bin="$build/bench/wavefit_bench_external"
if [ ! -x "$bin" ]; then
  echo "== building wavefit_bench_external in $build"
  nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  prefix=()
  [ -d "$deps" ] && prefix=(-DCMAKE_PREFIX_PATH="$deps")
  if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWAVEFIT_GPU=CUDA \
           -DCMAKE_CUDA_COMPILER="$nvcc_path" -DCMAKE_CUDA_ARCHITECTURES=90 -DWAVEFIT_TEST_CODE_OBJECTS=OFF \
           -DWAVEFIT_BUILD_TOOLS=OFF "${prefix[@]}" &&
         cmake --build "$build" -j "$(nproc)" --target wavefit_bench_external; } >"$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log"
    echo "run_external.sh: the build failed (full log in $out/build.log)" >&2
    exit 1
  fi
fi

# Five repetitions of every benchmark, interleaved in random order so that a drift of the device
# during the run spreads over all variants instead of favouring the ones measured first.
status=0
timeout 480 "$bin" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_min_time=0.05 --benchmark_display_aggregates_only=true \
  --benchmark_out_format=json --benchmark_out="$out/external.json" "$@" >"$out/external.log" 2>&1 || status=$?
grep -E "FAIL|external suite:|^  FAILED" "$out/external.log" | head -n 40
if [ -s "$out/external.json" ]; then
  python3 "$root/bench/external_report.py" "$out/external.json" --out "$out/external.md" || { [ $status -eq 0 ] && status=1; }
  [ -s "$out/external.md" ] && grep -E "^- (plan|tuned|no benchmark)" "$out/external.md"
fi
[ $status -ne 0 ] && echo "run_external.sh: wavefit_bench_external exited $status (see external.log)" >&2
exit $status
