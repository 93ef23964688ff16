#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specifications of the installed `wavefit` command-line tool (docs/cli.md, "The command-line tool").

Runs the binary named by $WAVEFIT_CLI (tests/cli/CMakeLists.txt points it at a fresh `cmake --install`).
Every failure message shows the command, its exit status, stdout and stderr. Python standard library only.
"""

import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

CLI = os.environ.get("WAVEFIT_CLI", "")
# The directory where tests/code_object built its sample kernels; empty when WAVEFIT_TEST_CODE_OBJECTS
# is OFF (no hipcc), and then the tests on compiled binaries are skipped.
SAMPLES = os.environ.get("WAVEFIT_CODE_OBJECT_SAMPLES", "")
# "" for the default build, "CUDA" or "HIP" when the CLI was built with a GPU backend.
BACKEND = os.environ.get("WAVEFIT_CLI_BACKEND", "")
# Generous: sanitizer builds are slow, but a hang must still fail rather than stall CTest.
TIMEOUT_S = 30
U64_MAX = 2**64 - 1

PRESETS = ["mi210", "mi250x", "mi300a", "mi300x", "mi325x", "mi355x", "rx7900xtx", "a100", "h100", "h200"]
DIAGNOSTIC_CODES = {
    "zero_dimension": "error",
    "block_exceeds_device_max_threads": "error",
    "block_dim_exceeds_device_limit": "error",
    "block_exceeds_kernel_max_threads": "error",
    "registers_exceed_limit": "error",
    "shared_memory_exceeds_limit": "error",
    "shared_memory_requires_opt_in": "warning",
    "grid_dim_exceeds_device_limit": "error",
    "work_items_exceed_dispatch_limit": "error",
    "block_not_wave_multiple": "warning",
    "grid_underfills_device": "warning",
    "negative_size": "error",
    "contract_allows_no_block": "error",
}
# Not a validity rule: `check` (and `audit`) say it of a valid grid that leaves a quarter or more of the
# device's resident-block slots empty, which most small test launches do; `plan` never says it.
FILL = "grid_underfills_device"
LIMITERS = {"waves", "blocks", "registers", "scalar_registers", "shared_memory", "block_size"}

CHECK_KEYS = {"valid", "diagnostics"}
DIAGNOSTIC_KEYS = {"code", "severity", "message", "fix"}
PLAN_KEYS = {"elements", "empty", "block", "grid", "grid_stride", "occupancy", "reason", "valid", "diagnostics",
             "exceeds_one_pass", "work", "kernel_loops", "powers_of_two", "block_at_most", "block_fixed"}
PLAN_OCCUPANCY_KEYS = {"active_blocks_per_cu", "active_waves_per_cu", "occupancy", "limiter"}
OCCUPANCY_ROW_KEYS = {"block", "active_blocks_per_cu", "active_waves_per_cu", "occupancy", "limiter"}
EXPLAIN_KEYS = {"name", "code", "meaning", "causes", "fixes"}
# docs/cli.md's inspect entry, and what wavefit adds to it.
INSPECT_KEYS = {"target", "name", "demangled", "vgpr_count", "agpr_count", "sgpr_count", "static_shared", "scratch",
                "max_threads", "wave_size", "preset", "recommended_block", "occupancy"}
INSPECT_EXTRA_KEYS = {"target_id", "symbol", "vgpr_spill_count", "sgpr_spill_count", "uses_dynamic_stack", "notes"}
KERNEL_KEYS = {"file", "name", "demangled", "target", "target_id", "preset", "notes"}
# inspect --preset P adds whether the binary loads on P.
INSPECT_DEVICE_KEYS = {"preset", "target_id", "loads", "message"}
PRESET_KEYS = {"name", "arch", "wave_size", "compute_units"}

# What a sanitizer build prints when it finds a bug; the process may still exit 0/1/2.
SANITIZER_SIGNS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")


class Result:
    def __init__(self, args, returncode, out, err):
        self.args = args
        self.returncode = returncode
        self.out = out
        self.err = err

    def describe(self):
        return (f"\ncommand: wavefit {shlex.join(self.args)}\nexit status: {self.returncode}\n"
                f"stdout:\n{self.out}\nstderr:\n{self.err}")


def run(*args):
    """Runs the installed wavefit with `args` (bytes pass unchanged, anything else as str)."""
    args = [a if isinstance(a, bytes) else str(a) for a in args]
    shown = [a.decode("utf-8", "backslashreplace") if isinstance(a, bytes) else a for a in args]
    try:
        done = subprocess.run([CLI, *args], capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"wavefit {shlex.join(shown)} did not finish within {TIMEOUT_S} s")
    return Result(shown, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def dims_arg(values):
    return ",".join(str(v) for v in values)


def installed_header(name):
    """A header of the installed package, next to the installed binary."""
    return Path(CLI).resolve().parent.parent / "include" / "wavefit" / name


def device_limits_fields():
    """The member names of wavefit::device_limits, read from the installed header."""
    text = installed_header("device_limits.hpp").read_text()
    body = re.search(r"struct device_limits \{(.*?)\n\};", text, re.S).group(1)
    fields = []
    for line in body.splitlines():
        line = line.split("//")[0].strip()
        m = re.match(r"^[\w:]+\s+(\w+)\s*(=[^;]*|\{[^;]*\})?;$", line)
        if m and "(" not in line:
            fields.append(m.group(1))
    return fields


class CliAssertions:
    """Assertions that print the whole command and its output on failure."""

    def assert_exit(self, result, code):
        self.assertEqual(result.returncode, code, result.describe())
        self.assert_no_sanitizer_report(result)

    def assert_no_sanitizer_report(self, result):
        for sign in SANITIZER_SIGNS:
            self.assertNotIn(sign, result.err, result.describe())

    def json_of(self, result):
        """stdout parsed as exactly one JSON document (nan/inf are not JSON and fail here)."""
        def reject(constant):
            raise ValueError(f"non-JSON constant {constant}")
        try:
            return json.loads(result.out, parse_constant=reject)
        except ValueError as e:
            self.fail(f"stdout is not one JSON document ({e}){result.describe()}")

    def assert_usage_error(self, result, *mentions):
        """Exit 2, nothing on stdout, exactly one line on stderr starting 'wavefit: error: '."""
        self.assert_exit(result, 2)
        self.assertEqual(result.out, "", result.describe())
        self.assertTrue(result.err.startswith("wavefit: error: "), result.describe())
        self.assertEqual(result.err.count("\n"), 1, "stderr must be exactly one line" + result.describe())
        self.assertTrue(result.err.endswith("\n"), result.describe())
        for text in mentions:
            self.assertIn(text, result.err, result.describe())

    def assert_keys(self, obj, keys, result):
        self.assertIsInstance(obj, dict, result.describe())
        self.assertEqual(set(obj), keys, result.describe())

    def assert_diagnostics_well_formed(self, doc, result):
        for dg in doc["diagnostics"]:
            self.assert_keys(dg, DIAGNOSTIC_KEYS, result)
            self.assertIn(dg["code"], DIAGNOSTIC_CODES, result.describe())
            self.assertEqual(dg["severity"], DIAGNOSTIC_CODES[dg["code"]], result.describe())
            self.assertTrue(dg["message"] and dg["fix"], result.describe())
        has_error = any(dg["severity"] == "error" for dg in doc["diagnostics"])
        self.assertEqual(doc["valid"], not has_error, "valid must be false exactly when some diagnostic is an error"
                         + result.describe())

    def check_json(self, *args):
        result = run("check", *args, "--json")
        doc = self.json_of(result)
        self.assert_keys(doc, CHECK_KEYS, result)
        self.assert_diagnostics_well_formed(doc, result)
        self.assert_exit(result, 0 if doc["valid"] else 1)
        return doc, result

    def plan_json(self, *args):
        result = run("plan", *args, "--json")
        doc = self.json_of(result)
        self.assert_keys(doc, PLAN_KEYS, result)
        self.assert_keys(doc["occupancy"], PLAN_OCCUPANCY_KEYS, result)
        self.assert_diagnostics_well_formed(doc, result)
        self.assert_exit(result, 0 if doc["valid"] else 1)
        return doc, result

    def occupancy_rows(self, *args):
        result = run("occupancy", *args, "--json")
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assert_keys(doc, {"rows"}, result)
        for row in doc["rows"]:
            # The runtime API's figure appears only beside a block over the kernel's own maximum.
            extra = {"runtime_api_active_blocks_per_cu"} if "runtime_api_active_blocks_per_cu" in row else set()
            if extra:
                self.assertEqual(row["limiter"], "block_size", result.describe())
            self.assert_keys(row, OCCUPANCY_ROW_KEYS | extra, result)
            self.assertIn(row["limiter"], LIMITERS, result.describe())
            self.assertIsInstance(row["occupancy"], float, result.describe())
            self.assertTrue(0.0 <= row["occupancy"] <= 1.0, result.describe())
        return doc["rows"], result


class TopLevel(CliAssertions, unittest.TestCase):
    def test_help_lists_every_subcommand_on_stdout_and_exits_0(self):
        for flag in ("--help", "-h"):
            result = run(flag)
            self.assert_exit(result, 0)
            self.assertEqual(result.err, "", result.describe())
            for sub in ("presets", "info", "check", "plan", "occupancy", "inspect", "explain"):
                self.assertIn(sub, result.out, result.describe())

    def test_every_subcommand_has_help_on_stdout_listing_its_flags(self):
        expected_flags = {
            "presets": ["--json"],
            "info": ["--preset", "--device", "--json"],
            "check": ["--preset", "--device", "--grid", "--block", "--regs", "--sgprs", "--static-shared",
                      "--dynamic-shared", "--kernel-max-threads", "--kernel FILE:NAME", "--json"],
            "plan": ["--preset", "--device", "--elements", "--extent", "--regs", "--sgprs", "--static-shared",
                     "--dynamic-shared", "--kernel-max-threads", "--kernel FILE:NAME", "--json"],
            "occupancy": ["--preset", "--device", "--block", "--regs", "--sgprs", "--static-shared",
                          "--dynamic-shared", "--kernel-max-threads", "--kernel FILE:NAME", "--json"],
            "inspect": ["FILE", "--preset", "--kernel NAME", "--json"],
            "explain": ["--json"],
        }
        for sub, flags in expected_flags.items():
            result = run(sub, "--help")
            self.assert_exit(result, 0)
            self.assertTrue(result.out.startswith(f"usage: wavefit {sub}"), result.describe())
            for flag in flags:
                self.assertIn(flag, result.out, result.describe())

    def test_help_subcommand_prints_what_dash_dash_help_prints(self):
        # Issue 20: `wavefit help` and `wavefit help SUBCOMMAND` were unknown subcommands.
        self.assertEqual(run("help").out, run("--help").out)
        self.assert_exit(run("help"), 0)
        for sub in ("presets", "info", "check", "plan", "occupancy", "inspect", "explain", "tuning", "audit"):
            result = run("help", sub)
            self.assert_exit(result, 0)
            self.assertEqual(result.out, run(sub, "--help").out, result.describe())
        for action in ("show", "check", "merge"):
            result = run("help", "tuning", action)
            self.assert_exit(result, 0)
            self.assertEqual(result.out, run("tuning", action, "--help").out, result.describe())
        self.assert_usage_error(run("help", "frobnicate"), "'frobnicate'")
        self.assert_usage_error(run("help", "check", "show"), "'show'")
        self.assert_usage_error(run("help", "tuning", "frob"), "show, check, merge", "'frob'")
        self.assert_usage_error(run("help", "tuning", "show", "x"), "'x'")

    def test_each_tuning_action_prints_its_own_help_with_its_own_flags(self):
        expected = {"show": (["--json"], ["--preset", "-o FILE"]),
                    "check": (["--preset", "--device", "--json"], ["-o FILE"]),
                    "merge": (["-o FILE", "--json"], ["--preset", "--device"])}
        for action, (present, absent) in expected.items():
            result = run("tuning", action, "--help")
            self.assert_exit(result, 0)
            self.assertTrue(result.out.startswith(f"usage: wavefit tuning {action} "), result.describe())
            flags = result.out.split("\nflags:\n", 1)[1]
            for flag in present:
                self.assertIn(flag, flags, result.describe())
            for flag in absent:
                self.assertNotIn(flag, flags, result.describe())
        # The subcommand's own help still covers all three, and says how to ask for one.
        whole = run("tuning", "--help")
        self.assertIn("tuning ACTION --help", whole.out, whole.describe())

    def test_the_numbers_footer_appears_only_where_numbers_are_taken(self):
        with_numbers = {"check", "plan", "occupancy", "audit"}
        for args in (["--help"], ["presets", "--help"], ["info", "--help"], ["check", "--help"], ["plan", "--help"],
                     ["occupancy", "--help"], ["inspect", "--help"], ["explain", "--help"], ["tuning", "--help"],
                     ["tuning", "show", "--help"], ["tuning", "check", "--help"], ["tuning", "merge", "--help"],
                     ["audit", "--help"]):
            result = run(*args)
            self.assert_exit(result, 0)
            expected = len(args) == 2 and args[0] in with_numbers
            self.assertEqual("\nNumbers:" in result.out, expected, result.describe())

    def test_help_wins_over_other_arguments_even_malformed_ones(self):
        result = run("plan", "--elements", "1.5k", "--help")
        self.assert_exit(result, 0)
        self.assertIn("usage: wavefit plan", result.out, result.describe())

    def test_version_prints_the_version_of_version_hpp(self):
        header = installed_header("version.hpp").read_text()
        version = re.search(r'#define WAVEFIT_VERSION_STRING "([^"]+)"', header).group(1)
        result = run("--version")
        self.assert_exit(result, 0)
        self.assertEqual(result.out, f"wavefit {version}\n", result.describe())
        if os.environ.get("WAVEFIT_VERSION"):
            self.assertEqual(version, os.environ["WAVEFIT_VERSION"], "version.hpp differs from project(VERSION)")

    def test_no_subcommand_is_a_usage_error(self):
        self.assert_usage_error(run(), "subcommand")

    def test_unknown_subcommand_is_a_usage_error_naming_it(self):
        self.assert_usage_error(run("frobnicate"), "'frobnicate'")
        self.assert_usage_error(run("--json", "presets"))


class PresetsCommand(CliAssertions, unittest.TestCase):
    def test_text_lists_every_preset_with_arch_and_wave_size(self):
        result = run("presets")
        self.assert_exit(result, 0)
        lines = result.out.splitlines()
        for name in PRESETS:
            row = next((line for line in lines if line.split()[0] == name), None)
            self.assertIsNotNone(row, f"no row for {name}" + result.describe())
        mi300x = next(line for line in lines if line.startswith("mi300x "))
        for text in ("MI300X", "gfx942", "amd", "64", "304", "64 KiB"):
            self.assertIn(text, mi300x, result.describe())
        h200 = next(line for line in lines if line.startswith("h200 "))
        for text in ("sm_90", "nvidia", "32", "132", "48 KiB", "227 KiB opt-in"):
            self.assertIn(text, h200, result.describe())

    def test_json_has_exactly_the_contract_fields_for_every_preset(self):
        result = run("presets", "--json")
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assert_keys(doc, {"presets"}, result)
        self.assertEqual([p["name"] for p in doc["presets"]], PRESETS, result.describe())
        for p in doc["presets"]:
            self.assert_keys(p, PRESET_KEYS, result)
        by_name = {p["name"]: p for p in doc["presets"]}
        self.assertEqual(by_name["mi300x"], {"name": "mi300x", "arch": "gfx942", "wave_size": 64, "compute_units": 304})
        self.assertEqual(by_name["mi250x"], {"name": "mi250x", "arch": "gfx90a", "wave_size": 64, "compute_units": 110})
        self.assertEqual(by_name["rx7900xtx"]["wave_size"], 32)
        self.assertEqual(by_name["h200"], {"name": "h200", "arch": "sm_90", "wave_size": 32, "compute_units": 132})

    def test_presets_takes_no_device_and_no_positional_argument(self):
        self.assert_usage_error(run("presets", "--preset", "mi300x"), "--preset")
        self.assert_usage_error(run("presets", "extra"), "'extra'")


class InfoCommand(CliAssertions, unittest.TestCase):
    def test_text_explains_every_field_of_the_device(self):
        result = run("info", "--preset", "mi300x")
        self.assert_exit(result, 0)
        self.assertIn("MI300X (gfx942)", result.out.splitlines()[0], result.describe())
        for field in device_limits_fields():
            self.assertRegex(result.out, rf"(?m)^{field}\s+\S", result.describe())
        row = next(line for line in result.out.splitlines() if line.startswith("max_work_items_per_dimension"))
        self.assertRegex(row, r"^max_work_items_per_dimension\s+4294967295 \(2\^32-1\)\s+AMD HSA dispatch: "
                              r"grid x block per dimension$", result.describe())

    def test_json_holds_every_device_limits_field_by_its_cpp_name(self):
        fields = device_limits_fields()
        self.assertIn("max_work_items_per_dimension", fields)  # the header was read
        for preset in PRESETS:
            result = run("info", "--preset", preset, "--json")
            self.assert_exit(result, 0)
            doc = self.json_of(result)
            self.assert_keys(doc, {"devices"}, result)
            self.assertEqual(len(doc["devices"]), 1, result.describe())
            self.assert_keys(doc["devices"][0], set(fields), result)

    def test_json_values_match_the_presets(self):
        result = run("info", "--preset", "H200", "--json")  # preset names are case-insensitive
        device = self.json_of(result)["devices"][0]
        self.assertEqual(device["vendor"], "nvidia")
        self.assertEqual(device["max_block"], [1024, 1024, 64])
        self.assertEqual(device["max_grid"], [2147483647, 65535, 65535])
        self.assertEqual(device["shared_per_block_optin"], 232448)
        self.assertEqual(device["max_work_items_per_dimension"], 0)
        result = run("info", "--preset", "mi300x", "--json")
        device = self.json_of(result)["devices"][0]
        self.assertEqual(device["vendor"], "amd")
        self.assertEqual(device["name"], "MI300X")
        self.assertEqual(device["max_grid"], [2147483647, 65536, 65536])
        self.assertEqual(device["max_work_items_per_dimension"], 2**32 - 1)
        self.assertEqual(device["scalar_registers_per_simd"], 800)

    def test_without_a_selector_says_no_gpu_found_and_exits_0(self):
        result = run("info")
        self.assert_exit(result, 0)
        if BACKEND and result.out.startswith("no GPU found") is False:
            self.skipTest(f"a {BACKEND} GPU is visible: covered by GpuBackend")
        expected = ("no GPU found: this wavefit was built without a GPU backend; use --preset NAME "
                    "(wavefit presets lists them)\n") if not BACKEND else (
                    f"no GPU found: the {BACKEND} runtime reports no device; use --preset NAME "
                    "(wavefit presets lists them)\n")
        self.assertEqual(result.out, expected, result.describe())
        result = run("info", "--json")
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assert_keys(doc, {"devices", "note"}, result)
        self.assertEqual(doc["devices"], [])
        self.assertIn("no GPU found", doc["note"])

    def test_device_needs_a_gpu_backend(self):
        if BACKEND:
            self.skipTest(f"this wavefit has the {BACKEND} backend: covered by GpuBackend")
        for args in (["info", "--device", "0"], ["check", "--device", "0", "--grid", "1", "--block", "64"],
                     ["plan", "--device", "1", "--elements", "5", "--json"], ["occupancy", "--device", "0"]):
            result = run(*args)
            self.assert_usage_error(result)
            self.assertEqual(result.err, "wavefit: error: --device needs a wavefit built with a GPU backend (HIP or "
                                         "CUDA); use --preset NAME (see `wavefit presets`)\n", result.describe())

    def test_unknown_preset_is_a_usage_error_listing_the_known_ones(self):
        self.assert_usage_error(run("info", "--preset", "mi400"), "--preset", "'mi400'", "mi300x", "h200")


class CheckCommand(CliAssertions, unittest.TestCase):
    FIX_CONFIG = re.compile(r"grid \((\d+), (\d+), (\d+)\) x block \((\d+), (\d+), (\d+)\)")

    def test_every_configuration_a_fix_names_passes_check_for_the_same_device_and_kernel(self):
        # Issue 20: the first launch's fix suggested grid 33554432 x block 256, which check rejects
        # (work_items_exceed_dispatch_limit). tests/cpu/test_properties.cpp checks the same over
        # 10,000 random invalid launches per preset.
        launches = [
            ("mi300x", ["--grid", "16777216", "--block", "512"], ["--regs", "128", "--kernel-max-threads", "256"]),
            ("mi300x", ["--grid", "3000000000", "--block", "2048"], []),
            ("mi250x", ["--grid", "100,70000,2", "--block", "100,4,4"], ["--regs", "200"]),
            ("h200", ["--grid", "0", "--block", "1,1,128"], ["--kernel-max-threads", "96"]),
            ("rx7900xtx", ["--grid", "5", "--block", "48"], ["--sgprs", "100", "--kernel-max-threads", "32"]),
        ]
        for preset, launch, kernel in launches:
            doc, result = self.check_json("--preset", preset, *launch, *kernel)
            self.assertFalse(doc["valid"], result.describe())
            named = [m.groups() for dg in doc["diagnostics"] for m in self.FIX_CONFIG.finditer(dg["fix"])]
            self.assertTrue(named, "a fix names a configuration" + result.describe())
            for g in named:
                again, again_result = self.check_json("--preset", preset, "--grid", ",".join(g[:3]),
                                                      "--block", ",".join(g[3:]), *kernel)
                self.assertTrue(again["valid"], f"the fix of wavefit check {preset} {launch} {kernel} names a launch "
                                                f"check rejects{again_result.describe()}")
        # Where the work-item limit caps the grid, the fix says the kernel must grid-stride.
        text = run("check", "--preset", "mi300x", *launches[0][1], *launches[0][2]).out
        self.assertIn("grid (16777215, 1, 1) x block (256, 1, 1) with a grid-stride loop in the kernel over the rest "
                      "of the 8589934592 threads in x", text)
        self.assertNotIn("33554432", text)

    # (arguments, the diagnostic codes expected exactly; grid_underfills_device only where listed)
    CASES = [
        (["--preset", "mi300x", "--grid", "2432", "--block", "256"], set()),
        (["--preset", "mi250x", "--grid", "391", "--block", "256"], {FILL}),
        (["--preset", "mi250x", "--grid", "880", "--block", "256"], set()),
        (["--preset", "mi300x", "--grid", "0", "--block", "256"], {"zero_dimension"}),
        (["--preset", "mi300x", "--grid", "4", "--block", "256,0"], {"zero_dimension"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "64,32"], {"block_exceeds_device_max_threads"}),
        (["--preset", "h200", "--grid", "1", "--block", "1,1,128"], {"block_dim_exceeds_device_limit"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "512", "--kernel-max-threads", "256"],
         {"block_exceeds_kernel_max_threads"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "1024", "--regs", "256"], {"registers_exceed_limit"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "64", "--regs", "600"], {"registers_exceed_limit"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "1024", "--sgprs", "500"], {"registers_exceed_limit"}),
        (["--preset", "mi300x", "--grid", "1", "--block", "256", "--static-shared", "64Ki", "--dynamic-shared", "1"],
         {"shared_memory_exceeds_limit"}),
        (["--preset", "h200", "--grid", "1", "--block", "256", "--dynamic-shared", "64Ki"],
         {"shared_memory_requires_opt_in"}),
        (["--preset", "h200", "--grid", "1,65536", "--block", "32"], {"grid_dim_exceeds_device_limit"}),
        (["--preset", "mi300x", "--grid", "4194304", "--block", "1024"], {"work_items_exceed_dispatch_limit"}),
        (["--preset", "mi300x", "--grid", "4194303", "--block", "1024"], set()),
        (["--preset", "mi300x", "--grid", "10", "--block", "100"], {"block_not_wave_multiple"}),
    ]

    def test_each_contract_diagnostic_code_is_reported_for_its_cause(self):
        for args, codes in self.CASES:
            with self.subTest(args=args):
                doc, result = self.check_json(*args)
                seen = {dg["code"] for dg in doc["diagnostics"]}
                self.assertEqual(seen if FILL in codes else seen - {FILL}, codes, result.describe())

    def test_every_diagnostic_code_of_the_contract_is_covered_above(self):
        covered = set().union(*(codes for _, codes in self.CASES))
        # negative_size cannot reach check (the CLI's numbers are unsigned: a negative one is a usage error)
        # and contract_allows_no_block is a plan's (PlanCommand tests it).
        self.assertEqual(covered, set(DIAGNOSTIC_CODES) - {"negative_size", "contract_allows_no_block"})

    def test_a_fix_for_a_kernel_that_takes_a_unit_per_block_or_per_group_keeps_the_units_not_the_threads(self):
        # Issue 20: "keeps the same threads" would launch 4x the rows of a block-per-row kernel.
        base = ["--preset", "mi300x", "--grid", "8192", "--block", "1024", "--kernel-max-threads", "256"]
        doc, result = self.check_json(*base, "--work-shape", "per-block")
        fix = doc["diagnostics"][0]["fix"]
        self.assertIn("grid (8192, 1, 1) x block (256, 1, 1): one block per unit as before", fix, result.describe())
        self.assertNotIn("32768", fix, result.describe())
        # A warp of 32 per row: 32 rows per block of 1024 become 8 per block of 256, the same 262144 rows.
        doc, result = self.check_json(*base, "--work-shape", "per-group:32")
        fix = doc["diagnostics"][0]["fix"]
        self.assertIn("grid (32768, 1, 1) x block (256, 1, 1), which covers the same 262144 units", fix, result.describe())
        # The default: the same threads.
        doc, result = self.check_json(*base)
        self.assertIn("the same 8388608 threads in x", doc["diagnostics"][0]["fix"], result.describe())
        for bad in ("rows", "per-group:0", "per-group:x", "per-group:"):
            self.assert_usage_error(run("check", *base, "--work-shape", bad), "--work-shape")

    def test_valid_launch_is_exit_0_with_no_diagnostics(self):
        # 2432 blocks of 256 fill the 8 x 304 resident-block slots of an MI300X exactly.
        result = run("check", "--preset", "mi300x", "--grid", "2432", "--block", "256", "--json")
        self.assert_exit(result, 0)
        self.assertEqual(self.json_of(result), {"valid": True, "diagnostics": []}, result.describe())

    def test_a_valid_grid_that_fills_part_of_the_device_says_how_much_and_what_to_do(self):
        # Issue 20: a softmax of 391 blocks of 256 threads and a 128 x 1024 reduction on an MI250X (110 CUs).
        for grid, block, slots, percent in (("391", "256", 880, 44), ("128", "1024", 220, 58)):
            doc, result = self.check_json("--preset", "mi250x", "--grid", grid, "--block", block)
            self.assertTrue(doc["valid"], result.describe())
            self.assertEqual([dg["code"] for dg in doc["diagnostics"]], [FILL], result.describe())
            fill = doc["diagnostics"][0]
            self.assertEqual(fill["severity"], "warning", result.describe())
            self.assertIn(f"the grid of {grid} blocks fills {percent}% of the {slots} resident-block slots of "
                          f"MI250X (gfx90a)", fill["message"], result.describe())
            self.assertIn(f"{slots} blocks of {block} threads fill every slot once", fill["fix"], result.describe())
            text = run("check", "--preset", "mi250x", "--grid", grid, "--block", block)
            self.assert_exit(text, 0)
            self.assertIn("valid: launch fits MI250X (gfx90a) with 1 warning", text.out, text.describe())
        # Three quarters and more of the slots is no finding; neither is a launch check rejects.
        doc, result = self.check_json("--preset", "mi250x", "--grid", "660", "--block", "256")
        self.assertEqual(doc["diagnostics"], [], result.describe())
        doc, result = self.check_json("--preset", "mi250x", "--grid", "10", "--block", "256", "--regs", "600")
        self.assertNotIn(FILL, {dg["code"] for dg in doc["diagnostics"]}, result.describe())

    def test_warnings_alone_keep_the_launch_valid(self):
        doc, result = self.check_json("--preset", "h200", "--grid", "3", "--block", "100", "--dynamic-shared", "60Ki")
        self.assertTrue(doc["valid"], result.describe())
        self.assertEqual({dg["severity"] for dg in doc["diagnostics"]}, {"warning"}, result.describe())

    def test_zero_dimensions_are_validated_not_usage_errors(self):
        doc, result = self.check_json("--preset", "mi300x", "--grid", "0,0,0", "--block", "0,0,0")
        self.assertFalse(doc["valid"])
        self.assertEqual(sum(dg["code"] == "zero_dimension" for dg in doc["diagnostics"]), 6, result.describe())

    def test_values_up_to_2_64_minus_1_are_accepted_and_validated(self):
        doc, result = self.check_json("--preset", "mi300x", "--grid", f"{U64_MAX},{U64_MAX},{U64_MAX}",
                                      "--block", f"{U64_MAX},1,1", "--regs", "4294967295")
        self.assertFalse(doc["valid"])
        codes = {dg["code"] for dg in doc["diagnostics"]}
        self.assertIn("grid_dim_exceeds_device_limit", codes, result.describe())
        self.assertIn("work_items_exceed_dispatch_limit", codes, result.describe())
        self.assertIn(str(U64_MAX), result.out)

    def test_text_starts_with_the_verdict_and_shows_each_fix_on_its_own_line(self):
        result = run("check", "--preset", "mi300x", "--grid", "4194304", "--block", "1024")
        self.assert_exit(result, 1)
        lines = result.out.splitlines()
        self.assertTrue(lines[0].startswith("invalid: 1 error on MI300X (gfx942)"), result.describe())
        self.assertTrue(lines[1].startswith("error [work_items_exceed_dispatch_limit] "), result.describe())
        self.assertTrue(lines[2].startswith("  fix: "), result.describe())
        result = run("check", "--preset", "h200", "--grid", "8", "--block", "256")
        self.assert_exit(result, 0)
        self.assertTrue(result.out.startswith("valid: launch fits NVIDIA H200 (sm_90)"), result.describe())
        result = run("check", "--preset", "mi300x", "--grid", "8", "--block", "96")
        self.assert_exit(result, 0)
        self.assertIn("\nwarning [block_not_wave_multiple] ", result.out, result.describe())

    def test_messages_name_the_limit_the_value_and_the_device(self):
        doc, result = self.check_json("--preset", "mi300x", "--grid", "4194304", "--block", "1024")
        message = doc["diagnostics"][0]["message"]
        for text in ("4294967296", "4294967295", "MI300X"):
            self.assertIn(text, message, result.describe())
        self.assertIn("4194303", doc["diagnostics"][0]["fix"], result.describe())

    def test_check_needs_a_device_a_grid_and_a_block(self):
        self.assert_usage_error(run("check", "--grid", "1", "--block", "64"), "--preset")
        self.assert_usage_error(run("check", "--preset", "mi300x", "--block", "64"), "--grid")
        self.assert_usage_error(run("check", "--preset", "mi300x", "--grid", "1"), "--block")


class PlanCommand(CliAssertions, unittest.TestCase):
    def test_story_2_plans_2_to_the_33_elements_on_mi300x_with_a_grid_stride(self):
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "2^33", "--regs", "96", "--kernel-loops")
        self.assertTrue(doc["valid"], result.describe())
        self.assertEqual(doc["elements"], 2**33)
        self.assertFalse(doc["empty"])
        self.assertTrue(doc["grid_stride"], result.describe())
        self.assertTrue(doc["kernel_loops"], result.describe())
        self.assertEqual(doc["block"][0] % 64, 0, result.describe())
        self.assertLessEqual(doc["grid"][0] * doc["block"][0], 2**32 - 1, result.describe())
        self.assertEqual(doc["occupancy"]["limiter"], "registers", result.describe())
        self.assertIn("grid-stride", doc["reason"], result.describe())

    def test_a_guarded_kernel_over_2_to_the_33_elements_cannot_be_covered_in_one_pass_and_says_what_to_do(self):
        # The default contract: one thread per element, reached in one pass (`if (i < n)`). 2^33 elements
        # need more than AMD's 2^32-1 work-items in x: refused with exit 1, never clamped in silence.
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "2^33")
        self.assertFalse(doc["valid"], result.describe())
        self.assertTrue(doc["exceeds_one_pass"], result.describe())
        self.assertFalse(doc["grid_stride"], result.describe())
        self.assertGreaterEqual(doc["grid"][0] * doc["block"][0], 2**33, result.describe())
        self.assertEqual([dg["code"] for dg in doc["diagnostics"]], ["work_items_exceed_dispatch_limit"], result.describe())
        self.assertIn(".kernel_loops()", doc["reason"], result.describe())
        text = run("plan", "--preset", "mi300x", "--elements", "2^33")
        self.assert_exit(text, 1)
        self.assertIn("in one pass", text.out, text.describe())
        self.assertIn("wavefit::grid_stride(n)", text.out, text.describe())
        # The same count fits the H200 in one pass (2^31-1 blocks, no work-item cap).
        doc, result = self.plan_json("--preset", "h200", "--elements", "2^33")
        self.assertTrue(doc["valid"], result.describe())

    def test_grid_stride_is_true_exactly_when_one_pass_covers_fewer_than_the_elements(self):
        for preset in ("mi300x", "h200", "rx7900xtx"):
            for elements in (1, 1000, 2**31, 2**33, U64_MAX):
                doc, result = self.plan_json("--preset", preset, "--elements", elements, "--kernel-loops")
                self.assertEqual(doc["grid_stride"], doc["grid"][0] * doc["block"][0] < elements, result.describe())
                # A one-pass plan never strides: it covers, or it is refused.
                doc, result = self.plan_json("--preset", preset, "--elements", elements)
                self.assertFalse(doc["grid_stride"], result.describe())
                self.assertEqual(doc["valid"], not doc["exceeds_one_pass"], result.describe())
                if doc["valid"]:
                    self.assertGreaterEqual(doc["grid"][0] * doc["block"][0], elements, result.describe())

    def test_the_contract_flags_choose_among_the_blocks_the_kernel_allows(self):
        # 168 registers on the H200: 12 warps per SM at 384 threads (any wave multiple) or 128 (powers of two).
        doc, _ = self.plan_json("--preset", "h200", "--elements", "2^26", "--regs", "168")
        self.assertEqual(doc["block"][0], 128)
        self.assertTrue(doc["powers_of_two"])
        doc, _ = self.plan_json("--preset", "h200", "--elements", "2^26", "--regs", "168", "--any-wave-multiple")
        self.assertEqual(doc["block"][0], 384)
        doc, _ = self.plan_json("--preset", "mi300x", "--elements", "2^26", "--block-at-most", "128")
        self.assertEqual(doc["block"][0], 128)
        self.assertEqual(doc["block_at_most"], 128)
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "1000000", "--block-fixed", "512")
        self.assertEqual(doc["block"], [512, 1, 1], result.describe())
        self.assertEqual(doc["grid"][0], -(-1000000 // 512), result.describe())
        self.assertIn("contract fixes", doc["reason"], result.describe())
        # A fixed block above the kernel's bound: no block the contract allows.
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "1000", "--block-fixed", "512",
                                     "--kernel-max-threads", "256")
        self.assertFalse(doc["valid"], result.describe())
        self.assertIn("contract_allows_no_block", [dg["code"] for dg in doc["diagnostics"]], result.describe())

    def test_per_block_and_per_wave_work_count_units_not_threads(self):
        # 24 columns of a reduction, a block each: few units take the largest block (more threads per unit).
        doc, result = self.plan_json("--preset", "h200", "--per-block", "24")
        self.assertEqual(doc["grid"], [24, 1, 1], result.describe())
        self.assertEqual(doc["block"], [1024, 1, 1], result.describe())
        self.assertEqual(doc["work"], "per_block")
        # Rows of 50,304 logits, a block per row: long units take the largest best-occupancy block.
        doc, result = self.plan_json("--preset", "h200", "--per-block", "8192", "--unit-size", "50304")
        self.assertEqual(doc["block"], [1024, 1, 1], result.describe())
        self.assertEqual(doc["grid"], [8192, 1, 1], result.describe())
        # A warp of 32 per row, kept as written on wave64: 8192 rows in blocks of 256 = 8 rows per block.
        doc, result = self.plan_json("--preset", "mi300x", "--per-wave", "8192", "--group", "32", "--unit-size", "768")
        self.assertEqual(doc["block"], [256, 1, 1], result.describe())
        self.assertEqual(doc["grid"], [1024, 1, 1], result.describe())
        self.assertEqual(doc["elements"], 8192, result.describe())
        # A wave per row on the MI300X is 64 threads: 4 rows per block of 256.
        doc, result = self.plan_json("--preset", "mi300x", "--per-wave", "8192")
        self.assertEqual(doc["grid"][0] * doc["block"][0] // 64, 8192, result.describe())

    def test_a_saturated_grid_policy_states_that_the_kernel_loops(self):
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "2^28", "--grid-policy", "saturate:2")
        self.assertTrue(doc["kernel_loops"], result.describe())
        self.assertTrue(doc["grid_stride"], result.describe())
        self.assertLessEqual(doc["grid"][0], 2 * 8 * 304, result.describe())
        for bad in ("magic", "saturate:0", "cover:2", "coarsen:x"):
            self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "5", "--grid-policy", bad),
                                    "--grid-policy")

    def test_contract_flags_that_contradict_each_other_are_usage_errors(self):
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "5", "--per-block", "5"), "--per-block")
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "5", "--unit-size", "5"), "--unit-size")
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--per-block", "5", "--group", "32"), "--group")
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "5", "--block-fixed", "256",
                                    "--block-at-most", "128"), "--block-fixed")

    def test_zero_elements_is_an_empty_plan_that_launches_nothing(self):
        doc, result = self.plan_json("--preset", "mi300x", "--elements", "0")
        self.assertTrue(doc["empty"], result.describe())
        self.assertTrue(doc["valid"], result.describe())
        self.assertEqual(doc["grid"][0], 0, result.describe())
        self.assertFalse(doc["grid_stride"], result.describe())
        self.assertIn("nothing to launch", doc["reason"], result.describe())

    def test_extent_plans_in_2d_and_reports_the_volume_as_elements(self):
        doc, result = self.plan_json("--preset", "h200", "--extent", "4096,4096")
        self.assertEqual(doc["elements"], 4096 * 4096, result.describe())
        block, grid = doc["block"], doc["grid"]
        for axis, extent in enumerate((4096, 4096, 1)):
            self.assertGreaterEqual(grid[axis] * block[axis], extent, result.describe())
        doc, result = self.plan_json("--preset", "mi300x", "--extent", "100,0,3")
        self.assertTrue(doc["empty"], result.describe())
        self.assertEqual(doc["elements"], 0)

    def test_a_kernel_no_block_can_run_is_invalid_with_exit_1_and_an_error(self):
        for args in (["--preset", "mi300x", "--static-shared", "100000"],
                     ["--preset", "h200", "--dynamic-shared", "228Ki"],
                     ["--preset", "mi300x", "--regs", "513"],
                     ["--preset", "mi250x", "--sgprs", "900"]):
            doc, result = self.plan_json(*args, "--elements", "1M")
            self.assertFalse(doc["valid"], result.describe())
            self.assertTrue(any(dg["severity"] == "error" for dg in doc["diagnostics"]), result.describe())
            text = run("plan", *args, "--elements", "1M")
            self.assert_exit(text, 1)
            self.assertIn("invalid: ", text.out, text.describe())
            self.assertIn("\nerror [", text.out, text.describe())

    def test_text_shows_block_grid_grid_stride_occupancy_and_reason(self):
        result = run("plan", "--preset", "mi300x", "--elements", "2^33", "--regs", "96", "--kernel-loops")
        self.assert_exit(result, 0)
        for label in ("block", "grid", "grid-stride", "occupancy", "reason"):
            self.assertRegex(result.out, rf"(?m)^{label}\s+\S", result.describe())
        self.assertRegex(result.out, r"(?m)^grid-stride\s+yes", result.describe())

    def test_the_reason_row_says_why_without_repeating_the_rows_above_it(self):
        cases = {
            ("--preset", "mi300x", "--elements", "2^33", "--regs", "96", "--kernel-loops"):
                "the smallest allowed block of at least 256 threads that reaches the best occupancy; "
                "grid x clamped by the 2^32-1 work-items-per-dimension dispatch limit",
            ("--preset", "mi300x", "--elements", "38912"):
                "smaller than the best-occupancy block (256) so that 38912 elements spread over 304 of the 304 CUs; "
                "one thread per element",
            ("--preset", "mi300x", "--elements", "1M", "--kernel-max-threads", "128"):
                "the largest allowed block that reaches the best occupancy; larger blocks exceed the kernel's bound; "
                "one thread per element",
            ("--preset", "mi300x", "--extent", "100000,100000,100", "--kernel-loops"):
                "the smallest allowed block of at least 256 threads that reaches the best occupancy; "
                "grid y clamped by the device's maximum grid y",
            ("--preset", "mi300x", "--elements", "0"):
                "the smallest allowed block of at least 256 threads that reaches the best occupancy",
        }
        for args, why in cases.items():
            with self.subTest(args=args):
                result = run("plan", *args)
                self.assert_exit(result, 0)
                self.assertIn(f"\nreason       {why}\n", result.out, result.describe())
                # The JSON reason keeps the whole sentence, numbers included.
                doc, _ = self.plan_json(*args)
                self.assertTrue(doc["reason"].startswith(f"block {doc['block'][0]} ("), doc["reason"])

    def test_plan_shows_warnings_of_the_planned_launch(self):
        doc, result = self.plan_json("--preset", "h200", "--elements", "1M", "--dynamic-shared", "100Ki")
        self.assertTrue(doc["valid"], result.describe())
        self.assertEqual([dg["code"] for dg in doc["diagnostics"]], ["shared_memory_requires_opt_in"], result.describe())

    def test_elements_and_extent_are_mutually_exclusive_and_one_is_required(self):
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "5", "--extent", "5"), "--extent")
        self.assert_usage_error(run("plan", "--preset", "mi300x"), "--elements")


class PlanPassesCheckBase(CliAssertions):
    """docs/cli.md: a plan always passes `check` for the same inputs."""

    RESOURCES = [
        [],
        ["--regs", "96"],
        ["--regs", "200", "--static-shared", "20Ki"],
        ["--kernel-max-threads", "128", "--dynamic-shared", "8Ki"],
        ["--kernel-max-threads", "16"],
        ["--regs", "64", "--sgprs", "112"],
        ["--dynamic-shared", "100Ki"],
        ["--kernel-max-threads", "1000", "--regs", "40", "--static-shared", "1"],
    ]

    def cases(self, works, count):
        """(preset, work, resources) for every preset and every one of `works`, with `count` of RESOURCES each,
        rotating so that every preset meets every set: the full product would be thousands of processes, too
        slow for the sanitizer build."""
        for i, preset in enumerate(PRESETS):
            for j, work in enumerate(works):
                for k in range(count):
                    yield preset, work, self.RESOURCES[(i + j + k * len(self.RESOURCES) // count) % len(self.RESOURCES)]

    def assert_plan_passes_check(self, preset, work, resources):
        """Returns 1 when a launch was planned and checked, 0 for an empty or infeasible plan."""
        doc, result = self.plan_json("--preset", preset, *work, *resources)
        if not doc["valid"]:
            self.assertTrue(any(dg["severity"] == "error" for dg in doc["diagnostics"]), result.describe())
            return 0
        if doc["empty"]:
            self.assertEqual(doc["elements"], 0, result.describe())
            return 0
        check_doc, check_result = self.check_json("--preset", preset, "--grid", dims_arg(doc["grid"]),
                                                  "--block", dims_arg(doc["block"]), *resources)
        self.assertTrue(check_doc["valid"], "the plan fails check:" + result.describe() + check_result.describe())
        # The same codes, but for check's note on how much of the device the grid fills: the plan's grid
        # follows from the work.
        self.assertEqual({dg["code"] for dg in check_doc["diagnostics"]} - {FILL}, {dg["code"] for dg in doc["diagnostics"]},
                         result.describe() + check_result.describe())
        return 1


class PlanPassesCheckFor1dWorkBase(PlanPassesCheckBase):
    """Element counts on every preset, for one contract: LOOPS holds the kernel-loops flag or nothing. The two
    contracts are two CTest tests (the classes below) because together they took 201 s in the sanitizer build
    (2026-12-05), two thirds of the CLI tests' 300 s timeout, which a slower CI machine could run past."""

    ELEMENTS = [0, 1, 2, 63, 1000, 2**20 + 1, 2**31, 2**33, U64_MAX]
    LOOPS = []
    LEAST_CHECKED = 0  # how many launches must be planned and checked, over every preset (more than this)

    def test_plans_for_element_counts_pass_check_on_every_preset(self):
        checked = 0
        for preset, elements, resources in self.cases(self.ELEMENTS, 2):
            with self.subTest(preset=preset, elements=elements, resources=resources):
                checked += self.assert_plan_passes_check(preset, ["--elements", elements, *self.LOOPS], resources)
        print(f"{type(self).__name__}: {checked} launches planned and checked")
        self.assertGreater(checked, self.LEAST_CHECKED)


