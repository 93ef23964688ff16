// SPDX-License-Identifier: MIT
// Positive: blocks that are whole 32-lane warps but not whole 64-lane wavefronts (in grids that fill the
// device), a block of
// num_warps x 64 threads above 1024, and grids over the y limit and the 2^32 work-item limit.

__global__ void work(float* data) { data[threadIdx.x] = 0.0f; }

constexpr int wave_width = 64;
constexpr int num_warps = 32;

void launches(float* data, int n, hipStream_t stream) {
    work<<<n, 96>>>(data);  // expect: block_not_wave_multiple
    work<<<4096, dim3(32, 3)>>>(data);  // expect: block_not_wave_multiple
    hipLaunchKernelGGL(work, dim3(n), dim3(32), 0, stream, data);  // expect: block_not_wave_multiple
    work<<<1, num_warps * wave_width>>>(data);  // expect: block_exceeds_device_max_threads
    work<<<dim3(1, 70000), 256>>>(data);  // expect: grid_dim_exceeds_device_limit
    work<<<dim3(20000000), 256>>>(data);  // expect: work_items_exceed_dispatch_limit
}
