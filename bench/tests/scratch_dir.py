# SPDX-License-Identifier: MIT
"""The base of the report and comparison specifications: each test gets a directory of its own for
the runs it hands the tool under test, removed when the test ends."""

import json
import os
import tempfile
import unittest


class ScratchDirCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, data):
        """The path of file `name` in the test's directory, holding `data`: a str as it is, anything else as JSON."""
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(data if isinstance(data, str) else json.dumps(data))
        return path
