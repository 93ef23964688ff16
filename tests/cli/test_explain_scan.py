#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specifications of the mistake notebook: `wavefit explain --scan`, team entries (--kb, WAVEFIT_KB_PATH,
--check-kb) and `--export markdown` (docs/cli.md, "wavefit explain").

Runs the installed binary named by $WAVEFIT_CLI, like test_cli.py, on the logs and team files of
tests/data/logs/. Every failure message shows the command, its exit status, stdout and stderr.
"""

import gzip
import json
import os
import random
import re
import shlex
import subprocess
import tempfile
import unittest
from pathlib import Path

from test_cli import CLI, TIMEOUT_S, CliAssertions, Result

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"
MIXED = LOGS / "mixed.log"
CLEAN = LOGS / "clean-build.log"
TEAM_VALID = LOGS / "team-valid.kb"
TEAM_EXTENDS = LOGS / "team-extends.kb"
TEAM_MALFORMED = LOGS / "team-malformed.kb"
TEAM_LOG = LOGS / "team-mixed.log"

PROBLEM_KEYS = {"name", "code", "lines", "excerpt", "meaning", "causes", "fixes", "numbers"}
LAUNCH_BOUNDS = "Launch params (x, y, z) are larger than launch bounds (N)"

# What mixed.log holds, in order of first appearance: (name, code, lines, numbers).
MIXED_PROBLEMS = [
    ("hipErrorInvalidDeviceFunction", 98, [14], {}),
    (LAUNCH_BOUNDS, None, [23, 25], {"block_x": 1024, "block_y": 1, "block_z": 1, "bound": 256, "block": 1024}),
    ("hipErrorLaunchFailure", 719, [24, 27], {}),
    ("hipErrorIllegalAddress", 700, [34], {"node": 2, "address": 0x7fe55fb03000}),
    ("HSA_STATUS_ERROR_INVALID_ISA", None, [38], {}),
    ("hipErrorNoBinaryForGpu", 209, [41, 46], {}),
    ("hipErrorInvalidConfiguration", 9, [45], {}),
    ("block_exceeds_device_max_threads", None, [47], {}),
]


def run(*args, stdin=None, env=None):
    """The installed wavefit with `args`; `stdin` bytes on standard input; WAVEFIT_KB_PATH only from `env`."""
    args = [str(a) for a in args]
    environment = {k: v for k, v in os.environ.items() if k != "WAVEFIT_KB_PATH"}
    environment.update(env or {})
    try:
        done = subprocess.run([CLI, *args], input=stdin if stdin is not None else b"", capture_output=True,
                              timeout=TIMEOUT_S, env=environment)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"wavefit {shlex.join(args)} did not finish within {TIMEOUT_S} s")
    shown = args + ([f"(with {env})"] if env else [])
    return Result(shown, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


class ScanAssertions(CliAssertions):
    def scan_json(self, *args, expect=0, **kw):
        result = run("explain", "--scan", *args, "--json", **kw)
        self.assert_exit(result, expect)
        doc = self.json_of(result)
        self.assertEqual(set(doc), {"problems"}, result.describe())
        for p in doc["problems"]:
            self.assert_keys(p, PROBLEM_KEYS, result)
            self.assertEqual(len(p["causes"]), len(p["fixes"]), result.describe())
            self.assertTrue(p["causes"], result.describe())
        return doc, result

    def summary(self, doc):
        return [(p["name"], p["code"], p["lines"], p["numbers"]) for p in doc["problems"]]


class ScanMixedLog(ScanAssertions, unittest.TestCase):
    def test_every_known_problem_once_with_its_lines_and_numbers(self):
        doc, result = self.scan_json(MIXED)
        self.assertEqual(self.summary(doc), [tuple(p) for p in MIXED_PROBLEMS], result.describe())

    def test_the_launch_bounds_fix_carries_the_numbers_of_the_line(self):
        doc, result = self.scan_json(MIXED)
        bounds = doc["problems"][1]
        self.assertEqual(bounds["fixes"][0], "the block of 1024 exceeds this kernel's bound of 256; rebuild with "
                                             "`__launch_bounds__(1024)` or launch at most 256 threads per block",
                         result.describe())
        self.assertIn("_ZL12rms_norm_f32ILi1024EEvPKfPfif", bounds["causes"][0], result.describe())
        self.assertNotIn("please add", bounds["causes"][0], "the kernel name is one word" + result.describe())

    def test_the_memory_fault_names_its_node_and_reason(self):
        doc, result = self.scan_json(MIXED)
        fault = doc["problems"][3]
        self.assertIn("node-2", fault["causes"][0], result.describe())
        self.assertIn("Page not present or supervisor privilege", fault["causes"][0], result.describe())
        self.assertTrue(fault["excerpt"].startswith("Memory access fault by GPU node-2"), result.describe())

    def test_the_excerpt_is_the_first_line_of_the_problem(self):
        doc, result = self.scan_json(MIXED)
        self.assertEqual(doc["problems"][0]["excerpt"], "RuntimeError: HIP error: invalid device function",
                         result.describe())
        self.assertEqual(doc["problems"][5]["excerpt"],
                         '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"',
                         result.describe())

    def test_text_report_lists_each_problem_with_lines_and_the_numbered_fix(self):
        result = run("explain", "--scan", MIXED)
        self.assert_exit(result, 0)
        self.assertTrue(result.out.startswith(f"8 problems in 48 lines of {MIXED}\n"), result.describe())
        self.assertIn("\n2. Launch params (x, y, z) are larger than launch bounds (N) (a runtime log line without an "
                      "error code)\n   lines 23, 25\n", result.out, result.describe())
        self.assertIn("fix: the block of 1024 exceeds this kernel's bound of 256; rebuild with "
                      "`__launch_bounds__(1024)` or launch at most 256 threads per block\n", result.out, result.describe())
        self.assertEqual(result.err, "", result.describe())

    def test_markdown_report_has_one_section_per_problem(self):
        result = run("explain", "--scan", MIXED, "--markdown")
        self.assert_exit(result, 0)
        self.assertTrue(result.out.startswith("# Problems found by wavefit explain --scan\n"), result.describe())
        self.assertEqual(result.out.count("\n## "), len(MIXED_PROBLEMS), result.describe())
        self.assertIn("\n## hipErrorInvalidDeviceFunction (98, CUDA: cudaErrorInvalidDeviceFunction)\n", result.out,
                      result.describe())
        # The excerpt is an indented code block: log text cannot turn into markup.
        self.assertIn("\n    RuntimeError: HIP error: invalid device function\n", result.out, result.describe())

    def test_standard_input_and_gzip_give_the_same_report(self):
        expected, _ = self.scan_json(MIXED)
        data = MIXED.read_bytes()
        from_stdin, result = self.scan_json("-", stdin=data)
        self.assertEqual(from_stdin, expected, result.describe())
        # mtime=0: the same bytes on every run.
        packed = gzip.compress(data, mtime=0)
        from_gzip_stdin, result = self.scan_json("-", stdin=packed)
        self.assertEqual(from_gzip_stdin, expected, result.describe())
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "ci-log.txt"  # gzip is told by its first bytes, not the name
            path.write_bytes(packed)
            from_file, result = self.scan_json(path)
            self.assertEqual(from_file, expected, result.describe())

    def test_crlf_line_ends_change_nothing(self):
        expected, _ = self.scan_json(MIXED)
        doc, result = self.scan_json("-", stdin=MIXED.read_bytes().replace(b"\n", b"\r\n"))
        self.assertEqual(doc, expected, result.describe())


class ScanFindsNothing(ScanAssertions, unittest.TestCase):
    def test_a_clean_build_log_has_no_problem_and_exits_1(self):
        doc, result = self.scan_json(CLEAN, expect=1)
        self.assertEqual(doc, {"problems": []}, result.describe())
        result = run("explain", "--scan", CLEAN)
        self.assert_exit(result, 1)
        self.assertEqual(result.out, f"0 problems in 26 lines of {CLEAN}\n", result.describe())

    def test_numbers_count_only_in_an_error_context(self):
        cases = {
            b"step 3 took 209 ms\n": [],
            b"exit code 1\n": [],
            b"make[2]: *** [CMakeFiles/app.dir/build.make:76: src/kernel.hip.o] Error 1\n": [],
            b"processed 700 rows, status 0\n": [],
            b"error code: 209\n": [("hipErrorNoBinaryForGpu", [1])],
            b"hipError_t 9 from the launch\n": [("hipErrorInvalidConfiguration", [1])],
            b"HIP error 700 at saxpy.hip:12\n": [("hipErrorIllegalAddress", [1])],
            b"fatal: error 700\n": [("hipErrorIllegalAddress", [1])],
            b"launch failed with error 1 on the GPU\n": [("hipErrorInvalidValue", [1])],
            b"a test named error 1 passed\n": [],
        }
        for text, expected in cases.items():
            with self.subTest(line=text):
                doc, result = self.scan_json("-", stdin=text, expect=0 if expected else 1)
                self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]], expected, result.describe())

    def test_an_empty_log_finds_nothing(self):
        doc, result = self.scan_json("-", stdin=b"", expect=1)
        self.assertEqual(doc, {"problems": []}, result.describe())


class ScanHostileInput(ScanAssertions, unittest.TestCase):
    def test_binary_bytes_and_nuls_are_scanned_without_harm(self):
        # 64 newlines in the 64 runs of every byte value, so the name is on line 65.
        data = bytes(range(256)) * 64 + b"\x00hipErrorInvalidValue\x00\n" + b"\xff\xfe\x00\x01" * 1000
        doc, result = self.scan_json("-", stdin=data)
        self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]], [("hipErrorInvalidValue", [65])],
                         result.describe())
        text = run("explain", "--scan", "-", stdin=data)
        self.assert_exit(text, 0)
        self.assertTrue(all(c == "\n" or 0x20 <= ord(c) < 0x7f for c in text.out),
                        "the text report is printable ASCII" + text.describe())

    def test_a_huge_line_is_cut_at_4096_bytes_and_the_rest_is_skipped(self):
        head = b"hipErrorInvalidValue "
        data = head + b"x" * (64 * 1024 * 1024) + b" hipErrorOutOfMemory\nnext: cudaErrorInvalidConfiguration\n"
        doc, result = self.scan_json("-", stdin=data)
        self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]],
                         [("hipErrorInvalidValue", [1]), ("hipErrorInvalidConfiguration", [2])], result.describe())
        self.assertLessEqual(len(doc["problems"][0]["excerpt"]), 250, result.describe())
        text = run("explain", "--scan", "-", stdin=data)
        self.assertIn("(1 lines longer than 4096 bytes: only their start was read)", text.out, text.describe())

    def test_a_last_line_without_newline_is_still_a_line(self):
        doc, result = self.scan_json("-", stdin=b"ok\nRuntimeError: CUDA error: invalid configuration argument")
        self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]], [("hipErrorInvalidConfiguration", [2])],
                         result.describe())

    def test_line_numbers_are_capped_per_problem_and_counted(self):
        data = b"HIP error 700\n" * 250
        doc, result = self.scan_json("-", stdin=data)
        self.assertEqual(doc["problems"][0]["lines"], list(range(1, 101)), result.describe())
        text = run("explain", "--scan", "-", stdin=data)
        self.assertIn(", ... (250 lines in all)\n", text.out, text.describe())

    def test_distinct_problems_are_capped_at_256(self):
        data = b"".join(b"Launch params (%d, 1, 1) are larger than launch bounds (64) for kernel k\n" % n
                        for n in range(65, 65 + 300))
        doc, result = self.scan_json("-", stdin=data)
        self.assertEqual(len(doc["problems"]), 256, result.describe())
        text = run("explain", "--scan", "-", stdin=data)
        self.assertIn("; 44 more lines with further problems not listed (at most 256 problems are kept)", text.out,
                      text.describe())

    def test_a_block_over_1024_is_not_told_to_rebuild_for_it(self):
        doc, result = self.scan_json("-", stdin=b"Launch params (64, 64, 1) are larger than launch bounds (1024) for kernel k\n")
        self.assertEqual(doc["problems"][0]["numbers"],
                         {"block_x": 64, "block_y": 64, "block_z": 1, "bound": 1024, "block": 4096}, result.describe())
        self.assertNotIn("__launch_bounds__(4096)", doc["problems"][0]["fixes"][0], result.describe())

    def test_corrupt_gzip_and_unreadable_files_are_usage_errors(self):
        packed = gzip.compress(MIXED.read_bytes(), mtime=0)
        broken = packed[:200] + bytes(b ^ 0x5a for b in packed[200:260]) + packed[260:]
        self.assert_usage_error(run("explain", "--scan", "-", stdin=broken), "standard input")
        self.assert_usage_error(run("explain", "--scan", "-", stdin=packed[:100]), "standard input")
        self.assert_usage_error(run("explain", "--scan", LOGS / "no-such.log"), "no-such.log")
        self.assert_usage_error(run("explain", "--scan", LOGS), "logs")


class NotebookGaps(ScanAssertions, unittest.TestCase):
    """Issue 20: what a field log held that the notebook skipped or explained too vaguely."""

    LOG = (":0:rocdevice.cpp :2652: 1 us: 7: [tid:0x7f] Device::callbackQueue aborting with error : "
           "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. code: 0x1008\n"
           "step 3: hipErrorNotInTheNotebook returned by a wrapper\n"
           "Memory access fault by GPU node-1 (Agent handle: 0x55) on address (nil). Reason: Page not present or "
           "supervisor privilege.\n"
           "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION\n")

    def test_out_of_resources_unknown_names_and_null_pointer_faults_are_reported(self):
        doc, result = self.scan_json("-", stdin=self.LOG.encode())
        self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]],
                         [("HSA_STATUS_ERROR_OUT_OF_RESOURCES", [1]), ("hipErrorNotInTheNotebook", [2]),
                          ("hipErrorIllegalAddress", [3]), ("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", [4])],
                         result.describe())
        oor, unknown, fault, _ = doc["problems"]
        self.assertIn("scratch", oor["causes"][0], result.describe())
        self.assertTrue(unknown["meaning"].startswith("Unknown to the notebook"), result.describe())
        self.assertIsNone(unknown["code"], result.describe())
        self.assertIn("entry: hipErrorNotInTheNotebook", unknown["fixes"][0], result.describe())
        self.assertIn("a null pointer", fault["causes"][0], result.describe())
        self.assertEqual(fault["numbers"], {"node": 1, "address": 0}, result.describe())
        text = run("explain", "--scan", "-", stdin=self.LOG.encode())
        self.assert_exit(text, 0)
        self.assertIn("\n2. hipErrorNotInTheNotebook (unknown to the notebook)\n", text.out, text.describe())
        markdown = run("explain", "--scan", "-", "--markdown", stdin=self.LOG.encode())
        self.assertIn("## hipErrorNotInTheNotebook (unknown to the notebook)", markdown.out, markdown.describe())

    def test_a_log_with_only_an_unknown_name_is_not_clean(self):
        doc, result = self.scan_json("-", stdin=b"cudaErrorSomethingNew\n")
        self.assertEqual([p["name"] for p in doc["problems"]], ["cudaErrorSomethingNew"], result.describe())

    def test_explain_knows_out_of_resources_and_its_sources(self):
        result = run("explain", "HSA_STATUS_ERROR_OUT_OF_RESOURCES", "--json")
        self.assert_exit(result, 0)
        self.assertEqual(self.json_of(result)["name"], "HSA_STATUS_ERROR_OUT_OF_RESOURCES", result.describe())
        page = run("explain", "--export", "markdown")
        self.assert_exit(page, 0)
        section = page.out.split('<a id="hsa-status-error-out-of-resources"></a>', 1)[1].split("<a id=", 1)[0]
        sources = section.split("**Source.**", 1)[1]
        for source in ("ROCm/hip\\#3253", "StanfordLegion/legion\\#1339", "amd\\_aql\\_queue.cpp"):  # Markdown-escaped
            self.assertIn(source, sources, page.describe())


class TeamEntries(ScanAssertions, unittest.TestCase):
    def test_check_kb_accepts_the_valid_files(self):
        for path, summary in ((TEAM_VALID, "2 valid entries (1 extending built-in entries, 1 standing alone)"),
                              (TEAM_EXTENDS, "2 valid entries (2 extending built-in entries, 0 standing alone)")):
            result = run("explain", "--check-kb", path)
            self.assert_exit(result, 0)
            self.assertEqual(result.out, f"{path}: {summary}\n", result.describe())
            self.assertEqual(result.err, "", result.describe())

    def test_check_kb_names_every_error_in_one_line_each_and_exits_2(self):
        result = run("explain", "--check-kb", TEAM_MALFORMED)
        self.assert_exit(result, 2)
        self.assertEqual(result.out, "", result.describe())
        lines = result.err.splitlines()
        where = [int(re.match(re.escape(str(TEAM_MALFORMED)) + r":(\d+): ", l).group(1)) for l in lines]
        self.assertEqual(sorted(where), [4, 5, 8, 12, 14, 18, 29], result.describe())
        self.assertIn(f"{TEAM_MALFORMED}:4: unknown key 'colour'", result.err, result.describe())
        self.assertIn(f"{TEAM_MALFORMED}:29: code 9 already belongs to the entry 'hipErrorInvalidConfiguration'",
                      result.err, result.describe())

    def test_check_kb_json(self):
        result = run("explain", "--check-kb", TEAM_MALFORMED, "--json")
        self.assert_exit(result, 2)
        doc = self.json_of(result)
        self.assertEqual((doc["valid"], doc["entries"], len(doc["errors"])), (False, 1, 7), result.describe())
        result = run("explain", "--check-kb", TEAM_VALID, "--json")
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assertEqual((doc["valid"], doc["entries"], doc["extending"], doc["standing_alone"], doc["errors"]),
                         (True, 2, 1, 1, []), result.describe())

    def test_a_team_entry_extends_a_built_in_one_after_its_own_causes(self):
        plain, _ = self.explain_json("hipErrorInvalidDeviceFunction")
        doc, result = self.explain_json("hipErrorInvalidDeviceFunction", "--kb", TEAM_VALID)
        self.assertEqual(doc["causes"][:len(plain["causes"])], plain["causes"], result.describe())
        self.assertEqual(doc["causes"][len(plain["causes"]):],
                         ["The nightly wheel from our internal index is built for gfx90a only; the MI300X runners "
                          "need gfx942."], result.describe())
        self.assertEqual(doc["meaning"], plain["meaning"], "no meaning given: the built-in one stays" + result.describe())
        text = run("explain", "98", "--kb", TEAM_VALID)
        self.assertIn("seen: nightly CI on the mi300x-03 runner, 2026-11-28 (ticket GPU-412)\n", text.out, text.describe())

    def test_a_team_meaning_on_a_built_in_entry_is_a_note_after_the_built_in_one(self):
        doc, result = self.explain_json("Launch params (1024, 1, 1) are larger than launch bounds (256)", "--kb",
                                        TEAM_EXTENDS)
        self.assertTrue(doc["meaning"].endswith(" Team note: In our tree this always means the vendor SDK's default "
                                                "bound of 256 is in effect."), result.describe())

    def test_a_stand_alone_entry_is_found_by_name_alias_code_and_pattern(self):
        for query in ("rccl_watchdog_timeout", "NCCL_WATCHDOG_TIMEOUT", "0x7f01", "32513",
                      "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)"):
            doc, result = self.explain_json(query, "--kb", TEAM_VALID)
            self.assertEqual((doc["name"], doc["code"]), ("rccl_watchdog_timeout", 0x7f01), result.describe())

    def test_scan_uses_team_patterns_codes_and_extensions(self):
        doc, result = self.scan_json(TEAM_LOG, "--kb", TEAM_VALID, "--kb", TEAM_MALFORMED)
        self.assertEqual([(p["name"], p["lines"]) for p in doc["problems"]],
                         [("hipErrorInvalidDeviceFunction", [2]), ("rccl_watchdog_timeout", [3, 4]),
                          ("team_good_one", [5])], result.describe())
        # The malformed file's rejected entries are named on stderr, one line each; the scan goes on.
        self.assertEqual(len(result.err.splitlines()), 7, result.describe())
        self.assertTrue(all(l.startswith("wavefit: ") for l in result.err.splitlines()), result.describe())
        without, result = self.scan_json(TEAM_LOG, expect=1)
        self.assertEqual(without["problems"], [], result.describe())

    def test_a_malformed_file_never_changes_the_built_in_notebook(self):
        for query in ("hipErrorInvalidValue", "9", "77", "abc", "team_bad_key"):
            plain = run("explain", query, "--json")
            with_bad = run("explain", query, "--json", "--kb", TEAM_MALFORMED)
            self.assertEqual((with_bad.returncode, with_bad.out), (plain.returncode, plain.out), with_bad.describe())
        plain = run("explain", "--export", "markdown")
        with_bad = run("explain", "--export", "markdown", "--kb", TEAM_MALFORMED)
        self.assert_exit(with_bad, 0)
        # The one good entry is added (a contents line, its section, the count); nothing else differs.
        contents_line = "- [team\\_good\\_one (a team entry)](#team-good-one)\n"
        self.assertIn(contents_line, with_bad.out, with_bad.describe())
        section_start = with_bad.out.index('\n<a id="team-good-one"></a>')
        stripped = with_bad.out[:section_start].replace(contents_line, "").replace(", 1 team entry)", ")")
        self.assertEqual(stripped, plain.out, with_bad.describe())
        self.assertNotIn("team_bad_key", with_bad.out, with_bad.describe())

    def test_wavefit_kb_path_loads_before_kb_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            first = Path(tmp) / "first.kb"
            first.write_text("entry: team_order\nmeaning: from the path\ncause: c1\nfix: f1\n")
            second = Path(tmp) / "second.kb"
            second.write_text("entry: team_order\ncause: c2\nfix: f2\n")
            env = {"WAVEFIT_KB_PATH": f"{first}::{Path(tmp) / 'missing.kb'}"}
            doc, result = self.explain_json("team_order", "--kb", second, env=env)
            self.assertEqual((doc["meaning"], doc["causes"]), ("from the path", ["c1", "c2"]), result.describe())
            # A missing file in the path is skipped with one line; a missing --kb file is a usage error.
            self.assertEqual(len(result.err.splitlines()), 1, result.describe())
            self.assertIn("WAVEFIT_KB_PATH", result.err, result.describe())
            self.assert_usage_error(run("explain", "9", "--kb", Path(tmp) / "missing.kb"), "missing.kb")

    def test_names_and_codes_belong_to_one_entry(self):
        with tempfile.TemporaryDirectory() as tmp:
            kb = Path(tmp) / "clash.kb"
            kb.write_text("entry: team_a\nalias: hipErrorInvalidValue\nmeaning: m\ncause: c\nfix: f\n"
                          "entry: team_b\ncode: 700\nmeaning: m\ncause: c\nfix: f\n")
            result = run("explain", "--check-kb", kb)
            self.assert_exit(result, 2)
            self.assertEqual(result.err, f"{kb}:1: alias 'hipErrorInvalidValue' already names the entry "
                                         f"'hipErrorInvalidValue' (entry rejected)\n{kb}:6: code 700 already belongs "
                                         f"to the entry 'hipErrorIllegalAddress'; extend that entry (entry: "
                                         f"hipErrorIllegalAddress) (entry rejected)\n", result.describe())

    def test_check_kb_on_a_binary_file_says_in_one_line_that_it_is_not_a_text_file(self):
        # Issue 20: 4 KiB of random bytes, or a program, gave one error per "line" of garbage.
        with tempfile.TemporaryDirectory() as tmp:
            noise = Path(tmp) / "noise.kb"
            data = random.Random(20261202).randbytes(4096)
            self.assertNotEqual(data[:2], b"\x1f\x8b")  # not gzip, which has its own one-line error
            noise.write_bytes(data)
            for path in (noise, Path(CLI)):
                result = run("explain", "--check-kb", path)
                self.assert_usage_error(result, str(path), "not a text file", "so not a team entry file")
                # --kb refuses it the same way; WAVEFIT_KB_PATH skips it with one line.
                self.assert_usage_error(run("explain", "9", "--kb", path), "not a text file")
                skipped = run("explain", "9", env={"WAVEFIT_KB_PATH": str(path)})
                self.assert_exit(skipped, 0)
                self.assertEqual(len(skipped.err.splitlines()), 1, skipped.describe())
                self.assertIn("not a text file", skipped.err, skipped.describe())

    def test_hostile_team_files_give_one_line_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            kb = Path(tmp) / "hostile.kb"
            kb.write_bytes(b"entry: team_x\nmeaning: " + b"m" * 10000 + b"\ncause: a\x01b\nfix: f\n" + bytes(range(256)))
            result = run("explain", "--check-kb", kb)
            self.assert_exit(result, 2)
            for line in result.err.splitlines():
                self.assertTrue(line.startswith(f"{kb}:"), result.describe())
            self.assertIn(f"{kb}:2: line longer than 4096 bytes", result.err, result.describe())

    def explain_json(self, *args, env=None):
        result = run("explain", *args, "--json", env=env)
        self.assert_exit(result, 0)
        doc = self.json_of(result)
        self.assert_keys(doc, {"name", "code", "meaning", "causes", "fixes"}, result)
        self.assertEqual(len(doc["causes"]), len(doc["fixes"]), result.describe())
        return doc, result


class ExportNotebook(CliAssertions, unittest.TestCase):
    def export(self, *args):
        result = run("explain", "--export", "markdown", *args)
        self.assert_exit(result, 0)
        return result

    def test_every_entry_has_a_stable_anchor_a_section_and_a_source(self):
        result = self.export()
        anchors = re.findall(r'<a id="([a-z0-9-]+)"></a>', result.out)
        self.assertEqual(len(anchors), len(set(anchors)), result.describe())
        self.assertGreaterEqual(len(anchors), 25 + 2 + 10, result.describe())
        for anchor in ("hiperrorinvalidconfiguration", "hiperrornobinaryforgpu", "hsa-status-error-invalid-isa",
                       "launch-params-x-y-z-are-larger-than-launch-bounds-n", "block-exceeds-kernel-max-threads"):
            self.assertIn(anchor, anchors, result.describe())
            self.assertIn(f"](#{anchor})", result.out, "the contents link to it" + result.describe())
        sections = result.out.split('<a id="')[1:]
        for section in sections:
            self.assertRegex(section, r"\n\*\*Source\.\*\* \S", section[:200])
        self.assertEqual(self.export().out, result.out, "the same page every time")

    def test_built_in_sources_name_documents_and_cited_issues(self):
        out = self.export().out
        section = out.split('<a id="launch-params-x-y-z-are-larger-than-launch-bounds-n"></a>')[1].split("<a id=")[0]
        self.assertIn("**Source.** ROCm/clr hipamd/src/hip\\_module.cpp", section)
        self.assertIn("Seen in: ggml-org/llama.cpp\\#10610, sgl-project/sglang\\#25175, lattice/quda\\#1462", section)

    def test_team_entries_are_exported_with_their_additions(self):
        out = self.export("--kb", TEAM_VALID, "--kb", TEAM_EXTENDS).out
        self.assertIn('<a id="rccl-watchdog-timeout"></a>\n\n## rccl\\_watchdog\\_timeout\n', out)
        self.assertIn("(team) Our fused attention kernel", out)
        self.assertIn("- <https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html>\n", out)
        self.assertIn("entries, 3 of them extended by the team, 1 team entry)", out)
        team = out.split('<a id="rccl-watchdog-timeout"></a>')[1]
        self.assertIn(f"**Source.** the team's notebook: {TEAM_VALID}:11.".replace("_", "\\_"), team)

    def test_export_takes_markdown_only(self):
        self.assert_usage_error(run("explain", "--export", "html"), "markdown")
        self.assert_usage_error(run("explain", "--export", "markdown", "--json"), "--json")


class ExplainUsage(CliAssertions, unittest.TestCase):
    def test_actions_and_formats_are_exclusive(self):
        self.assert_usage_error(run("explain", "--scan", MIXED, "--check-kb", TEAM_VALID), "only one")
        self.assert_usage_error(run("explain", "9", "--scan", MIXED), "'9'")
        self.assert_usage_error(run("explain", "--scan", MIXED, "--json", "--markdown"), "--markdown")
        self.assert_usage_error(run("explain", "9", "--markdown"), "--markdown")
        self.assert_usage_error(run("explain", "--scan", ""), "--scan")
        self.assert_usage_error(run("explain", "--scan"), "--scan")
        self.assert_usage_error(run("explain", "--check-kb", TEAM_VALID, "--kb", TEAM_VALID), "--kb")
        self.assert_usage_error(run("explain", "--scan", MIXED, "--scan", MIXED), "twice")

    def test_kb_may_be_repeated(self):
        result = run("explain", "--scan", TEAM_LOG, "--kb", TEAM_VALID, "--kb", TEAM_EXTENDS)
        self.assert_exit(result, 0)

    def test_help_names_the_new_flags(self):
        result = run("explain", "--help")
        self.assert_exit(result, 0)
        for flag in ("--scan", "--kb", "--check-kb", "--export", "--markdown", "WAVEFIT_KB_PATH"):
            self.assertIn(flag, result.out, result.describe())


if __name__ == "__main__":
    unittest.main()
