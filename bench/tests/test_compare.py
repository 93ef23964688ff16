# SPDX-License-Identifier: MIT
"""Specifications of bench/compare.py: it fails only on a slowdown beyond the noise and the threshold."""

import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)

import compare  # noqa: E402
import gbench_json  # noqa: E402
from bad_input import BadInputCase  # noqa: E402
from scratch_dir import ScratchDirCase  # noqa: E402
from synthetic_runs import benchmark_entries, error_entries  # noqa: E402

RECORDED = os.path.join(HERE, "data", "gbench_1.7.1_repetitions.json")
RECORDED_AGGREGATES = os.path.join(HERE, "data", "gbench_1.7.1_aggregates_only.json")


def run_file(entries, unit_context=None):
    return {"context": unit_context or {"device_name": "test"}, "benchmarks": entries}


class CompareCase(ScratchDirCase):
    def compare(self, base, cand, *flags):
        """(exit status, stdout) of compare.main on two runs given as dicts."""
        out = io.StringIO()
        status = compare.main([self.write("base.json", base), self.write("cand.json", cand), *flags], out=out)
        return status, out.getvalue()

    def compare_times(self, name, base_seconds, cand_seconds, *flags):
        """compare() on two runs of the one benchmark `name`, a repetition per time given."""
        base, cand = (run_file(benchmark_entries(name, seconds)) for seconds in (base_seconds, cand_seconds))
        return self.compare(base, cand, *flags)

    def assert_verdict(self, name, base_seconds, cand_seconds, status, verdict):
        """compare_times() exits `status` and the row of `name` says `verdict`; returns the output."""
        got_status, out = self.compare_times(name, base_seconds, cand_seconds)
        self.assertEqual(got_status, status, out)
        self.assertEqual(self.verdict(out, name), verdict)
        return out

    def verdict(self, output, name):
        for line in output.splitlines():
            if line.startswith(name + " "):
                return line.rsplit("  ", 1)[-1].split(" (")[0].strip()
        self.fail(f"no row for {name} in:\n{output}")


class SlowdownsBeyondNoiseFail(CompareCase):
    def test_identical_runs_pass(self):
        times = [1.00e-3, 1.01e-3, 0.99e-3, 1.00e-3, 1.00e-3]
        status, out = self.compare_times("copy/wavefit/2^28", times, times)
        self.assertEqual(status, 0, out)
        self.assertIn("no regression", out)

    def test_a_ten_percent_slowdown_with_quiet_repetitions_fails(self):
        out = self.assert_verdict("triad/wavefit/2^28", [1.000e-3, 1.002e-3, 0.998e-3, 1.001e-3, 0.999e-3],
                                  [1.100e-3, 1.102e-3, 1.098e-3, 1.101e-3, 1.099e-3], 1, "SLOWER")
        self.assertIn("+10.0%", out)
        self.assertIn("REGRESSION", out)

    def test_a_ten_percent_slowdown_inside_the_noise_passes(self):
        # Repetitions spread by +-20%: a 10% shift of the median is not evidence of anything.
        self.assert_verdict("dot/wavefit/2^25", [0.8e-3, 1.2e-3, 1.0e-3, 0.85e-3, 1.15e-3],
                            [0.9e-3, 1.3e-3, 1.1e-3, 0.95e-3, 1.25e-3], 0, "same")

    def test_a_slowdown_below_the_threshold_passes_however_quiet(self):
        # 3% slower: under the default threshold, over a 2% one.
        status, out = self.compare_times("copy/b256/2^28", [1.0e-3] * 5, [1.03e-3] * 5)
        self.assertEqual(status, 0, out)
        status, out = self.compare_times("copy/b256/2^28", [1.0e-3] * 5, [1.03e-3] * 5, "--threshold", "0.02")
        self.assertEqual(status, 1, out)

    def test_a_speedup_passes_and_is_reported(self):
        self.assert_verdict("mul/wavefit/2^28", [1.0e-3] * 5, [0.8e-3] * 5, 0, "faster")

    def test_the_noise_factor_scales_the_bound(self):
        base = [0.97e-3, 1.03e-3, 1.0e-3, 0.98e-3, 1.02e-3]
        cand = [1.05e-3, 1.11e-3, 1.08e-3, 1.06e-3, 1.10e-3]
        self.assertEqual(self.compare_times("add/wavefit/2^28", base, cand)[0], 0)
        self.assertEqual(self.compare_times("add/wavefit/2^28", base, cand, "--noise-factor", "0")[0], 1)


