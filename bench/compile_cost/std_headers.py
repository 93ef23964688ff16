#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the C++ standard headers of a header-only launch cost nvcc to parse, one by one.

measure.py says that a header-only launch compiles about 2.5x slower than a raw <<<>>> launch with
nvcc, and (--phases) that parsing the launch headers alone, before any of their code is compiled,
already costs most of the 1.75x the issue allows. This script splits that parse: it finds the
standard headers that wavefit's own headers are the first to include in nvcc's host pass of a
header-only launch file (from the preprocessed file's line markers, so a header left out by an #if is
left out here too, and one that the CUDA runtime's headers brought in before is not counted). Then
it compiles the raw launch (raw.cu) with each of them included first, with all of them, with the
launch headers (raw_with_launch_headers.cu) and as the header-only launch (wavefit.hip).
Each variant's figure is the median over rounds of its CPU time over the raw compile's in the same
round (measure.py's paired ratio); the rounds interleave the variants.

Usage: std_headers.py [--repeat N] [--json FILE]
Exit 2 without nvcc or when the --json file cannot be written; exit 1 when a compile fails (its
command and output) or no standard header is found.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import HERE, INCLUDE, commands, compile_once, find_nvcc, paired_ratio

MARKER = re.compile(r'^# \d+ "([^"]+)"((?: \d)*)$')
PARSE_ONLY = HERE / "raw_with_launch_headers.cu"


def measured_commands(nvcc, workdir):
    """measure.py's nvcc commands ({variant: argv}: raw, header, separate) and the flags they share (the
    raw command less its last three words: its source, -o and its object), so that every compile here
    is one measure.py would make."""
    argvs = {variant: argv for variant, (argv, _obj, _timing) in commands("nvcc", nvcc, workdir).items()}
    return argvs, argvs["raw"][:-3]


def direct_std_headers(flags, workdir):
    """The standard headers that a wavefit header is the first to include in nvcc's host pass, in that
    order: the preprocessed host file's line markers (flag 1 enters a file, flag 2 returns to one; a
    header entered once is not entered again)."""
    # The host pass's own preprocessed file (nvcc names it *.cpp4.ii): the file --cuda writes has been
    # through cudafe++, which drops the markers' flags.
    keep = workdir / "keep"
    keep.mkdir()
    argv = flags + ["--keep", "--keep-dir", str(keep), str(PARSE_ONLY), "-o", str(workdir / "keep.o")]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"std_headers.py: compiling failed: {' '.join(argv)}\n{done.stdout}")
    host = sorted(keep.glob("*.cpp4.ii"))
    if len(host) != 1:
        sys.exit(f"std_headers.py: nvcc kept {len(host)} host-pass files (*.cpp4.ii) in {keep}, not one")
    out = host[0]
    return first_included_std_headers(out.read_text(errors="replace").splitlines(), INCLUDE.resolve())


def first_included_std_headers(lines, include_root):
    """The standard headers (a path with /c++/ in it) entered from a file under `include_root`, by
    name, in the order first met, from a preprocessed file's lines: a marker `# LINE "PATH" 1` enters
    PATH from the file entered before it, and `# LINE "PATH" 2` returns to PATH."""
    root = str(include_root)
    stack, found = [], []
    for line in lines:
        m = MARKER.match(line)
        if m is None:
            continue
        path, flags = m.group(1), m.group(2).split()
        if "1" in flags:
            includer = stack[-1] if stack else ""
            stack.append(path)
            if includer.startswith(root + "/") and "/c++/" in path:
                name = path.rsplit("/", 1)[-1]
                if name not in found:
                    found.append(name)
        elif "2" in flags:
            while stack and stack[-1] != path:
                stack.pop()
    return found


def variants(argvs, flags, workdir, headers):
    """{name: argv}: raw, raw after each header, raw after all of them, the unused launch headers and
    the header-only launch (measure.py's raw and header commands, `argvs`, and its `flags`)."""
    raw = HERE / "raw.cu"
    out = {"raw": argvs["raw"]}

    def compiled(name, source):
        return flags + [str(source), "-o", str(workdir / f"{name}.o")]

    def prefixed(name, includes):
        source = workdir / f"{name}.cu"
        source.write_text("".join(f"#include <{h}>\n" for h in includes) + f'#include "{raw}"\n')
        return compiled(name, source)

    for h in headers:
        out[f"<{h}>"] = prefixed("with_" + re.sub(r"\W", "_", h), [h])
    out["all of them"] = prefixed("with_all", headers)
    out["launch headers, unused"] = compiled("parse", PARSE_ONLY)
    out["header-only launch"] = argvs["header"]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    nvcc = find_nvcc()
    if nvcc is None:
        print("std_headers.py: no nvcc (PATH or /usr/local/cuda/bin)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        argvs, flags = measured_commands(nvcc, workdir)
        headers = direct_std_headers(flags, workdir)
        if not headers:  # the launch headers include <string> at least: the markers were misread
            print("std_headers.py: found no standard header included by a wavefit header in nvcc's host pass",
                  file=sys.stderr)
            return 1
        cmds = variants(argvs, flags, workdir, headers)
        cpu = {name: [] for name in cmds}
        for _ in range(args.repeat):
            for name, argv in cmds.items():
                cpu[name].append(compile_once(argv)[1])
    print(f"nvcc, sm_90, -O2; CPU seconds, median of {args.repeat}; ratio: paired, to raw.cu")
    print(f"{'file':<28} {'seconds':>8} {'ratio':>7}")
    rows = {}
    for name, times in cpu.items():
        ratio = 1.0 if name == "raw" else paired_ratio(times, cpu["raw"])
        rows[name] = {"seconds": statistics.median(times), "all_seconds": times, "ratio": ratio}
        print(f"{name:<28} {statistics.median(times):>8.2f} {ratio:>6.2f}x")
    if args.json:
        try:
            Path(args.json).write_text(json.dumps({"headers": headers, "variants": rows}, indent=1) + "\n")
        except OSError as e:
            print(f"std_headers.py: cannot write {args.json}: {e.strerror}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
