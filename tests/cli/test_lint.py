#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specifications of `wavefit lint` (docs/lint.md, docs/cli.md "wavefit lint") against the installed binary.

The sources under tests/lint are the specification of the checks: every finding a source must produce is
marked `// expect: CODE[, CODE]` on its line, and no other finding may appear. A first-line comment
`// lint-args: ...` gives the arguments a source is linted with (a --target, compiler flags after --).
tests/lint/bugs holds known bugs rebuilt from their public reports: found before the fix, gone after it.
Python standard library only.
"""

import json
import os
import re
import shlex
import shutil
import tempfile
import unittest
from pathlib import Path

from test_cli import CliAssertions, run

LINT = Path(__file__).resolve().parent.parent / "lint"
CHECKS = LINT / "checks"
BUGS = LINT / "bugs"
SHARED = LINT / "shared"
EXPECT = re.compile(r"//\s*expect:\s*([a-z0-9_, ]+)")
ARGS = re.compile(r"^//\s*lint-args:\s*(.*)$", re.M)

CODES = {
    "hardcoded_launch_config": ("launch", "note"),
    "block_not_wave_multiple": ("launch", "warning"),
    "block_exceeds_device_max_threads": ("launch", "error"),
    "work_items_exceed_dispatch_limit": ("launch", "error"),
    "grid_dim_exceeds_device_limit": ("memory", "error"),
    "hardcoded_warp_size": ("warp", "warning"),
    "lane_math_assumes_warp32": ("warp", "warning"),
    "full_mask_32bit": ("warp", "error"),
    "ballot_truncated": ("warp", "error"),
    "shuffle_reduction_from_16": ("warp", "warning"),
    "per_warp_array_too_small": ("warp", "warning"),
    "warp_size_not_constexpr": ("warp", "error"),
    "index_32bit": ("index", "warning"),
    "grid_from_64bit_count": ("index", "warning"),
    "work_size_narrowed": ("index", "warning"),
    "launch_bounds_min_blocks": ("bounds", "warning"),
    "block_exceeds_kernel_max_threads": ("bounds", "error"),
    "wave_size_host_device_mismatch": ("bounds", "error"),
    "shared_memory_exceeds_limit": ("memory", "error"),
    "dynamic_shared_memory_unchecked": ("memory", "warning"),
}
SUMMARY_KEYS = {"findings", "errors", "warnings", "notes", "files", "parsed", "parsed_with_errors", "failed",
                "suppressed_by_comment", "suppressed_by_baseline", "seconds", "precompile_seconds", "shared_headers",
                "jobs"}
FINDING_KEYS = {"code", "group", "severity", "file", "line", "column", "message", "why", "fix", "replacement",
                "fingerprint"}
FILE_KEYS = {"path", "status", "header", "errors", "first_error", "precompiled", "shared_header", "parse_seconds",
             "check_seconds"}

_availability = None


def lint_available():
    """Whether this wavefit was built with libclang (otherwise lint says so in one line, exit 2)."""
    global _availability
    if _availability is None:
        result = run("lint", str(CHECKS / "launch_hardcoded_fine.cu"))
        _availability = "needs libclang" not in result.err
    return _availability


def expectations(path):
    """The (line, code) pairs a source marks, and the arguments it is linted with."""
    text = path.read_text()
    marked = set()
    for number, line in enumerate(text.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            for code in m.group(1).split(","):
                if code.strip():
                    marked.add((number, code.strip()))
    m = ARGS.search(text)
    return marked, (shlex.split(m.group(1)) if m else [])


def split_args(args):
    """lint-args into (flags, compiler flags after --)."""
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return args, []


class LintAssertions(CliAssertions):
    def setUp(self):
        if not lint_available():
            self.skipTest("this wavefit was built without libclang")

    def lint_json(self, *args, code=None):
        result = run("lint", "--json", *args)
        if code is not None:
            self.assert_exit(result, code)
        self.assertIn(result.returncode, (0, 1), result.describe())
        doc = self.json_of(result)
        self.assertEqual(set(doc), {"target", "summary", "findings", "files"}, result.describe())
        self.assertEqual(set(doc["summary"]), SUMMARY_KEYS, result.describe())
        for f in doc["findings"]:
            self.assertEqual(set(f), FINDING_KEYS, result.describe())
            self.assertIn(f["code"], CODES, result.describe())
            self.assertEqual((f["group"], f["severity"]), CODES[f["code"]], result.describe())
            self.assertTrue(f["message"] and f["fix"] and f["why"], result.describe())
            self.assertRegex(f["fingerprint"], r"^[0-9a-f]{16}$", result.describe())
        for s in doc["files"]:
            self.assertEqual(set(s), FILE_KEYS, result.describe())
        self.assertEqual(result.returncode, 1 if doc["findings"] else 0, result.describe())
        return doc, result

    def found_by_file(self, doc):
        found = {}
        for f in doc["findings"]:
            found.setdefault(Path(f["file"]).resolve(), set()).add((f["line"], f["code"]))
        return found

    def assert_sources_match_marks(self, sources):
        """Lints the sources in as few runs as their arguments allow; each gets exactly its marks."""
        groups = {}
        for path in sources:
            marked, args = expectations(path)
            groups.setdefault(tuple(args), []).append((path, marked))
        for args, members in sorted(groups.items()):
            flags, compiler = split_args(list(args))
            command = [*flags, *[str(p) for p, _ in members]] + (["--", *compiler] if compiler else [])
            doc, result = self.lint_json(*command)
            found = self.found_by_file(doc)
            self.assertEqual(doc["summary"]["failed"], 0, result.describe())
            for path, marked in members:
                with self.subTest(source=path.name):
                    got = found.get(path.resolve(), set())
                    self.assertEqual(got, marked, f"\n{path}: found {sorted(got - marked)} not marked, marked "
                                                  f"{sorted(marked - got)} not found" + result.describe())


class LintChecks(LintAssertions, unittest.TestCase):
    def test_every_check_source_gets_exactly_the_findings_marked_on_its_lines(self):
        sources = sorted(CHECKS.glob("*.cu"))
        self.assertGreaterEqual(len(sources), 20)
        self.assert_sources_match_marks(sources)

    def test_every_finding_code_has_a_positive_source_and_every_positive_check_a_negative_twin(self):
        marked_codes = set()
        for path in CHECKS.glob("*.cu"):
            marked_codes |= {code for _, code in expectations(path)[0]}
        self.assertEqual(marked_codes, set(CODES), "codes without a positive test source")
        for path in CHECKS.glob("*.cu"):
            if path.stem.endswith("_fine") or "wave32" in path.stem or "host_device" in path.stem:
                continue
            self.assertTrue((CHECKS / f"{path.stem}_fine.cu").exists(), f"{path.name} has no negative twin")


class LintKnownBugs(LintAssertions, unittest.TestCase):
    def bug_codes(self, directory):
        return {code for _, code in expectations(directory / "before.cu")[0]} - {"hardcoded_launch_config"}

    def test_each_reconstructed_bug_is_found_before_its_fix(self):
        directories = sorted(d for d in BUGS.iterdir() if d.is_dir())
        self.assertGreaterEqual(len(directories), 5)
        for d in directories:
            self.assertTrue(self.bug_codes(d), f"{d.name}/before.cu marks no finding of the bug")
        self.assert_sources_match_marks([d / "before.cu" for d in directories])

    def test_each_reconstructed_bug_is_gone_after_its_fix(self):
        directories = sorted(d for d in BUGS.iterdir() if d.is_dir())
        for d in directories:
            marked = {code for _, code in expectations(d / "after.cu")[0]}
            self.assertFalse(marked & self.bug_codes(d), f"{d.name}/after.cu still marks the bug's codes")
        self.assert_sources_match_marks([d / "after.cu" for d in directories])


class LintSharedHeaders(LintAssertions, unittest.TestCase):
    """tests/lint/shared: a guarded header that six sources open with (three through an unguarded wrapper)
    is precompiled once; a source with a #define before its include is parsed on its own."""

    def test_sources_that_open_with_a_guarded_header_share_it_and_get_exactly_their_marks(self):
        sources = sorted(SHARED.glob("*.cu"))
        self.assert_sources_match_marks(sources)
        doc, result = self.lint_json(str(SHARED))
        self.assertEqual(doc["summary"]["shared_headers"], 1, result.describe())
        shared = {Path(f["path"]).name: f["shared_header"] and Path(f["shared_header"]).name for f in doc["files"]}
        self.assertEqual(shared, {"launch_a.cu": "common.cuh", "launch_b.cu": "common.cuh", "launch_c.cu": "common.cuh",
                                  "wrapped_d.cu": "common.cuh", "wrapped_e.cu": "common.cuh",
                                  "wrapped_f.cu": "common.cuh", "defines_first.cu": None}, result.describe())
        header = [f for f in doc["findings"] if Path(f["file"]).name == "common.cuh"]
        self.assertEqual(sorted((f["line"], f["code"]) for f in header),
                         [(9, "full_mask_32bit"), (14, "index_32bit")], result.describe())

    def test_a_shared_run_finds_what_each_source_parsed_alone_finds(self):
        together, _ = self.lint_json(str(SHARED))
        alone = []
        names = ("launch_a.cu", "wrapped_d.cu", "defines_first.cu")  # one of each kind, to keep the test short
        for source in (SHARED / name for name in names):
            # The header as a second unit puts it in the report's scope; two units share nothing.
            doc, result = self.lint_json(str(source), str(SHARED / "common.cuh"))
            self.assertEqual(doc["summary"]["shared_headers"], 0, result.describe())
            alone += doc["findings"]
        key = lambda f: (Path(f["file"]).name, f["line"], f["column"], f["code"], f["message"], f["fix"])
        kept = [f for f in together["findings"] if Path(f["file"]).name in names + ("common.cuh",)]
        self.assertEqual(sorted(map(key, kept)), sorted(set(map(key, alone))))


