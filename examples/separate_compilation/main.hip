// SPDX-License-Identifier: MIT
// The separately compiled mode (README.md, "Compile once"): launches.hip launches through
// <wavefit/launch.hpp>, this file uses the rest of wavefit, and the library's non-template functions
// are compiled once (wavefit_compiled.hip, or the CMake target wavefit::compiled). The same results
// and the same rejection as header-only: saxpy is checked on a sample, and a 2048-thread block is
// refused with wavefit's message.
#include "../example_support.hpp"

#include <cstdint>  // 64-bit sizes
#include <vector>   // the results

void fill_and_saxpy(float a, float* x, float* y, std::uint64_t n, gpu::stream_t stream);
void launch_too_large_block(float a, float* x, float* y, std::uint64_t n, gpu::stream_t stream);

int main() {
    bool as_intended = true;
    std::printf("separately compiled wavefit %s (WAVEFIT_SEPARATE_COMPILATION)\n", WAVEFIT_VERSION_STRING);
    if (!gpu_available()) return finish(as_intended);

    const std::uint64_t n = (std::uint64_t{1} << 24) + 4099;
    float* x = static_cast<float*>(gpu::allocate_bytes(n * sizeof(float)));
    float* y = static_cast<float*>(gpu::allocate_bytes(n * sizeof(float)));
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");
    fill_and_saxpy(2.0f, x, y, n, stream);
    gpu::check(gpu::synchronize(stream), "running the kernels");
    std::vector<float> result(n);
    gpu::check(gpu::to_host(result.data(), y, n * sizeof(float)), "reading the results");
    std::uint64_t wrong = 0;
    for (std::uint64_t i = 0; i < n; ++i)
        if (result[i] != 2.0f * (static_cast<float>(i % 1000) * 0.5f) + static_cast<float>(i % 7)) ++wrong;
    std::printf("  saxpy over %llu elements: %llu wrong\n", static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(wrong));
    as_intended &= wrong == 0;

    try {
        launch_too_large_block(2.0f, x, y, n, stream);
        std::printf("  a 2048-thread block was launched: NOT refused\n");
        as_intended = false;
    } catch (const wavefit::launch_error& e) {
        std::printf("  refused before the launch: %s\n", e.what());
        as_intended &= e.diagnostic() == wavefit::diagnostic_code::block_dim_exceeds_device_limit;
    }
    gpu::check(gpu::release(x), "freeing x");
    gpu::check(gpu::release(y), "freeing y");
    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    return finish(as_intended);
}