class FailuresAndMembership(CompareCase):
    def test_a_benchmark_that_now_fails_is_a_regression(self):
        base = run_file(benchmark_entries("regheavy/wavefit/2^24", [1e-3] * 5))
        cand = run_file(error_entries("regheavy/wavefit/2^24", "wrong results: 12 of 100 outputs are wrong"))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 1, out)
        self.assertIn("FAILS", out)
        self.assertIn("wrong results", out)

    def test_a_benchmark_failing_in_both_runs_is_not_a_regression(self):
        run = run_file(error_entries("regheavy/b1024/2^24", "too many resources requested for launch") +
                       benchmark_entries("regheavy/b256/2^24", [1e-3] * 5))
        status, out = self.compare(run, run)
        self.assertEqual(status, 0, out)
        self.assertIn("error", out)

    def test_missing_benchmarks_fail_only_when_asked(self):
        base = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5) + benchmark_entries("mul/wavefit/2^28", [1e-3] * 5))
        cand = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5) + benchmark_entries("add/wavefit/2^28", [1e-3] * 5))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 0, out)
        self.assertIn("missing", out)
        self.assertIn("new", out)
        self.assertEqual(self.compare(base, cand, "--fail-on-missing")[0], 1)

    def test_filter_restricts_the_comparison(self):
        base = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5) + benchmark_entries("mul/wavefit/2^28", [1e-3] * 5))
        cand = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5) + benchmark_entries("mul/wavefit/2^28", [2e-3] * 5))
        self.assertEqual(self.compare(base, cand)[0], 1)
        status, out = self.compare(base, cand, "--filter", "^copy/")
        self.assertEqual(status, 0, out)
        self.assertNotIn("mul/", out)


class TunedStrategies(CompareCase):
    def test_a_tuned_benchmark_that_chose_another_block_says_so(self):
        base = run_file(benchmark_entries("copy/tuned/2^28", [1.00e-3] * 5, {"block": 256.0, "grid": 4096.0}))
        cand = run_file(benchmark_entries("copy/tuned/2^28", [0.97e-3] * 5, {"block": 512.0, "grid": 4096.0}))
        status, out = self.compare(base, cand, "--threshold", "0.01")
        self.assertEqual(status, 0, out)
        self.assertIn("faster (block 256 -> 512)", out)

    def test_a_tuned_benchmark_slower_with_a_new_configuration_is_still_a_regression(self):
        base = run_file(benchmark_entries("babelstream_copy/tuned/2^28", [1.00e-3] * 5, {"block": 256.0, "grid": 4096.0}))
        cand = run_file(benchmark_entries("babelstream_copy/tuned/2^28", [1.10e-3] * 5, {"block": 1024.0, "grid": 1024.0}))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 1, out)
        self.assertEqual(self.verdict(out, "babelstream_copy/tuned/2^28"), "SLOWER")
        self.assertIn("block 256 -> 1024, grid 4096 -> 1024", out)


class Units(CompareCase):
    def test_time_units_are_converted(self):
        base = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5, unit="ms"))
        cand = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5, unit="ns"))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 0, out)
        self.assertEqual(self.verdict(out, "copy/wavefit/2^28"), "same")

    def test_times_are_per_launch_when_an_iteration_launches_several_times(self):
        base = run_file(benchmark_entries("sum/wavefit/2^25", [40e-6] * 5, {"launches_per_iteration": 1.0}))
        cand = run_file(benchmark_entries("sum/wavefit/2^25", [4 * 40e-6] * 5, {"launches_per_iteration": 4.0}))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 0, out)
        self.assertEqual(self.verdict(out, "sum/wavefit/2^25"), "same")
        slower = run_file(benchmark_entries("sum/wavefit/2^25", [4 * 48e-6] * 5, {"launches_per_iteration": 4.0}))
        self.assertEqual(self.compare(base, slower)[0], 1)

    def test_a_rate_counter_is_higher_is_better(self):
        base = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5, {"bytes_per_second": 4.2e12}))
        cand = run_file(benchmark_entries("copy/wavefit/2^28", [1e-3] * 5, {"bytes_per_second": 3.6e12}))
        status, out = self.compare(base, cand, "--metric", "bytes_per_second")
        self.assertEqual(status, 1, out)
        status, out = self.compare(cand, base, "--metric", "bytes_per_second")
        self.assertEqual(status, 0, out)

    def test_a_counter_can_be_declared_higher_is_better(self):
        base = run_file(benchmark_entries("launch/x/y", [1e-3] * 5, {"launches": 100.0}))
        cand = run_file(benchmark_entries("launch/x/y", [1e-3] * 5, {"launches": 50.0}))
        self.assertEqual(self.compare(base, cand, "--metric", "launches")[0], 0)  # lower is better by default
        self.assertEqual(self.compare(base, cand, "--metric", "launches", "--higher-is-better")[0], 1)


