// SPDX-License-Identifier: MIT
// Positive: warp widths of 32 defined as macros and constants, used next to operations that see the
// whole 64-lane wavefront (ballots, indexed shuffles), and next to the device's warp size on the host.

#define WARP_SIZE 32  // expect: hardcoded_warp_size
static const int WS = 32;  // expect: hardcoded_warp_size
constexpr int kWarpSize = 32;  // expect: hardcoded_warp_size

__global__ void count_votes(const int* flags, int* counts) {
    const int lane = threadIdx.x % WARP_SIZE;  // expect: lane_math_assumes_warp32
    const unsigned long long votes = __ballot_sync(~0ull, flags[threadIdx.x] != 0);
    if (lane == 0) atomicAdd(counts, __popcll(votes));
}

__global__ void broadcast_first(const float* in, float* out) {
    const int group = threadIdx.x / WS;  // expect: lane_math_assumes_warp32
    out[group] = __shfl_sync(~0ull, in[threadIdx.x], 0);
}

int warps_per_block(int block) {
    int device_warp = 0;
    cudaDeviceGetAttribute(&device_warp, cudaDevAttrWarpSize, 0);
    if (device_warp != kWarpSize) return -1;
    return block / kWarpSize;
}
