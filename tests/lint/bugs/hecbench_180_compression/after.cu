// SPDX-License-Identifier: MIT
// The fix of ORNL/HeCBench#180: lanes and wavefronts from warpSize, the scan over the whole wavefront, and
// one 64-bit ballot per wavefront.

__device__ int prefix_sum(int value, int* warp_totals) {
    const int tid = threadIdx.x;
    const int warp = tid / warpSize;
    const int lane = tid % warpSize;
    for (int d = 1; d < warpSize; d *= 2) {
        const int other = __shfl_up(value, d);
        if (lane >= d) value += other;
    }
    if (lane == warpSize - 1) warp_totals[warp] = value;
    return value;
}

__global__ void compress(const float* in, unsigned long long* bitmap, int* sizes) {
    __shared__ int totals[32];
    const bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] != 0.0f;
    const unsigned long long bits = __ballot(keep);
    if (threadIdx.x % warpSize == 0) bitmap[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = bits;
    sizes[blockIdx.x * blockDim.x + threadIdx.x] = prefix_sum(keep ? 1 : 0, totals);
}
