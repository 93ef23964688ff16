// SPDX-License-Identifier: MIT
// A floating value passed to an integer kernel parameter must not compile (it would be truncated).
#include <wavefit/runtime/launch.hpp>

__global__ void repeat(float* data, int times) { (void)data, (void)times; }

void misuse(float* data, double times) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(repeat, cfg, nullptr, data, times);
#else
    (void)wavefit::try_launch(repeat, cfg, nullptr, data, static_cast<int>(times));
#endif
}
