// SPDX-License-Identifier: MIT
// lint-args: --target gfx1100
// sgl-project/sglang#28097 (and #25175): the wave width macro is __AMDGCN_WAVEFRONT_SIZE in the device pass
// but a fixed 64 in the host pass. On a wave32 GPU the kernel is compiled with __launch_bounds__(4 * 32)
// while the host launches 64 x 4 threads: hipErrorLaunchFailure, blamed on the next kernel.

#if defined(__HIP_DEVICE_COMPILE__)
#define WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define WARP_SIZE 64
#endif
#define WARPS_PER_BLOCK 4

__global__ void __launch_bounds__(WARPS_PER_BLOCK * WARP_SIZE) gating(const float* logits, int* choice, int rows) {
    const int row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.y;
    if (row < rows && threadIdx.x == 0) choice[row] = logits[row] > 0.0f;
}

void launch_gating(const float* logits, int* choice, int rows, hipStream_t stream) {
    const dim3 block(WARP_SIZE, WARPS_PER_BLOCK);  // expect: wave_size_host_device_mismatch
    const dim3 grid((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    gating<<<grid, block, 0, stream>>>(logits, choice, rows);  // expect: hardcoded_launch_config
}
