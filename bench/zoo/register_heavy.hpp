// SPDX-License-Identifier: MIT
// A compute-bound kernel that keeps many values live per thread, so registers, not waves, limit how
// many blocks an SM/CU holds: the case where the best block is not the usual 256 and where a
// hard-coded 1024 does not launch at all on NVIDIA (1024 threads x ~100 registers > 64K).
#pragma once

#include <wavefit/wavefit.hpp>

#include <cmath>    // fmaf on the host
#include <cstdint>  // sizes

namespace wavefit_bench::zoo {

// register_heavy_value is compiled for the host too, where GCC knows no `#pragma unroll`.
#if WAVEFIT_DEVICE_PASS || defined(__clang__)
#define WAVEFIT_BENCH_UNROLL _Pragma("unroll")
#define WAVEFIT_BENCH_NO_UNROLL _Pragma("unroll 1")
#else
#define WAVEFIT_BENCH_UNROLL
#define WAVEFIT_BENCH_NO_UNROLL
#endif

inline constexpr int heavy_registers = 96;  // live floats per thread
inline constexpr int heavy_steps = 16;      // passes over them per element

// Floating-point operations per element: per step and value one multiply and one fma.
inline constexpr double heavy_flop_per_element = 3.0 * heavy_registers * heavy_steps;

// The same arithmetic on host and device: fmaf is fused on both and 0.25f * v is exact, so the host
// check reproduces the device result bit for bit.
__host__ __device__ inline float register_heavy_value(float x) {
    float acc[heavy_registers];
    WAVEFIT_BENCH_UNROLL
    for (int r = 0; r < heavy_registers; ++r) acc[r] = x + 0.001f * static_cast<float>(r);
    WAVEFIT_BENCH_NO_UNROLL
    for (int step = 0; step < heavy_steps; ++step) {
        WAVEFIT_BENCH_UNROLL
        for (int r = 0; r < heavy_registers; ++r) acc[r] = fmaf(acc[r], 0.5f, 0.25f * acc[(r + 1) % heavy_registers]);
    }
    float sum = 0.0f;
    WAVEFIT_BENCH_UNROLL
    for (int r = 0; r < heavy_registers; ++r) sum += acc[r];
    return sum;
}

__global__ void register_heavy_kernel(const float* __restrict__ x, float* __restrict__ y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = register_heavy_value(x[i]);
}

}  // namespace wavefit_bench::zoo
