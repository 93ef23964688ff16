// SPDX-License-Identifier: MIT
// A translation unit that only launches, as most of a large port's files do: it includes
// <wavefit/launch.hpp> alone. With WAVEFIT_SEPARATE_COMPILATION that is the launch templates and the
// declarations they call (no <string>, no planning code); the definitions are compiled once, in
// wavefit_compiled.hip or the CMake target wavefit::compiled.
#include <wavefit/launch.hpp>

#include <cstdint>  // 64-bit sizes

// The runtime's stream type (the launch tier includes the runtime's header).
#if WAVEFIT_PLATFORM_HIP
using stream_type = hipStream_t;
#else
using stream_type = cudaStream_t;
#endif

__global__ void saxpy(float a, const float* x, float* y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i];
}

__global__ void fill(float* x, float* y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) {
        x[i] = static_cast<float>(i % 1000) * 0.5f;
        y[i] = static_cast<float>(i % 7);
    }
}

void fill_and_saxpy(float a, float* x, float* y, std::uint64_t n, stream_type stream) {
    wavefit::launch(fill, n, stream, x, y, n);
    wavefit::launch(saxpy, n, stream, a, x, y, n);
}

// A block no GPU allows (2048 threads): wavefit::launch throws before the runtime is called.
void launch_too_large_block(float a, float* x, float* y, std::uint64_t n, stream_type stream) {
    wavefit::launch(saxpy, wavefit::launch_config{wavefit::dims{1}, wavefit::dims{2048}}, stream, a, x, y, n);
}
