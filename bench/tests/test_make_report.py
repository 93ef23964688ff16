# SPDX-License-Identifier: MIT
"""Specifications of bench/make_report.py on made-up runs shaped like the H200's."""

import io
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)

import gbench_json  # noqa: E402
import make_report  # noqa: E402
from bad_input import BadInputCase  # noqa: E402
from scratch_dir import ScratchDirCase  # noqa: E402
from synthetic_runs import launch_run, zoo_run  # noqa: E402

try:
    import matplotlib  # noqa: F401

    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False


class ReportCase(ScratchDirCase):
    def summary(self, zoo=None, launch=None):
        args = ["--summary"]
        if zoo is not None:
            args += ["--zoo", self.write("zoo.json", zoo)]
        if launch is not None:
            args += ["--launch", self.write("launch.json", launch)]
        out = io.StringIO()
        status = make_report.main(args, out=out)
        return status, out.getvalue()

    def target_line(self, text, what):
        lines = [line for line in text.splitlines() if line.startswith(what)]
        self.assertEqual(len(lines), 1, f"one line starting with {what!r} in:\n{text}")
        return lines[0]


class Targets(ReportCase):
    def targets(self, zoo=None, launch=None):
        """{target name: Target} for runs given as dicts."""
        found = []
        if zoo is not None:
            found += make_report.zoo_targets(make_report.Zoo(gbench_json.load(self.write("zoo.json", zoo))[1]))
        if launch is not None:
            found += make_report.launch_targets(make_report.Launch(gbench_json.load(self.write("launch.json", launch))[1]))
        return {t.what: t for t in found}

    def test_a_run_that_meets_every_target_passes_them_all(self):
        targets = self.targets(zoo_run(), launch_run())
        self.assertGreater(len(targets), 30)
        self.assertEqual([name for name, t in targets.items() if not t.passed], [])
        status, text = self.summary(zoo_run(), launch_run())
        self.assertEqual(status, 0)
        self.assertIn(" 0 fail", text)
        self.assertNotIn("FAIL", text)

    def test_wavefit_behind_the_sweep_fails_the_plan_targets(self):
        targets = self.targets(zoo_run(wavefit_factor=0.9))
        self.assertFalse(targets["copy/2^28: wavefit vs sweep best"].passed)
        self.assertFalse(targets["copy/2^28: wavefit vs b256"].passed)
        self.assertFalse(targets["triad/2^28: wavefit vs BabelStream 5.0 (H200)"].passed)
        _, text = self.summary(zoo_run(wavefit_factor=0.9))
        self.assertTrue(self.target_line(text, "copy/2^28 ").endswith("FAIL"))

    def test_a_small_loss_passes_against_the_sweep_but_not_against_256(self):
        targets = self.targets(zoo_run(wavefit_factor=0.975))
        self.assertTrue(targets["triad/2^28: wavefit vs sweep best"].passed)
        self.assertFalse(targets["triad/2^28: wavefit vs b256"].passed)

    def test_babelstream_figures_are_the_h200_ones(self):
        targets = self.targets(zoo_run())
        self.assertEqual(targets["copy/2^28: wavefit vs BabelStream 5.0 (H200)"].required, ">= 3989 GB/s")
        self.assertEqual(targets["dot/2^28: wavefit vs BabelStream 5.0 (H200)"].required, ">= 4535 GB/s")
        _, text = self.summary(zoo_run())
        self.assertIn(">= 4387 GB/s", self.target_line(text, "triad/2^28: wavefit vs BabelStream"))

    def test_launch_overhead_above_two_percent_fails(self):
        targets = self.targets(launch=launch_run(overhead_pct=1.5))
        self.assertTrue(targets["launch empty: wavefit_config enqueue vs raw"].passed)
        targets = self.targets(launch=launch_run(overhead_pct=3.0))
        self.assertFalse(targets["launch empty: wavefit_config enqueue vs raw"].passed)
        self.assertFalse(targets["launch small: wavefit_elements enqueue vs raw"].passed)
        _, text = self.summary(launch=launch_run(overhead_pct=3.0))
        self.assertTrue(self.target_line(text, "launch small: wavefit_elements enqueue vs raw").endswith("FAIL"))

    def test_a_slow_first_launch_fails(self):
        targets = self.targets(launch=launch_run(first_extra_us=80.0))
        self.assertFalse(targets["first launch, wavefit_elements: median extra over raw"].passed)
        self.assertFalse(targets["first wavefit launch of the process (limits + attributes + plan): extra over raw"].passed)

    def test_a_strategy_that_failed_does_not_fail_wavefit(self):
        # regheavy at b1024 cannot launch on the H200 (registers); wavefit is judged against the rest.
        targets = self.targets(zoo_run())
        self.assertTrue(targets["regheavy/2^24: wavefit vs sweep best"].passed)
        self.assertTrue(targets["regheavy/2^24: wavefit vs b256"].passed)


