# SPDX-License-Identifier: MIT
"""Specifications of bench/compile_cost/measure.py: the object check (a launch file's object must not
define the explanation prose: describe, plan_reason, one_pass_phrase), the paired ratios, the bounds,
the reading of `nvcc --time` files (--phases), and std_headers.py's reading of which standard headers
wavefit's own headers are the first to include."""

import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "compile_cost"))

import measure  # noqa: E402
import std_headers  # noqa: E402

# `nm -C --defined-only` lines as hipcc's header-only object printed them before and after the
# explanations left the launch tier (abridged).
BEFORE = [
    "0000000000000000 W wavefit::v0_2::detail::describe(wavefit::v0_2::detail::finding const&, "
    "wavefit::v0_2::device_limits const&, wavefit::v0_2::kernel_resources const&, wavefit::v0_2::launch_config const&, "
    "wavefit::v0_2::detail::launch_work_shape, unsigned long)",
    "0000000000000000 W wavefit::v0_2::plan_reason[abi:cxx11](wavefit::v0_2::launch_plan const&, "
    "wavefit::v0_2::device_limits const&, wavefit::v0_2::kernel_resources const&)",
    "0000000000000000 W wavefit::v0_2::detail::configure(wavefit::v0_2::device_limits const&, "
    "wavefit::v0_2::detail::launch_recipe const&, wavefit::v0_2::work const&)",
]
AFTER = [
    "0000000000000000 W wavefit::v0_2::detail::describe_briefly(wavefit::v0_2::detail::finding const&, "
    "wavefit::v0_2::device_limits const&)",
    "0000000000000000 W wavefit::v0_2::detail::configure(wavefit::v0_2::device_limits const&, "
    "wavefit::v0_2::detail::launch_recipe const&, wavefit::v0_2::work const&)",
    "0000000000000000 V wavefit::v0_2::detail::brief_launch_explainer",
    "                 U wavefit::v0_2::detail::describe(int)",
]


class ProseCheck(unittest.TestCase):
    def test_finds_the_prose_an_object_defines(self):
        found = measure.prose_defined(BEFORE)
        self.assertEqual(len(found), 2, found)
        self.assertTrue(any("detail::describe(" in f for f in found), found)
        self.assertTrue(any("plan_reason" in f for f in found), found)

    def test_the_brief_explainer_and_undefined_references_are_not_prose(self):
        self.assertEqual(measure.prose_defined(AFTER), [])



class PairedRatio(unittest.TestCase):
    def test_a_round_compares_with_the_raw_compile_of_the_same_round(self):
        # The machine turns half as fast in the second round, after its raw compile, and stays so: two
        # rounds of three read 1.1, while the ratio of the medians (2.2 s over 1.0 s) would be 2.2.
        self.assertAlmostEqual(measure.paired_ratio([1.1, 2.2, 2.2], [1.0, 1.0, 2.0]), 1.1)

    def test_the_median_round_decides(self):
        self.assertAlmostEqual(measure.paired_ratio([1.5, 1.1, 1.0], [1.0, 1.0, 1.0]), 1.1)

    def test_a_raw_time_of_zero_is_left_out(self):
        self.assertAlmostEqual(measure.paired_ratio([1.2, 5.0], [1.0, 0.0]), 1.2)


def result(compiler, header_ratio, separate_ratio, header_extra_kb=134):
    """A measure() result as check() reads it: ratios and object sizes (raw: 19 KB)."""
    def variant(ratio, extra_kb):
        return {"seconds": 2.0 * ratio, "time_ratio": ratio, "extra_object_bytes": extra_kb * 1024}
    header = dict(variant(header_ratio, header_extra_kb), prose=[])
    return {"compiler": compiler,
            "variants": {"raw": {"seconds": 2.0}, "header": header, "separate": variant(separate_ratio, 0)}}


class Bounds(unittest.TestCase):
    def check(self, *results):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            failures = measure.check(list(results))
        return failures, out.getvalue()

    def test_a_ratio_past_the_target_but_within_the_bound_passes_and_says_the_target_is_not_met(self):
        # hipcc header-only read 1.76x in a CI run and 1.50-1.74x on this machine, with the same code.
        failures, printed = self.check(result("hipcc", 1.76, 1.19))
        self.assertEqual(failures, [])
        self.assertIn("NOTE hipcc header: 1.76x, +134 KB: the target (1.75x, +192 KB) is not met; held to 2.0x", printed)
        self.assertIn("NOTE hipcc separate: 1.19x, +0 KB: the target (1.2x, +32 KB) is met", printed)

    def test_a_launch_file_that_compiles_the_engine_again_fails(self):
        # Separately compiled mode that compiled the engine anyway: about +1.2 s over a 2 s raw compile.
        failures, _ = self.check(result("hipcc", 1.6, 1.6))
        self.assertEqual(len(failures), 1, failures)
        self.assertIn("hipcc separate: 1.60x", failures[0])

    def test_a_launch_file_that_compiles_the_tuner_again_fails(self):
        failures, _ = self.check(result("hipcc", 2.4, 1.05), result("nvcc", 5.1, 1.1))
        self.assertEqual([f.split(":")[0] for f in failures], ["hipcc header", "nvcc header"], failures)

    def test_the_object_is_held_as_well_as_the_time(self):
        failures, _ = self.check(result("hipcc", 1.5, 1.0, header_extra_kb=200))
        self.assertEqual(len(failures), 1, failures)
        self.assertIn("object +200 KB over raw, bound <= +192 KB", failures[0])


