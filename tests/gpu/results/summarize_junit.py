#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the Markdown record of one GPU run (tests/gpu/results/*.md) from its JUnit files.

Reads the files Catch2 2.x writes with `-r junit -o FILE` (the suite) and CTest writes with
`--output-junit FILE` (the examples), and prints: the run's facts, pass counts, one row per test
case, what the runtime answered for each raw launch ("runtime verdict | ..." lines), the other
notes the specs printed, and the failure texts. See README.md next to this file.

    summarize_junit.py --commit SHA --device "NVIDIA H200" [--command CMD] [--date DATE] FILE.xml...
"""
import argparse
import datetime
import sys
import xml.etree.ElementTree as ET


def outcome(case):
    """'passed', 'failed' or 'skipped' for one <testcase>, in either dialect."""
    if case.find("failure") is not None or case.find("error") is not None or case.get("status") == "fail":
        return "failed"
    if case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
        return "skipped"
    lines = (case.findtext("system-out") or "").splitlines()
    if any(line.strip().startswith("skipped:") for line in lines):
        return "skipped"
    return "passed"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="JUnit XML files of one run")
    parser.add_argument("--commit", required=True, help="the commit the run built")
    parser.add_argument("--device", required=True, help='the GPU, e.g. "NVIDIA H200"')
    parser.add_argument("--command", action="append", default=[], help="a command the run used (repeatable)")
    parser.add_argument("--date", default=datetime.date.today().isoformat())
    args = parser.parse_args()

    rows, verdicts, notes, failures = [], [], [], []
    for path in args.files:
        for case in ET.parse(path).getroot().iter("testcase"):
            name = case.get("name", "?")
            result = outcome(case)
            rows.append((name, result, case.get("time", "")))
            for line in (case.findtext("system-out") or "").splitlines():
                line = line.strip()
                if line.startswith("runtime verdict |"):
                    verdicts.append(line.split("|", 1)[1].strip())
                elif line:
                    notes.append((name, line))
            if result == "failed":
                texts = [(e.get("message", "") + "\n" + (e.text or "")).strip() for e in case if e.tag in ("failure", "error")]
                failures.append((name, "\n\n".join(texts) or (case.findtext("system-out") or "").strip()))

    counts = {k: sum(1 for r in rows if r[1] == k) for k in ("passed", "failed", "skipped")}
    out = [f"# GPU run {args.date}: {args.device}", "",
           f"- commit: `{args.commit}`",
           f"- test cases: {len(rows)}; passed {counts['passed']}, failed {counts['failed']}, skipped {counts['skipped']}"]
    out += [f"- command: `{c}`" for c in args.command]
    out += ["", "## Test cases", "", "| test case | result | seconds |", "|---|---|---|"]
    out += [f"| {cell(n)} | {r} | {t} |" for n, r, t in rows]
    if verdicts:
        out += ["", "## What the runtime answered", "", "| launch or call | runtime error |", "|---|---|"]
        for v in verdicts:
            what, _, error = v.rpartition("|")
            out.append(f"| {cell(what.strip())} | {cell(error.strip())} |")
    if notes:
        out += ["", "## Notes the specs printed", ""] + [f"- {cell(n)}: {cell(line)}" for n, line in notes]
    if failures:
        out += ["", "## Failures"]
        for name, text in failures:
            out += ["", f"### {name}", "", "```", text, "```"]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
