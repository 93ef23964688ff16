#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions and L1 misses per launch of each form on the fake HIP runtime, counted by cachegrind
# (valgrind) as the difference between 1,000 and 11,000 launches, so the program's start-up cancels.
#   bench/launch_model/count.sh BUILD_DIR [evict]
#   bench/launch_model/count.sh BUILD_DIR first
# BUILD_DIR: a CPU build (scripts/test's build/main) with wavefit_launch_model built. `first` counts
# instead the process's first launch (callgrind, the model's first_launch() alone): its instructions,
# the dynamic linker's share of them (symbols resolved on their first call) and those symbols.
set -euo pipefail
bin="$1/tests/wavefit_launch_model"
[ -x "$bin" ] || bin=$(find "$1" -name wavefit_launch_model -type f -perm -u+x | head -n 1)
[ -n "$bin" ] || { echo "count.sh: no wavefit_launch_model under $1" >&2; exit 2; }
mode=${2:-warm}
if [ "$mode" = first ]; then
  out=$(mktemp); trap 'rm -f "$out" "$out".bindings.*' EXIT
  valgrind --tool=callgrind --collect-atstart=no "--toggle-collect=first_launch()" --callgrind-out-file="$out" \
    "$bin" first >/dev/null 2>&1
  total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}' || true)
  linker=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
    awk '/_dl_runtime_resolve/ && !seen {gsub(",", "", $1); print $1; seen = 1}' || true)
  echo "first launch: ${total:-?} instructions, ${linker:-0} of them resolving symbols"
  # The symbols bound after the model's clock started (the first launch, then its report), in a run
  # without valgrind.
  LD_DEBUG=bindings LD_DEBUG_OUTPUT="$out.bindings" "$bin" first >/dev/null 2>&1
  cat "$out".bindings.* | awk -F"symbol " '/binding file/ {print $2}' |
    awk '/steady_clock/ {on = 1; next} on {printf "%s ", $1} END {print ""}'
  exit 0
fi
totals() {  # instructions, L1i misses, L1d read misses and L1d write misses of one run
  valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=49152,12,64 --LL=2097152,16,64 \
    --cachegrind-out-file=/dev/null "$bin" "$1" "$2" "$mode" 2>&1 | tr -d ',()' |
    awk '/ I +refs:/ {ir=$NF} /I1 +misses:/ {i1=$NF} /D1 +misses:/ {d1r=$(NF-4); d1w=$(NF-1)} END {print ir, i1, d1r, d1w}'
}
# raw: the runtime call alone (the fake's), so that a form's figures less raw's are what wavefit adds.
# With evict, the L1d read misses are the lines a launch finds gone after a driver-like call: what
# launches of many kernels in turn pay (the evicting loop's own 16,384 lines are in every row).
echo "form instructions L1i-misses L1d-read-misses L1d-write-misses (per launch, $mode)"
for form in raw explicit elements per_block; do
  read -r ir1 i11 r1 w1 < <(totals "$form" 1000)
  read -r ir2 i12 r2 w2 < <(totals "$form" 11000)
  echo "$form $(( (ir2 - ir1) / 10000 )) $(( (i12 - i11) / 10000 )) $(( (r2 - r1) / 10000 )) $(( (w2 - w1) / 10000 ))"
done
