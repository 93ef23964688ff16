// SPDX-License-Identifier: MIT
// triton-lang/triton#4128 and openxla/xla#35026: a launch sized as num_warps x threads per warp, with the
// warp count tuned for 32-lane warps; with 64-lane wavefronts the same 32 warps ask for 2048 threads,
// above every GPU's 1024, and the launch is refused.

#define THREADS_PER_WARP 64  // the target's wavefront
constexpr int num_warps = 32;

__global__ void softmax_rows(float* rows) { rows[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }

void launch(float* rows, int count, hipStream_t stream) {
    softmax_rows<<<count, num_warps * THREADS_PER_WARP, 0, stream>>>(rows);  // expect: block_exceeds_device_max_threads
}
