#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specifications of `wavefit audit` (docs/cli.md, "wavefit audit") against the installed binary.

Fixtures are in tests/data/traces (README.md there says where each came from). Python standard library only.
"""

import gzip
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path

from test_cli import CliAssertions, run

TRACES = Path(__file__).resolve().parent.parent / "data" / "traces"

SOURCE_KEYS = {"format", "device", "preset", "dispatches", "kernel_time_ns"}
KERNEL_KEYS = {"name", "demangled", "dispatches", "total_ns", "mean_ns", "time_fraction", "grid", "block", "work_items",
               "registers", "arch_vgpr", "accum_vgpr", "sgprs", "shared", "scratch", "occupancy", "findings", "recommended"}
# What wavefit adds to each kernel beyond the contract's fields.
KERNEL_EXTRA_KEYS = {"estimated_achieved_occupancy", "trace_occupancy", "occupancy_limits", "hint"}
OCCUPANCY_KEYS = {"active_blocks_per_cu", "active_waves_per_cu", "occupancy", "limiter"}
FINDING_KEYS = {"code", "severity", "message", "fix"}
RECOMMENDED_KEYS = {"block", "grid", "occupancy"}
AUDIT_CODES = {"idle_lanes", "scratch_spill", "grid_smaller_than_device", "tail_imbalance",
               "work_items_near_dispatch_limit", "low_occupancy", "grid_underfills_device"}
CHECK_ERROR_CODES = {"zero_dimension", "block_exceeds_device_max_threads", "block_dim_exceeds_device_limit",
                     "block_exceeds_kernel_max_threads", "registers_exceed_limit", "shared_memory_exceeds_limit",
                     "grid_dim_exceeds_device_limit", "work_items_exceed_dispatch_limit"}
FORMATS = {"rocprofv3_csv", "rocpd_csv", "rocprof_csv", "omniperf_csv", "rocprofv3_json", "nsys_csv", "kineto_json"}

# The AMD fixtures describe the same kernels (tests/data/traces/README.md): name -> what the trace says.
AMD_KERNELS = {
    "void tail_kernel<float>(float const*, float*, int)": dict(grid=1600, block=256, registers=96, dispatches=2),
    'regs_kernel(double*, "quoted", int)': dict(grid=1216, block=256, registers=252, arch_vgpr=130, accum_vgpr=120),
    "idle_lanes_kernel": dict(grid=100000, block=32, registers=16, dispatches=3),
    "spill_kernel": dict(grid=608, block=1024, registers=128, scratch=268),
    "small_grid_kernel": dict(grid=64, block=256),
    "sgpr_kernel": dict(grid=2128, block=256, sgprs=112),
    "huge_grid_kernel": dict(grid=15625000, block=256),
    "lds_too_big_kernel": dict(grid=304, block=256, shared=81920),
}
# Which finding each AMD fixture kernel must carry on an MI300X.
AMD_FINDINGS = {
    "void tail_kernel<float>(float const*, float*, int)": "tail_imbalance",
    'regs_kernel(double*, "quoted", int)': "low_occupancy",
    "idle_lanes_kernel": "idle_lanes",
    "spill_kernel": "scratch_spill",
    "small_grid_kernel": "grid_smaller_than_device",
    "huge_grid_kernel": "work_items_near_dispatch_limit",
    "lds_too_big_kernel": "shared_memory_exceeds_limit",
}


class AuditAssertions(CliAssertions):
    def audit_json(self, path, *args):
        result = run("audit", path, "--json", "--top", "0", *args)
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assertEqual(set(doc), {"source", "summary", "kernels"}, result.describe())
        self.assert_keys(doc["source"], SOURCE_KEYS, result)
        self.assertIn(doc["source"]["format"], FORMATS, result.describe())
        shares = 0.0
        for k in doc["kernels"]:
            self.assert_keys(k, KERNEL_KEYS | KERNEL_EXTRA_KEYS, result)
            self.assert_keys(k["occupancy"], OCCUPANCY_KEYS, result)
            self.assertTrue(0.0 <= k["occupancy"]["occupancy"] <= 1.0, result.describe())
            for f in k["findings"]:
                self.assert_keys(f, FINDING_KEYS, result)
                self.assertIn(f["code"], AUDIT_CODES | CHECK_ERROR_CODES, result.describe())
                self.assertIn(f["severity"], {"error", "warning", "info"}, result.describe())
                self.assertTrue(f["message"] and f["fix"], result.describe())
            if k["recommended"] is not None:
                self.assert_keys(k["recommended"], RECOMMENDED_KEYS, result)
            self.assertEqual(k["work_items"], [min(g * b, 2**64 - 1) for g, b in zip(k["grid"], k["block"])], result.describe())
            self.assertEqual(k["mean_ns"], k["total_ns"] // k["dispatches"], result.describe())
            shares += k["time_fraction"]
        # Shares add up to the whole, or are all 0 where the trace has no times (a pmc_perf.csv alone).
        self.assertAlmostEqual(shares, 1.0 if doc["summary"]["timed"] else 0.0, places=6, msg=result.describe())
        times = [k["total_ns"] for k in doc["kernels"]]
        self.assertEqual(times, sorted(times, reverse=True), "sorted by GPU time" + result.describe())
        self.assertEqual(min(sum(times), 2**64 - 1), doc["source"]["kernel_time_ns"], "saturating" + result.describe())
        self.assertEqual(sum(k["dispatches"] for k in doc["kernels"]), doc["source"]["dispatches"], result.describe())
        return doc, result

    def by_name(self, doc):
        return {k["name"]: k for k in doc["kernels"]}


class AuditFormats(AuditAssertions, unittest.TestCase):
    """Every format is told from its content and read into the same numbers."""

    def check_amd_kernels(self, doc, result, names=AMD_KERNELS, with_registers=True):
        kernels = self.by_name(doc)
        for name, expected in names.items():
            self.assertIn(name, kernels, result.describe())
            k = kernels[name]
            self.assertEqual(k["grid"], [expected["grid"], 1, 1], name + result.describe())
            self.assertEqual(k["block"], [expected["block"], 1, 1], name + result.describe())
            self.assertEqual(k["dispatches"], expected.get("dispatches", 1), name + result.describe())
            for field in ("shared",):
                self.assertEqual(k[field], expected.get(field, 0), name + result.describe())
            if with_registers:
                for field in ("registers", "arch_vgpr", "accum_vgpr", "sgprs", "scratch"):
                    if field in expected:
                        self.assertEqual(k[field], expected[field], name + result.describe())
        return kernels

    def test_rocprofv3_csv_with_registers_crlf_and_agent_info_beside_it(self):
        doc, result = self.audit_json(TRACES / "rocprofv3_mi300x_kernel_trace.csv")
        self.assertEqual(doc["source"]["format"], "rocprofv3_csv")
        self.assertEqual(doc["source"]["preset"], "mi300x", "from rocprofv3_mi300x_agent_info.csv" + result.describe())
        self.assertEqual(doc["source"]["device"], "AMD Instinct MI300X", result.describe())
        kernels = self.check_amd_kernels(doc, result)
        self.assertEqual(kernels["void tail_kernel<float>(float const*, float*, int)"]["total_ns"], 800000)
        for name, code in AMD_FINDINGS.items():
            codes = [f["code"] for f in kernels[name]["findings"]]
            self.assertIn(code, codes, name + result.describe())

    def test_rocprofv3_csv_of_rocm_6_2_with_bom_and_without_registers(self):
        doc, result = self.audit_json(TRACES / "rocprofv3_rocm62_kernel_trace.csv", "--preset", "mi300x")
        self.assertEqual(doc["source"]["format"], "rocprofv3_csv")
        self.assertIsNone(doc["source"]["device"], result.describe())
        kernels = self.check_amd_kernels(doc, result, with_registers=False)
        tail = kernels["void tail_kernel<float>(float const*, float*, int)"]
        self.assertIsNone(tail["arch_vgpr"], result.describe())
        self.assertEqual(tail["registers"], 0, result.describe())
        self.assertEqual(kernels["spill_kernel"]["scratch"], 268, "Private_Segment_Size" + result.describe())

    def test_rocprofv3_csv_with_stream_id(self):
        doc, result = self.audit_json(TRACES / "rocprofv3_stream_kernel_trace.csv", "--preset", "mi300x")
        self.assertEqual(doc["source"]["format"], "rocprofv3_csv")
        self.check_amd_kernels(doc, result, with_registers=False)

    def test_rocpd_export_with_guid_and_its_capitalisation(self):
        doc, result = self.audit_json(TRACES / "rocpd_kernel_trace.csv", "--preset", "mi300x")
        self.assertEqual(doc["source"]["format"], "rocpd_csv")
        self.check_amd_kernels(doc, result)

    def test_legacy_rocprof_results_csv(self):
        doc, result = self.audit_json(TRACES / "rocprof_results.csv", "--preset", "mi300x")
        self.assertEqual(doc["source"]["format"], "rocprof_csv")
        kernels = self.check_amd_kernels(doc, result)  # " [clone .kd]" dropped from every name
        self.assertEqual(kernels["spill_kernel"]["total_ns"], 150000, "DurationNs" + result.describe())

    def test_older_rocprof_results_csv_with_vgpr_and_begin_end(self):
        doc, result = self.audit_json(TRACES / "rocprof_old_results.csv", "--preset", "mi250x")
        self.assertEqual(doc["source"]["format"], "rocprof_csv")
        names = {n: AMD_KERNELS[n] for n in list(AMD_KERNELS)[:3]}
        kernels = self.check_amd_kernels(doc, result, names=names, with_registers=False)
        regs = kernels['regs_kernel(double*, "quoted", int)']
        self.assertEqual((regs["arch_vgpr"], regs["accum_vgpr"], regs["registers"]), (130, None, 130), result.describe())
        self.assertEqual(regs["total_ns"], 300000, "EndNs - BeginNs" + result.describe())

    def test_rocprof_stats_summary_is_refused_with_the_file_to_use(self):
        self.assert_usage_error(run("audit", TRACES / "rocprof_results.stats.csv", "--preset", "mi300x"), "results.csv")

    def test_omniperf_pmc_perf_and_timestamps_with_sysinfo_beside_them(self):
        for name in ("pmc_perf.csv", "timestamps.csv"):
            doc, result = self.audit_json(TRACES / "omniperf" / name)
            self.assertEqual(doc["source"]["format"], "omniperf_csv")
            self.assertEqual((doc["source"]["device"], doc["source"]["preset"]), ("MI250X", "mi250x"), result.describe())
            names = {n: AMD_KERNELS[n] for n in list(AMD_KERNELS)[:4]}
            kernels = self.check_amd_kernels(doc, result, names=names)
            # gfx90a unifies VGPRs and AGPRs too.
            self.assertEqual(kernels['regs_kernel(double*, "quoted", int)']["registers"], 252, result.describe())

    def test_rocprofv3_json_joins_symbols_and_counts_buffer_records_once(self):
        doc, result = self.audit_json(TRACES / "rocprofv3_results.json")
        self.assertEqual(doc["source"]["format"], "rocprofv3_json")
        self.assertEqual((doc["source"]["device"], doc["source"]["preset"]), ("AMD Instinct MI250X", "mi250x"), result.describe())
        self.assertEqual(doc["source"]["dispatches"], 4, "callback_records are not counted again" + result.describe())
        kernels = self.by_name(doc)
        tail = kernels["_Z11tail_kernelPKfPfi"]
        self.assertEqual(tail["demangled"], "tail_kernel(float const*, float*, int)", result.describe())
        self.assertEqual((tail["grid"], tail["registers"], tail["dispatches"]), ([1600, 1, 1], 96, 2), result.describe())
        mfma = kernels["mfma_kernel"]
        self.assertEqual((mfma["arch_vgpr"], mfma["accum_vgpr"], mfma["registers"], mfma["sgprs"]), (130, 120, 252, 48),
                         result.describe())
        self.assertEqual((mfma["shared"], mfma["scratch"], mfma["grid"]), (2048, 64, [64, 1, 1]), result.describe())

    def test_nsys_cuda_gpu_trace_with_preamble_memcpy_rows_and_megabytes(self):
        doc, result = self.audit_json(TRACES / "nsys_cuda_gpu_trace.csv", "--preset", "h200")
        self.assertEqual(doc["source"]["format"], "nsys_csv")
        self.assertEqual(doc["summary"]["skipped_rows"], 1, "the memcpy row" + result.describe())
        kernels = self.by_name(doc)
        gemm = kernels["void gemm_kernel<float, 128>(float const*, float const*, float*, int)"]
        # GrdX counts blocks in nsys.
        self.assertEqual((gemm["grid"], gemm["block"], gemm["registers"], gemm["dispatches"]), ([1024, 1, 1], [96, 1, 1], 128, 2))
        self.assertEqual(kernels["warp_and_a_half_kernel"]["shared"], 8000, "0.008 MB" + result.describe())
        self.assertEqual(kernels["static_shared_kernel"]["shared"], 40000, result.describe())

    def test_nsys_units_are_read_from_the_header(self):
        doc, result = self.audit_json(TRACES / "nsys_cuda_gpu_trace_us.csv", "--preset", "h200")
        kernels = self.by_name(doc)
        self.assertEqual(kernels["void gemm_kernel<float, 128>(float const*, float const*, float*, int)"]["total_ns"], 120500)
        self.assertEqual(kernels["warp_and_a_half_kernel"]["shared"], 8192, "DymSMem (B)" + result.describe())

    def test_gzip_input_reads_like_the_plain_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            plain = TRACES / "rocpd_kernel_trace.csv"
            packed = Path(tmp) / "trace.csv.gz"
            packed.write_bytes(gzip.compress(plain.read_bytes()))
            a, _ = self.audit_json(plain, "--preset", "mi300x")
            b, _ = self.audit_json(packed, "--preset", "mi300x")
            self.assertEqual(a["kernels"], b["kernels"])

    def test_format_comes_from_the_content_not_the_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            renamed = Path(tmp) / "trace.json"
            shutil.copy(TRACES / "nsys_cuda_gpu_trace.csv", renamed)
            doc, _ = self.audit_json(renamed, "--preset", "h200")
            self.assertEqual(doc["source"]["format"], "nsys_csv")


class AuditKinetoOnH200(AuditAssertions, unittest.TestCase):
    """The PyTorch profiler traces recorded on the H200 (record_kineto.py), audited end to end."""

    def check_trace(self, name, min_kernels):
        doc, result = self.audit_json(TRACES / name)
        self.assertEqual(doc["source"]["format"], "kineto_json")
        self.assertEqual((doc["source"]["device"], doc["source"]["preset"]), ("NVIDIA H200", "h200"), result.describe())
        self.assertGreaterEqual(len(doc["kernels"]), min_kernels, result.describe())
        compared = 0
        for k in doc["kernels"]:
            trace = k["trace_occupancy"]
            self.assertIsNotNone(trace, k["name"] + result.describe())
            if k["shared"] > 48 * 1024:
                # Kineto's estimate reads 0 for kernels that opted in to more than 48 KiB of shared memory;
                # wavefit models the opt-in (they do run: the trace timed them).
                self.assertEqual(trace, 0.0, k["name"])
                self.assertGreater(k["occupancy"]["occupancy"], 0.0, k["name"])
                continue
            # Otherwise wavefit's estimate capped by the grid matches the trace's own within 1.5 points.
            self.assertAlmostEqual(k["estimated_achieved_occupancy"], trace, delta=0.015,
                                   msg=f"{k['name']}: grid {k['grid']} block {k['block']} regs {k['registers']} "
                                       f"shared {k['shared']}: wavefit {k['estimated_achieved_occupancy']:.3f} "
                                       f"vs Kineto {trace:.3f}")
            compared += 1
        self.assertGreater(compared, min_kernels // 2, result.describe())
        return doc

    def test_resnet18(self):
        self.check_trace("kineto_resnet18_h200.json.gz", 40)

    def test_tiny_language_model(self):
        doc = self.check_trace("kineto_tinylm_h200.json.gz", 20)
        top = doc["kernels"][0]
        self.assertEqual((top["grid"], top["block"], top["registers"]), ([2, 66, 1], [384, 1, 1], 168))
        self.assertEqual(top["occupancy"]["limiter"], "registers")

    def test_text_table_shows_both_estimates_and_findings_under_the_kernel(self):
        result = run("audit", TRACES / "kineto_tinylm_h200.json.gz", "--top", "5")
        self.assert_exit(result, 0)
        self.assertIn("est./trace", result.out, result.describe())
        self.assertIn("    warning low_occupancy:", result.out, result.describe())
        self.assertIn("(18 more kernels; --top 0 shows all)", result.out, result.describe())

    def test_markdown(self):
        result = run("audit", TRACES / "kineto_resnet18_h200.json.gz", "--top", "3", "--markdown")
        self.assert_exit(result, 0)
        self.assertTrue(result.out.startswith("## wavefit audit: "), result.describe())
        self.assertIn("| # | time | calls |", result.out, result.describe())
        self.assertEqual(result.out.count("\n| "), 1 + 3, "header + 3 rows" + result.describe())


class RocprofComputeWorkload(AuditAssertions, unittest.TestCase):
    """Issue 20: a real rocprof-compute pmc_perf.csv has no timestamps (tests/data/traces/README.md says
    where its layout comes from); audit reads it, joins the times of timestamps.csv by dispatch where the
    workload folder has one, and otherwise says the time shares are unknown and ranks by dispatch count."""

    WORKLOAD = TRACES / "omniperf_mi300a"
    # The start of the header of a public MI300A workload's pmc_perf.csv, as issue 20 quotes it.
    REAL_HEADER = ("Dispatch_ID,Kernel_Name,GPU_ID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,Scratch_Per_Workitem,"
                   "Arch_VGPR,Accum_VGPR,SGPR,wave_size,obj,SQ_INSTS_FLAT,")
    SOFTMAX = "softmax_kernel(float const*, float*, int)"
    GEMM = "gemm_kernel(float const*, float const*, float*, int)"
    REDUCE = "reduce_kernel(float const*, float*, long)"

    def workload_copy(self, *names):
        """The workload folder's `names` in a temporary folder (to leave timestamps.csv out)."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        for name in names:
            shutil.copy(self.WORKLOAD / name, Path(tmp.name) / name)
        return Path(tmp.name)

    def test_the_fixture_has_the_real_layout_without_timestamps(self):
        header = (self.WORKLOAD / "pmc_perf.csv").read_text().splitlines()[0]
        self.assertTrue(header.startswith(self.REAL_HEADER), header)
        self.assertNotIn("Timestamp", header)

    def test_pmc_perf_joins_the_times_of_timestamps_csv_by_dispatch(self):
        doc, result = self.audit_json(self.WORKLOAD / "pmc_perf.csv")
        self.assertEqual(doc["source"]["format"], "omniperf_csv", result.describe())
        self.assertEqual((doc["source"]["device"], doc["source"]["preset"]), ("MI300A", "mi300a"), result.describe())
        summary = doc["summary"]
        self.assertEqual((summary["timed"], summary["ranked_by"], summary["times_from"], summary["untimed_dispatches"]),
                         (True, "gpu_time", "timestamps.csv", 0), result.describe())
        self.assertEqual((doc["source"]["dispatches"], doc["source"]["kernel_time_ns"]), (7, 1180000), result.describe())
        kernels = self.by_name(doc)
        self.assertEqual([k["name"] for k in doc["kernels"]], [self.GEMM, self.REDUCE, self.SOFTMAX], result.describe())
        gemm = kernels[self.GEMM]
        self.assertEqual((gemm["total_ns"], gemm["dispatches"], gemm["grid"], gemm["block"]),
                         (1000000, 2, [912, 1, 1], [256, 1, 1]), result.describe())
        self.assertEqual((gemm["arch_vgpr"], gemm["accum_vgpr"], gemm["registers"], gemm["sgprs"], gemm["shared"]),
                         (128, 64, 192, 48, 16384), "registers are audited" + result.describe())
        self.assertIn("low_occupancy", [f["code"] for f in gemm["findings"]], result.describe())
        self.assertEqual(kernels[self.SOFTMAX]["total_ns"], 80000, result.describe())
        text = run("audit", self.WORKLOAD / "pmc_perf.csv")
        self.assert_exit(text, 0)
        self.assertIn("times joined by Dispatch_ID from timestamps.csv beside the trace", text.out, text.describe())
        self.assertIn("top 3 by GPU time", text.out, text.describe())

    def test_without_timestamps_csv_the_time_shares_are_unknown_and_kernels_rank_by_dispatch_count(self):
        folder = self.workload_copy("pmc_perf.csv", "sysinfo.csv")
        doc, result = self.audit_json(folder / "pmc_perf.csv")
        self.assertEqual((doc["summary"]["timed"], doc["summary"]["ranked_by"], doc["summary"]["times_from"]),
                         (False, "dispatches", None), result.describe())
        self.assertEqual([(k["name"], k["dispatches"]) for k in doc["kernels"]],
                         [(self.SOFTMAX, 4), (self.GEMM, 2), (self.REDUCE, 1)], result.describe())
        self.assertEqual({k["total_ns"] for k in doc["kernels"]}, {0}, result.describe())
        softmax = self.by_name(doc)[self.SOFTMAX]
        self.assertEqual((softmax["grid"], softmax["registers"], softmax["sgprs"], softmax["shared"]),
                         ([391, 1, 1], 24, 32, 1024), result.describe())
        self.assertIn("grid_underfills_device", [f["code"] for f in softmax["findings"]], result.describe())
        text = run("audit", folder / "pmc_perf.csv")
        self.assert_exit(text, 0)
        self.assertIn("times unknown", text.out, text.describe())
        self.assertIn("top 3 by dispatch count", text.out, text.describe())
        self.assertNotIn("of kernel time", text.out.splitlines()[0], text.describe())
        row = next(line for line in text.out.splitlines() if line.startswith("1 "))
        self.assertEqual(row.split()[:5], ["1", "-", "-", "4", "-"], text.describe())

    def test_a_dispatch_without_a_row_in_timestamps_csv_counts_zero_and_is_counted(self):
        folder = self.workload_copy("pmc_perf.csv", "sysinfo.csv")
        lines = (self.WORKLOAD / "timestamps.csv").read_text().splitlines(keepends=True)
        (folder / "timestamps.csv").write_text("".join(line for line in lines if not line.startswith("3,")))
        doc, result = self.audit_json(folder / "pmc_perf.csv")
        self.assertEqual((doc["summary"]["timed"], doc["summary"]["untimed_dispatches"]), (True, 1), result.describe())
        self.assertEqual(self.by_name(doc)[self.REDUCE]["total_ns"], 0, result.describe())
        self.assertEqual(self.by_name(doc)[self.GEMM]["total_ns"], 1000000, result.describe())

    def test_the_other_csvs_of_a_workload_folder_name_the_file_to_audit(self):
        self.assert_usage_error(run("audit", self.WORKLOAD / "pmc_dispatch_info.csv"), "pmc_dispatch_info.csv",
                                "audit the workload's pmc_perf.csv")
        self.assert_usage_error(run("audit", self.WORKLOAD / "sysinfo.csv"), "sysinfo.csv",
                                "audit pmc_perf.csv or timestamps.csv beside it")
        # timestamps.csv is a trace of its own (it has the launch fields and the times).
        doc, result = self.audit_json(self.WORKLOAD / "timestamps.csv")
        self.assertEqual((doc["source"]["format"], doc["source"]["kernel_time_ns"]), ("omniperf_csv", 1180000),
                         result.describe())


