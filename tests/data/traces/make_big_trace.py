#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a synthetic trace of about SIZE bytes (default 1 GiB) for measuring `wavefit audit` on large
input: 200 distinct kernels with C++ names that hold commas and quotes, each in a few launch
configurations, dispatched round-robin. Deterministic (no random numbers). A rocprofv3
kernel_trace.csv, or with --kineto a PyTorch profiler chrome trace (one JSON document).

    python3 make_big_trace.py /tmp/big_kernel_trace.csv [SIZE_BYTES]
    python3 make_big_trace.py --kineto /tmp/big_kineto.json [SIZE_BYTES]
"""
import sys

HEADER = ("Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,Correlation_Id,"
          "Start_Timestamp,End_Timestamp,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,"
          "Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z\n")


def kineto(path, target):
    """A Kineto trace: deviceProperties, then kernel events (and a cpu_op per kernel, as PyTorch writes)."""
    written = 0
    t = 1_000_000.0
    n = 0
    with open(path, "w", buffering=1 << 22) as out:
        head = '{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "numSms": 132}],\n"traceEvents": [\n'
        out.write(head)
        written += len(head)
        while written < target:
            chunk = []
            for k in range(200):
                n += 1
                block = (128, 256, 512)[k % 3]
                regs = 16 + 8 * (k % 20)
                dur = 1.0 + (k * 37 + n) % 5000 / 1000.0
                chunk.append(f'{{"ph": "X", "cat": "cpu_op", "name": "aten::op{k}", "pid": 1, "tid": 1, "ts": {t:.3f}, "dur": 2.5,'
                             f' "args": {{"External id": {n}}}}},\n'
                             f'{{"ph": "X", "cat": "kernel", "name": "void ns::kernel_{k}<float, \\"tag\\">(float const*, float*, int)",'
                             f' "pid": 0, "tid": 7, "ts": {t:.3f}, "dur": {dur:.3f}, "args": {{"External id": {n}, "device": 0,'
                             f' "stream": 7, "correlation": {n}, "registers per thread": {regs}, "shared memory": {(k % 4) * 1024},'
                             f' "blocks per SM": 1.5, "warps per SM": 6.0, "grid": [{132 * (k % 9 + 1)}, 1, 1],'
                             f' "block": [{block}, 1, 1], "est. achieved occupancy %": 50}}}},\n')
                t += dur + 0.2
            text = "".join(chunk)
            out.write(text)
            written += len(text)
        tail = '{"ph": "X", "cat": "cpu_op", "name": "end", "pid": 1, "tid": 1, "ts": 0, "dur": 0}\n]}\n'
        out.write(tail)
        written += len(tail)
    print(f"{path}: {written} bytes, {n} kernel events")


def main():
    if sys.argv[1] == "--kineto":
        kineto(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 30)
        return
    path = sys.argv[1]
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    kernels = []
    for k in range(200):
        name = f'"void ns{k % 7}::kernel_{k}<float, {k % 5}, ""tag""> (float const*, float*, int, at::Tensor&)"'
        for config in range(3):
            block = (64, 256, 1024)[config]
            grid = block * (304 * (k % 9 + 1) + config * 17)
            vgpr = 16 + 8 * (k % 30)
            kernels.append((k, name, block, grid, vgpr, (k % 4) * 1024, 0 if k % 11 else 64))
    written = 0
    dispatch = 0
    t = 1_000_000
    with open(path, "w", buffering=1 << 22) as out:
        out.write(HEADER)
        written += len(HEADER)
        while written < target:
            chunk = []
            for (k, name, block, grid, vgpr, lds, scratch) in kernels:
                dispatch += 1
                duration = 1000 + (k * 37 + dispatch) % 5000
                chunk.append(f"KERNEL_DISPATCH,Agent 4,1,0,4242,{dispatch},{k},{name},{dispatch},{t},{t + duration},"
                             f"{lds},{scratch},{vgpr},0,32,{block},1,1,{grid},1,1\n")
                t += duration + 200
            text = "".join(chunk)
            out.write(text)
            written += len(text)
    print(f"{path}: {written} bytes, {dispatch} dispatches")


if __name__ == "__main__":
    main()
