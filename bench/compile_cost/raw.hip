// SPDX-License-Identifier: MIT
// One translation unit with one kernel and one launch, the way a HIP port writes it: the baseline of
// the compile-cost benchmark (measure.py).
#include <hip/hip_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, unsigned long n) {
    const unsigned long i = blockIdx.x * static_cast<unsigned long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

hipError_t run_saxpy(float a, const float* x, float* y, unsigned long n, hipStream_t stream) {
    hipLaunchKernelGGL(saxpy, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream, a, x, y, n);
    return hipGetLastError();
}
