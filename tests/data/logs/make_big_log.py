#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a large CI-style log for measuring `wavefit explain --scan` (docs/cli.md, "Large logs").

    python3 tests/data/logs/make_big_log.py /tmp/big.log 1024    # 1 GiB

The log repeats one 1 MiB block: build and test noise (compiler lines, timings such as "took 209 ms",
rocprof CSV rows, a 6000-byte line) with a few known error lines, so the scan finds the same
problems at every size. The content is fixed: the same bytes on every run.
"""

import sys


def block():
    noise = [
        "[{i}/9000] Building HIP object CMakeFiles/app.dir/src/kernels/k{i}.hip.o",
        "step {i}: loss 2.{i}, took 209 ms, 700 tokens/s, status 0",
        '"KERNEL_DISPATCH",1,1,"saxpy(int, float, float const*, float*)",{i}000,{i}209',
        ":3:hip_module.cpp           :679 : {i} us: [pid:4242  tid:0x7f5fe9669740] hipLaunchKernel: Returned hipSuccess : ",
        "tests/test_attention.py::test_forward[case{i}] PASSED",
        "llm_load_print_meta: n_ctx_orig_yarn  = {i}",
    ]
    errors = [
        "RuntimeError: HIP error: invalid device function",
        ":1:hip_module.cpp :91 : 1885938529 us: Launch params (1024, 1, 1) are larger than launch bounds (256) for "
        "kernel _ZL12rms_norm_f32ILi1024EEvPKfPfif",
        "Memory access fault by GPU node-2 (Agent handle: 0x56468ab3bb50) on address 0x7fe55fb03000. Reason: Page not "
        "present or supervisor privilege.",
        "kernel launch returned error code: 209",
    ]
    lines = []
    size = 0
    i = 0
    while size < (1 << 20) - 8192:
        line = noise[i % len(noise)].format(i=i)
        if i % 1000 == 999:
            line = errors[(i // 1000) % len(errors)]
        if i % 5000 == 4999:
            line = "x" * 6000  # longer than the 4096-byte cap
        lines.append(line)
        size += len(line) + 1
        i += 1
    text = "\n".join(lines) + "\n"
    return (text + "#" * ((1 << 20) - len(text) - 1) + "\n").encode()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_big_log.py OUTPUT MIB")
    data = block()
    assert len(data) == 1 << 20
    with open(sys.argv[1], "wb") as out:
        for _ in range(int(sys.argv[2])):
            out.write(data)


if __name__ == "__main__":
    main()
