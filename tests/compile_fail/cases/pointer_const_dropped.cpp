// SPDX-License-Identifier: MIT
// A pointer to const passed to a kernel that writes through its parameter must not compile.
#include <wavefit/runtime/launch.hpp>

__global__ void clear(float* data) { (void)data; }
__global__ void sum(const float* data) { (void)data; }

void misuse(const float* input, float* output) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(clear, cfg, nullptr, input);
#else
    (void)wavefit::try_launch(clear, cfg, nullptr, output);
    (void)wavefit::try_launch(sum, cfg, nullptr, output);  // adding const is fine
#endif
}
