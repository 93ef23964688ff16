// SPDX-License-Identifier: MIT
// A 64-bit size passed to a 32-bit kernel parameter must not compile: sizes above 2^31 would wrap.
#include <cstddef>
#include <cstdint>

#include <wavefit/runtime/launch.hpp>

__global__ void fill(float* data, int n) { (void)data, (void)n; }

void misuse(float* data, std::size_t n) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(fill, cfg, nullptr, data, n);
#else
    (void)wavefit::try_launch(fill, cfg, nullptr, data, static_cast<int>(n));  // an explicit cast says it is intended
    (void)wavefit::try_launch(fill, cfg, nullptr, data, std::int16_t{7});      // widening is fine
#endif
}
