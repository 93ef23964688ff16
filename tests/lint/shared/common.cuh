// SPDX-License-Identifier: MIT
// A guarded project header that most sources here include first: one lint run precompiles it once and
// parses those sources on top of it. Its own findings are reported once, whichever source included it.
#pragma once

#define ROW_BLOCK 96

__device__ inline float add_neighbour(float x) {
    return x + __shfl_xor_sync(0xffffffff, x, 1);  // expect: full_mask_32bit
}

template <int Scale>
__global__ void scale(float* v, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // expect: index_32bit
    if (i < n) v[i] = add_neighbour(v[i]) * Scale;
}
