// SPDX-License-Identifier: MIT
// Too few (or too many) arguments for the kernel's parameters must not compile.
#include <wavefit/runtime/launch.hpp>

__global__ void axpy(float a, const float* x, float* y, int n) { (void)a, (void)x, (void)y, (void)n; }

void misuse(const float* x, float* y, int n) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(axpy, cfg, nullptr, x, y, n);
#else
    (void)wavefit::try_launch(axpy, cfg, nullptr, 2.0f, x, y, n);
#endif
}
