#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `wavefit audit` on one large generated trace read plain and gzip-compressed, to see what
# decompression costs (docs/audit.md, "Traces are streamed"). Writes a synthetic rocprofv3 CSV of
# SIZE bytes with tests/data/traces/make_big_trace.py into a temporary directory (removed at the end),
# compresses it with `gzip -1`, then runs every input with every given binary RUNS times, interleaved,
# under /usr/bin/time: wall time, CPU time (user + system: what a busy shared machine disturbs
# least) and peak resident memory per run, then the median of each. Nothing is written into the
# repository. Give two binaries (say, before and after a change) to compare them on the same files.
# Usage: bench/audit_gzip.sh [--size BYTES (default 209715200)] [--runs N (default 3)] WAVEFIT_BINARY...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=209715200
runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: bench/audit_gzip.sh [--size BYTES] [--runs N] WAVEFIT_BINARY..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "audit_gzip: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$root/tests/data/traces/make_big_trace.py" "$work/trace.csv" "$size"
gzip -1 -k "$work/trace.csv"
echo "plain: $(stat -c %s "$work/trace.csv") bytes; gzip -1: $(stat -c %s "$work/trace.csv.gz") bytes"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A walls cpus
for ((i = 1; i <= runs; i++)); do
  for binary in "$@"; do
    for input in trace.csv trace.csv.gz; do
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$binary" audit "$work/$input" --preset mi300x --top 3 >/dev/null
      read -r wall user system rss <"$work/time"
      cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
      echo "$binary $input run $i: wall $wall s, cpu $cpu s, peak $rss kB"
      walls[$binary $input]+="$wall "
      cpus[$binary $input]+="$cpu "
    done
  done
done
for binary in "$@"; do
  for input in trace.csv trace.csv.gz; do
    echo "$binary $input: median wall $(printf '%s\n' ${walls[$binary $input]} | median) s," \
         "median cpu $(printf '%s\n' ${cpus[$binary $input]} | median) s over $runs runs"
  done
done