class TunedTargets(ReportCase):
    targets = Targets.targets

    def test_tuned_within_one_percent_of_the_sweep_best_passes(self):
        targets = self.targets(zoo_run(tuned_factor=0.995))
        self.assertTrue(targets["transpose/16384x16384: tuned vs sweep best"].passed)
        self.assertTrue(targets["copy/2^28: tuned vs sweep best"].passed)

    def test_tuned_two_percent_behind_the_sweep_best_fails(self):
        targets = self.targets(zoo_run(tuned_factor=0.98))
        t = targets["transpose/16384x16384: tuned vs sweep best"]
        self.assertFalse(t.passed, t.measured)
        self.assertRegex(t.measured, r"^0\.9[78]\d ", t.measured)

    def test_tuned_slower_than_the_plan_beyond_the_noise_fails(self):
        # The plan runs at 256's bandwidth; tuned 3% below the sweep's best is also below the plan.
        targets = self.targets(zoo_run(tuned_factor=0.95))
        self.assertFalse(targets["copy/2^28: tuned vs wavefit plan"].passed)
        self.assertTrue(targets["copy/2^28: tuned vs wavefit plan"].required.startswith(">= 1.00 (noise "))

    def test_a_tuner_that_kept_the_plan_passes_whatever_the_drift(self):
        # The same block and grid as the plan: a 0.5% difference is drift between two benchmarks.
        targets = self.targets(zoo_run(tuned_factor=0.97, wavefit_block=512))
        t = targets["copy/2^28: tuned vs wavefit plan"]
        self.assertIn("the plan kept", t.measured)
        self.assertTrue(t.passed)

    def test_tuning_longer_than_a_second_fails(self):
        self.assertTrue(self.targets(zoo_run(tuning_ms=999.0))["softmax/32768x8192: tuning cost"].passed)
        t = self.targets(zoo_run(tuning_ms=1500.0))["softmax/32768x8192: tuning cost"]
        self.assertFalse(t.passed)
        self.assertEqual(t.measured, "1500 ms (24 candidates)")

    def test_an_external_kernel_tuned_slower_than_its_own_configuration_fails(self):
        self.assertTrue(self.targets(zoo_run())["babelstream_copy/2^28: tuned vs the benchmark's own configuration"].passed)
        t = self.targets(zoo_run(external_tuned_factor=0.97))["babelstream_copy/2^28: tuned vs the benchmark's own configuration"]
        self.assertFalse(t.passed, t.measured)
        self.assertTrue(t.measured.startswith("0.9"), t.measured)

    def test_external_kernels_are_not_judged_against_a_sweep(self):
        targets = self.targets(zoo_run())
        self.assertNotIn("babelstream_copy/2^28: wavefit vs sweep best", targets)
        self.assertNotIn("babelstream_copy/2^28: tuned vs sweep best", targets)
        self.assertIn("babelstream_triad/2^25: tuning cost", targets)

    def test_the_tuned_launch_form_has_the_overhead_target(self):
        targets = self.targets(launch=launch_run(overhead_pct=3.0))
        self.assertFalse(targets["launch small: wavefit_tuned enqueue vs raw"].passed)
        self.assertTrue(self.targets(launch=launch_run(overhead_pct=1.0))["launch small: wavefit_tuned enqueue vs raw"].passed)