class PlanPassesCheckFor1dWorkOnePass(PlanPassesCheckFor1dWorkBase, unittest.TestCase):
    """A one-pass kernel: refused past what one launch covers (117 of 180 planned and checked at 376500d)."""

    LEAST_CHECKED = len(PRESETS) * len(PlanPassesCheckFor1dWorkBase.ELEMENTS) // 2


class PlanPassesCheckFor1dWorkLooping(PlanPassesCheckFor1dWorkBase, unittest.TestCase):
    """A kernel that loops (--kernel-loops): every count but 0 plans where the resources fit (148 of 180 at
    376500d)."""

    LOOPS = ["--kernel-loops"]
    LEAST_CHECKED = len(PRESETS) * len(PlanPassesCheckFor1dWorkBase.ELEMENTS)


class PlanPassesCheckForExtents(PlanPassesCheckBase, unittest.TestCase):
    EXTENTS = ["1,1,1", "4096,4096", "7,3,2", "100000,65537", "2^32,2^20,300", f"{U64_MAX},{U64_MAX},{U64_MAX}"]

    def test_plans_for_extents_pass_check_on_every_preset(self):
        checked = 0
        for preset, extent, resources in self.cases(self.EXTENTS, 1):
            with self.subTest(preset=preset, extent=extent, resources=resources):
                checked += self.assert_plan_passes_check(preset, ["--extent", extent, "--kernel-loops"], resources)
        self.assertGreater(checked, len(PRESETS) * len(self.EXTENTS) // 2)


class OccupancyCommand(CliAssertions, unittest.TestCase):
    def test_rows_go_from_one_wave_to_the_device_maximum_in_steps_of_one_wave(self):
        rows, result = self.occupancy_rows("--preset", "mi300x")
        self.assertEqual([r["block"] for r in rows], list(range(64, 1025, 64)), result.describe())
        rows, result = self.occupancy_rows("--preset", "h200")
        self.assertEqual([r["block"] for r in rows], list(range(32, 1025, 32)), result.describe())

    def test_the_kernel_maximum_caps_the_rows(self):
        rows, result = self.occupancy_rows("--preset", "mi300x", "--kernel-max-threads", "256")
        self.assertEqual([r["block"] for r in rows], [64, 128, 192, 256], result.describe())
        rows, result = self.occupancy_rows("--preset", "mi300x", "--kernel-max-threads", "300")
        self.assertEqual([r["block"] for r in rows], [64, 128, 192, 256], result.describe())

    def test_a_kernel_maximum_below_one_wave_is_a_single_row_at_that_maximum(self):
        rows, result = self.occupancy_rows("--preset", "mi300x", "--kernel-max-threads", "16")
        self.assertEqual([r["block"] for r in rows], [16], result.describe())

    def test_block_gives_that_block_only_and_any_positive_size_is_accepted(self):
        rows, result = self.occupancy_rows("--preset", "h200", "--regs", "128", "--block", "96")
        self.assertEqual(len(rows), 1, result.describe())
        # Measured on the H200 (docs/device-facts.md §4): 128 registers, block 96 -> 5 blocks per SM.
        self.assertEqual(rows[0]["active_blocks_per_cu"], 5, result.describe())
        self.assertEqual(rows[0]["limiter"], "registers", result.describe())
        rows, result = self.occupancy_rows("--preset", "mi300x", "--block", "2000")
        self.assertEqual(rows, [{"block": 2000, "active_blocks_per_cu": 0, "active_waves_per_cu": 0,
                                 "occupancy": 0.0, "limiter": "block_size"}], result.describe())
        rows, result = self.occupancy_rows("--preset", "mi300x", "--block", str(U64_MAX))
        self.assertEqual(rows[0]["limiter"], "block_size", result.describe())
        self.assert_usage_error(run("occupancy", "--preset", "mi300x", "--block", "0"), "--block")

    def test_a_block_above_the_kernel_maximum_is_zero_and_says_what_the_runtime_api_reports(self):
        # 512 threads of a kernel bounded at 256: wavefit says 0 blocks. cudaOccupancyMaxActiveBlocksPerMultiprocessor
        # ignores the bound: 32 registers, 16 warps a block -> 64 warps / 16 = 4 blocks, for a launch that fails.
        args = ("--preset", "h200", "--regs", "32", "--kernel-max-threads", "256", "--block", "512")
        rows, result = self.occupancy_rows(*args)
        self.assertEqual(rows, [{"block": 512, "active_blocks_per_cu": 0, "active_waves_per_cu": 0, "occupancy": 0.0,
                                 "limiter": "block_size", "runtime_api_active_blocks_per_cu": 4}], result.describe())
        text = run("occupancy", *args)
        self.assert_exit(text, 0)
        self.assertIn("block 512: 0 blocks, because it exceeds this kernel's own maximum of 256 threads; "
                      "the runtime's occupancy API reports 4 here, but the launch fails", text.out)
        # Above the device's own maximum the runtime refuses the query too: no such line.
        self.assertNotIn("occupancy API", run("occupancy", "--preset", "h200", "--block", "2048").out)

    def test_a_block_above_the_device_maximum_says_it_exceeds_the_device_maximum(self):
        # Issue 20: `occupancy --block 2000` gave 0 blocks, limiter block_size, and no reason.
        for preset, device in (("mi300x", "MI300X (gfx942)"), ("h200", "NVIDIA H200 (sm_90)")):
            text = run("occupancy", "--preset", preset, "--block", "2000")
            self.assert_exit(text, 0)
            self.assertIn(f"block 2000: 0 blocks, because it exceeds the maximum of 1024 threads per block of {device}",
                          text.out, text.describe())
            # The device's maximum is named even where the kernel's own bound is lower.
            bounded = run("occupancy", "--preset", preset, "--block", "2000", "--kernel-max-threads", "256")
            self.assertIn("the maximum of 1024 threads per block", bounded.out, bounded.describe())

    def test_occupancy_is_resident_waves_over_the_most_a_cu_holds(self):
        for preset, max_waves in (("mi300x", 32), ("h200", 64), ("rx7900xtx", 64)):
            rows, result = self.occupancy_rows("--preset", preset, "--regs", "72", "--static-shared", "6000")
            for row in rows:
                self.assertAlmostEqual(row["occupancy"], row["active_waves_per_cu"] / max_waves, msg=result.describe())

    def test_nvidia_rows_match_the_h200_measurements(self):
        # docs/device-facts.md §4, measured with cudaOccupancyMaxActiveBlocksPerMultiprocessor on the H200.
        for args, block, blocks in ((["--regs", "168"], 32, 12), (["--regs", "168"], 160, 2),
                                    (["--dynamic-shared", "8192"], 64, 25), (["--static-shared", "40000"], 64, 5)):
            rows, result = self.occupancy_rows("--preset", "h200", *args, "--block", block)
            self.assertEqual(rows[0]["active_blocks_per_cu"], blocks, result.describe())

    def test_text_marks_the_best_rows_and_shows_per_resource_limits(self):
        result = run("occupancy", "--preset", "mi300x", "--regs", "96", "--static-shared", "8Ki")
        self.assert_exit(result, 0)
        rows, _ = self.occupancy_rows("--preset", "mi300x", "--regs", "96", "--static-shared", "8Ki")
        best = max(r["active_waves_per_cu"] for r in rows)
        marked = [int(line.split()[0]) for line in result.out.splitlines() if line.rstrip().endswith("*")]
        self.assertEqual(marked, [r["block"] for r in rows if r["active_waves_per_cu"] == best], result.describe())
        header = next(line for line in result.out.splitlines() if line.lstrip().startswith("block"))
        for column in ("by waves", "by blocks", "by registers", "by sgprs", "by shared"):
            self.assertIn(column, header, result.describe())

    def test_occupancy_needs_a_device(self):
        self.assert_usage_error(run("occupancy"), "--preset")


class ExplainCommand(CliAssertions, unittest.TestCase):
    def explain_json(self, *query):
        result = run("explain", *query, "--json")
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assert_keys(doc, EXPLAIN_KEYS, result)
        self.assertEqual(len(doc["causes"]), len(doc["fixes"]), result.describe())
        self.assertTrue(doc["causes"], result.describe())
        return doc, result

    def test_209_is_no_binary_for_gpu_and_9_is_invalid_configuration(self):
        doc, result = self.explain_json("209")
        self.assertEqual((doc["name"], doc["code"]), ("hipErrorNoBinaryForGpu", 209), result.describe())
        doc, result = self.explain_json("9")
        self.assertEqual((doc["name"], doc["code"]), ("hipErrorInvalidConfiguration", 9), result.describe())

    def test_names_messages_and_cuda_names_find_the_same_entry(self):
        for query in (["hipErrorInvalidConfiguration"], ["cudaErrorInvalidConfiguration"],
                      ["invalid configuration argument"], ["invalid", "configuration", "argument"], ["0x9"]):
            doc, result = self.explain_json(*query)
            self.assertEqual(doc["name"], "hipErrorInvalidConfiguration", result.describe())

    def test_diagnostic_codes_are_explained_with_a_null_code(self):
        for code in DIAGNOSTIC_CODES:
            doc, result = self.explain_json(code)
            self.assertEqual(doc["name"], code, result.describe())
            self.assertIsNone(doc["code"], result.describe())

    def test_text_gives_name_code_meaning_and_numbered_causes_with_fixes(self):
        result = run("explain", "9")
        self.assert_exit(result, 0)
        lines = result.out.splitlines()
        self.assertTrue(lines[0].startswith("hipErrorInvalidConfiguration (9, CUDA: cudaErrorInvalidConfiguration"),
                        result.describe())
        doc, _ = self.explain_json("9")
        self.assertIn(doc["meaning"], result.out, result.describe())
        for i, (cause, fix) in enumerate(zip(doc["causes"], doc["fixes"]), start=1):
            self.assertIn(f"{i}. {cause}\n   fix: {fix}\n", result.out, result.describe())

    def test_unknown_code_is_exit_1_with_a_hint_on_stderr(self):
        result = run("explain", "nosuchthing")
        self.assert_exit(result, 1)
        self.assertEqual(result.out, "", result.describe())
        self.assertEqual(result.err, "wavefit: unknown error code or name: nosuchthing (try a number such as 9, a name "
                                     "such as hipErrorInvalidConfiguration, a message text, or a diagnostic code)\n",
                         result.describe())

    def test_unknown_code_with_json_prints_an_error_document(self):
        result = run("explain", "nosuchthing", "--json")
        self.assert_exit(result, 1)
        self.assertEqual(self.json_of(result), {"error": "unknown error code or name", "query": "nosuchthing"})
        self.assertEqual(result.err.count("\n"), 1, result.describe())

    def test_queries_with_control_and_non_ascii_characters_stay_one_line_and_valid_json(self):
        query = 'näme "quoted" \\ tab\there\nnewline \x01 \u2603'
        result = run("explain", query, "--json")
        self.assert_exit(result, 1)
        self.assertEqual(self.json_of(result)["query"], query, result.describe())
        self.assertEqual(result.err.count("\n"), 1, result.describe())
        self.assertIn("\u2603", result.out, "non-ASCII passes through unescaped" + result.describe())

    def test_invalid_utf8_in_a_query_becomes_replacement_characters_in_json(self):
        result = run("explain", b"bad \xff\xc3 bytes", "--json")
        self.assert_exit(result, 1)
        self.assertEqual(self.json_of(result)["query"], "bad \ufffd\ufffd bytes", result.describe())

    def test_explain_needs_a_code(self):
        self.assert_usage_error(run("explain"), "CODE")
        self.assert_usage_error(run("explain", ""), "CODE")


class NumberSyntaxThroughFlags(CliAssertions, unittest.TestCase):
    def test_every_spelling_of_2_to_the_33_gives_the_same_plan(self):
        plans = []
        for spelling in ("2^33", "8589934592", "0x200000000", "0X200000000", "8Gi", "0008589934592"):
            doc, result = self.plan_json("--preset", "mi300x", "--elements", spelling)
            self.assertEqual(doc["elements"], 2**33, result.describe())
            plans.append((doc["block"], doc["grid"]))
        self.assertEqual(len(set(map(str, plans))), 1, plans)

    def test_decimal_and_binary_suffixes_differ(self):
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "1k")[0]["elements"], 1000)
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "1Ki")[0]["elements"], 1024)
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "3M")[0]["elements"], 3000000)
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "3Mi")[0]["elements"], 3 * 2**20)
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "2G")[0]["elements"], 2 * 10**9)
        self.assertEqual(self.plan_json("--preset", "h200", "--elements", "2Gi")[0]["elements"], 2 * 2**30)

    def test_shared_memory_sizes_take_binary_suffixes(self):
        # 48 KiB is the H200's default per-block limit: one byte more needs the opt-in.
        doc, result = self.check_json("--preset", "h200", "--grid", "1", "--block", "32", "--dynamic-shared", "48Ki")
        self.assertEqual([dg["code"] for dg in doc["diagnostics"] if dg["code"] != FILL], [], result.describe())
        doc, result = self.check_json("--preset", "h200", "--grid", "1", "--block", "32", "--dynamic-shared", "49153")
        self.assertEqual([dg["code"] for dg in doc["diagnostics"] if dg["code"] != FILL], ["shared_memory_requires_opt_in"],
                         result.describe())

    def test_dimension_lists_take_number_syntax_in_each_part(self):
        doc, result = self.check_json("--preset", "mi300x", "--grid", "0x10,2^2,1k", "--block", "2^6,0x2,002")
        self.assertTrue(doc["valid"], result.describe())
        result = run("check", "--preset", "mi300x", "--grid", "0x10,2^2,1k", "--block", "2^6,0x2,002")
        self.assertIn("grid (16, 4, 1000) x block (64, 2, 2)", result.out, result.describe())

    def test_the_largest_value_is_2_to_the_64_minus_1(self):
        self.assertEqual(self.plan_json("--preset", "mi300x", "--elements", str(U64_MAX))[0]["elements"], U64_MAX)
        self.assertEqual(self.plan_json("--preset", "mi300x", "--elements", "0xffffffffffffffff")[0]["elements"],
                         U64_MAX)
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", str(U64_MAX + 1)), "2^64-1")
        self.assert_usage_error(run("plan", "--preset", "mi300x", "--elements", "2^64"), "2^64-1")

    def test_flag_equals_value_is_the_same_as_two_arguments(self):
        a, _ = self.plan_json("--preset=mi300x", "--elements=2^20", "--regs=64")
        b, _ = self.plan_json("--preset", "mi300x", "--elements", "2^20", "--regs", "64")
        self.assertEqual(a, b)