class GridFillInEveryFormat(AuditAssertions, unittest.TestCase):
    """Issue 20: audit says how much of the device's resident-block slots a grid fills, with the same
    code and words as `wavefit check` for the same launch, whatever the trace format."""

    # (fixture, --preset if the trace does not name the device)
    TRACES_AND_DEVICES = [
        ("rocprofv3_mi300x_kernel_trace.csv", None), ("rocprofv3_rocm62_kernel_trace.csv", "mi300x"),
        ("rocprofv3_stream_kernel_trace.csv", "mi300x"), ("rocpd_kernel_trace.csv", "mi300x"),
        ("rocprof_results.csv", "mi300x"), ("rocprof_old_results.csv", "mi250x"), ("omniperf/pmc_perf.csv", None),
        ("omniperf_mi300a/pmc_perf.csv", None),
        ("omniperf/timestamps.csv", None), ("rocprofv3_results.json", None), ("nsys_cuda_gpu_trace.csv", "h200"),
        ("kineto_resnet18_h200.json.gz", None), ("kineto_tinylm_h200.json.gz", None),
    ]

    def test_audit_reports_grid_underfills_device_exactly_where_check_does(self):
        found_in = set()
        for name, preset in self.TRACES_AND_DEVICES:
            args = ["--preset", preset] if preset else []
            doc, result = self.audit_json(TRACES / name, *args)
            device = doc["source"]["preset"]
            for k in doc["kernels"]:
                audited = [f for f in k["findings"] if f["code"] == "grid_underfills_device"]
                kernel = ["--regs", str(k["registers"]), "--static-shared", str(k["shared"])]
                if k["sgprs"] is not None and device.startswith("mi"):
                    kernel += ["--sgprs", str(k["sgprs"])]
                checked = run("check", "--preset", device, "--grid", ",".join(map(str, k["grid"])),
                              "--block", ",".join(map(str, k["block"])), *kernel, "--json")
                check_doc = self.json_of(checked)
                expected = [dg for dg in check_doc["diagnostics"] if dg["code"] == "grid_underfills_device"]
                blocks = k["grid"][0] * k["grid"][1] * k["grid"][2]
                smaller = any(f["code"] == "grid_smaller_than_device" for f in k["findings"])
                if smaller:  # below one block per CU/SM audit says grid_smaller_than_device instead
                    self.assertEqual(audited, [], name + result.describe())
                    continue
                self.assertEqual([(f["severity"], f["message"], f["fix"]) for f in audited],
                                 [(dg["severity"], dg["message"], dg["fix"]) for dg in expected],
                                 f"{name}: {k['name']} ({blocks} blocks){checked.describe()}")
                if audited:
                    found_in.add(doc["source"]["format"])
        # The finding is not only possible but seen: in the AMD CSVs without registers (more blocks per CU
        # than the registers would allow) and in the recorded H200 traces.
        for fmt in ("rocprofv3_csv", "omniperf_csv", "kineto_json"):
            self.assertIn(fmt, found_in)

    def test_the_grid_capped_estimate_is_shown_for_every_format(self):
        result = run("audit", TRACES / "rocprofv3_mi300x_kernel_trace.csv", "--top", "2")
        self.assert_exit(result, 0)
        self.assertIn("est. = capped by the grid", result.out, result.describe())
        header = next(line for line in result.out.splitlines() if line.startswith("#  time"))
        self.assertIn(" est. ", header, result.describe())
        markdown = run("audit", TRACES / "rocprofv3_mi300x_kernel_trace.csv", "--top", "2", "--markdown")
        self.assertIn("| est. |", markdown.out, markdown.describe())