class Report(ReportCase):
    def make(self, *extra, zoo=None, launch=None):
        out_md = os.path.join(self.dir.name, "RESULTS.md")
        args = ["--out", out_md, *extra]
        args += ["--zoo", self.write("zoo.json", zoo if zoo is not None else zoo_run())]
        args += ["--launch", self.write("launch.json", launch if launch is not None else launch_run())]
        out = io.StringIO()
        self.assertEqual(make_report.main(args, out=out), 0)
        with open(out_md, encoding="utf-8") as f:
            return f.read()

    def test_the_report_names_the_device_and_the_commands(self):
        text = self.make("--no-plots", zoo=zoo_run(command="build/bench/wavefit_bench_zoo --benchmark_min_time=0.01"))
        self.assertIn("NVIDIA H200 (sm_90), 132 SMs/CUs", text)
        self.assertIn("peak 4,814 GB/s", text)
        self.assertIn("build/bench/wavefit_bench_zoo --benchmark_min_time=0.01", text)
        self.assertIn("build/bench/wavefit_bench_launch --benchmark_repetitions=5", text)

    def test_a_table_per_kernel_with_memcpy_share_and_ratios(self):
        text = self.make("--no-plots")
        for kernel in ("copy", "mul", "add", "triad", "dot", "regheavy", "transpose", "softmax"):
            self.assertIn(f"### {kernel}\n", text)
        self.assertIn("| strategy | block | grid | GB/s | % memcpy | / sweep best | / b256 |", text)
        row = re.search(r"^\| wavefit \| 256 \| 524,288 \| ([\d,]+) \| ([\d.]+)% \| ([\d.]+) \| ([\d.]+) \|$", text, re.M)
        self.assertIsNotNone(row, text[:3000])
        self.assertEqual(row.group(4), "1.000")
        self.assertIn("(sweep best)", text)
        self.assertIn("| GFLOP/s |", text)  # the compute-bound kernel

    # Lines the report of the made-up runs holds, by what they show.
    HOLDS = {
        "a failed strategy shows its error": ["| b1024 | - | - | failed: the timed launches: cudaErrorLaunchOutOfResources"],
        "the variants table lists each variant beside the default":
            ["## Work per thread", "copy/mul/add/triad v2u1", "| copy (default) | 2^28 |", "| copy_v1u1 | 2^28 |"],
        "the launch section has enqueue latency and first launch figures":
            ["## Launch overhead", "| empty | raw | 4.10 |", "First wavefit launch of the process",
             "| wavefit_elements | 42.0 |"],
        "the launch section has the tuned form": ["| small | wavefit_tuned |"],
    }

    def test_the_report_holds_the_lines_of_each_section(self):
        text = self.make("--no-plots")
        for what, lines in self.HOLDS.items():
            for line in lines:
                with self.subTest(what, line=line):
                    self.assertIn(line, text)

    def test_the_external_kernels_have_their_own_section_beside_the_zoo(self):
        text = self.make("--no-plots")
        self.assertIn("## External kernels", text)
        self.assertIn("based on a variant of BabelStream 5.0", text)
        self.assertIn("| strategy | block | grid | GB/s | / original | tuning |", text)
        self.assertRegex(text, r"\| original \| 256 \| 262,144 \| [\d,]+ \| 1\.000 \| - \|")
        self.assertRegex(text, r"\| tuned \| 256 \| 262,144 \| [\d,]+ \| 1\.0\d\d \| 150 ms, 20 candidates \|")
        self.assertNotIn("### babelstream_copy", text)  # not in the zoo's tables

    def test_the_tuned_strategy_is_a_row_of_every_zoo_table(self):
        text = self.make("--no-plots")
        self.assertRegex(text, r"\| tuned \| 512 \| [\d,]+ \| [\d,]+ \| [\d.]+% \| 1\.0\d\d \|")

    def test_the_ceiling_is_reported_with_its_drift(self):
        text = self.make("--no-plots")
        self.assertRegex(text, r"Device memcpy \(bytes read \+ written\): 2\^28: 4,2\d\d GB/s, 2\^25: 4,\d\d\d GB/s")
        self.assertRegex(text, r"again at the end of the run: 4,2\d\d GB/s")

    @unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed for this interpreter")
    def test_a_plot_per_kernel_and_size_with_the_wavefit_choice(self):
        text = self.make()
        plots = os.path.join(self.dir.name, "results")
        for name in ("copy_2p28.png", "triad_2p25.png", "regheavy_2p24.png", "softmax_32768x8192.png"):
            path = os.path.join(plots, name)
            self.assertTrue(os.path.isfile(path), name)
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertIn(f"](results/{name})", text)


