// SPDX-License-Identifier: MIT
// ORNL/HeCBench#180 (mpc-hip): a warp-level prefix sum with `tid >> 5` and `tid & 31` and __shfl_up over the
// whole wavefront, and a ballot cast to 32 bits to build a bitmap: both assume 32-lane warps.

__device__ int prefix_sum(int value, int* warp_totals) {
    const int tid = threadIdx.x;
    const int warp = tid >> 5;  // expect: lane_math_assumes_warp32
    const int lane = tid & 31;  // expect: lane_math_assumes_warp32
    for (int d = 1; d < 32; d *= 2) {
        const int other = __shfl_up(value, d);
        if (lane >= d) value += other;
    }
    if (lane == 31) warp_totals[warp] = value;
    return value;
}

__global__ void compress(const float* in, unsigned int* bitmap, int* sizes) {
    __shared__ int totals[32];
    const bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] != 0.0f;
    const unsigned int bits = (unsigned int)__ballot(keep);  // expect: ballot_truncated
    if ((threadIdx.x & 31) == 0) bitmap[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = bits;  // expect: lane_math_assumes_warp32
    sizes[blockIdx.x * blockDim.x + threadIdx.x] = prefix_sum(keep ? 1 : 0, totals);
}
