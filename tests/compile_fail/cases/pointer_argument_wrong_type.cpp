// SPDX-License-Identifier: MIT
// A kernel argument that points to another type than the kernel's parameter must not compile:
// wavefit::launch would otherwise hand an int buffer to a float kernel.
#include <wavefit/runtime/launch.hpp>

__global__ void scale(float* data, int n) { (void)data, (void)n; }

void misuse(int* buffer, float* right, int n) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(scale, cfg, nullptr, buffer, n);
#else
    (void)buffer;
    (void)wavefit::try_launch(scale, cfg, nullptr, right, n);  // same pointee type
    (void)wavefit::try_launch(scale, cfg, nullptr, nullptr, n);  // nullptr is fine
#endif
}