# The first lines of a file `nvcc --time` wrote (CUDA 13, one .cu compiled for sm_90), shortened paths.
NVCC_TIME = """source file name , phase name , phase input files , phase output file , arch , tool, metric , unit
w.cu , gcc (preprocessing 4) , w.cu  , /tmp/x-5_w.cpp4.ii ,  , nvcc , 60.7810 , ms
w.cu , cudafe++ , /tmp/x-5_w.cpp4.ii  , /tmp/x-6_w.cudafe1.cpp , compute_90 , nvcc , 241.3440 , ms
w.cu , cicc , /tmp/x-5_w.cpp1.ii  , /tmp/x-7_w.ptx , compute_90 , nvcc , 191.8330 , ms
w.cu , cicc , /tmp/y.ii  , /tmp/y.ptx , compute_100 , nvcc , 8.1670 , ms
w.cu , gcc (compiling) , /tmp/x-6_w.cudafe1.cpp  , w.o ,  , nvcc , 198.9540 , ms
 , nvcc (driver) , , , , nvcc , 0.4570 , ms
w.cu , ptxas , broken line
w.cu , ptxas , a , b , c , nvcc , not-a-number , ms
"""


class NvccPhases(unittest.TestCase):
    def test_each_step_is_summed_over_its_rows_and_bad_rows_are_left_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "phases.csv"
            path.write_text(NVCC_TIME)
            phases = measure.nvcc_phases(path)
            # nvcc appends to the file: it must be gone for the next compile.
            self.assertFalse(path.exists())
        self.assertEqual(sorted(phases), ["cicc", "cudafe++", "gcc (compiling)", "gcc (preprocessing 4)",
                                          "nvcc (driver)"])
        self.assertAlmostEqual(phases["cicc"], 200.0)
        self.assertAlmostEqual(phases["gcc (compiling)"], 198.954)

    def test_a_missing_file_is_one_line_not_a_traceback(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(SystemExit) as stop:
                measure.nvcc_phases(Path(tmp) / "never-written.csv")
        self.assertIn("nvcc wrote no --time file", str(stop.exception))


# The line markers of a host pass preprocessed by g++ (abridged): the CUDA runtime brings <cstdlib>
# first, then a wavefit header includes <cstdlib> (already in: no marker), <string> (which includes
# <bits/basic_string.h> itself), and a wavefit header that includes <mutex> and <string> again (a
# guarded header's second entry, as a header without include guards would have). After the last
# wavefit header returns, the .cu file itself includes <numeric>.
PREPROCESSED = """# 0 "/tmp/x.cpp4.ii"
# 1 "/usr/local/cuda/include/cuda_runtime.h" 1
# 1 "/usr/include/c++/12/cstdlib" 1 3
# 12 "/usr/local/cuda/include/cuda_runtime.h" 2
int cuda_stuff;
# 1 "raw_with_launch_headers.cu" 2
# 1 "/repo/include/wavefit/launch.hpp" 1
# 1 "/repo/include/wavefit/runtime/../detail/text.hpp" 1
# 1 "/usr/include/c++/12/string" 1 3
# 1 "/usr/include/c++/12/bits/basic_string.h" 1 3
# 40 "/usr/include/c++/12/string" 2 3
# 8 "/repo/include/wavefit/runtime/../detail/text.hpp" 2
# 1 "/repo/include/wavefit/runtime/once_table.hpp" 1
# 1 "/usr/include/c++/12/mutex" 1 3
# 30 "/repo/include/wavefit/runtime/once_table.hpp" 2
# 1 "/usr/include/c++/12/string" 1 3
# 31 "/repo/include/wavefit/runtime/once_table.hpp" 2
# 9 "/repo/include/wavefit/runtime/../detail/text.hpp" 2
# 20 "/repo/include/wavefit/launch.hpp" 2
# 1 "/repo/include/wavefit/version.hpp" 1
# 21 "/repo/include/wavefit/launch.hpp" 2
# 3 "raw_with_launch_headers.cu" 2
# 1 "/usr/include/c++/12/numeric" 1 3
"""


class FirstIncludedStdHeaders(unittest.TestCase):
    def test_only_what_a_wavefit_header_enters_itself_in_the_order_met(self):
        found = std_headers.first_included_std_headers(PREPROCESSED.splitlines(), Path("/repo/include"))
        # Not <cstdlib> (the CUDA runtime entered it), not bits/basic_string.h (<string> did), not
        # <numeric> (the .cu file did, once the wavefit headers had returned), and <string> once.
        self.assertEqual(found, ["string", "mutex"])

    def test_another_root_finds_none(self):
        self.assertEqual(std_headers.first_included_std_headers(PREPROCESSED.splitlines(), Path("/repo/inc")), [])


if __name__ == "__main__":
    unittest.main()
