# SPDX-License-Identifier: MIT
# The libFuzzer options of one target, shared by fuzz/run-smoke and fuzz/run-long so that the smoke
# runs and the long runs of docs/robustness.md fuzz the same way. Source it, then:
#   libfuzzer_options TARGET SECONDS BUILD_DIR   sets the array fuzz_options
# -timeout makes one 10 s input a finding (an unbounded loop), -rss_limit_mb one that allocates out of
# proportion; findings land in BUILD_DIR/findings/TARGET/. Code objects are capped at 16 KiB so that
# mutations stay on the structures rather than on bulk bytes.
libfuzzer_options() {
  local target=$1 seconds=$2 build=$3
  local fuzz_dir
  fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  fuzz_options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                -artifact_prefix="$build/findings/$target/")
  if [ -f "$fuzz_dir/dict/$target.dict" ]; then fuzz_options+=(-dict="$fuzz_dir/dict/$target.dict"); fi
  if [ "$target" = code_object ]; then fuzz_options+=(-max_len=16384); fi
}
