// SPDX-License-Identifier: MIT
// Positive: __launch_bounds__ minimums that HIP reads as wavefronts per SIMD where CUDA meant blocks per
// SM, and launches above the kernel's bound.

#define BLOCK 128

__global__ void __launch_bounds__(BLOCK, 4) tuned(float* data) { data[threadIdx.x] = 1.0f; }  // expect: launch_bounds_min_blocks

__global__ void __launch_bounds__(512, 2) wide(float* data) { data[threadIdx.x] = 2.0f; }  // expect: launch_bounds_min_blocks

__global__ void __launch_bounds__(256) bounded(float* data) { data[threadIdx.x] = 3.0f; }

void launch(float* data) {
    bounded<<<10, 512>>>(data);  // expect: block_exceeds_kernel_max_threads
    bounded<<<10, dim3(16, 32)>>>(data);  // expect: block_exceeds_kernel_max_threads
}
