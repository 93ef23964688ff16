# SPDX-License-Identifier: MIT
"""The base of the specifications of a bench script's bad input: the script runs as a user runs it, in
a process of its own, and must exit 2 with one line on stderr saying what is wrong."""

import os
import subprocess
import sys

from scratch_dir import ScratchDirCase

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BadInputCase(ScratchDirCase):
    script = None  # the file name of the script under test, in bench/

    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(BENCH, self.script), *args],
                              capture_output=True, text=True, check=False)

    def assert_bad(self, result, text):
        """`result` exited 2 with one line on stderr, and that line holds `text`."""
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        self.assertIn(text, result.stderr)
