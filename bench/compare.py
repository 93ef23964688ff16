#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a Google Benchmark run against a baseline and fails only on a real slowdown.

    compare.py BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise-factor 3] [--metric real_time]
               [--higher-is-better] [--filter REGEX] [--fail-on-missing]

For every benchmark in both files it compares the medians over repetitions. The noise of each side
is one repetition's relative spread (1.4826 x MAD over the repetitions, or stddev / mean when the
file holds only aggregates); a change counts only beyond

    max(threshold, noise_factor * sqrt(noise_baseline^2 + noise_candidate^2)).

A benchmark that ran in the baseline and fails in the candidate (an error such as a launch
failure or wrong results) is a regression too. Prints a table, then one summary line.
Exit status: 0 no regression, 1 a regression, 2 bad input (one line on stderr).
Python 3 standard library only.
"""

import argparse
import math
import re
import sys

from gbench_json import BadInput, load


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other bad input
        print(f"compare.py: {message}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv):
    p = _Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("baseline")
    p.add_argument("candidate")
    p.add_argument("--threshold", type=float, default=0.05,
                   help="smallest relative slowdown that counts (default 0.05)")
    p.add_argument("--noise-factor", type=float, default=3.0,
                   help="how many combined noise deviations a change must exceed (default 3)")
    p.add_argument("--metric", default="real_time",
                   help="real_time (default), cpu_time or a counter name, e.g. bytes_per_second")
    p.add_argument("--higher-is-better", action="store_true",
                   help="larger values are better (implied for metrics ending in _per_second)")
    p.add_argument("--filter", default=None, help="only benchmarks whose name matches this regular expression")
    p.add_argument("--fail-on-missing", action="store_true",
                   help="a benchmark of the baseline that the candidate lacks is a regression")
    args = p.parse_args(argv)
    if args.threshold < 0 or args.noise_factor < 0:
        p.error("--threshold and --noise-factor must not be negative")
    if args.filter is not None:
        try:
            args.filter_re = re.compile(args.filter)
        except re.error as e:
            p.error(f"--filter is not a regular expression: {e}")
    else:
        args.filter_re = None
    return args


class Row:
    def __init__(self, name, verdict, base=None, cand=None, change=None, noise=None, limit=None, note=""):
        self.name = name
        self.verdict = verdict
        self.base = base
        self.cand = cand
        self.change = change
        self.noise = noise
        self.limit = limit
        self.note = note


REGRESSIONS = ("SLOWER", "FAILS", "MISSING")


def compare(base_runs, cand_runs, args):
    higher_better = args.higher_is_better or args.metric.endswith("_per_second")
    rows = []
    names = list(base_runs) + [n for n in cand_runs if n not in base_runs]
    for name in names:
        if args.filter_re is not None and not args.filter_re.search(name):
            continue
        b = base_runs.get(name)
        c = cand_runs.get(name)
        if c is None:
            rows.append(Row(name, "MISSING" if args.fail_on_missing else "missing", note="not in the candidate"))
            continue
        if b is None:
            rows.append(Row(name, "new", cand=c.center(args.metric), note="not in the baseline"))
            continue
        if c.failed and not b.failed:
            rows.append(Row(name, "FAILS", base=b.center(args.metric), note=c.errors[0]))
            continue
        if b.failed:
            rows.append(Row(name, "error" if c.failed else "fixed", cand=c.center(args.metric), note=b.errors[0]))
            continue
        bv = b.center(args.metric)
        cv = c.center(args.metric)
        if bv is None or cv is None or bv == 0 or cv == 0:
            rows.append(Row(name, "no data", base=bv, cand=cv, note=f"no usable {args.metric}"))
            continue
        # Positive change = slower, whichever way the metric points.
        change = bv / cv - 1.0 if higher_better else cv / bv - 1.0
        noise = math.hypot(b.relative_noise(args.metric), c.relative_noise(args.metric))
        limit = max(args.threshold, args.noise_factor * noise)
        if change > limit:
            verdict = "SLOWER"
        elif change < -limit:
            verdict = "faster"
        else:
            verdict = "same"
        rows.append(Row(name, verdict, bv, cv, change, noise, limit, note=configuration_change(b, c)))
    return rows


def configuration_change(base, cand):
    """A tuned (or planned) benchmark may launch another configuration in the candidate run: say so, so
    that a change in time is read with the change of block and grid that caused it."""
    changes = []
    for key in ("block", "grid"):
        bv, cv = base.counter(key), cand.counter(key)
        if bv is not None and cv is not None and bv != cv:
            changes.append(f"{key} {bv:.0f} -> {cv:.0f}")
    return ", ".join(changes)


def fmt_value(v, metric):
    if v is None:
        return "-"
    if metric in ("real_time", "cpu_time"):
        for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
            if abs(v) >= scale or unit == "ns":
                return f"{v / scale:.4g} {unit}"
    return f"{v:.4g}"


def fmt_pct(v):
    return "-" if v is None else f"{v * 100:+.1f}%"


def print_table(rows, metric, out):
    header = ("benchmark", "baseline", "candidate", "change", "noise", "limit", "verdict")
    table = [header]
    for r in rows:
        table.append((r.name, fmt_value(r.base, metric), fmt_value(r.cand, metric), fmt_pct(r.change),
                      "-" if r.noise is None else f"{r.noise * 100:.1f}%",
                      "-" if r.limit is None else f"{r.limit * 100:.1f}%",
                      r.verdict + (f" ({r.note})" if r.note else "")))
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in range(1, len(widths))] + [row[-1]]
        print("  ".join(cells).rstrip(), file=out)


def main(argv=None, out=sys.stdout):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        _, base_runs = load(args.baseline)
        _, cand_runs = load(args.candidate)
    except BadInput as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    common = [n for n in base_runs if n in cand_runs and (args.filter_re is None or args.filter_re.search(n))]
    if not common:
        print("compare.py: the two files have no benchmark in common" +
              (" that matches --filter" if args.filter_re is not None else ""), file=sys.stderr)
        return 2
    if not any(base_runs[n].center(args.metric) is not None for n in common):
        print(f"compare.py: no benchmark reports the metric '{args.metric}'", file=sys.stderr)
        return 2
    rows = compare(base_runs, cand_runs, args)
    print_table(rows, args.metric, out)
    counts = {}
    for r in rows:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    regressions = sum(counts.get(v, 0) for v in REGRESSIONS)
    summary = ", ".join(f"{counts[v]} {v.lower()}" for v in sorted(counts))
    print(f"{len(rows)} benchmarks: {summary}; "
          f"{'REGRESSION' if regressions else 'no regression'} "
          f"(threshold {args.threshold * 100:.1f}%, noise factor {args.noise_factor:g})", file=out)
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
