#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The medians of a bench/paired_builds.sh run: per launch_enqueue_paired benchmark, each round's
median overhead over the raw launch for build A and for build B, printed a line each; with --json,
also the small file that bench/results/ keeps (the medians and where they came from, no repetitions).

    bench/paired_report.py OUTDIR [--json FILE] [--note TEXT]

OUTDIR holds a-1.json, b-1.json, a-2.json, ... (Google Benchmark JSON, as paired_builds.sh writes
them). A missing or unreadable file, or one without paired medians, is one line on stderr and exit 1."""

import argparse
import gzip
import json
import os
import re
import sys

PREFIX = "launch_enqueue_paired/"
SUFFIX = "/real_time_median"
RUN_FILE = re.compile(r"^([ab])-([0-9]+)\.json$")


class ReportError(Exception):
    pass


def read_run(path):
    """{benchmark: {overhead_pct, raw_us, wavefit_us}} of the medians in one Google Benchmark JSON file,
    and the file's executable and date."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: cannot read it as JSON ({e.__class__.__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ReportError(f"{path}: no 'benchmarks' list")
    medians = {}
    for b in data["benchmarks"]:
        if not isinstance(b, dict) or b.get("aggregate_name") != "median":
            continue
        name = str(b.get("name", ""))
        if not name.startswith(PREFIX):
            continue
        try:
            row = {key: round(float(b[key]), 4) for key in ("overhead_pct", "raw_us", "wavefit_us")}
        except (KeyError, TypeError, ValueError):
            raise ReportError(f"{path}: {name} lacks overhead_pct, raw_us or wavefit_us") from None
        medians[name[len(PREFIX):].removesuffix(SUFFIX)] = row
    if not medians:
        raise ReportError(f"{path}: no launch_enqueue_paired medians")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    return {"executable": str(context.get("executable", "")), "date": str(context.get("date", ""))}, medians


def read_outdir(outdir):
    """{"a": [(round, context, medians), ...], "b": [...]}, rounds in order."""
    try:
        names = os.listdir(outdir)
    except OSError as e:
        raise ReportError(f"{outdir}: cannot list it ({e.__class__.__name__})") from None
    runs = {"a": [], "b": []}
    for name in names:
        m = RUN_FILE.match(name)
        if m:
            context, medians = read_run(os.path.join(outdir, name))
            runs[m.group(1)].append((int(m.group(2)), context, medians))
    if not runs["a"] or not runs["b"]:
        raise ReportError(f"{outdir}: no a-N.json and b-N.json pair")
    for side in runs.values():
        side.sort(key=lambda run: run[0])
    return runs


def table(runs):
    """One line per benchmark: A's rounds, then B's, as signed percentages."""
    names = []
    for side in "ab":
        for _, _, medians in runs[side]:
            names += [n for n in medians if n not in names]
    lines = []
    for name in names:
        cells = []
        for side in "ab":
            values = [medians[name]["overhead_pct"] for _, _, medians in runs[side] if name in medians]
            cells.append(f"{side.upper()} " + " / ".join(f"{v:+.2f}%" for v in values))
        lines.append(f"{name:34s} " + "   ".join(cells))
    return lines


def summary(runs, note):
    out = {"command": "bench/paired_builds.sh ROUNDS OUTDIR BENCH_A BENCH_B", "runs": {}}
    if note:
        out["note"] = note
    for side in "ab":
        for number, context, medians in runs[side]:
            out["runs"][f"{side}-{number}"] = {"context": context, "median": medians}
    return out


def main(argv):
    parser = argparse.ArgumentParser(description="medians of a bench/paired_builds.sh run")
    parser.add_argument("outdir")
    parser.add_argument("--json", help="write the medians here (.gz: gzip'd)")
    parser.add_argument("--note", default="", help="what was built as A and B, kept in the --json file")
    args = parser.parse_args(argv)
    try:
        runs = read_outdir(args.outdir)
    except ReportError as e:
        print(f"paired_report.py: {e}", file=sys.stderr)
        return 1
    print("\n".join(table(runs)))
    if args.json:
        text = json.dumps(summary(runs, args.note), indent=1) + "\n"
        opener = gzip.open if args.json.endswith(".gz") else open
        with opener(args.json, "wt", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