class CodeObjectSamples(CliAssertions):
    """Tests on the kernels tests/code_object compiles with hipcc (samples.hip for gfx90a and gfx940 in
    every container kind, isa_samples.hip for gfx906 and gfx1100 in wave32 and wave64). Values the
    compiler chooses (register counts) are read from the files, never hard-coded here."""

    CDNA_FILES = ["samples-gfx90a.co", "samples-gfx940.co", "samples.hipfb", "samples.o"]
    LINKED_FILES = ["samples_app", "libsamples.so"]  # only where libamdhip64 was found

    def setUp(self):
        if not SAMPLES:
            self.skipTest("no code object samples: they need hipcc (WAVEFIT_TEST_CODE_OBJECTS AUTO or ON)")

    def sample(self, name):
        path = os.path.join(SAMPLES, name)
        self.assertTrue(os.path.isfile(path), f"the sample {path} was not built")
        return path

    def linked_samples(self):
        return [os.path.join(SAMPLES, n) for n in self.LINKED_FILES if os.path.isfile(os.path.join(SAMPLES, n))]

    def inspect_json(self, *args, loads=True):
        """inspect --json: exit 0 and nothing on stderr, or with --preset for a device the binary does
        not load on (loads=False) exit 1 and the one-line verdict on stderr."""
        result = run("inspect", *args, "--json")
        self.assert_exit(result, 0 if loads else 1)
        doc = self.json_of(result)
        if "--preset" in args:
            self.assert_keys(doc, {"kernels", "device"}, result)
            self.assert_keys(doc["device"], INSPECT_DEVICE_KEYS, result)
            self.assertEqual(doc["device"]["loads"], loads, result.describe())
        else:
            self.assert_keys(doc, {"kernels"}, result)
        if loads:
            self.assertEqual(result.err, "", result.describe())
        else:
            self.assertEqual(result.err, f"wavefit: {doc['device']['message']}\n", result.describe())
        for k in doc["kernels"]:
            self.assert_keys(k, INSPECT_KEYS | INSPECT_EXTRA_KEYS, result)
            for row in k["occupancy"]:
                self.assert_keys(row, OCCUPANCY_ROW_KEYS, result)
                self.assertIn(row["limiter"], LIMITERS, result.describe())
        return doc["kernels"], result

    def kernel_json(self, command, *args):
        """`command` (occupancy, plan or check) with --json: the document and its "kernel" object."""
        result = run(command, *args, "--json")
        self.assertIn(result.returncode, (0, 1), result.describe())
        self.assert_no_sanitizer_report(result)
        doc = self.json_of(result)
        self.assertIn("kernel", doc, result.describe())
        self.assert_keys(doc["kernel"], KERNEL_KEYS, result)
        return doc, result

    @staticmethod
    def by_target(kernels):
        targets = {}
        for k in kernels:
            targets.setdefault(k["target"], []).append(k)
        return targets

    @staticmethod
    def hip_rows(k, wave, simds, max_waves, vgprs, granule, sgprs, lds):
        """docs/device-facts.md section 3 for the kernel's block sizes: blocks per CU and resident waves."""
        def align(v, unit):
            return -(-v // unit) * unit
        waves = max_waves
        if k["vgpr_count"]:
            waves = min(waves, vgprs // align(k["vgpr_count"], granule))
        if k["sgpr_count"] and sgprs:
            waves = min(waves, sgprs // align(k["sgpr_count"], 16))
        rows = []
        for block in range(wave, min(1024, k["max_threads"]) + 1, wave):
            blocks = simds * waves * wave // align(block, wave)
            if k["static_shared"]:
                blocks = min(blocks, lds // k["static_shared"])
            rows.append((block, blocks, blocks * (block // wave)))
        return rows


class InspectCommand(CodeObjectSamples, unittest.TestCase):
    def test_a_build_without_optimisation_is_named_instead_of_blaming_each_launch_bound(self):
        # Issue 20: at -O0 every kernel spills and uses a dynamic stack; inspect said "the launch bound
        # (1024) may be forcing the compiler to spill" of each.
        unoptimised = "this looks like a build without optimisation (-O0"
        o0 = self.sample("samples-O0.hipfb")
        result = run("inspect", o0)
        self.assert_exit(result, 0)
        self.assertEqual(result.out.count(unoptimised), 2, "once per target (gfx90a, gfx940)" + result.describe())
        self.assertNotIn("may be forcing the compiler to spill", result.out, result.describe())
        kernels, result = self.inspect_json(o0)
        for k in kernels:
            self.assertTrue(any(unoptimised in n for n in k["notes"]), result.describe())
            self.assertTrue(k["scratch"] > 0, result.describe())
        # Judged on every kernel of the file, also with --kernel, and for --kernel FILE:NAME.
        one = run("inspect", o0, "--kernel", "light_axpy")
        self.assertIn(unoptimised, one.out, one.describe())
        plan = run("plan", "--kernel", f"{o0}:light_axpy", "--elements", "2^20")
        self.assertIn(unoptimised, plan.out, plan.describe())
        # The optimised build of the same source says nothing of the kind.
        for name in ("samples.hipfb", "samples-gfx90a.co"):
            optimised = run("inspect", self.sample(name))
            self.assert_exit(optimised, 0)
            self.assertNotIn("without optimisation", optimised.out, optimised.describe())

    def test_one_entry_per_kernel_per_target_in_every_container_kind(self):
        single = {}
        for name in ("samples-gfx90a.co", "samples-gfx940.co"):
            kernels, result = self.inspect_json(self.sample(name))
            target = name[len("samples-"):-len(".co")]
            self.assertEqual({k["target"] for k in kernels}, {target}, result.describe())
            single[target] = sorted(k["name"] for k in kernels)
        self.assertEqual(single["gfx90a"], single["gfx940"])
        for path in [self.sample("samples.hipfb"), self.sample("samples.o")] + self.linked_samples():
            kernels, result = self.inspect_json(path)
            targets = self.by_target(kernels)
            self.assertEqual(set(targets), {"gfx90a", "gfx940"}, result.describe())
            for target, ks in targets.items():
                names = sorted(k["name"] for k in ks)
                if path.endswith("samples_app"):  # two translation units: one more kernel
                    names.remove("_Z15second_tu_scalePddj")
                self.assertEqual(names, single[target], result.describe())

    def test_the_spilling_kernel_shows_its_spills_and_occupancy_on_mi300x(self):
        path = self.sample("samples-gfx940.co")
        kernels, result = self.inspect_json(path, "--kernel", "heavy_1024_spills")
        self.assertEqual(len(kernels), 1, result.describe())
        k = kernels[0]
        self.assertEqual((k["name"], k["demangled"]),
                         ("_Z17heavy_1024_spillsPKfPfi", "heavy_1024_spills(float const*, float*, int)"))
        self.assertEqual((k["target"], k["preset"], k["max_threads"], k["wave_size"]), ("gfx940", "mi300x", 1024, 64))
        self.assertEqual(k["symbol"], k["name"] + ".kd")
        self.assertLessEqual(k["vgpr_count"], 128, "the bound of 1024 leaves 128 registers" + result.describe())
        self.assertGreater(k["scratch"], 0, result.describe())
        self.assertGreater(k["vgpr_spill_count"], 0, result.describe())
        rows = [(r["block"], r["active_blocks_per_cu"], r["active_waves_per_cu"]) for r in k["occupancy"]]
        self.assertEqual(rows, self.hip_rows(k, 64, 4, 8, 512, 8, 800, 65536), result.describe())
        self.assertEqual(k["recommended_block"], 256, result.describe())
        spill = [n for n in k["notes"] if n.startswith("spills ")]
        self.assertEqual(spill, [f"spills {k['vgpr_spill_count']} VGPRs / uses {k['scratch']} bytes of scratch per "
                                 "thread: the launch bound (1024) may be forcing the compiler to spill"], result.describe())

    def test_text_shows_names_resources_the_spill_warning_the_recommendation_and_the_rows(self):
        path = self.sample("samples-gfx940.co")
        [k], _ = self.inspect_json(path, "--kernel", "heavy_1024_spills")
        result = run("inspect", path, "--kernel", "heavy_1024_spills")
        self.assert_exit(result, 0)
        out = result.out
        self.assertTrue(out.startswith(f"{path}: 1 kernel named heavy_1024_spills (of 13): 1 for gfx940\n"),
                        result.describe())
        self.assertIn("== gfx940 on MI300X (gfx942), preset mi300x ==\n", out, result.describe())
        self.assertIn("\nheavy_1024_spills(float const*, float*, int)\n", out, result.describe())
        self.assertRegex(out, r"(?m)^    mangled\s+_Z17heavy_1024_spillsPKfPfi$", result.describe())
        self.assertRegex(out, rf"(?m)^    registers\s+{k['vgpr_count']} VGPRs, {k['sgpr_count']} SGPRs$", result.describe())
        self.assertRegex(out, rf"(?m)^    scratch\s+{k['scratch']} bytes per thread, {k['vgpr_spill_count']} VGPRs spilled$",
                         result.describe())
        self.assertRegex(out, r"(?m)^    launch bound\s+1024 threads, wave64$", result.describe())
        self.assertIn(f"\n    warning: spills {k['vgpr_spill_count']} VGPRs / uses {k['scratch']} bytes of scratch per "
                      "thread: the launch bound (1024) may be forcing the compiler to spill\n", out, result.describe())
        self.assertIn("\n    recommended block 256: ", out, result.describe())
        rows = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\s+\d+\s+\d+\s+\d+%", line)]
        self.assertEqual([int(r[0]) for r in rows], [r["block"] for r in k["occupancy"]], result.describe())
        best = max(r["active_waves_per_cu"] for r in k["occupancy"])
        self.assertEqual([int(r[0]) for r in rows if r[-1] == "*"],
                         [r["block"] for r in k["occupancy"] if r["active_waves_per_cu"] == best], result.describe())

    def test_kernel_selects_by_mangled_demangled_and_shortened_names(self):
        path = self.sample("samples.hipfb")
        cases = {
            "_Z9heavy_256PKfPfi": ["_Z9heavy_256PKfPfi"],
            "heavy_256(float const*, float*, int)": ["_Z9heavy_256PKfPfi"],
            "heavy_256": ["_Z9heavy_256PKfPfi"],
            "void lds_tile<4096>(float*)": ["_Z8lds_tileILi4096EEvPf"],
            "lds_tile<4096>": ["_Z8lds_tileILi4096EEvPf"],
            "lds_tile": ["_Z8lds_tileILi4096EEvPf", "_Z8lds_tileILi24576EEvPf", "_Z8lds_tileILi49152EEvPf"],
            "wavefit_samples::tiled_transform": ["_ZN15wavefit_samples15tiled_transformIdLi1024ENS_3ops10scaled_sumIdEEEEvPKT_S6_PS4_T1_y"],
            "tiled_transform": ["_ZN15wavefit_samples15tiled_transformIdLi1024ENS_3ops10scaled_sumIdEEEEvPKT_S6_PS4_T1_y"],
        }
        for name, mangled in cases.items():
            with self.subTest(name=name):
                kernels, result = self.inspect_json(path, "--kernel", name)
                self.assertEqual(sorted(k["name"] for k in kernels), sorted(mangled * 2), result.describe())
                self.assertEqual(sorted(k["target"] for k in kernels), sorted(["gfx90a", "gfx940"] * len(mangled)))

    def test_a_name_no_kernel_has_is_exit_2_listing_the_kernels(self):
        result = run("inspect", self.sample("samples.hipfb"), "--kernel", "heavy")
        self.assert_usage_error(result, "no kernel named 'heavy'", "light_axpy", "heavy_256", "more)")

    def test_preset_applies_to_every_target_and_warns_where_the_code_would_not_load(self):
        path = self.sample("samples.hipfb")
        default, _ = self.inspect_json(path)
        # No gfx942 code object inside: the verdict is negative, and the numbers are shown anyway.
        kernels, result = self.inspect_json(path, "--preset", "mi300x", loads=False)
        self.assertEqual({k["preset"] for k in kernels}, {"mi300x"}, result.describe())
        for k in kernels:
            first = k["notes"][0] if k["notes"] else ""
            if k["target"] == "gfx90a":
                self.assertTrue(first.startswith("compiled for gfx90a, not for MI300X (gfx942)"), result.describe())
                self.assertIn("hipErrorNoBinaryForGpu", first)
                # gfx90a and gfx942 share the register and LDS model: the rows are those on MI250X.
                twin = next(d for d in default if (d["name"], d["target"]) == (k["name"], "gfx90a"))
                self.assertEqual(k["occupancy"], twin["occupancy"], result.describe())
            else:
                self.assertTrue(first.startswith("gfx940 is modelled as MI300X (gfx942)"), result.describe())
        kernels, result = self.inspect_json(path, "--preset", "MI250X")
        for k in kernels:
            self.assertEqual(k["preset"], "mi250x", result.describe())
            self.assertEqual(any("compiled for" in n for n in k["notes"]), k["target"] != "gfx90a", result.describe())

    def test_an_unknown_or_nvidia_preset_is_a_usage_error(self):
        path = self.sample("samples-gfx90a.co")
        self.assert_usage_error(run("inspect", path, "--preset", "h100"), "--preset h100", "AMD", "mi300x")
        self.assert_usage_error(run("inspect", path, "--preset", "mi400"), "'mi400'", "mi300x")

    def test_a_target_without_preset_is_listed_without_occupancy(self):
        path = self.sample("isa_samples-gfx906.co")
        kernels, result = self.inspect_json(path)
        self.assertGreater(len(kernels), 0)
        for k in kernels:
            self.assertEqual((k["target"], k["preset"], k["recommended_block"], k["occupancy"]),
                             ("gfx906", None, None, []), result.describe())
            self.assertIn("no preset models gfx906: pass --preset NAME to see the occupancy on a device", k["notes"])
        text = run("inspect", path)
        self.assert_exit(text, 0)
        self.assertIn("== gfx906 ==\nnote: no preset models gfx906", text.out, text.describe())
        self.assertNotIn("recommended block", text.out, text.describe())
        kernels, result = self.inspect_json(path, "--preset", "mi210", loads=False)
        for k in kernels:
            self.assertEqual(k["preset"], "mi210", result.describe())
            self.assertTrue(k["occupancy"] and k["recommended_block"], result.describe())
            self.assertTrue(k["notes"][0].startswith("compiled for gfx906, not for MI210 (gfx90a)"), result.describe())

    def test_a_binary_without_code_for_the_presets_processor_cannot_run_there_exit_1(self):
        path = self.sample("samples-gfx90a.co")
        _, result = self.inspect_json(path, "--preset", "mi300x", loads=False)
        for text in ("cannot run on MI300X (preset mi300x)", "holds code for gfx90a, none for gfx942",
                     "hipErrorNoBinaryForGpu (error 209)"):
            self.assertIn(text, result.err, result.describe())
        text = run("inspect", path, "--preset", "mi300x")
        self.assert_exit(text, 1)
        self.assertEqual(text.err.count("\n"), 1, text.describe())
        self.assertTrue(text.out.startswith(f"{path}: 13 kernels: 13 for gfx90a\n"), text.describe())
        _, result = self.inspect_json(path, "--preset", "mi250x")
        self.assertIsNone(self.json_of(result)["device"]["message"], result.describe())
        # --kernel narrows the verdict to the kernels it names.
        _, result = self.inspect_json(self.sample("samples.hipfb"), "--preset", "mi300x", "--kernel", "heavy_256", loads=False)
        self.assertIn("'heavy_256' in ", result.err, result.describe())

    def test_xnack_plus_code_cannot_run_on_a_device_with_xnack_off_unless_the_preset_says_xnack_plus(self):
        path = self.sample("samples-gfx90a-xnack+.co")
        kernels, result = self.inspect_json(path, "--preset", "mi250x", loads=False)
        for text in ("built for gfx90a:xnack+, which loads only with XNACK on", "gfx90a:sramecc+:xnack-",
                     "HSA_XNACK=1", "--preset mi250x:xnack+", "error 209"):
            self.assertIn(text, result.err, result.describe())
        self.assertTrue(all(k["notes"][0].startswith("built for gfx90a:xnack+") for k in kernels), result.describe())
        for preset in ("mi250x:xnack+", "MI250X:sramecc+:xnack+"):
            _, result = self.inspect_json(path, "--preset", preset)
            self.assertEqual(self.json_of(result)["device"]["target_id"], "gfx90a:sramecc+:xnack+", result.describe())
        _, result = self.inspect_json(path, "--preset", "mi250x:sramecc-:xnack+")
        # A build for both settings loads anywhere; a build for the device's own settings too.
        self.inspect_json(self.sample("samples-xnack.hipfb"), "--preset", "mi250x")
        self.inspect_json(self.sample("samples-gfx90a.co"), "--preset", "mi250x:xnack+")

    def test_preset_features_are_checked(self):
        path = self.sample("samples-gfx90a.co")
        self.assert_usage_error(run("inspect", path, "--preset", "mi300x:foo"), "'mi300x:foo'", "xnack+, xnack-, sramecc+")
        self.assert_usage_error(run("inspect", path, "--preset", "mi300x:xnack+:xnack-"), "each at most once")
        self.assert_usage_error(run("inspect", path, "--preset", "mi300x:xnack"), "'mi300x:xnack'")
        self.assert_usage_error(run("inspect", path, "--preset", "rx7900xtx:xnack+"), "has no xnack setting")
        self.assert_usage_error(run("inspect", path, "--preset", "h100:xnack+"), "has no target features")
        self.assert_usage_error(run("inspect", path, "--preset", "mi400:xnack+"), "unknown preset")

    def test_xnack_plus_and_minus_builds_are_shown_apart_under_their_target_ids(self):
        path = self.sample("samples-xnack.hipfb")
        kernels, result = self.inspect_json(path, "--kernel", "heavy_1024_spills")
        self.assertEqual(sorted(k["target_id"] for k in kernels), ["gfx90a:xnack+", "gfx90a:xnack-"], result.describe())
        self.assertTrue(all(k["preset"] == "mi250x" and not k["notes"][0].startswith("built for") for k in kernels),
                        result.describe())
        text = run("inspect", path, "--kernel", "heavy_1024_spills")
        self.assert_exit(text, 0)
        self.assertIn(": 1 for gfx90a:xnack+, 1 for gfx90a:xnack-\n", text.out, text.describe())
        self.assertIn("\n== gfx90a:xnack+ on MI250X (gfx90a), preset mi250x:xnack+ ==\n", text.out, text.describe())
        self.assertIn("\n== gfx90a:xnack- on MI250X (gfx90a), preset mi250x ==\n", text.out, text.describe())

    def test_float16_kernels_are_demangled_and_found_by_their_plain_name(self):
        path = self.sample("inspect_samples.hipfb")
        kernels, result = self.inspect_json(path, "--kernel", "sgemm_16x16x16")
        self.assertEqual([(k["target"], k["demangled"]) for k in kernels],
                         [(t, "sgemm_16x16x16(_Float16 const*, _Float16 const*, float*)") for t in ("gfx90a", "gfx940")],
                         result.describe())
        self.assertEqual({k["name"] for k in kernels}, {"_Z14sgemm_16x16x16PKDF16_S0_Pf"}, result.describe())
        kernels, result = self.inspect_json(path, "--kernel", "scale_half<_Float16>")
        self.assertEqual({k["demangled"] for k in kernels}, {"void scale_half<_Float16>(_Float16*, _Float16, unsigned int)"},
                         result.describe())
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:sgemm_16x16x16", "--block", "256")
        self.assertEqual(doc["kernel"]["demangled"], "sgemm_16x16x16(_Float16 const*, _Float16 const*, float*)",
                         result.describe())

    def test_sgpr_spills_are_named_and_not_blamed_on_the_launch_bound(self):
        path = self.sample("inspect_samples.hipfb")
        kernels, result = self.inspect_json(path, "--kernel", "sgpr_heavy")
        self.assertEqual(sorted({k["max_threads"] for k in kernels}), [64, 1024], result.describe())
        for k in kernels:
            with self.subTest(kernel=k["demangled"], target=k["target"]):
                self.assertGreater(k["sgpr_spill_count"], 0, result.describe())
                spill = [n for n in k["notes"] if n.startswith("spills ")]
                self.assertEqual(len(spill), 1, result.describe())
                self.assertTrue(spill[0].startswith(f"spills {k['sgpr_spill_count']} SGPRs: a wave can address at most "
                                                    "102 SGPRs"), spill)
                self.assertIn("whatever the launch bound", spill[0])
                self.assertNotIn("may be forcing", spill[0])
        # A smaller bound would change nothing: the same spills at 64 as at 1024 threads.
        by_target = self.by_target(kernels)
        for target, ks in by_target.items():
            self.assertEqual(len({(k["sgpr_count"], k["sgpr_spill_count"]) for k in ks}), 1, f"{target}: {ks}")

    def test_a_program_whose_kernels_sit_in_a_linked_library_names_that_library(self):
        path = os.path.join(SAMPLES, "library_user")
        if not os.path.isfile(path):
            self.skipTest("no library_user sample (it needs libamdhip64)")
        result = run("inspect", path)
        self.assert_usage_error(result, "no .hip_fatbin section", "shared library it links: libsamples.so")
        for runtime in ("libc.so", "libstdc++", "libamdhip64"):
            self.assertNotIn(runtime, result.err, result.describe())

    def test_rdna_kernels_are_modelled_in_their_own_wave_size(self):
        for name, wave, vgprs, granule in (("isa_samples-gfx1100.co", 32, 1536, 24),
                                           ("isa_samples-gfx1100-wave64.co", 64, 768, 12)):
            kernels, result = self.inspect_json(self.sample(name))
            for k in kernels:
                with self.subTest(file=name, kernel=k["name"]):
                    self.assertEqual((k["target"], k["wave_size"], k["preset"]), ("gfx1100", wave, "rx7900xtx"))
                    rows = [(r["block"], r["active_blocks_per_cu"], r["active_waves_per_cu"]) for r in k["occupancy"]]
                    self.assertEqual(rows, self.hip_rows(k, wave, 4, 16, vgprs, granule, 0, 65536), result.describe())
                    self.assertFalse(any("compiled for" in n for n in k["notes"]), result.describe())


class KernelFromFile(CodeObjectSamples, unittest.TestCase):
    """check, plan and occupancy with --kernel FILE:NAME instead of the resource flags."""

    def test_occupancy_rows_equal_those_of_inspect_for_every_kernel(self):
        path = self.sample("samples-gfx940.co")
        kernels, _ = self.inspect_json(path)
        for k in kernels:
            with self.subTest(kernel=k["name"]):
                doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:{k['name']}")
                self.assert_exit(result, 0)
                self.assertEqual(doc["rows"], k["occupancy"], result.describe())
                self.assertEqual({key: doc["kernel"][key] for key in ("file", "name", "demangled", "target", "preset")},
                                 {"file": path, "name": k["name"], "demangled": k["demangled"], "target": "gfx940",
                                  "preset": "mi300x"}, result.describe())

    def test_plan_chooses_the_recommended_block_and_check_enforces_the_launch_bound(self):
        path = self.sample("samples-gfx940.co")
        [k], _ = self.inspect_json(path, "--kernel", "heavy_256")
        doc, result = self.kernel_json("plan", "--kernel", f"{path}:heavy_256", "--elements", "2^30")
        self.assertTrue(doc["valid"], result.describe())
        self.assertEqual(doc["block"][0], k["recommended_block"], result.describe())
        self.assertEqual(doc["occupancy"]["limiter"], "registers", result.describe())
        doc, result = self.kernel_json("check", "--kernel", f"{path}:heavy_256", "--grid", "1000", "--block", "512")
        self.assert_exit(result, 1)
        self.assertIn("block_exceeds_kernel_max_threads", {dg["code"] for dg in doc["diagnostics"]}, result.describe())
        doc, result = self.kernel_json("check", "--kernel", f"{path}:heavy_256", "--grid", "1000", "--block", "256")
        self.assert_exit(result, 0)
        self.assertTrue(doc["valid"], result.describe())

    def test_text_output_names_the_kernel_first(self):
        path = self.sample("samples-gfx940.co")
        result = run("check", "--kernel", f"{path}:heavy_1024_spills", "--grid", "8", "--block", "256")
        self.assert_exit(result, 0)
        lines = result.out.splitlines()
        self.assertEqual(lines[0], f"kernel heavy_1024_spills(float const*, float*, int) [gfx940] from {path}",
                         result.describe())
        self.assertTrue(any(line.startswith("warning: spills ") for line in lines), result.describe())
        self.assertTrue(any(line.startswith("valid: launch fits MI300X (gfx942)") for line in lines), result.describe())

    def test_dynamic_shared_memory_adds_to_the_kernels_static_lds(self):
        path = self.sample("samples-gfx90a.co")
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:dynamic_lds", "--dynamic-shared", "32Ki",
                                       "--block", "256")
        self.assertEqual((doc["rows"][0]["active_blocks_per_cu"], doc["rows"][0]["limiter"]), (2, "shared_memory"),
                         result.describe())
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:lds_tile<24576>", "--dynamic-shared", "16Ki",
                                       "--block", "256")
        self.assertEqual(doc["rows"][0]["active_blocks_per_cu"], 65536 // (24576 + 16384), result.describe())

    def test_the_device_follows_the_target_and_the_preset_picks_the_build(self):
        path = self.sample("samples.hipfb")
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_256")
        self.assertEqual((doc["kernel"]["target"], doc["kernel"]["preset"]), ("gfx90a", "mi250x"), result.describe())
        self.assertIn("compiled for gfx90a and gfx940: using the gfx90a build (--preset chooses the device and with "
                      "it the build)", doc["kernel"]["notes"], result.describe())
        for preset, target in (("mi300x", "gfx940"), ("mi300a", "gfx940"), ("mi210", "gfx90a")):
            doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_256", "--preset", preset)
            self.assertEqual((doc["kernel"]["target"], doc["kernel"]["preset"]), (target, preset), result.describe())
            self.assertFalse(any("using the" in n for n in doc["kernel"]["notes"]), result.describe())
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_256", "--preset", "mi355x")
        self.assertTrue(any(n.startswith("compiled for gfx90a, not for MI355X (gfx950)") for n in doc["kernel"]["notes"]),
                        result.describe())

    def test_xnack_builds_the_device_loads_are_used_and_the_note_says_which(self):
        path = self.sample("samples-xnack.hipfb")
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_1024_spills", "--block", "256")
        self.assertEqual((doc["kernel"]["target_id"], doc["kernel"]["preset"]), ("gfx90a:xnack-", "mi250x"), result.describe())
        self.assertIn("compiled for gfx90a:xnack+ and gfx90a:xnack-: using the gfx90a:xnack- build, the one MI250X (gfx90a) "
                      "loads with its default settings (gfx90a:sramecc+:xnack-); --preset mi250x:xnack+ selects the "
                      "gfx90a:xnack+ build", doc["kernel"]["notes"], result.describe())
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_1024_spills", "--preset", "mi210")
        self.assertEqual(doc["kernel"]["target_id"], "gfx90a:xnack-", result.describe())
        self.assertTrue(any("--preset mi210:xnack+ selects the gfx90a:xnack+ build" in n for n in doc["kernel"]["notes"]),
                        result.describe())
        minus = doc["rows"]
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:heavy_1024_spills", "--preset", "mi250x:xnack+")
        self.assertEqual(doc["kernel"]["target_id"], "gfx90a:xnack+", result.describe())
        self.assertFalse(any("using the" in n for n in doc["kernel"]["notes"]), result.describe())
        self.assertEqual(len(doc["rows"]), len(minus), result.describe())
        text = run("check", "--kernel", f"{path}:heavy_1024_spills", "--preset", "mi250x:xnack+", "--grid", "8", "--block", "256")
        self.assert_exit(text, 0)
        self.assertTrue(text.out.startswith(f"kernel heavy_1024_spills(float const*, float*, int) [gfx90a:xnack+] from {path}\n"),
                        text.describe())
        # Only xnack+ code: without --preset the device is modelled with XNACK on, so that it loads.
        doc, result = self.kernel_json("occupancy", "--kernel", f"{self.sample('samples-gfx90a-xnack+.co')}:heavy_256")
        self.assertFalse(any(n.startswith("built for") for n in doc["kernel"]["notes"]), result.describe())

    def test_file_names_and_kernel_names_may_hold_colons(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "build:release")
            os.mkdir(folder)
            path = os.path.join(folder, "app:v1.hipfb")
            shutil.copyfile(self.sample("samples.hipfb"), path)
            for name in ("wavefit_samples::tiled_transform",
                         "void wavefit_samples::tiled_transform<double, 1024, wavefit_samples::ops::scaled_sum<double> >"):
                doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:{name}", "--block", "512")
                self.assertEqual(doc["kernel"]["file"], path, result.describe())
                self.assertTrue(doc["kernel"]["name"].startswith("_ZN15wavefit_samples15tiled_transform"), result.describe())

    def test_a_name_of_several_kernels_or_of_none_is_a_usage_error(self):
        path = self.sample("samples.hipfb")
        self.assert_usage_error(run("occupancy", "--kernel", f"{path}:lds_tile"), "'lds_tile'", "several kernels",
                                "lds_tile<4096>(float*)", "lds_tile<24576>(float*)", "lds_tile<49152>(float*)")
        self.assert_usage_error(run("plan", "--kernel", f"{path}:no_such_kernel", "--elements", "1"),
                                "no kernel named 'no_such_kernel'", "heavy_256")
        self.assert_usage_error(run("check", "--kernel", f"{path}:", "--grid", "1", "--block", "64"),
                                "expected FILE:NAME", "light_axpy")

    def test_a_target_without_preset_needs_an_amd_preset(self):
        path = self.sample("isa_samples-gfx906.co")
        self.assert_usage_error(run("occupancy", "--kernel", f"{path}:isa_light"), "gfx906", "--preset")
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:isa_light", "--preset", "mi210")
        self.assert_exit(result, 0)
        self.assertTrue(doc["kernel"]["notes"][0].startswith("compiled for gfx906, not for MI210"), result.describe())
        self.assert_usage_error(run("occupancy", "--kernel", f"{path}:isa_light", "--preset", "h200"), "AMD")

    def test_a_wave64_rdna_kernel_is_planned_in_wave64(self):
        path = self.sample("isa_samples-gfx1100-wave64.co")
        doc, result = self.kernel_json("occupancy", "--kernel", f"{path}:isa_light")
        self.assertEqual([r["block"] for r in doc["rows"]], list(range(64, 1025, 64)), result.describe())
        doc, result = self.kernel_json("plan", "--kernel", f"{path}:isa_light", "--elements", "1M")
        self.assertEqual(doc["block"][0] % 64, 0, result.describe())


class HostileCodeObjects(CodeObjectSamples, unittest.TestCase):
    """Files from anywhere: damage gives one line and exit 2, never a crash, a hang or broken output
    (run the sanitizer build to have AddressSanitizer and UBSan watch every process)."""

    LONG_NAME_PREFIX = b"_ZN15wavefit_samples10long_names"

    def commands_on(self, path):
        return [["inspect", path], ["inspect", path, "--json"], ["occupancy", "--kernel", f"{path}:heavy_256"],
                ["plan", "--kernel", f"{path}:heavy_256", "--elements", "1M", "--json"],
                ["check", "--kernel", f"{path}:heavy_256", "--grid", "1", "--block", "64"]]

    def test_truncated_flipped_garbage_and_empty_files_exit_2_with_one_line(self):
        data = Path(self.sample("samples-gfx90a.co")).read_bytes()
        bundle = Path(self.sample("samples.hipfb")).read_bytes()
        flipped = bytearray(data)
        for i in range(40, 48):  # e_shoff: the section headers now lie far beyond the file
            flipped[i] ^= 0xFF
        rng = random.Random(7)
        files = {
            "truncated.co": (data[:len(data) // 2], "extends past the end"),
            "truncated.hipfb": (bundle[:len(bundle) // 3], "extends past the end"),
            "flipped.co": (bytes(flipped), "section header table"),
            "garbage.co": (bytes(rng.randrange(256) for _ in range(4096)), "no known magic"),
            "empty.co": (b"", "empty"),
            "elf-header-only.co": (data[:64], "ELF"),
        }
        with tempfile.TemporaryDirectory() as tmp:
            for name, (content, reason) in files.items():
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    f.write(content)
                for argv in self.commands_on(path):
                    with self.subTest(file=name, argv=argv[0]):
                        self.assert_usage_error(run(*argv), f"{path}: ", reason)

    def test_random_damage_to_the_metadata_reads_or_fails_cleanly(self):
        data = Path(self.sample("samples-gfx940.co")).read_bytes()
        metadata = data.find(b"amdhsa.kernels")
        self.assertGreater(metadata, 0)
        rng = random.Random(20251203)
        seen = set()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "damaged.co")
            for _ in range(80):
                damaged = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    damaged[rng.randrange(max(0, metadata - 600), min(len(data), metadata + 6000))] = rng.randrange(256)
                if rng.random() < 0.2:
                    damaged = damaged[:rng.randrange(len(damaged))]
                with open(path, "wb") as f:
                    f.write(damaged)
                result = run("inspect", path, "--json")
                self.assertIn(result.returncode, (0, 2), result.describe())
                self.assert_no_sanitizer_report(result)
                if result.returncode == 2:
                    self.assert_usage_error(result, path)
                else:
                    self.json_of(result)
                seen.add(result.returncode)
        self.assertEqual(seen, {0, 2}, "the damage should both break and spare some files")

    def with_long_name(self, replacement):
        """isa_samples-gfx1100.co with its long kernel name overwritten (same length) by `replacement`."""
        data = Path(self.sample("isa_samples-gfx1100.co")).read_bytes()
        m = re.search(re.escape(self.LONG_NAME_PREFIX) + rb"[0-9A-Za-z_]+", data)
        name = m.group(0)[:-3] if m.group(0).endswith(b".kd") else m.group(0)
        new = (replacement * (len(name) // len(replacement) + 1))[:len(name)] if len(replacement) < len(name) else replacement
        self.assertEqual(len(new), len(name), "the replacement must keep the metadata's layout")
        return data.replace(name, new), name

    def test_hostile_kernel_names_stay_inside_one_json_string_and_one_text_line(self):
        hostile = b"evil\x1b[31m\n\"'\\\x00\xff\xfe\xc3(\x7f\xe2\x80\xae"
        content, _ = self.with_long_name(hostile)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "hostile.co")
            with open(path, "wb") as f:
                f.write(content)
            kernels, result = self.inspect_json(path)
            self.assertEqual(result.out.count("\n"), 1, result.describe())
            evil = [k for k in kernels if k["name"].startswith("evil")]
            self.assertEqual(len(evil), 1, result.describe())
            self.assertTrue(evil[0]["name"].startswith("evil\x1b[31m\n\"'\\\x00\ufffd\ufffd\ufffd(\x7f\u202e"),
                            result.describe())
            self.assertEqual(evil[0]["demangled"], evil[0]["name"])
            text = run("inspect", path)
            self.assert_exit(text, 0)
            bad = [c for c in text.out if c != "\n" and not " " <= c <= "~"]
            self.assertEqual(bad, [], "text output holds control or non-ASCII characters" + text.describe())
            self.assertIn("\nevil\\x1b[31m\\x0a\"'\\\\x00\\xff\\xfe\\xc3(\\x7f\\xe2\\x80\\xaeevil", text.out,
                          text.describe())
            self.assert_usage_error(run("inspect", path, "--kernel", "nothing"), "nothing")

    def test_a_name_that_demangles_to_gigabytes_costs_seconds_not_a_hang(self):
        # Each level names B<X, X> for the previous X: 2^levels characters once demangled.
        def seq(i):
            digits, n, text = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", i - 1, ""
            if i == 0:
                return "S_"
            while True:
                text, n = digits[n % 36] + text, n // 36
                if n == 0:
                    return "S" + text + "_"
        _, name = self.with_long_name(b"x")
        levels, prev = "", 1
        while len("_Z99" + "P1A1B" + levels) + 20 < len(name):
            levels += seq(2) + "I" + seq(prev) + seq(prev) + "E"
            prev = prev + 2 if prev == 1 else prev + 1
        pad = len(name) - len("_Z" + "P1A1B" + levels)
        pad -= len(str(pad - 2))
        bomb = ("_Z" + str(pad) + "f" * pad + "P1A1B" + levels).encode()
        self.assertGreater(levels.count("I"), 30)
        content, _ = self.with_long_name(bomb)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bomb.co")
            with open(path, "wb") as f:
                f.write(content)
            start = time.monotonic()
            kernels, result = self.inspect_json(path)
            self.assertLess(time.monotonic() - start, 20, result.describe())
            [k] = [k for k in kernels if k["name"] == bomb.decode()]
            self.assertEqual(k["demangled"], k["name"], "the bomb stays mangled")
            others = [k for k in kernels if k["name"] != bomb.decode()]
            self.assertTrue(all(k["demangled"] != k["name"] for k in others), result.describe())


class GpuBackend(CliAssertions, unittest.TestCase):
    """A CLI built with WAVEFIT_GPU=CUDA or HIP reads real GPUs; without one it says so."""

    def setUp(self):
        if not BACKEND:
            self.skipTest("this wavefit has no GPU backend")
        self.listing = run("info", "--json")
        self.assert_exit(self.listing, 0)
        self.devices = self.json_of(self.listing)["devices"]

    def test_without_a_gpu_device_selection_is_a_one_line_usage_error(self):
        if self.devices:
            self.skipTest("a GPU is visible")
        result = run("info", "--device", "0")
        self.assert_usage_error(result, "--device 0", f"no {BACKEND} GPU is visible")

    def test_a_visible_gpu_is_listed_and_selectable(self):
        if not self.devices:
            self.skipTest(f"no {BACKEND} GPU is visible")
        device = self.devices[0]
        for key in ("name", "arch", "wave_size", "compute_units", "max_threads_per_block"):
            self.assertIn(key, device, self.listing.describe())
        selected = run("info", "--device", "0", "--json")
        self.assert_exit(selected, 0)
        self.assertEqual(self.json_of(selected)["devices"][0], device, selected.describe())
        plan = run("plan", "--device", "0", "--elements", "2^28", "--json")
        self.assert_exit(plan, 0)
        doc = self.json_of(plan)
        grid, block = doc["grid"], doc["block"]
        check = run("check", "--device", "0", "--grid", ",".join(map(str, grid)), "--block", ",".join(map(str, block)))
        self.assert_exit(check, 0)

    def test_the_h200_reads_exactly_as_the_h200_preset(self):
        if not self.devices or "H200" not in self.devices[0]["name"]:
            self.skipTest("device 0 is not an NVIDIA H200")
        preset = self.json_of(run("info", "--preset", "h200", "--json"))["devices"][0]
        self.assertEqual(self.devices[0], preset, self.listing.describe())


class MalformedInput(CliAssertions, unittest.TestCase):
    """Every malformed input: exit 2, one 'wavefit: error:' line on stderr naming the problem, empty stdout."""

    P = ["plan", "--preset", "mi300x"]
    C = ["check", "--preset", "mi300x", "--block", "64"]
    # Malformed values of one option: (the argv before it, the option, {value: what the line must say besides the option}).
    BAD_VALUES = [
        (P, "--elements", {
            "": ["empty"], " 5": ["whitespace"], "5 ": ["whitespace"], "5\nfake second line": ["\\n"],
            "+5": ["'+5'", "sign"], "-5": ["'-5'", "sign"], "1.5k": ["'1.5k'", "fraction"], "2^": ["'2^'", "exponent"],
            "12abc": ["'12abc'"], "0x": ["'0x'"], "0xfg": ["'0xfg'"], "3^4": ["'3^4'"], "1e6": ["'1e6'"], "5,6": ["'5,6'"],
            "2^64": ["2^64-1"], "18446744073709551616": ["2^64-1"], "18446744073709552k": ["2^64-1"],
            "17179869184Gi": ["2^64-1"]}),
        (P + ["--elements", "1"], "--regs", {"2^40": ["1099511627776", "4294967295"], "4294967296": ["4294967295"]}),
        (P + ["--elements", "1"], "--sgprs", {"2^32": ["4294967295"]}),
        (P + ["--elements", "1"], "--kernel-max-threads", {"0": ["positive"], "2^32": ["4294967295"]}),
        (P + ["--elements", "1"], "--static-shared", {"2^64": ["2^64-1"]}),
        (P + ["--elements", "1"], "--dynamic-shared", {"lots": ["'lots'"]}),
        (P, "--extent", {"1,,2": ["'1,,2'", "y"], "1,2,3,4": ["more than 3"], "1,2,": ["z"], ",1": ["x"], "": ["empty"]}),
        (C, "--grid", {"1,,2": ["'1,,2'"], "1,": ["'1,'"], "1,2,3,4": ["more than 3"], "1,1.5": ["fraction"], "-1": ["sign"],
                       "2^64,1": ["2^64-1"]}),
        (["check", "--preset", "mi300x", "--grid", "1"], "--block", {"64,64,64,64": ["more than 3"]}),
    ]
    CASES = [(before + [option, value], [option, *mentions])
             for before, option, values in BAD_VALUES for value, mentions in values.items()] + [
        # (argv, texts the one stderr line must contain)
        (P + ["--elements", "5", "--elements", "6"], ["--elements", "twice"]),
        (P + ["--elements", "5", "--json", "--json"], ["--json", "twice"]),
        (P + ["--elements"], ["--elements", "value"]),
        (P + ["--elements", "--json"], ["--elements", "value"]),
        (P + ["--elements", "5", "--frobnicate"], ["'--frobnicate'"]),
        (P + ["--elements", "5", "-x"], ["'-x'"]),
        (P + ["--elements", "5", "--grid", "1"], ["--grid", "plan"]),
        (P + ["--elements", "5", "stray"], ["'stray'"]),
        (P + ["--elements", "5", "--json=yes"], ["--json", "'yes'"]),
        (C + ["--grid", "1", "--elements", "5"], ["--elements", "check"]),
        (["occupancy", "--preset", "mi300x", "--block", "0"], ["--block", "positive"]),
        (["occupancy", "--preset", "mi300x", "--block", "64,2"], ["--block", "'64,2'"]),
        (["occupancy", "--preset", "mi300x", "--grid", "1"], ["--grid"]),
        (["presets", "--elements", "5"], ["--elements"]),
        (["info", "--preset", "mi300x", "--device", "0"], ["--preset", "--device"]),
        (["info", "--preset"], ["--preset", "value"]),
        (["info", "--preset", "nope"], ["'nope'", "mi300x"]),
        (["info", "--device", "-1"], ["--device", "sign"]),
        (["info", "--device", "2^31"], ["--device", "2147483647"]),
        (["check", "--preset", "mi300x", "--grid", "1"], ["--block"]),
        (["plan", "--elements", "5"], ["--preset"]),
        (["explain"], ["CODE"]),
        (["explain", "9", "--preset", "mi300x"], ["--preset"]),
        (["--version", "extra"], ["'extra'"]),
        (["inspect"], ["FILE"]),
        (["inspect", "a.co", "b.co"], ["'b.co'"]),
        (["inspect", ""], ["FILE"]),
        (["inspect", "/nonexistent/app.co"], ["/nonexistent/app.co: no such file"]),
        (["inspect", "/"], ["/: not a regular file"]),
        (["inspect", "/nonexistent/app.co", "--kernel", ""], ["--kernel", "NAME"]),
        (["inspect", "app.co", "--grid", "1"], ["--grid", "inspect"]),
        (["inspect", "app.co", "--regs", "1"], ["--regs", "inspect"]),
        (["occupancy", "--kernel", "/nonexistent/app:k"], ["--kernel", "no such file", "'/nonexistent/app'"]),
        (["occupancy", "--kernel", "no-colon-and-no-file"], ["--kernel", "FILE:NAME"]),
        (["occupancy", "--kernel", ""], ["--kernel", "FILE:NAME"]),
        (["occupancy", "--kernel", "/:k"], ["--kernel", "not a regular file"]),
        (["plan", "--kernel", "app:k", "--elements", "1", "--regs", "64"], ["--regs", "--kernel"]),
        (["check", "--kernel", "app:k", "--grid", "1", "--block", "64", "--static-shared", "1"],
         ["--static-shared", "--kernel"]),
        (["occupancy", "--kernel", "app:k", "--kernel-max-threads", "256"], ["--kernel-max-threads", "--kernel"]),
        (["occupancy", "--kernel", "app:k", "--sgprs", "16"], ["--sgprs", "--kernel"]),
        (["occupancy", "--block", "64"], ["--preset", "--kernel FILE:NAME"]),
        (["--frobnicate"], ["'--frobnicate'"]),
        (["plans"], ["'plans'"]),
    ]

    def test_each_malformed_input_exits_2_with_one_line_naming_the_problem(self):
        for argv, mentions in self.CASES:
            with self.subTest(argv=argv):
                self.assert_usage_error(run(*argv), *mentions)

    def test_files_that_are_not_code_objects_are_one_line_usage_errors(self):
        # No samples needed: HostileCodeObjects damages real compiler output.
        files = {"empty.co": (b"", "empty"), "garbage.co": (bytes(range(256)) * 8, "no known magic"),
                 "elf-magic-only.co": (b"\x7fELF", "ELF"), "archive.a": (b"!<arch>\n", "archive")}
        with tempfile.TemporaryDirectory() as tmp:
            for name, (content, reason) in files.items():
                path = os.path.join(tmp, name)
                Path(path).write_bytes(content)
                for argv in (["inspect", path], ["inspect", path, "--json", "--kernel", "k"],
                             ["occupancy", "--kernel", f"{path}:k"], ["plan", "--kernel", f"{path}:k", "--elements", "9"],
                             ["check", "--kernel", f"{path}:k", "--grid", "1", "--block", "1", "--json"]):
                    with self.subTest(file=name, argv=argv[0]):
                        self.assert_usage_error(run(*argv), f"{path}: ", reason)

    def test_usage_errors_print_nothing_on_stdout_even_with_json(self):
        for argv, _ in self.CASES:
            with self.subTest(argv=argv):
                result = run(*argv, "--json") if "--json" not in argv else run(*argv)
                self.assert_exit(result, 2)
                self.assertEqual(result.out, "", result.describe())


class JsonOutput(CliAssertions, unittest.TestCase):
    COMMANDS = [
        ["presets"],
        ["info"],
        ["info", "--preset", "rx7900xtx"],
        ["check", "--preset", "a100", "--grid", "1,2,3", "--block", "7,7,7"],
        ["plan", "--preset", "mi355x", "--elements", "12345"],
        ["plan", "--preset", "mi355x", "--elements", "12345", "--static-shared", "1Mi"],
        ["occupancy", "--preset", "h100", "--regs", "255"],
        ["explain", "hipErrorNoBinaryForGpu"],
        ["explain", "unknown thing"],
    ]

    def test_json_output_is_exactly_one_document_and_nothing_else(self):
        for argv in self.COMMANDS:
            with self.subTest(argv=argv):
                result = run(*argv, "--json")
                self.assertIn(result.returncode, (0, 1), result.describe())
                self.assert_no_sanitizer_report(result)
                self.json_of(result)
                self.assertEqual(result.out.count("\n"), 1, "one document on one line" + result.describe())

    def test_json_flag_may_come_anywhere_on_the_line(self):
        a = self.json_of(run("plan", "--json", "--preset", "h100", "--elements", "99"))
        b = self.json_of(run("plan", "--preset", "h100", "--elements", "99", "--json"))
        self.assertEqual(a, b)


class ArgumentFuzz(CliAssertions, unittest.TestCase):
    """Random argument vectors: wavefit exits 0, 1 or 2 in time and never crashes."""

    RUNS = 300
    TOKENS = [
        "presets", "info", "check", "plan", "occupancy", "inspect", "explain", "--help", "--version", "--json", "--",
        "--kernel", "/", "/nonexistent:k", "x:y::z",
        "--preset", "--device", "--grid", "--block", "--elements", "--extent", "--regs", "--sgprs",
        "--static-shared", "--dynamic-shared", "--kernel-max-threads", "--preset=mi300x", "--elements=",
        "mi300x", "h200", "rx7900xtx", "MI250X", "a100", "nope",
        "0", "1", "64", "1000", "2^33", "2^63", "2^64", "0x", "0xffffffffffffffff", "18446744073709551615",
        "18446744073709551616", "1.5k", "48Ki", "4Gi", "7G", "-1", "+1", "1,2", "1,2,3", "1,,2", "0,0,0",
        "9", "209", "hipErrorInvalidConfiguration", "invalid configuration argument", "zero_dimension",
        "", " ", "\t", "\n", "é", "\u2603", "\x7f", "\x01", "'", '"', "\\", "%s%n", "x" * 5000,
    ]

    def random_argv(self, rng):
        argv = [rng.choice(self.TOKENS) for _ in range(rng.randint(0, 9))]
        if argv and rng.random() < 0.3:
            i = rng.randrange(len(argv))
            argv[i] = "".join(chr(rng.choice([rng.randint(1, 127), rng.randint(128, 0x2FFF)]))
                              for _ in range(rng.randint(0, 12)))
        if rng.random() < 0.5:
            argv.insert(0, rng.choice(["check", "plan", "occupancy", "explain", "info", "inspect"]))
        return argv

    @staticmethod
    def asks_for_json(argv):
        """--json as a flag of a subcommand (not after "--", not beside --help)."""
        flags = argv[:argv.index("--")] if "--" in argv else argv
        return "--json" in flags and "--help" not in flags and "-h" not in flags and argv[0] != "--version"

    def test_random_argument_vectors_exit_0_1_or_2_and_never_crash(self):
        rng = random.Random(20251202)
        seen = set()
        for _ in range(self.RUNS):
            argv = self.random_argv(rng)
            result = run(*argv)
            self.assertIn(result.returncode, (0, 1, 2), "crash or unexpected exit status" + result.describe())
            self.assert_no_sanitizer_report(result)
            if result.returncode == 2:
                self.assertEqual(result.out, "", result.describe())
                self.assertEqual(result.err.count("\n"), 1, result.describe())
                self.assertTrue(result.err.startswith("wavefit: error: "), result.describe())
            elif self.asks_for_json(argv):
                self.json_of(result)
            seen.add(result.returncode)
        self.assertEqual(seen, {0, 1, 2}, "the fuzz should reach every exit status")




class TuningFiles(CliAssertions, unittest.TestCase):
    """`wavefit tuning show|check|merge` on files in the format wavefit::tune writes (docs/tuning.md)."""

    RECORD = {
        "wavefit_tuning": 2, "wavefit": "0.2.0",
        "key": {"device": "NVIDIA H200", "arch": "sm_90", "compute_units": 132, "runtime": "CUDA 13000",
                "kernel": "_Z4copyPdPKdm", "registers": 16, "scalar_registers": 0, "static_shared": 0,
                "max_threads": 1024, "local_bytes": 0, "work": "elements", "bucket": 28, "unit_bucket": 0,
                "coverage": "kernel_loops", "powers_of_two": True, "max_block": 0, "fixed_block": [0, 0, 0],
                "group_threads": 0, "dynamic_shared": 0, "shared_per_thread": 0, "shared_rule": 0,
                "min_efficient_block": 256},
        "chosen": {"block": [512, 1, 1], "grid": "saturate", "factor": 2, "median_ns": 1000000, "spread": 0.004},
        "plan": {"block": [256, 1, 1], "grid": "cover", "factor": 1, "median_ns": 1031000, "spread": 0.003},
        "cold_cache": True, "candidates": 63, "failed": 1, "tuning_ms": 612, "measured_size": 268435456,
    }

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def file(self, name, lines):
        path = Path(self.dir.name) / name
        path.write_text("".join(line + "\n" for line in lines))
        return path

    def record(self, **changes):
        r = json.loads(json.dumps(self.RECORD))
        for key, value in changes.items():
            if "." in key:
                outer, inner = key.split(".")
                r[outer][inner] = value
            else:
                r[key] = value
        return json.dumps(r)

    def test_show_lists_the_tuned_choice_against_the_plan_with_speedup_and_spread(self):
        path = self.file("a.jsonl", [self.record()])
        r = run("tuning", "show", path)
        self.assert_exit(r, 0)
        for text in ("NVIDIA H200 (sm_90, 132 CUs/SMs), CUDA 13000", "copy(double*, double const*, unsigned long)",
                     "block (512, 1, 1), saturate x2", "block (256, 1, 1), cover", "1.031x", "0.4%", "63 (1 failed)"):
            self.assertIn(text, r.out, r.describe())
        doc = self.json_of(run("tuning", "show", path, "--json"))
        self.assertEqual(len(doc["records"]), 1)
        self.assertAlmostEqual(doc["records"][0]["speedup"], 1.031, places=6)
        self.assertEqual(doc["records"][0]["chosen"]["block"], [512, 1, 1])

    def test_show_prints_the_speedup_over_your_configuration_when_the_launch_replaced_one(self):
        # A port of an explicit configuration keeps it as the baseline; the record holds its timing.
        yours = {"block": [1024, 1, 1], "grid": "cover", "factor": 1, "median_ns": 1250000, "spread": 0.002}
        path = self.file("yours.jsonl", [self.record(baseline=yours), self.record(**{"key.bucket": 20})])
        r = run("tuning", "show", path)
        self.assert_exit(r, 0)
        self.assertIn("vs yours", r.out, r.describe())
        self.assertIn("1.250x", r.out, r.describe())  # 1,250,000 ns against the chosen 1,000,000 ns
        doc = self.json_of(run("tuning", "show", path, "--json"))
        first, second = doc["records"]
        self.assertAlmostEqual(first["speedup_over_yours"], 1.25, places=6)
        self.assertEqual(first["yours"]["block"], [1024, 1, 1])
        self.assertIsNone(second["speedup_over_yours"])  # that launch replaced no configuration
        self.assertIsNone(second["yours"])

    def test_lines_that_are_not_records_beside_records_are_named_once_and_exit_1(self):
        # The runtime ignores such lines (a launch must not fail over a cache); a command that reads the
        # file reports them (issue 20).
        path = self.file("mixed.jsonl", ["garbage", self.record(), '{"wavefit_tuning": 3}', "[" * 200, ""])
        r = run("tuning", "show", path)
        self.assert_exit(r, 1)
        self.assertIn("1 record", r.out)
        self.assertEqual(r.err.count("\n"), 1, r.describe())
        self.assertIn("3 line(s) are not tuning records", r.err)
        self.assertIn("the first at line 1", r.err)
        self.assertEqual(len(self.json_of(run("tuning", "show", path, "--json"))["records"]), 1)
        c = run("tuning", "check", path, "--preset", "h200")
        self.assert_exit(c, 1)
        self.assertIn("1 record, all valid; 3 line(s) are not records", c.out, c.describe())
        doc = self.json_of(run("tuning", "check", path, "--preset", "h200", "--json"))
        self.assertEqual((doc["valid"], doc["ignored_lines"]), (False, 3))
        good = self.file("good.jsonl", [self.record()])
        out = Path(self.dir.name) / "merged.jsonl"
        m = run("tuning", "merge", good, path, "-o", out)
        self.assert_exit(m, 1)
        self.assertIn("3 line(s) are not tuning records", m.err, m.describe())
        self.assert_exit(run("tuning", "show", out), 0)

    def test_a_file_with_no_record_is_a_one_line_usage_error_naming_the_first_bad_line(self):
        # Issue 20: "0 records, all valid" and exit 0 for random bytes and for a file of broken lines.
        broken = self.file("broken.jsonl", ["garbage", "", '{"wavefit_tuning": 2}', "[" * 200])
        noise = Path(self.dir.name) / "noise.jsonl"
        data = random.Random(20261202).randbytes(4096)
        self.assertNotEqual(data[:2], b"\x1f\x8b")
        noise.write_bytes(data)
        empty = self.file("empty.jsonl", [])
        good = self.file("good.jsonl", [self.record()])
        out = Path(self.dir.name) / "never.jsonl"
        cases = ((broken, ("no tuning record", "line 1: ")), (noise, ("not a text file", "so not a tuning file")),
                 (Path(CLI), ("not a text file",)), (empty, ("no tuning record", "empty")))
        for path, mentions in cases:
            for args in (["show", path], ["show", path, "--json"], ["check", path, "--preset", "mi300x"],
                         ["check", path, "--preset", "mi300x", "--json"], ["merge", good, path, "-o", out]):
                r = run("tuning", *args)
                self.assert_usage_error(r, str(path), *mentions)
        self.assertFalse(out.exists(), "merge must not write its output when an input cannot be read")

    def test_check_refuses_a_record_the_device_cannot_launch(self):
        path = self.file("b.jsonl", [self.record(), self.record(**{"key.bucket": 27, "chosen.block": [2048, 1, 1]})])
        r = run("tuning", "check", path, "--preset", "h200")
        self.assert_exit(r, 1)
        self.assertIn("1 invalid", r.out)
        self.assertIn("INVALID", r.out)
        self.assertIn("not launchable on NVIDIA H200", r.out)
        ok = self.file("ok.jsonl", [self.record()])
        self.assert_exit(run("tuning", "check", ok, "--preset", "h200"), 0)
        other = run("tuning", "check", ok, "--preset", "mi300x")
        self.assert_exit(other, 0)
        self.assertIn("measured on another device", other.out)
        doc = self.json_of(run("tuning", "check", path, "--preset", "h200", "--json"))
        self.assertFalse(doc["valid"])
        self.assertEqual([rec["valid"] for rec in doc["records"]], [True, False])

    def test_merge_writes_both_files_records_the_second_winning(self):
        a = self.file("a.jsonl", [self.record(), self.record(**{"key.bucket": 20})])
        b = self.file("b.jsonl", [self.record(**{"chosen.factor": 4}), self.record(**{"key.kernel": "_Z5otherv"})])
        out = Path(self.dir.name) / "c.jsonl"
        r = run("tuning", "merge", a, b, "-o", out)
        self.assert_exit(r, 0)
        self.assertIn("3 records (1 of the first replaced by the second)", r.out)
        doc = self.json_of(run("tuning", "show", out, "--json"))
        factors = sorted((rec["kernel"], rec["bucket"], rec["chosen"]["factor"]) for rec in doc["records"])
        self.assertEqual(factors, [("_Z4copyPdPKdm", 20, 2), ("_Z4copyPdPKdm", 28, 4), ("_Z5otherv", 28, 2)])

    def test_bad_command_lines_are_one_line_usage_errors(self):
        path = self.file("a.jsonl", [self.record()])
        for args in (["tuning"], ["tuning", "show"], ["tuning", "show", path, path], ["tuning", "frob", path],
                     ["tuning", "check", path], ["tuning", "merge", path, path], ["tuning", "show", path, "-o", path],
                     ["tuning", "show", Path(self.dir.name) / "missing.jsonl"], ["tuning", "check", path, "--preset", "nope"]):
            r = run(*args)
            self.assert_exit(r, 2)
            self.assertEqual(r.err.count("\n"), 1, r.describe())
            self.assertEqual(r.out, "", r.describe())


if __name__ == "__main__":
    if not CLI or not Path(CLI).is_file():
        sys.exit(f"WAVEFIT_CLI must name the installed wavefit binary (got {CLI!r})")
    unittest.main()
