# SPDX-License-Identifier: MIT
# What fuzz/run-ci, fuzz/run-smoke and fuzz/run-long share. Source it, then:
#   fuzz_targets                                 the array of every target name
#   ci_runs TARGET                               prints the fixed number of inputs CI runs for TARGET
#   libfuzzer_options TARGET BUILD_DIR           sets the array fuzz_options (no time or run bound)
#   build_fuzz_targets ROOT BUILD_DIR            configures and builds every target with clang
# -timeout makes one 10 s input a finding (an unbounded loop), -rss_limit_mb one that allocates out of
# proportion; findings land in BUILD_DIR/findings/TARGET/. Code objects are capped at 16 KiB so that
# mutations stay on the structures rather than on bulk bytes.

fuzz_targets=(number_syntax command_line check_plan code_object gzip json tuning_record trace_csv trace_json log_scan team_file lint_suppressions)

# CI runs each target for a fixed number of inputs from a fixed seed (fuzz/run-ci), sized so that
# every target takes well under a minute on CI's two cores under ASan and UBSan. A run bound, unlike a
# time bound, gives the same inputs on a fast and a slow machine.
ci_runs() {
  case $1 in
    number_syntax) echo 2000000 ;;
    command_line) echo 200000 ;;
    check_plan) echo 40000 ;;
    code_object) echo 300000 ;;
    gzip) echo 150000 ;;
    json) echo 300000 ;;
    tuning_record) echo 100000 ;;
    trace_csv) echo 40000 ;;
    trace_json) echo 40000 ;;
    log_scan) echo 30000 ;;
    team_file) echo 60000 ;;
    lint_suppressions) echo 100000 ;;
    *) echo 100000 ;;
  esac
}

libfuzzer_options() {
  local target=$1 build=$2
  local fuzz_dir
  fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  fuzz_options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/findings/$target/")
  if [ -f "$fuzz_dir/dict/$target.dict" ]; then fuzz_options+=(-dict="$fuzz_dir/dict/$target.dict"); fi
  if [ "$target" = code_object ]; then fuzz_options+=(-max_len=16384); fi
}

# The compiler is $WAVEFIT_FUZZ_CXX, else the first of clang++-14, clang++-19, clang++ found.
build_fuzz_targets() {
  local root=$1 build=$2 cxx=${WAVEFIT_FUZZ_CXX:-} c
  if [ -z "$cxx" ]; then
    for c in clang++-14 clang++-19 clang++; do
      if command -v "$c" >/dev/null; then cxx=$c; break; fi
    done
  fi
  [ -n "$cxx" ] || { echo "fuzz: no clang++ found (install clang-14 and libclang-rt-14-dev)" >&2; return 2; }
  cmake -S "$root/fuzz" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWAVEFIT_FUZZ_ENGINE=libfuzzer >/dev/null
  cmake --build "$build" -j "$(nproc)" --target "${fuzz_targets[@]/#/fuzz_}"
}

# fuzz_summary LOG: "N runs, cov: C" from a libFuzzer log.
fuzz_summary() {
  local runs cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1")
  cov=$(grep -o 'cov: [0-9]*' "$1" | tail -n 1)
  echo "${runs} runs, ${cov}"
}
