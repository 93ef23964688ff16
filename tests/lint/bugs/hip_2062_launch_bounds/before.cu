// SPDX-License-Identifier: MIT
// ROCm/hip#2062: a kernel tuned with CUDA's __launch_bounds__(threads, blocks per SM); HIP reads the second
// argument as wavefronts per SIMD, so (128, 6) asks gfx9 for 6 wavefronts per SIMD where CUDA meant
// 6 blocks of 2 wavefronts per multiprocessor (3 per SIMD): a register budget half the intended one.

template <int Threads, int BlocksPerSM> __global__ void __launch_bounds__(Threads, BlocksPerSM) tuned(float* data) {
    data[blockIdx.x * Threads + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(128, 6) tuned_fixed(float* data) { data[threadIdx.x] *= 2.0f; }  // expect: launch_bounds_min_blocks

void launch(float* data, hipStream_t stream, int block) {
    tuned<128, 6><<<64, block, 0, stream>>>(data);
    tuned_fixed<<<64, block, 0, stream>>>(data);
}
