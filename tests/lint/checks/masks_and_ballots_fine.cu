// SPDX-License-Identifier: MIT
// Negative: 64-bit masks and ballots, and a project's own wrapper that takes a 32-bit mask by design.

__device__ float my_shuffle_down_sync(unsigned mask, float v, int delta) { return __shfl_down(v, delta); }
#define __shfl_down_sync_compat(mask, v, d) my_shuffle_down_sync(mask, v, d)

__global__ void masks(float* v, const int* flags, unsigned long long* out) {
    float x = v[threadIdx.x];
    x += __shfl_down_sync(~0ull, x, 1);
    x += __shfl_xor_sync(__activemask(), x, 2);
    x += __shfl_sync(0xffffffffffffffffull, x, 3);
    x += __shfl_down_sync_compat(0xffffffff, x, 4);
    const unsigned long long votes = __ballot(flags[threadIdx.x] > 0);
    out[0] = votes;
    out[1] = static_cast<unsigned long long>(__popcll(__ballot_sync(~0ull, flags[threadIdx.x] > 1)));
    v[threadIdx.x] = x;
}
