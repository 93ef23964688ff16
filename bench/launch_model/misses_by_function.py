#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where one launch of a form misses the L1 caches, by function: cachegrind runs the launch model
(count.sh's program) with 1,000 and 2,000 launches, each after the evicting stand-in for a driver
call, and the difference over 1,000 is what one launch misses, function by function.

Usage: misses_by_function.py BUILD_DIR FORM [LAUNCHES]
  BUILD_DIR  a CPU build with wavefit_launch_model (scripts/test's build/main)
  FORM       raw, explicit, elements or per_block
Prints the functions with at least half a miss per launch: L1i misses (lines of code) and L1d read
misses (lines of data), the evicting loop itself left out.
"""

import collections
import subprocess
import sys
import tempfile
from pathlib import Path

CACHES = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=2097152,16,64"]  # as count.sh
FORMS = ("raw", "explicit", "elements", "per_block")


def per_function(out_file):
    """{function: (I1mr, D1mr)} summed over a cachegrind output file."""
    totals = collections.defaultdict(lambda: [0, 0])
    function = None
    i1mr = d1mr = None
    for line in Path(out_file).read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
            i1mr, d1mr = events.index("I1mr"), events.index("D1mr")
        elif line.startswith("fn="):
            function = line[3:].strip()
        elif line[:1].isdigit() and function is not None and i1mr is not None:
            values = line.split()[1:]
            if len(values) > i1mr:
                totals[function][0] += int(values[i1mr])
            if len(values) > d1mr:
                totals[function][1] += int(values[d1mr])
    return totals


def run(binary, form, launches, scratch):
    out = Path(scratch) / f"cachegrind.{launches}.out"
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", *CACHES, f"--cachegrind-out-file={out}",
                    str(binary), form, str(launches), "evict"], check=True, capture_output=True)
    return per_function(out)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    build, form = Path(argv[1]), argv[2]
    if form not in FORMS:
        print(f"misses_by_function.py: unknown form '{form}' ({', '.join(FORMS)})", file=sys.stderr)
        return 2
    launches = int(argv[3]) if len(argv) > 3 and argv[3].isdigit() and int(argv[3]) > 0 else None
    if len(argv) > 3 and launches is None:
        print(f"misses_by_function.py: LAUNCHES must be a positive whole number, not '{argv[3]}'", file=sys.stderr)
        return 2
    launches = launches or 1000
    binary = next((p for p in build.rglob("wavefit_launch_model") if p.is_file()), None)
    if binary is None:
        print(f"misses_by_function.py: no wavefit_launch_model under {build}", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as scratch:
            few = run(binary, form, launches, scratch)
            many = run(binary, form, 2 * launches, scratch)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"misses_by_function.py: cachegrind did not run the model: {e}", file=sys.stderr)
        return 1
    rows = []
    for function, (i1, d1) in many.items():
        before = few.get(function, (0, 0))
        code, data = (i1 - before[0]) / launches, (d1 - before[1]) / launches
        if (code >= 0.5 or data >= 0.5) and "evict_" not in function:
            rows.append((code + data, code, data, function))
    print(f"per launch of {form}, after eviction: L1i misses, L1d read misses, function")
    for _, code, data, function in sorted(rows, reverse=True):
        print(f"{code:6.1f} {data:6.1f}  {function[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
