// SPDX-License-Identifier: MIT
// Negative: a reduction from warpSize / 2, one with an explicit width of 32 (groups of 32 on purpose), a
// reduction from 16 in code built on 32-lane groups throughout, and a sorting network's exchange step.

__device__ float wave_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

__device__ float group_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(~0ull, v, offset, 32);
    return v;
}

__global__ void sums(const float* in, float* out) {
    const float a = wave_sum(in[threadIdx.x]);
    const float b = group_sum(in[threadIdx.x]);
    if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = a + b;
}

__global__ void groups_of_32(const float* in, float* out) {
    float v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}

__global__ void exchange(float* keys) {
    float k = keys[threadIdx.x];
    k = __shfl_xor(k, 16);
    keys[threadIdx.x] = k;
}