class AggregatesOnly(CompareCase):
    def test_noise_comes_from_the_stddev_when_there_are_no_repetitions(self):
        def aggregates_only(name, times):
            return [e for e in benchmark_entries(name, times) if e["run_type"] == "aggregate"]

        base = run_file(aggregates_only("copy/wavefit/2^28", [0.8e-3, 1.2e-3, 1.0e-3, 0.85e-3, 1.15e-3]))
        cand = run_file(aggregates_only("copy/wavefit/2^28", [0.9e-3, 1.3e-3, 1.1e-3, 0.95e-3, 1.25e-3]))
        status, out = self.compare(base, cand)
        self.assertEqual(status, 0, out)
        # An aggregate's counters are aggregated too: the stddev entry says 0 launches per iteration.
        # The noise must still be taken relative to the time per iteration.
        def several_launches(times):
            return [dict(e, launches_per_iteration=0.0 if e["aggregate_name"] in ("stddev", "cv") else 8.0)
                    for e in aggregates_only("sum/wavefit/2^25", times)]

        status, out = self.compare(run_file(several_launches([8e-4, 8.01e-4, 7.99e-4])),
                                   run_file(several_launches([8.8e-4, 8.81e-4, 8.79e-4])))
        self.assertEqual(status, 1, out)
        self.assertIn("+10.0%", out)
        self.assertIn("100 us", out)
        quiet_base = run_file(aggregates_only("copy/wavefit/2^28", [1.0e-3, 1.001e-3, 0.999e-3]))
        quiet_cand = run_file(aggregates_only("copy/wavefit/2^28", [1.1e-3, 1.101e-3, 1.099e-3]))
        self.assertEqual(self.compare(quiet_base, quiet_cand)[0], 1)


class RecordedFiles(CompareCase):
    def test_names_lose_the_segments_google_benchmark_appends(self):
        self.assertEqual(gbench_json.base_name("launch_first/raw/cold/iterations:1/repeats:1/manual_time"), "launch_first/raw/cold")
        self.assertEqual(gbench_json.base_name("copy/wavefit/2^28/manual_time"), "copy/wavefit/2^28")
        self.assertEqual(gbench_json.base_name("launch_enqueue/raw/empty/real_time"), "launch_enqueue/raw/empty")

    def test_a_recorded_run_compared_with_itself_passes(self):
        out = io.StringIO()
        self.assertEqual(compare.main([RECORDED, RECORDED], out=out), 0, out.getvalue())
        self.assertIn("copy/wavefit/2^20", out.getvalue())
        self.assertIn("launch_first/raw/cold", out.getvalue())

    def test_repetitions_compare_with_aggregates_only(self):
        out = io.StringIO()
        self.assertEqual(compare.main([RECORDED, RECORDED_AGGREGATES], out=out), 0, out.getvalue())

    def test_recorded_errors_are_read_as_failures(self):
        _, runs = gbench_json.load(RECORDED)
        self.assertTrue(runs["regheavy/b1024/2^22"].failed)
        self.assertEqual(len(runs["copy/wavefit/2^20"].repetitions), 3)
        self.assertIn("median", runs["copy/wavefit/2^20"].aggregates)


class BadInputExitsTwo(BadInputCase):
    script = "compare.py"

    def assert_bad(self, result, text):
        super().assert_bad(result, text)
        self.assertEqual(result.stdout, "")  # and no table at all on stdout

    def test_a_missing_file(self):
        self.assert_bad(self.run_script(os.path.join(self.dir.name, "nope.json"), RECORDED), "no such file")

    def test_a_file_that_is_not_json(self):
        self.assert_bad(self.run_script(self.write("bad.json", "{not json"), RECORDED), "not JSON")

    def test_json_that_is_not_a_benchmark_result(self):
        self.assert_bad(self.run_script(self.write("other.json", {"results": []}), RECORDED), "not a Google Benchmark result")

    def test_an_entry_without_a_name(self):
        self.assert_bad(self.run_script(self.write("noname.json", {"benchmarks": [{"real_time": 1}]}), RECORDED), "has no name")

    def test_files_with_nothing_in_common(self):
        other = self.write("other.json", run_file(benchmark_entries("something/else/1", [1e-3])))
        self.assert_bad(self.run_script(other, RECORDED), "no benchmark in common")

    def test_an_unknown_metric(self):
        self.assert_bad(self.run_script(RECORDED, RECORDED, "--metric", "furlongs"), "furlongs")

    def test_a_bad_flag(self):
        self.assert_bad(self.run_script(RECORDED, RECORDED, "--threshold", "lots"), "--threshold")

    def test_a_missing_argument(self):
        self.assert_bad(self.run_script(RECORDED), "required")


if __name__ == "__main__":
    unittest.main()
