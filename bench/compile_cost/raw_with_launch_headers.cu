// SPDX-License-Identifier: MIT
// The nvcc baseline (raw.cu) with the headers of a header-only wavefit launch included and not used:
// what parsing them alone costs (measure.py --phases), apart from compiling the launch's code.
#include <cuda_runtime.h>

#include <wavefit/launch.hpp>

__global__ void saxpy(float a, const float* x, float* y, unsigned long n) {
    const unsigned long i = blockIdx.x * static_cast<unsigned long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

cudaError_t run_saxpy(float a, const float* x, float* y, unsigned long n, cudaStream_t stream) {
    saxpy<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, x, y, n);
    return cudaGetLastError();
}