class KeptResults(ReportCase):
    def test_the_aggregates_kept_for_the_record_give_the_same_targets(self):
        full = self.write("zoo.json", zoo_run())
        small = os.path.join(self.dir.name, "zoo.json.gz")
        gbench_json.write_aggregates(full, small)
        self.assertLess(os.path.getsize(small), os.path.getsize(full) / 10)
        verdicts = {}
        for path in (full, small):
            out = io.StringIO()
            self.assertEqual(make_report.main(["--summary", "--zoo", path], out=out), 0)
            verdicts[path] = [line.rsplit(" ", 1)[-1] for line in out.getvalue().splitlines() if line.endswith(("PASS", "FAIL"))]
        self.assertGreater(len(verdicts[full]), 30)
        self.assertEqual(verdicts[full], verdicts[small])

    def test_benchmarks_run_once_are_kept_whole(self):
        # The first-launch benchmarks run one repetition: no aggregates, so their one entry stays.
        full = self.write("launch.json", launch_run())
        small = os.path.join(self.dir.name, "launch.json.gz")
        gbench_json.write_aggregates(full, small)
        verdicts = {}
        for path in (full, small):
            out = io.StringIO()
            self.assertEqual(make_report.main(["--summary", "--launch", path], out=out), 0)
            verdicts[path] = [line for line in out.getvalue().splitlines() if line.endswith(("PASS", "FAIL"))]
        self.assertTrue(any(line.startswith("first wavefit launch of the process") for line in verdicts[small]), verdicts[small])
        self.assertEqual(verdicts[full], verdicts[small])

    def test_the_kept_file_is_the_same_bytes_for_the_same_run(self):
        full = self.write("zoo.json", zoo_run())
        a, b = (os.path.join(self.dir.name, name) for name in ("a.json.gz", "b.json.gz"))
        gbench_json.write_aggregates(full, a)
        gbench_json.write_aggregates(full, b)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            self.assertEqual(fa.read(), fb.read())


class BadInput(BadInputCase):
    script = "make_report.py"

    def test_no_input(self):
        self.assert_bad(self.run_script("--summary"), "give --zoo, --launch and/or --external")

    def test_a_missing_file(self):
        self.assert_bad(self.run_script("--summary", "--zoo", os.path.join(self.dir.name, "none.json")), "no such file")

    def test_a_file_without_zoo_benchmarks(self):
        other = self.write("other.json", {"benchmarks": [{"name": "BM_x", "real_time": 1, "time_unit": "ns"}]})
        self.assert_bad(self.run_script("--summary", "--zoo", other), "no kernel/strategy/size benchmarks")

    def test_the_recorded_google_benchmark_file_is_readable(self):
        recorded = os.path.join(HERE, "data", "gbench_1.7.1_repetitions.json")
        result = self.run_script("--summary", "--zoo", recorded)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("copy/2^20", result.stdout)


if __name__ == "__main__":
    unittest.main()