class AuditHostileInput(AuditAssertions, unittest.TestCase):
    """Bad input: one line on stderr, exit 2, never a crash or a hang."""

    HEADER = ("Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,Correlation_Id,"
              "Start_Timestamp,End_Timestamp,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,"
              "Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z\n")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, data):
        path = Path(self.tmp.name) / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return path

    def test_a_trace_without_a_device_needs_preset_and_says_so(self):
        self.assert_usage_error(run("audit", TRACES / "rocpd_kernel_trace.csv"), "--preset", "rocpd_csv")
        self.assert_usage_error(run("audit", TRACES / "rocpd_kernel_trace.csv", "--preset", "nope"), "nope")

    def test_unreadable_empty_and_unknown_inputs(self):
        self.assert_usage_error(run("audit", Path(self.tmp.name) / "missing.csv", "--preset", "mi300x"), "missing.csv")
        self.assert_usage_error(run("audit", self.write("empty.csv", ""), "--preset", "mi300x"), "empty")
        self.assert_usage_error(run("audit", self.write("x.csv", "a,b,c\n1,2,3\n"), "--preset", "mi300x"), "not a trace")
        self.assert_usage_error(run("audit", self.write("bin", bytes(range(256)) * 64), "--preset", "mi300x"))
        self.assert_usage_error(run("audit", self.write("t.json", '{"traceEvents": [{"cat": "kernel", '), "--preset", "h200"), "JSON")
        self.assert_usage_error(run("audit", self.write("o.json", '{"other": 1}'), "--preset", "h200"), "traceEvents")
        self.assert_usage_error(run("audit", self.write("bad.gz", gzip.compress(b"x" * 1000)[:-12]), "--preset", "h200"), "gzip")

    def test_a_header_without_dispatches_or_without_needed_columns(self):
        self.assert_usage_error(run("audit", self.write("h.csv", self.HEADER), "--preset", "mi300x"), "without any kernel dispatch")
        self.assert_usage_error(run("audit", self.write("m.csv", "Kernel_Name,Grid_Size_X\nk,64\n"), "--preset", "mi300x"),
                                "block size")

    def test_hostile_cells_are_skipped_or_clamped_never_wrapped(self):
        rows = [
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,"good, ""quoted"" name",1,100,200,0,0,32,0,16,256,1,1,65536,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,neg,1,100,200,0,0,32,0,16,-256,1,1,65536,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,text,1,100,200,0,0,32,0,16,abc,1,1,65536,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,huge,1,100,200,0,0,32,0,16,256,1,1,99999999999999999999999,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,short_row,1,100',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,backwards,1,500,100,0,0,32,0,16,256,1,1,65536,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,zero_block,1,100,200,0,0,32,0,16,0,1,1,65536,1,1',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,big,1,0,18446744073709551615,0,0,4294967295,4294967295,4294967295,'
            '1024,1,1,18446744073709551615,1,1,extra,columns',
            'KERNEL_DISPATCH,Agent 4,1,0,1,1,1,' + "n" * 300000 + ',1,100,200,0,0,32,0,16,256,1,1,65536,1,1',
        ]
        path = self.write("h.csv", self.HEADER + "\n".join(rows) + "\n")
        doc, result = self.audit_json(path, "--preset", "mi300x")
        kernels = self.by_name(doc)
        self.assertEqual(set(kernels), {'good, "quoted" name', "backwards", "zero_block", "big"}, result.describe())
        self.assertEqual(doc["summary"]["skipped_rows"], 5, result.describe())
        self.assertEqual(kernels["backwards"]["total_ns"], 0, "an end before the start is a zero duration")
        zero = [f["code"] for f in kernels["zero_block"]["findings"]]
        self.assertIn("zero_dimension", zero, result.describe())
        big = kernels["big"]
        self.assertEqual(big["registers"], 4294967295, result.describe())
        self.assertIn("work_items_exceed_dispatch_limit", [f["code"] for f in big["findings"]], result.describe())
        # Text and Markdown take the same input.
        for flag in ([], ["--markdown"]):
            self.assert_exit(run("audit", path, "--preset", "mi300x", *flag), 0)

    def test_too_many_distinct_kernels_is_refused_not_held(self):
        row = "KERNEL_DISPATCH,Agent 4,1,0,1,1,1,k{},1,100,200,0,0,32,0,16,256,1,1,65536,1,1\n"
        path = self.write("many.csv", self.HEADER + "".join(row.format(i) for i in range(100001)))
        self.assert_usage_error(run("audit", path, "--preset", "mi300x"), "more than 100000 distinct kernel launch configurations")

    def test_kineto_events_with_hostile_fields_are_skipped(self):
        events = [
            {"ph": "X", "cat": "kernel", "name": "ok", "dur": 1.5, "args": {"grid": [10, 1, 1], "block": [64, 1, 1]}},
            {"ph": "X", "cat": "kernel", "name": "neg", "dur": -1, "args": {"grid": [10, 1, 1], "block": [64, 1, 1]}},
            {"ph": "X", "cat": "kernel", "name": "nogrid", "dur": 1, "args": {}},
            {"ph": "X", "cat": "kernel", "name": "strgrid", "dur": 1, "args": {"grid": "x", "block": [64]}},
            {"ph": "X", "cat": "kernel", "name": "deep", "dur": 1, "args": {"grid": [[[[1]]]], "block": [64]}},
            {"ph": "X", "cat": "cpu_op", "name": "not a kernel", "dur": 1},
            [1, 2, 3],
            "string event",
        ]
        path = self.write("k.json", json.dumps({"deviceProperties": [{"name": "NVIDIA H100 80GB HBM3"}], "traceEvents": events}))
        doc, result = self.audit_json(path)
        self.assertEqual(doc["source"]["preset"], "h100", result.describe())
        self.assertEqual([k["name"] for k in doc["kernels"]], ["ok"], result.describe())
        self.assertEqual(doc["kernels"][0]["total_ns"], 1500, result.describe())

    def test_flags(self):
        self.assert_usage_error(run("audit"), "FILE")
        self.assert_usage_error(run("audit", "a", "b"), "'b'")
        self.assert_usage_error(run("audit", TRACES / "rocpd_kernel_trace.csv", "--json", "--markdown"), "--markdown")
        self.assert_usage_error(run("audit", TRACES / "rocpd_kernel_trace.csv", "--top", "-1"), "--top")
        result = run("audit", TRACES / "rocpd_kernel_trace.csv", "--preset", "mi300x", "--top", "2", "--json")
        self.assert_exit(result, 0)
        self.assertEqual(len(self.json_of(result)["kernels"]), 2, result.describe())