class LintOutput(LintAssertions, unittest.TestCase):
    SOURCE = CHECKS / "masks_and_ballots.cu"

    def test_text_names_file_line_column_code_reason_and_fix_and_ends_with_a_summary(self):
        result = run("lint", self.SOURCE)
        self.assert_exit(result, 1)
        lines = result.out.splitlines()
        first = lines[0]
        self.assertRegex(first, r"^.*masks_and_ballots\.cu:\d+:\d+: (error|warning|note) \[[a-z0-9_]+\] ",
                         result.describe())
        self.assertTrue(any(line.startswith("  fix: ") for line in lines), result.describe())
        self.assertRegex(lines[-1], r"^\d+ findings? \(\d+ errors?, \d+ warnings?, \d+ notes?\) for MI300X \(gfx942\) "
                                    r"in 1 file: 1 parsed", result.describe())

    def test_sarif_is_version_2_1_0_with_one_result_per_finding_ruleid_and_start_line(self):
        doc, _ = self.lint_json(self.SOURCE)
        result = run("lint", "--format", "sarif", self.SOURCE)
        self.assert_exit(result, 1)
        sarif = self.json_of(result)
        self.assertEqual(sarif["version"], "2.1.0", result.describe())
        self.assertIn("sarif-schema-2.1.0.json", sarif["$schema"], result.describe())
        self.assertEqual(len(sarif["runs"]), 1, result.describe())
        run0 = sarif["runs"][0]
        driver = run0["tool"]["driver"]
        self.assertEqual(driver["name"], "wavefit lint", result.describe())
        rule_ids = [r["id"] for r in driver["rules"]]
        self.assertEqual(set(rule_ids), set(CODES), result.describe())
        for r in driver["rules"]:
            self.assertEqual(r["defaultConfiguration"]["level"], CODES[r["id"]][1], result.describe())
            self.assertTrue(r["shortDescription"]["text"] and r["fullDescription"]["text"], result.describe())
        results = run0["results"]
        self.assertEqual(len(results), len(doc["findings"]), result.describe())
        for res, finding in zip(results, doc["findings"]):
            self.assertEqual(res["ruleId"], finding["code"], result.describe())
            self.assertEqual(rule_ids[res["ruleIndex"]], res["ruleId"], result.describe())
            self.assertIn(res["level"], ("error", "warning", "note"), result.describe())
            self.assertTrue(res["message"]["text"], result.describe())
            location = res["locations"][0]["physicalLocation"]
            self.assertEqual(location["region"]["startLine"], finding["line"], result.describe())
            self.assertEqual(location["region"]["startColumn"], finding["column"], result.describe())
            self.assertTrue(location["artifactLocation"]["uri"].endswith("masks_and_ballots.cu"), result.describe())
            self.assertEqual(res["partialFingerprints"]["wavefitLint/v1"], finding["fingerprint"], result.describe())
        self.assertTrue(run0["invocations"][0]["executionSuccessful"], result.describe())

    def test_a_relative_path_stays_relative_in_sarif_with_the_working_directory_as_its_base(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(self.SOURCE, Path(tmp) / "my file.cu")
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                result = run("lint", "--format", "sarif", "my file.cu")
            finally:
                os.chdir(cwd)
            sarif = self.json_of(result)
            run0 = sarif["runs"][0]
            self.assertTrue(run0["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///"), result.describe())
            location = run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertEqual(location, {"uri": "my%20file.cu", "uriBaseId": "SRCROOT"}, result.describe())

    def test_findings_and_their_order_do_not_depend_on_the_number_of_jobs(self):
        sources = [str(p) for p in sorted(CHECKS.glob("*.cu"))[:8]]
        one, _ = self.lint_json("--jobs", "1", *sources)
        two, _ = self.lint_json("--jobs", "2", *sources)
        self.assertEqual(one["findings"], two["findings"])


class LintSuppressions(LintAssertions, unittest.TestCase):
    SOURCE = """// SPDX-License-Identifier: MIT
__global__ void k(float* v, unsigned* out) {
    float x = v[threadIdx.x];
    x += __shfl_down_sync(0xffffffff, x, 1);
    // NOLINTNEXTLINE(full_mask_32bit)
    x += __shfl_down_sync(0xffffffff, x, 2);
    x += __shfl_down_sync(0xffffffff, x, 3);  // NOLINT(readability-magic-numbers)
    x += __shfl_down_sync(0xffffffff, x, 4);  // NOLINT(wavefit-*)
    // NOLINTBEGIN(wavefit-ballot_truncated, full_mask_32bit)
    out[0] = __ballot(x > 0.0f);
    x += __shfl_down_sync(0xffffffff, x, 5);
    // NOLINTEND(wavefit-ballot_truncated, full_mask_32bit)
    out[1] = __ballot(x > 1.0f);
    const char* text = "// NOLINT"; x += __shfl_down_sync(0xffffffff, x, 7);
    x += __shfl_down_sync(0xffffffff, x, 6); /* NOLINT */
    v[threadIdx.x] = x + text[0];
}
"""

    def write(self, directory):
        path = Path(directory) / "k.cu"
        path.write_text(self.SOURCE)
        return path

    def test_nolint_comments_suppress_their_line_the_next_line_or_a_block_and_only_the_codes_they_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc, result = self.lint_json(self.write(tmp))
            found = {(f["line"], f["code"]) for f in doc["findings"]}
            self.assertEqual(found, {(4, "full_mask_32bit"), (7, "full_mask_32bit"), (13, "ballot_truncated"),
                                     (14, "full_mask_32bit")}, result.describe())
            self.assertEqual(doc["summary"]["suppressed_by_comment"], 5, result.describe())

    def test_a_baseline_accepts_the_findings_it_lists_even_after_lines_move(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = self.write(tmp)
            baseline = Path(tmp) / "accepted.txt"
            result = run("lint", path, "--write-baseline", baseline)
            self.assert_exit(result, 0)
            self.assertIn("wrote 4 accepted findings", result.out, result.describe())
            lines = [l for l in baseline.read_text().splitlines() if l and not l.startswith("#")]
            self.assertEqual(len(lines), 4, baseline.read_text())
            self.assertTrue(all(re.match(r"^[a-z0-9_]+ k\.cu [0-9a-f]{16}$", l) for l in lines), baseline.read_text())
            doc, result = self.lint_json(path, "--baseline", baseline, code=0)
            self.assertEqual(doc["summary"]["suppressed_by_baseline"], 4, result.describe())
            # Two lines added above keep every accepted finding accepted; a new hazard is still reported.
            path.write_text("// one\n// two\n" + path.read_text())
            text = path.read_text().replace("out[1] = __ballot(x > 1.0f);", "out[1] = __ballot(x > 1.0f);\n"
                                            "    out[2] = __ballot(x > 2.0f);")
            path.write_text(text)
            doc, result = self.lint_json(path, "--baseline", baseline, code=1)
            self.assertEqual([(f["line"], f["code"]) for f in doc["findings"]], [(16, "ballot_truncated")],
                             result.describe())

    def test_a_malformed_baseline_is_a_usage_error_naming_the_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = self.write(tmp)
            bad = Path(tmp) / "bad.txt"
            for text, mention in (("full_mask_32bit k.cu\n", "bad.txt:1: expected CODE PATH FINGERPRINT"),
                                  ("# ok\nno_such_code k.cu 0123456789abcdef\n", "bad.txt:2: unknown finding code"),
                                  ("full_mask_32bit k.cu 0123456789ABCDEF\n", "fingerprint"),
                                  ("full_mask_32bit k%zz.cu 0123456789abcdef\n", "%-escape")):
                bad.write_text(text)
                self.assert_usage_error(run("lint", path, "--baseline", bad), mention)
            self.assert_usage_error(run("lint", path, "--baseline", Path(tmp) / "missing.txt"), "no such file")


class LintUsage(LintAssertions, unittest.TestCase):
    def test_help_lists_the_flags(self):
        result = run("lint", "--help")
        self.assert_exit(result, 0)
        self.assertTrue(result.out.startswith("usage: wavefit lint"), result.describe())
        for flag in ("-p BUILD_DIR", "--target TARGET", "--json", "--format FORMAT", "--baseline FILE",
                     "--write-baseline FILE", "--jobs N"):
            self.assertIn(flag, result.out, result.describe())
        self.assertIn("lint", run("--help").out)

    def test_malformed_command_lines_are_usage_errors_with_one_line(self):
        source = str(CHECKS / "launch_hardcoded_fine.cu")
        cases = [
            ((), "needs PATH"),
            (("/nonexistent/dir",), "no such file or directory"),
            ((source, "--format", "xml"), "expected text, json or sarif"),
            ((source, "--json", "--format", "sarif"), "give only one"),
            ((source, "--target", "h100"), "AMD GPUs"),
            ((source, "--target", "gfx803"), "AMD GPUs"),
            ((source, "--jobs", "0"), "--jobs"),
            (("-p", "/nonexistent"), "compile_commands.json"),
            ((source, "--baseline", ""), "--baseline needs a FILE"),
        ]
        for args, mention in cases:
            with self.subTest(args=args):
                self.assert_usage_error(run("lint", *args), mention)

    def test_a_directory_without_sources_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "notes.txt").write_text("no source here\n")
            self.assert_usage_error(run("lint", tmp), "no CUDA or HIP source")

    def test_exit_status_is_0_without_findings_and_1_with_them(self):
        self.assert_exit(run("lint", CHECKS / "launch_hardcoded_fine.cu"), 0)
        self.assert_exit(run("lint", CHECKS / "masks_and_ballots.cu"), 1)

    def test_presets_name_their_target_and_compiler_flags_after_the_double_dash_reach_the_parser(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "k.cu"
            path.write_text("#ifdef PORTED\n#define FULL ~0ull\n#else\n#define FULL 0xffffffff\n#endif\n"
                            "__global__ void k(float* v) { v[0] = __shfl_sync(FULL, v[0], 0); }\n")
            doc, _ = self.lint_json(path, "--target", "mi250x")
            self.assertEqual(doc["target"]["arch"], "gfx90a")
            self.assertEqual([f["code"] for f in doc["findings"]], ["full_mask_32bit"])
            doc, _ = self.lint_json(path, "--target", "mi355x", "--", "-DPORTED")
            self.assertEqual((doc["target"]["arch"], doc["target"]["lds_per_block"]), ("gfx950", 163840))
            self.assertEqual(doc["findings"], [])

    def test_a_compile_database_gives_the_files_and_their_flags(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            src.mkdir()
            for name in ("a.cu", "b.cu"):
                (src / name).write_text("#ifndef PORTED\n__global__ void k(float* v) { v[0] = __shfl_sync(0xffffffff, v[0], 0); }\n#endif\n")
            build = Path(tmp) / "build"
            build.mkdir()
            commands = [{"directory": str(build), "file": "../src/a.cu",
                         "arguments": ["nvcc", "-x", "cu", "-c", "../src/a.cu", "-o", "a.o", "-gencode", "arch=compute_80,code=sm_80"]},
                        {"directory": str(build), "file": str(src / "b.cu"),
                         "command": "hipcc -DPORTED -I../src --offload-arch=gfx942 -c ../src/b.cu -o b.o"}]
            (build / "compile_commands.json").write_text(json.dumps(commands))
            doc, result = self.lint_json("-p", build)
            self.assertEqual(sorted(Path(f["path"]).name for f in doc["files"]), ["a.cu", "b.cu"], result.describe())
            self.assertEqual([Path(f["file"]).name for f in doc["findings"]], ["a.cu"], result.describe())
            doc, result = self.lint_json("-p", build, src / "b.cu", code=0)
            self.assertEqual([Path(f["path"]).name for f in doc["files"]], ["b.cu"], result.describe())

    def test_headers_no_source_includes_are_linted_on_their_own(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "used.cuh").write_text("__device__ float f(float v) { return __shfl_sync(0xffffffff, v, 0); }\n")
            (Path(tmp) / "alone.cuh").write_text("__device__ float g(float v) { return __shfl_sync(0xffffffffu, v, 1); }\n")
            (Path(tmp) / "main.cu").write_text('#include "used.cuh"\n__global__ void k(float* v) { v[0] = f(v[0]); }\n')
            doc, result = self.lint_json(tmp)
            self.assertEqual(sorted((Path(f["file"]).name, f["code"]) for f in doc["findings"]),
                             [("alone.cuh", "full_mask_32bit"), ("used.cuh", "full_mask_32bit")], result.describe())
            self.assertEqual(sorted((Path(f["path"]).name, f["header"]) for f in doc["files"]),
                             [("alone.cuh", True), ("main.cu", False)], result.describe())


class LintRobustness(LintAssertions, unittest.TestCase):
    def test_hostile_sources_are_linted_without_a_crash(self):
        cases = {
            "binary.cu": bytes(range(256)) * 40,
            "empty.cu": b"",
            "unterminated.cu": b"/* never closed\n__global__ void k() {",
            "nested.cu": b"int x = " + b"(" * 5000 + b"1" + b")" * 5000 + b";\n",
            "macro_loop.cu": b"#define A B\n#define B A\n__global__ void k(float* v) { v[0] = A; }\n",
            "long_line.cu": b"// " + b"x" * 200000 + b"\n__global__ void k() {}\n",
            "bad_utf8.cu": b"__global__ void k\xff\xfe(float* v) { v[0] = 1; }\n",
        }
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in cases.items():
                (Path(tmp) / name).write_bytes(data)
            result = run("lint", "--json", tmp)
            self.assertIn(result.returncode, (0, 1), result.describe())
            doc = self.json_of(result)
            self.assertEqual(len(doc["files"]), len(cases), result.describe())


if __name__ == "__main__":
    unittest.main()
