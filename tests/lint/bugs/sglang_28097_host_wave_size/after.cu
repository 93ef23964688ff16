// SPDX-License-Identifier: MIT
// lint-args: --target gfx1100 -- -DKERNEL_WAVE_SIZE=32
// The fix of sgl-project/sglang#28097: the host pass takes the wave width from a build setting derived
// from the target (32 for gfx1100), so host and device agree.

#if defined(__HIP_DEVICE_COMPILE__)
#define WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define WARP_SIZE KERNEL_WAVE_SIZE
#endif
#define WARPS_PER_BLOCK 4

__global__ void __launch_bounds__(WARPS_PER_BLOCK * WARP_SIZE) gating(const float* logits, int* choice, int rows) {
    const int row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.y;
    if (row < rows && threadIdx.x == 0) choice[row] = logits[row] > 0.0f;
}

void launch_gating(const float* logits, int* choice, int rows, hipStream_t stream) {
    const dim3 block(WARP_SIZE, WARPS_PER_BLOCK);
    const dim3 grid((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    gating<<<grid, block, 0, stream>>>(logits, choice, rows);  // expect: hardcoded_launch_config
}
