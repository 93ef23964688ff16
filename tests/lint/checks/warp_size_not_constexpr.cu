// SPDX-License-Identifier: MIT
// Positive: warpSize where a constant expression is needed; clang (as ROCm 7's headers) refuses each.

template <int Width> __device__ float reduce(float v) { return v * Width; }

__global__ void uses(float* data) {
    constexpr int width = warpSize;  // expect: warp_size_not_constexpr
    __shared__ float slots[warpSize];  // expect: warp_size_not_constexpr
    float lanes[warpSize];  // expect: warp_size_not_constexpr
    lanes[0] = reduce<warpSize>(data[0]);  // expect: warp_size_not_constexpr
    static_assert(warpSize == 64, "wave64 only");  // expect: warp_size_not_constexpr
    data[threadIdx.x] = slots[0] + lanes[0] + width;
}
