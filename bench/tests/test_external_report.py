# SPDX-License-Identifier: MIT
"""Specifications of bench/external_report.py: the external suite's table from a run's JSON."""

import contextlib
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)

import external_report  # noqa: E402
import gbench_json  # noqa: E402
import make_report  # noqa: E402
from scratch_dir import ScratchDirCase  # noqa: E402
from synthetic_runs import H200_CONTEXT, benchmark_entries, error_entries  # noqa: E402


def variant_entries(kernel, size, variant, median_us, grid=100, block=256, aggregates=True):
    """Five repetitions whose `median_us` counters are `median_us` (a number or a list of five)."""
    values = median_us if isinstance(median_us, list) else [median_us] * 5
    entries = []
    for i, v in enumerate(values):
        e = benchmark_entries(f"ext/{kernel}/{variant}/{size}", [v * 1e-6], {"median_us": v, "grid": grid, "block": block},
                              aggregates=False)[0]
        e["repetition_index"] = i
        e["repetitions"] = len(values)
        entries.append(e)
    if aggregates:
        # What --benchmark_display_aggregates_only keeps: the aggregates only.
        agg = benchmark_entries(f"ext/{kernel}/{variant}/{size}", [v * 1e-6 for v in values], aggregates=True)
        entries += [e for e in agg if e["run_type"] == "aggregate"]
        for e in entries[len(values):]:
            e["median_us"] = sorted(values)[len(values) // 2]
            e["grid"], e["block"] = grid, block
    return entries


def kernel_entries(kernel, size, original, ports, repeat=None, same_config=()):
    """The original launches grid 100 x block 256; each port another grid unless it is in `same_config`."""
    out = variant_entries(kernel, size, "original", original)
    out += variant_entries(kernel, size, "original_repeat", original if repeat is None else repeat)
    for port, t in ports.items():
        out += variant_entries(kernel, size, port, t, grid=100 if port in same_config else 200)
    return out


def run_file(entries, extra_context=None):
    context = dict(H200_CONTEXT)
    context["command_line"] = "build/bench/wavefit_bench_external --benchmark_repetitions=5"
    context["ext_checks_before_timing"] = "120 passed, 0 failed"
    context.update(extra_context or {})
    return {"context": context, "benchmarks": entries}


class ReportCase(ScratchDirCase):
    def report(self, data):
        out = io.StringIO()
        status = external_report.main([self.write("run.json", data)], out=out)
        return status, out.getvalue()

    def row(self, text, kernel, size):
        for line in text.splitlines():
            if line.startswith(f"| {kernel} | {size} |"):
                return [c.strip() for c in line.strip().strip("|").split("|")]
        self.fail(f"no row for {kernel} {size} in:\n{text}")


class SpeedsAreTheOriginalTimeOverThePortTime(ReportCase):
    def test_each_port_shows_original_over_port(self):
        run = run_file(kernel_entries("llmc_gelu_forward", "B8_T1024_C768", 100.0,
                                      {"plan": 80.0, "tuned": 50.0, "gs_plan": 100.0, "gs_tuned": 125.0}))
        status, text = self.report(run)
        self.assertEqual(status, 0, text)
        cells = self.row(text, "llmc_gelu_forward", "B8_T1024_C768")
        self.assertEqual(cells[2], "100.0")  # original µs
        self.assertEqual(cells[3:7], ["1.250", "2.000", "1.000", "0.800 (slower)"])

    def test_geometric_means_are_over_the_kernels(self):
        entries = kernel_entries("a_k", "s1", 100.0, {"plan": 50.0, "tuned": 50.0})  # 2.0
        entries += kernel_entries("b_k", "s1", 100.0, {"plan": 200.0, "tuned": 100.0})  # 0.5, 1.0
        status, text = self.report(run_file(entries))
        self.assertEqual(status, 0, text)
        mean = [line for line in text.splitlines() if line.startswith("| **geometric mean**")][0]
        cells = [c.strip() for c in mean.strip().strip("|").split("|")]
        self.assertEqual(cells[3], "**1.000**")  # sqrt(2.0 * 0.5)
        self.assertEqual(cells[4], "**1.414**")  # sqrt(2.0 * 1.0)

    def test_the_median_over_repetitions_of_the_median_counter_is_used(self):
        run = run_file(variant_entries("a_k", "s", "original", [100.0, 101.0, 99.0, 300.0, 100.0]) +
                       variant_entries("a_k", "s", "plan", [50.0, 50.0, 51.0, 49.0, 10.0]))
        status, text = self.report(run)
        self.assertEqual(status, 0, text)
        self.assertEqual(self.row(text, "a_k", "s")[3], "2.000")


class NoiseIsTheRunsOwn(ReportCase):
    def test_original_repeat_sets_the_noise(self):
        run = run_file(kernel_entries("a_k", "s", 100.0, {"plan": 98.5, "tuned": 98.5}, repeat=102.0))
        status, text = self.report(run)
        cells = self.row(text, "a_k", "s")
        self.assertEqual(cells[7], f"{1 - 100.0 / 102.0:.3f}")
        # 100 / 98.5 = 1.015 > 1: faster; nothing slower
        self.assertNotIn("(slower)", cells[3])

    def test_one_tick_of_the_event_timer_is_noise(self):
        # The same configuration measured one 32 ns tick slower than the original: within the noise
        # only because the suite says its timer ticks in 32 ns; without the tick it is "slower".
        entries = kernel_entries("a_k", "s", 16.0, {"tuned": 16.032}, repeat=16.0)
        status, text = self.report(run_file(entries, {"ext_timer_tick_us": "0.032"}))
        cells = self.row(text, "a_k", "s")
        self.assertEqual(cells[7], "0.002")
        self.assertNotIn("(slower)", cells[4])
        self.assertIn("tuned >= 1.00 x the original within the noise on every kernel: PASS", text)
        status, text = self.report(run_file(entries))
        self.assertIn("(slower)", self.row(text, "a_k", "s")[4])

    def test_a_port_launching_the_originals_configuration_is_a_repeat(self):
        # The tuner kept the original's grid and block: 0.2% apart is the run's noise, not a slower port.
        entries = kernel_entries("a_k", "s", 100.0, {"plan": 100.0, "tuned": 100.2}, repeat=100.0,
                                 same_config=("plan", "tuned"))
        status, text = self.report(run_file(entries))
        cells = self.row(text, "a_k", "s")
        self.assertEqual(cells[7], "0.002")
        self.assertNotIn("(slower)", cells[4])
        self.assertIn("tuned >= 1.00 x the original within the noise on every kernel: PASS", text)
        # Another configuration 0.2% slower is slower.
        entries = kernel_entries("a_k", "s", 100.0, {"plan": 100.0, "tuned": 100.2}, repeat=100.0)
        status, text = self.report(run_file(entries))
        self.assertIn("(slower)", self.row(text, "a_k", "s")[4])
        # A grid-stride rewrite with the original's configuration is another kernel: not a repeat.
        entries = kernel_entries("a_k", "s", 100.0, {"gs_tuned": 105.0, "tuned": 100.2}, repeat=100.0,
                                 same_config=("gs_tuned",))
        status, text = self.report(run_file(entries))
        self.assertIn("(slower)", self.row(text, "a_k", "s")[4])

    def test_a_timer_tick_that_is_not_a_number_is_refused(self):
        entries = kernel_entries("a_k", "s", 16.0, {"tuned": 16.0})
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            status, _ = self.report(run_file(entries, {"ext_timer_tick_us": "fast"}))
        self.assertNotEqual(status, 0)
        self.assertIn("ext_timer_tick_us", errors.getvalue())

    def test_a_port_slower_within_the_noise_is_not_marked(self):
        run = run_file(kernel_entries("a_k", "s", 100.0, {"tuned": 101.0}, repeat=103.0))
        status, text = self.report(run)
        self.assertEqual(self.row(text, "a_k", "s")[4], "0.990")
        self.assertIn("tuned >= 1.00 x the original within the noise on every kernel: PASS", text)

    def test_a_port_slower_beyond_the_noise_fails_the_target(self):
        run = run_file(kernel_entries("a_k", "s", 100.0, {"plan": 110.0, "tuned": 110.0}))
        status, text = self.report(run)
        self.assertEqual(status, 0)
        self.assertEqual(self.row(text, "a_k", "s")[4], "0.909 (slower)")
        self.assertIn("tuned >= 1.00 x the original within the noise on every kernel: FAIL", text)
        self.assertIn("plan >= 0.97 x the original on every kernel: FAIL", text)
        self.assertIn("a_k s (0.909)", text)


class TargetsAreStated(ReportCase):
    def test_targets_pass_on_a_good_run(self):
        entries = kernel_entries("a_k", "s", 100.0, {"plan": 99.0, "tuned": 95.0})
        entries += kernel_entries("b_k", "s", 100.0, {"plan": 98.0, "tuned": 96.0})
        status, text = self.report(run_file(entries))
        self.assertIn("plan geometric mean >= 1.00: PASS", text)
        self.assertIn("tuned geometric mean >= 1.03: PASS", text)
        self.assertIn("no benchmark failed (wrong results or a launch error): PASS", text)

    def test_a_failed_benchmark_is_listed_and_fails_its_target(self):
        entries = kernel_entries("a_k", "s", 100.0, {"plan": 99.0})
        entries += error_entries("ext/a_k/tuned/s/manual_time", "wrong results: out: 3 of 100 words differ")
        status, text = self.report(run_file(entries))
        self.assertEqual(status, 0, text)
        self.assertIn("no benchmark failed (wrong results or a launch error): FAIL (1 failed)", text)
        self.assertIn("- a_k s tuned: wrong results: out: 3 of 100 words differ", text)
        self.assertEqual(self.row(text, "a_k", "s")[4], "–")


class ContextIsShown(ReportCase):
    def test_sources_and_contracts_come_from_the_context(self):
        extra = {"ext_source:a_k/s": "karpathy/llm.c train_gpt2_fp32.cu @ f1e2ace: k",
                 "ext_shape:a_k/s": "warp per row",
                 "ext_original:a_k/s": "grid 512 block 512",
                 "ext_contract:a_k/plan/s": "work::per_group(B*T, 32, C)",
                 "ext_contract:a_k/gs_plan/s": "work::per_group(B*T, 32, C).kernel_loops()"}
        status, text = self.report(run_file(kernel_entries("a_k", "s", 100.0, {"plan": 99.0}), extra))
        self.assertEqual(status, 0, text)
        self.assertIn("| a_k | s | karpathy/llm.c train_gpt2_fp32.cu @ f1e2ace: k | warp per row | grid 512 block 512 | "
                      "`work::per_group(B*T, 32, C)` | `work::per_group(B*T, 32, C).kernel_loops()` |", text)
        self.assertIn("Checks before timing (reference, reproducibility, negative controls, plan, tuning, use): "
                      "120 passed, 0 failed.", text)
        self.assertIn("`build/bench/wavefit_bench_external --benchmark_repetitions=5`", text)


class OtherPortsGetTheirOwnTable(ReportCase):
    def test_free_block_ports_are_listed_apart(self):
        extra = {"ext_contract:llmc_fused_classifier/plan_free/s": "work::per_block(B*T, V).block_any_wave_multiple()"}
        run = run_file(kernel_entries("llmc_fused_classifier", "s", 100.0, {"plan": 100.0, "plan_free": 80.0},
                                      same_config=("plan_free",)), extra)
        status, text = self.report(run)
        self.assertEqual(status, 0, text)
        self.assertIn("| llmc_fused_classifier | s | plan_free | 1.250 | 100 x 256 | "
                      "`work::per_block(B*T, V).block_any_wave_multiple()` |", text)
        # not in the main table's geometric means
        self.assertIn("| **geometric mean** | | | **1.000** |", text)


class BadInputIsOneLine(ReportCase):
    def run_bad(self, data):
        err = io.StringIO()
        old, sys.stderr = sys.stderr, err
        try:
            status = external_report.main([self.write("run.json", data)], out=io.StringIO())
        finally:
            sys.stderr = old
        return status, err.getvalue()

    def test_not_json(self):
        status, err = self.run_bad("not json")
        self.assertEqual(status, 2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_no_external_benchmarks(self):
        status, err = self.run_bad(run_file(benchmark_entries("copy/wavefit/2^28", [1e-3, 1e-3])))
        self.assertEqual(status, 2)
        self.assertIn("no ext/<project>_<kernel>/<variant>/<size> benchmarks", err)

    def test_names_of_another_shape_are_ignored(self):
        entries = benchmark_entries("ext/oops/plan", [1e-3, 1e-3]) + kernel_entries("a_k", "s", 100.0, {"plan": 50.0})
        status, text = self.report(run_file(entries))
        self.assertEqual(status, 0, text)
        self.assertNotIn("oops", text.split("Targets:")[0])


class MakeReportTakesTheExternalRun(ReportCase):
    def test_results_md_gets_the_external_section(self):
        path = self.write("run.json", run_file(kernel_entries("a_k", "s", 100.0, {"plan": 50.0, "tuned": 50.0})))
        target = os.path.join(self.dir.name, "RESULTS.md")
        status = make_report.main(["--external", path, "--out", target, "--no-plots"], out=io.StringIO())
        self.assertEqual(status, 0)
        with open(target, encoding="utf-8") as f:
            text = f.read()
        self.assertTrue(text.startswith("# wavefit benchmark results\n\n## External kernels (wavefit_bench_external)"), text[:200])
        self.assertIn("| a_k | s | 100.0 | 2.000 | 2.000 |", text)

    def test_the_summary_prints_the_external_targets(self):
        path = self.write("run.json", run_file(kernel_entries("a_k", "s", 100.0, {"plan": 50.0, "tuned": 50.0})))
        out = io.StringIO()
        self.assertEqual(make_report.main(["--summary", "--external", path], out=out), 0)
        self.assertIn("external suite\n- plan >= 0.97 x the original on every kernel: PASS", out.getvalue())

    def test_an_external_file_without_external_benchmarks_is_bad_input(self):
        path = self.write("run.json", run_file(benchmark_entries("copy/wavefit/2^28", [1e-3, 1e-3])))
        err = io.StringIO()
        old, sys.stderr = sys.stderr, err
        try:
            status = make_report.main(["--summary", "--external", path], out=io.StringIO())
        finally:
            sys.stderr = old
        self.assertEqual(status, 2)
        self.assertEqual(len(err.getvalue().strip().splitlines()), 1)


class ParsingNames(unittest.TestCase):
    def test_parse_name(self):
        self.assertEqual(external_report.parse_name("ext/llmc_adamw/tuned/gpt2_124M"), ("llmc_adamw", "tuned", "gpt2_124M"))
        self.assertIsNone(external_report.parse_name("zoo/llmc_adamw/tuned/x"))
        self.assertIsNone(external_report.parse_name("ext/llmc_adamw/tuned"))
        self.assertIsNone(external_report.parse_name("ext//tuned/x"))

    def test_loads_the_gbench_base_name(self):
        self.assertEqual(gbench_json.base_name("ext/a_k/plan/s/manual_time"), "ext/a_k/plan/s")


if __name__ == "__main__":
    unittest.main()
