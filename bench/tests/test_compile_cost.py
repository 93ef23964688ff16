# SPDX-License-Identifier: MIT
"""Specifications of bench/compile_cost/measure.py's object check: a launch file's object must not
define the explanation prose (describe, plan_reason, one_pass_phrase)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "compile_cost"))

import measure  # noqa: E402

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


if __name__ == "__main__":
    unittest.main()


class PairedRatio(unittest.TestCase):
    def test_a_round_compares_with_the_raw_compile_of_the_same_round(self):
        # The machine turns half as fast in the second round, after its raw compile, and stays so: two
        # rounds of three read 1.1, while the ratio of the medians (2.2 s over 1.0 s) would be 2.2.
        self.assertAlmostEqual(measure.paired_ratio([1.1, 2.2, 2.2], [1.0, 1.0, 2.0]), 1.1)

    def test_the_median_round_decides(self):
        self.assertAlmostEqual(measure.paired_ratio([1.5, 1.1, 1.0], [1.0, 1.0, 1.0]), 1.1)

    def test_a_raw_time_of_zero_is_left_out(self):
        self.assertAlmostEqual(measure.paired_ratio([1.2, 5.0], [1.0, 0.0]), 1.2)
