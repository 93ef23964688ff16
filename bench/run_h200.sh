#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs wavefit's benchmarks on an NVIDIA GPU in one go and writes everything under OUT_DIR:
#   launch.json, zoo.json   Google Benchmark JSON (all repetitions and their aggregates)
#   launch.json.gz, zoo.json.gz  the same with only the aggregates and errors: what bench/results/ keeps
#   launch.log, zoo.log     the console output (aggregates), self-test result, errors
#   build.log               only when this script had to build
#   device.txt              nvidia-smi before and after, the kernels' registers and their loads/stores (SASS)
#   h200_tuning.jsonl       the tuning records the zoo's tuning phase wrote (WAVEFIT_TUNING_FILE)
#   summary.txt             the targets with PASS/FAIL, also printed last
#
#   bench/run_h200.sh BUILD_DIR OUT_DIR [--quick]
#
# BUILD_DIR holds a CUDA build (-DWAVEFIT_GPU=CUDA) with bench/wavefit_bench_launch and
# bench/wavefit_bench_zoo; when they are missing, the script configures and builds them there
# (Release, sm_90, Google Benchmark from the staged .devdeps prefix when there is one).
# --quick: coarse sweep, no variants, one repetition: a smoke test of a minute or so.
# The full run takes about 3 minutes on the H200 (zoo ~2.5, launch ~0.2; see bench/README.md),
# plus about a minute when it builds; each program has a time limit (120 s, 360 s) so that a hang
# still leaves the other's results and the logs within a 10-minute call. Then, on any machine:
#   /usr/bin/python3 bench/make_report.py --zoo OUT_DIR/zoo.json --launch OUT_DIR/launch.json
set -uo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$3" != "--quick" ]; }; then
  echo "usage: bench/run_h200.sh BUILD_DIR OUT_DIR [--quick]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
quick=${3:-}

# Google Benchmark as staged for the GPU machine, and the CUDA runtime, for binaries built elsewhere.
deps="$root/.devdeps/usr"
for dir in "$deps/lib/x86_64-linux-gnu" /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

launch_bin="$build/bench/wavefit_bench_launch"
zoo_bin="$build/bench/wavefit_bench_zoo"
if [ ! -x "$launch_bin" ] || [ ! -x "$zoo_bin" ]; then
  echo "== building the benchmarks in $build"
  nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  prefix=()
  [ -d "$deps" ] && prefix=(-DCMAKE_PREFIX_PATH="$deps")
  if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWAVEFIT_GPU=CUDA \
           -DCMAKE_CUDA_COMPILER="$nvcc_path" -DCMAKE_CUDA_ARCHITECTURES=90 \
           -DWAVEFIT_BUILD_TESTS=OFF -DWAVEFIT_BUILD_TOOLS=OFF "${prefix[@]}" &&
         cmake --build "$build" -j "$(nproc)" --target wavefit_bench_launch wavefit_bench_zoo; } >"$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log"
    echo "run_h200.sh: the build failed (full log in $out/build.log)" >&2
    exit 1
  fi
fi

{
  echo "== nvidia-smi before"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used \
    --format=csv 2>&1
  echo "== registers, shared and local memory per kernel"
  cuobjdump --dump-resource-usage "$zoo_bin" 2>&1 | grep -E "Function|REG" | c++filt
  echo "== loads and stores of the STREAM and reduction kernels (are they 16-byte and issued back to back?)"
  cuobjdump --dump-sass "$zoo_bin" 2>&1 |
    awk '/Function :/ { keep = ($0 ~ /stream_map_kernel|reduce_kernel/); if (keep) print; next }
         keep && /LDG|STG|RED|ATOM|BRA|EXIT/ { print }' | c++filt
} >"$out/device.txt" 2>&1

status=0
if [ "$quick" = "--quick" ]; then
  reps=1
  zoo_flags=(--zoo_sweep=coarse --zoo_variants=off)
else
  reps=5
  zoo_flags=()
fi
common=("--benchmark_repetitions=$reps" --benchmark_display_aggregates_only=true --benchmark_out_format=json)

echo "== launch overhead"
timeout 120 "$launch_bin" "${common[@]}" --benchmark_min_time=0.05 --benchmark_out="$out/launch.json" \
  >"$out/launch.log" 2>&1 || { echo "run_h200.sh: wavefit_bench_launch failed (exit $?), see launch.log" >&2; status=1; }
tail -n 5 "$out/launch.log"

echo "== kernel zoo"
# The tuning phase's records: bench/results/h200_tuning.jsonl is this file from the recorded run, an
# example of the format (never a default for another device).
rm -f "$out/h200_tuning.jsonl"
WAVEFIT_TUNING_FILE="$out/h200_tuning.jsonl" timeout 360 "$zoo_bin" "${common[@]}" --benchmark_min_time=0.01 --benchmark_out="$out/zoo.json" "${zoo_flags[@]}" \
  >"$out/zoo.log" 2>&1 || { echo "run_h200.sh: wavefit_bench_zoo failed (exit $?), see zoo.log" >&2; status=1; }
grep -E "self-test|FAILED|ERROR" "$out/zoo.log" | head -n 20

{
  echo "== nvidia-smi after"
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1
} >>"$out/device.txt" 2>&1

# The small copies bench/results/ keeps (aggregates and errors, gzip): bench/gbench_json.py says what.
for run in launch zoo; do
  [ -s "$out/$run.json" ] && python3 "$root/bench/gbench_json.py" --aggregates "$out/$run.json" "$out/$run.json.gz"
done

report=()
[ -s "$out/launch.json" ] && report+=(--launch "$out/launch.json")
[ -s "$out/zoo.json" ] && report+=(--zoo "$out/zoo.json")
if [ ${#report[@]} -gt 0 ]; then
  python3 "$root/bench/make_report.py" --summary "${report[@]}" >"$out/summary.txt" 2>&1 || status=1
  cat "$out/summary.txt"
fi
exit $status
