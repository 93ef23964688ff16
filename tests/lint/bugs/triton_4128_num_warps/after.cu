// SPDX-License-Identifier: MIT
// The fix of triton-lang/triton#4128: the warp count is capped so that num_warps x threads per warp stays
// within 1024 threads.

#define THREADS_PER_WARP 64  // the target's wavefront
constexpr int num_warps = 1024 / THREADS_PER_WARP < 32 ? 1024 / THREADS_PER_WARP : 32;

__global__ void softmax_rows(float* rows) { rows[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }

void launch(float* rows, int count, hipStream_t stream) {
    softmax_rows<<<count, num_warps * THREADS_PER_WARP, 0, stream>>>(rows);  // expect: hardcoded_launch_config
}
