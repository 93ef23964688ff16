# SPDX-License-Identifier: MIT
"""Reading Google Benchmark JSON output (1.7.x), shared by compare.py and make_report.py.

Python 3 standard library only. A run's benchmarks are grouped by their base name: the name the
benchmark was registered with, without the segments Google Benchmark appends (`/manual_time`,
`/real_time`, `/iterations:1`, `/repeats:1`, ...). Each group holds the per-repetition entries and the
aggregates (mean, median, stddev, cv) that the run reported.
"""

import gzip
import json
import math
import re
import sys

# Segments Google Benchmark appends to a registered name.
_APPENDED = re.compile(
    r"^(manual_time|real_time|process_time|iterations:\d+|repeats:\d+|threads:\d+|"
    r"min_time:[0-9.e+-]+s?|min_warmup_time:[0-9.e+-]+s?)$"
)

_TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


class BadInput(Exception):
    """The file is not a Google Benchmark JSON result; the message is one line."""


def base_name(name):
    parts = name.split("/")
    while len(parts) > 1 and _APPENDED.match(parts[-1]):
        parts.pop()
    return "/".join(parts)


class Benchmark:
    """One registered benchmark of one run: its repetitions and aggregates."""

    def __init__(self, name):
        self.name = name
        self.repetitions = []  # entries with run_type "iteration"
        self.aggregates = {}  # aggregate_name -> entry
        self.errors = []  # error messages

    @property
    def failed(self):
        return bool(self.errors) and not self.repetitions

    @property
    def launches(self):
        """Launches per iteration: wavefit's benchmarks record it (`launches_per_iteration`) when an
        iteration launches more than once; times are per launch, so they stay comparable when it changes."""
        for entry in self.repetitions + [self.aggregates.get("median"), self.aggregates.get("mean")]:
            v = entry.get("launches_per_iteration") if entry else None
            if isinstance(v, (int, float)) and v > 0:
                return float(v)
        return 1.0

    def values(self, metric):
        """The metric of each repetition (times in seconds per launch)."""
        return [v for v in (metric_value(e, metric, self.launches) for e in self.repetitions) if v is not None]

    def aggregate(self, which, metric):
        entry = self.aggregates.get(which)
        return None if entry is None else metric_value(entry, metric, self.launches)

    def center(self, metric):
        """The median over repetitions, else the reported median, else the mean."""
        vals = self.values(metric)
        if vals:
            return median(vals)
        for which in ("median", "mean"):
            v = self.aggregate(which, metric)
            if v is not None:
                return v
        return None

    def relative_noise(self, metric):
        """A robust estimate of one repetition's relative spread (a standard deviation over the center).

        From the repetitions: 1.4826 * MAD (the standard deviation of a normal sample), or for two
        repetitions half their difference; from the aggregates: stddev / mean. 0 when unknown.
        """
        vals = self.values(metric)
        center = self.center(metric)
        if not center:
            return 0.0
        if len(vals) >= 3:
            return 1.4826 * median([abs(v - center) for v in vals]) / abs(center)
        if len(vals) == 2:
            return abs(vals[0] - vals[1]) / math.sqrt(2.0) / abs(center)
        stddev = self.aggregate("stddev", metric)
        mean = self.aggregate("mean", metric)
        if stddev is not None and mean:
            return abs(stddev / mean)
        return 0.0

    def counter(self, key):
        """A counter's median over repetitions (or its reported median)."""
        vals = [e[key] for e in self.repetitions if isinstance(e.get(key), (int, float))]
        if vals:
            return median(vals)
        entry = self.aggregates.get("median") or self.aggregates.get("mean")
        if entry is not None and isinstance(entry.get(key), (int, float)):
            return entry[key]
        return None


def median(values):
    s = sorted(values)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def metric_value(entry, metric, launches=1.0):
    """real_time / cpu_time in seconds per launch (the iteration's time over `launches`), or a
    counter's value; None when the entry lacks it."""
    if metric in ("real_time", "cpu_time"):
        v = entry.get(metric)
        unit = entry.get("time_unit", "ns")
        if not isinstance(v, (int, float)) or unit not in _TO_NS:
            return None
        return v * _TO_NS[unit] * 1e-9 / launches
    v = entry.get(metric)
    return v if isinstance(v, (int, float)) else None


def load(path):
    """(context dict, {base name: Benchmark}) in the order of the file. Raises BadInput."""
    try:
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except (OSError, EOFError, UnicodeDecodeError) as e:  # gzip.BadGzipFile is an OSError
        raise BadInput(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise BadInput(f"{path}: not a Google Benchmark result (no \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    runs = {}
    for i, entry in enumerate(data["benchmarks"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise BadInput(f"{path}: benchmark entry {i} has no name")
        name = base_name(entry.get("run_name") or entry["name"])
        bench = runs.setdefault(name, Benchmark(name))
        if entry.get("error_occurred"):
            bench.errors.append(str(entry.get("error_message", "error")))
        elif entry.get("run_type") == "aggregate":
            bench.aggregates[str(entry.get("aggregate_name", ""))] = entry
        else:
            bench.repetitions.append(entry)
    return context, runs


def write_aggregates(source, target):
    """Writes `source` (a Google Benchmark JSON file) to `target` (gzip-compressed when it ends in
    .gz) with only what the report and the regression checker need of a run kept for the record: the
    context, every benchmark's mean, median and stddev, every error, and the one entry of a benchmark
    run only once. The repetitions are dropped: compare.py then takes each benchmark's noise from
    stddev / mean."""
    opener = gzip.open if str(source).endswith(".gz") else open
    with opener(source, "rt", encoding="utf-8") as f:
        data = json.load(f)
    entries = [e for e in data.get("benchmarks", []) if isinstance(e, dict)]
    # A benchmark run once (one repetition) has no aggregates: its one entry is kept as it is.
    aggregated = {e.get("run_name") for e in entries if e.get("run_type") == "aggregate"}
    kept = [e for e in entries if e.get("error_occurred") or e.get("run_name") not in aggregated or
            (e.get("run_type") == "aggregate" and e.get("aggregate_name") in ("mean", "median", "stddev"))]
    out = {"context": data.get("context", {}), "benchmarks": kept}
    text = json.dumps(out, separators=(",", ":"))
    if str(target).endswith(".gz"):
        # No name and mtime 0 in the header: the same results give the same bytes.
        with open(target, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
            f.write(text.encode("utf-8"))
    else:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    # gbench_json.py --aggregates IN OUT: the small copy of a run that bench/results/ keeps.
    if len(sys.argv) != 4 or sys.argv[1] != "--aggregates":
        print("usage: gbench_json.py --aggregates IN.json OUT.json[.gz]", file=sys.stderr)
        sys.exit(2)
    try:
        write_aggregates(sys.argv[2], sys.argv[3])
    except (OSError, ValueError) as e:
        print(f"gbench_json.py: {e}", file=sys.stderr)
        sys.exit(2)
