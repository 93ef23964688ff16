// SPDX-License-Identifier: MIT
// Positive: reductions whose widest shuffle step is 16 (32 lanes) in code that reads the result per
// hardware wavefront (lanes and wavefront indices from warpSize).

__device__ float reduce_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(~0ull, v, offset);  // expect: shuffle_reduction_from_16
    return v;
}

__global__ void block_sum(const float* in, float* out) {
    __shared__ float partial[32];
    const float v = reduce_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
        out[blockIdx.x] = s;
    }
}

__global__ void max_per_wave(const float* in, float* out) {
    float v = in[threadIdx.x];
    v = fmaxf(v, __shfl_xor(v, 16));  // expect: shuffle_reduction_from_16
    v = fmaxf(v, __shfl_xor(v, 8));
    v = fmaxf(v, __shfl_xor(v, 4));
    v = fmaxf(v, __shfl_xor(v, 2));
    v = fmaxf(v, __shfl_xor(v, 1));
    if (__lane_id() == 0) out[threadIdx.x / warpSize] = v;
}
