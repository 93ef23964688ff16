// SPDX-License-Identifier: MIT
// Positive: 32-bit masks given to *_sync intrinsics (a compile error with ROCm 7's headers, and lanes
// 0-31 only), and 64-bit ballots and active masks kept in 32 bits.

#define FULL_MASK 0xffffffff

__global__ void masks(float* v, const int* flags, unsigned int* out) {
    float x = v[threadIdx.x];
    x += __shfl_down_sync(0xffffffff, x, 1);  // expect: full_mask_32bit
    x += __shfl_xor_sync(FULL_MASK, x, 2);  // expect: full_mask_32bit
    const unsigned mask = 0xffffffffu;
    x += __shfl_sync(mask, x, 3);  // expect: full_mask_32bit
    if (__any_sync(~0u, flags[threadIdx.x])) v[threadIdx.x] = x;  // expect: full_mask_32bit
    __syncwarp(0xffffffff);  // expect: full_mask_32bit
    const unsigned int votes = __ballot(flags[threadIdx.x] > 0);  // expect: ballot_truncated
    const int active = __activemask();  // expect: ballot_truncated
    out[0] = votes + static_cast<unsigned>(active);
    const unsigned long long wide = __ballot(flags[threadIdx.x] > 1);
    out[1] = __popc(wide);  // expect: ballot_truncated
    out[2] = (unsigned int)__ballot_sync(~0ull, flags[threadIdx.x] > 2);  // expect: ballot_truncated
}
