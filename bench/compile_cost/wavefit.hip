// SPDX-License-Identifier: MIT
// The same kernel and launch through wavefit::launch: what a translation unit pays for wavefit, in
// header-only mode or, with WAVEFIT_SEPARATE_COMPILATION, with the library compiled once elsewhere
// (measure.py builds it both ways, with hipcc and, renamed .cu, with nvcc).
#include <wavefit/launch.hpp>

__global__ void saxpy(float a, const float* x, float* y, unsigned long n) {
    const unsigned long i = blockIdx.x * static_cast<unsigned long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

void run_saxpy(float a, const float* x, float* y, unsigned long n, wavefit::detail::backend::stream_type stream) {
    wavefit::launch(saxpy, n, stream, a, x, y, n);
}
