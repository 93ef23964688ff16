// SPDX-License-Identifier: MIT
// The fix of ORNL/HeCBench#167: the wavefront width follows the target (64 on gfx9), and the ballot is
// kept and counted in 64 bits.

#if defined(__GFX8__) || defined(__GFX9__)
static const int WS = 64;
#else
static const int WS = 32;
#endif

__global__ void color_step(const int* degrees, int* colors, const int* work, int count) {
    const int lane = threadIdx.x % WS;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WS;
    for (int i = warp; i < count; i += (gridDim.x * blockDim.x) / WS) {
        const int node = work[i];
        const unsigned long long candidates = __ballot(degrees[node] > lane);
        if (lane == 0) colors[node] = __popcll(candidates);
    }
}
