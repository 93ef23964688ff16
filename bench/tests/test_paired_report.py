# SPDX-License-Identifier: MIT
"""Specifications of bench/paired_report.py: the medians of a paired_builds.sh run, a line per
benchmark with each round of build A then build B, the small file bench/results/ keeps, and a clear
line for a run directory it cannot read."""

import contextlib
import gzip
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import paired_report  # noqa: E402
from scratch_dir import ScratchDirCase  # noqa: E402


def run_json(executable, overheads):
    """A Google Benchmark file as wavefit_bench_launch writes it: per benchmark a mean and a median."""
    benchmarks = []
    for name, pct in overheads.items():
        for aggregate, value in (("mean", pct + 5.0), ("median", pct)):
            benchmarks.append({
                "name": f"launch_enqueue_paired/{name}/real_time_{aggregate}",
                "aggregate_name": aggregate,
                "overhead_pct": value,
                "raw_us": 4.0,
                "wavefit_us": 4.0 * (1 + value / 100),
            })
    benchmarks.append({"name": "launch_first/raw/cold", "real_time": 12.0})
    return {"context": {"executable": executable, "date": "2026-12-05T03:51:37+00:00"}, "benchmarks": benchmarks}


class PairedReport(ScratchDirCase):
    def report(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = paired_report.main([self.dir.name, *args])
        return code, out.getvalue(), err.getvalue()

    def write_rounds(self):
        self.write("a-1.json", run_json("new/bench", {"wavefit_per_block/empty": 0.77, "wavefit_config/empty": -0.08}))
        self.write("b-1.json", run_json("old/bench", {"wavefit_per_block/empty": 1.10, "wavefit_config/empty": 0.06}))
        self.write("a-2.json", run_json("new/bench", {"wavefit_per_block/empty": 1.11, "wavefit_config/empty": 0.32}))
        self.write("b-2.json", run_json("old/bench", {"wavefit_per_block/empty": 1.18, "wavefit_config/empty": -0.45}))

    def test_a_line_per_benchmark_with_the_rounds_of_a_then_of_b(self):
        self.write_rounds()
        code, out, err = self.report()
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertEqual(len(lines), 2, out)
        per_block = [line for line in lines if line.startswith("wavefit_per_block/empty")]
        self.assertEqual(len(per_block), 1, out)
        self.assertTrue(per_block[0].endswith("A +0.77% / +1.11%   B +1.10% / +1.18%"), per_block[0])

    def test_the_kept_file_holds_the_medians_and_their_builds_only(self):
        self.write_rounds()
        kept = os.path.join(self.dir.name, "kept.json.gz")
        code, _, err = self.report("--json", kept, "--note", "A: new, B: old")
        self.assertEqual(code, 0, err)
        with gzip.open(kept, "rt", encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(data["note"], "A: new, B: old")
        self.assertEqual(sorted(data["runs"]), ["a-1", "a-2", "b-1", "b-2"])
        self.assertEqual(data["runs"]["b-2"]["context"]["executable"], "old/bench")
        self.assertEqual(data["runs"]["a-2"]["median"]["wavefit_config/empty"]["overhead_pct"], 0.32)
        self.assertNotIn("launch_first/raw/cold", json.dumps(data))

    def test_rounds_are_ordered_by_number_not_by_name(self):
        for number, pct in ((10, 3.0), (2, 2.0), (1, 1.0)):
            self.write(f"a-{number}.json", run_json("a", {"wavefit_tuned/small": pct}))
            self.write(f"b-{number}.json", run_json("b", {"wavefit_tuned/small": -pct}))
        code, out, err = self.report()
        self.assertEqual(code, 0, err)
        self.assertIn("A +1.00% / +2.00% / +3.00%   B -1.00% / -2.00% / -3.00%", out)

    def test_bad_run_directories_are_one_line_each(self):
        cases = {
            "no pair": {"a-1.json": run_json("a", {"wavefit_tuned/small": 1.0})},
            "not JSON": {"a-1.json": "{", "b-1.json": run_json("b", {"x/y": 1.0})},
            "no medians": {"a-1.json": {"benchmarks": []}, "b-1.json": run_json("b", {"x/y": 1.0})},
            "a median without its counters": {
                "a-1.json": {"benchmarks": [{"name": "launch_enqueue_paired/x/y/real_time_median",
                                             "aggregate_name": "median", "overhead_pct": "fast"}]},
                "b-1.json": run_json("b", {"x/y": 1.0})},
            "not an object": {"a-1.json": [1, 2], "b-1.json": run_json("b", {"x/y": 1.0})},
        }
        for what, files in cases.items():
            with self.subTest(what):
                for name in os.listdir(self.dir.name):
                    os.remove(os.path.join(self.dir.name, name))
                for name, data in files.items():
                    self.write(name, data)
                code, out, err = self.report()
                self.assertEqual(code, 1, f"{what}: {out}")
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertTrue(err.startswith("paired_report.py: "), err)

    def test_a_missing_directory_is_one_line(self):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = paired_report.main([os.path.join(self.dir.name, "absent")])
        self.assertEqual(code, 1)
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
        self.assertIn("cannot list it", err.getvalue())