class HintInOccupancyAndInspect(CliAssertions, unittest.TestCase):
    """The "what to reduce" hint audit gives is the one `occupancy` prints (and `inspect` notes)."""

    def test_occupancy_names_the_register_count_for_one_more_wave(self):
        result = run("occupancy", "--preset", "mi300x", "--regs", "96", "--block", "256")
        self.assert_exit(result, 0)
        self.assertIn("to gain a wave at block 256: registers 96 -> 80 gives 6 waves per SIMD instead of 5\n", result.out,
                      result.describe())
        result = run("occupancy", "--preset", "h200", "--regs", "128")
        self.assert_exit(result, 0)
        self.assertIn("registers 128 -> ", result.out, result.describe())

    def test_no_hint_at_full_occupancy(self):
        result = run("occupancy", "--preset", "mi300x", "--regs", "32", "--block", "256")
        self.assert_exit(result, 0)
        self.assertNotIn("to gain", result.out, result.describe())

    def test_audit_json_carries_the_same_hint(self):
        result = run("audit", TRACES / "rocprofv3_mi300x_kernel_trace.csv", "--json")
        self.assert_exit(result, 0)
        kernels = {k["name"]: k for k in self.json_of(result)["kernels"]}
        self.assertEqual(kernels["void tail_kernel<float>(float const*, float*, int)"]["hint"],
                         "registers 96 -> 80 gives 6 waves per SIMD instead of 5", result.describe())
        self.assertEqual(kernels["sgpr_kernel"]["hint"], "SGPRs 112 -> 96 gives 8 waves per SIMD instead of 7")


if __name__ == "__main__":
    unittest.main()
