// SPDX-License-Identifier: MIT
// lint-args: --target gfx1100
// Positive on a wave32 target: a wave-size macro taken from a device-only macro has 32 in the device pass
// and 64 in the host pass, so the host's block disagrees with the kernel's bound.

#if defined(__HIP_DEVICE_COMPILE__)
#define WAVE_WIDTH __AMDGCN_WAVEFRONT_SIZE
#else
#define WAVE_WIDTH 64
#endif
#define ROWS_PER_BLOCK 4

__global__ void __launch_bounds__(WAVE_WIDTH * ROWS_PER_BLOCK) gate(const float* in, float* out) {
    out[threadIdx.y * WAVE_WIDTH + threadIdx.x] = in[threadIdx.x];
}

void launch_gate(const float* in, float* out, int rows, hipStream_t stream) {
    dim3 block(WAVE_WIDTH, ROWS_PER_BLOCK);  // expect: wave_size_host_device_mismatch
    gate<<<rows / ROWS_PER_BLOCK, block, 0, stream>>>(in, out);  // expect: hardcoded_launch_config
}
