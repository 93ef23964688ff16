// SPDX-License-Identifier: MIT
// Negative: minimums whose HIP and CUDA readings give the same wavefronts per SIMD, and launches within
// the bound.

__global__ void __launch_bounds__(256, 2) balanced(float* data) { data[threadIdx.x] = 1.0f; }

__global__ void __launch_bounds__(1024, 1) full(float* data) { data[threadIdx.x] = 2.0f; }

template <int Threads> __global__ void __launch_bounds__(Threads) templated(float* data) { data[threadIdx.x] = 3.0f; }

void launch(float* data, int block) {
    balanced<<<10, block>>>(data);
    full<<<10, block>>>(data);
    templated<256><<<10, block>>>(data);
}
