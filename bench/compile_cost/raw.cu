// SPDX-License-Identifier: MIT
// One translation unit with one kernel and one launch, the way a CUDA program writes it: the nvcc
// baseline of the compile-cost benchmark (measure.py).
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, unsigned long n) {
    const unsigned long i = blockIdx.x * static_cast<unsigned long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

cudaError_t run_saxpy(float a, const float* x, float* y, unsigned long n, cudaStream_t stream) {
    saxpy<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, x, y, n);
    return cudaGetLastError();
}
