// SPDX-License-Identifier: MIT
// ORNL/HeCBench#167 (gc-hip): one constant WS = 32 serves as the warp width for lane indices, loop strides
// and a ballot whose 64-bit result is kept in an int, so on a 64-lane wavefront lanes 32-63 alias 0-31
// and half of every vote is lost.

static const int WS = 32;  // expect: hardcoded_warp_size

__global__ void color_step(const int* degrees, int* colors, const int* work, int count) {
    const int lane = threadIdx.x % WS;  // expect: lane_math_assumes_warp32
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WS;  // expect: lane_math_assumes_warp32
    for (int i = warp; i < count; i += (gridDim.x * blockDim.x) / WS) {
        const int node = work[i];
        const int candidates = __ballot(degrees[node] > lane);  // expect: ballot_truncated
        if (lane == 0) colors[node] = __popc(candidates);
    }
}
