// SPDX-License-Identifier: MIT
// lint-args: --target gfx1100
// Positive on a wave32 target (RX 7900 XTX, gfx1100): the warp checks flip to a hard-coded 64, and a
// per-wavefront array sized for 64-lane wavefronts is too small.

#define WAVE_SIZE 64  // expect: hardcoded_warp_size

__global__ void per_wave(const float* in, float* out) {
    __shared__ float partial[1024 / 64];  // expect: per_warp_array_too_small
    const int lane = threadIdx.x & 63;  // expect: lane_math_assumes_warp32
    const unsigned long long votes = __ballot(in[threadIdx.x] > 0.0f);
    if (lane == 0) partial[threadIdx.x / WAVE_SIZE] = static_cast<float>(votes);  // expect: lane_math_assumes_warp32
    __syncthreads();
    out[threadIdx.x] = partial[0];
}

void launch(const float* in, float* out) {
    per_wave<<<1, 96>>>(in, out);  // expect: hardcoded_launch_config
}
