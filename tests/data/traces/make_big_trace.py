#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a synthetic rocprofv3 kernel_trace.csv of about SIZE bytes (default 1 GiB) for measuring
`wavefit audit` on large input: 200 distinct kernels with C++ names that hold commas and quotes, each
in a few launch configurations, dispatched round-robin. Deterministic (no random numbers).

    python3 make_big_trace.py /tmp/big_kernel_trace.csv [SIZE_BYTES]
"""
import sys

HEADER = ("Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,Correlation_Id,"
          "Start_Timestamp,End_Timestamp,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,"
          "Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z\n")


def main():
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
