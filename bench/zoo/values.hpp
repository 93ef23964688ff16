// SPDX-License-Identifier: MIT
// Inputs the zoo computes from the element index, so that a check kernel can recompute any input
// (never time on zeros, never trust an output that nothing checked), poisoned outputs (an element a
// kernel forgot to write stays NaN and fails the check), and the device-side checks themselves.
// Everything here is inline or a template, so several translation units may include it.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>     // indices
#include <functional>  // a case's preparation

#include "gpu_support/gpu_support.hpp"

namespace wavefit_bench::zoo {

// Values in [lo, lo + width), uniform, from a hash of (index, seed): splitmix64's finaliser.
struct value_range {
    std::uint32_t seed;
    double lo;
    double width;
};

__host__ __device__ inline double input_value(std::uint64_t i, const value_range& r) {
    std::uint64_t z = i + 0x9E3779B97F4A7C15ull * (std::uint64_t{r.seed} + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return r.lo + r.width * (static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0));
}

template <class T>
__global__ void fill_kernel(T* __restrict__ p, std::uint64_t n, value_range r) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) p[i] = static_cast<T>(input_value(i, r));
}

__device__ inline float quiet_nan(float) { return __int_as_float(0x7fc00000); }
__device__ inline double quiet_nan(double) { return __longlong_as_double(0x7ff8000000000000ll); }

template <class T>
__global__ void poison_kernel(T* __restrict__ p, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) p[i] = quiet_nan(T{});
}

template <class T>
__global__ void count_not_finite_kernel(const T* __restrict__ p, std::uint64_t n, unsigned long long* __restrict__ bad) {
    for (const std::uint64_t i : wavefit::grid_stride(n))
        if (!isfinite(p[i])) atomicAdd(bad, 1ull);
}

// Setup and check launches are raw with a fixed grid, so that the zoo's baseline does not depend on
// the library under test (the kernels above all grid-stride).
inline constexpr unsigned helper_blocks = 1024;
inline constexpr unsigned helper_threads = 256;

template <class T>
void fill(T* p, std::uint64_t n, value_range r, gpu::stream_t s) {
    GPU_RAW_LAUNCH(fill_kernel<T>, dim3(helper_blocks), dim3(helper_threads), 0, s, p, n, r);
    gpu::check_last_launch("launching fill_kernel");
}

template <class T>
void poison(T* p, std::uint64_t n, gpu::stream_t s) {
    GPU_RAW_LAUNCH(poison_kernel<T>, dim3(helper_blocks), dim3(helper_threads), 0, s, p, n);
    gpu::check_last_launch("launching poison_kernel");
}

// The usual preparation of a one-input kernel: the input filled, the output poisoned so that an item
// the kernel skips is seen.
template <class T>
std::function<void(gpu::stream_t)> fill_and_poison(T* in, T* out, std::uint64_t n, value_range r) {
    return [in, out, n, r](gpu::stream_t s) {
        fill(in, n, r, s);
        poison(out, n, s);
    };
}

// A counter on the device for the check kernels, read back after they ran.
class device_counter {
public:
    device_counter() : value_(static_cast<unsigned long long*>(gpu::allocate_bytes(sizeof(unsigned long long)))) {}
    device_counter(const device_counter&) = delete;
    device_counter& operator=(const device_counter&) = delete;
    ~device_counter() { (void)gpu::release(value_); }

    unsigned long long* reset(gpu::stream_t s) {
        gpu::check(gpu::zero_async(value_, sizeof(unsigned long long), s), "clearing device memory");
        return value_;
    }
    unsigned long long read(gpu::stream_t s) const {
        gpu::check(gpu::synchronize(s), "synchronizing the stream");
        unsigned long long v = 0;
        gpu::check(gpu::to_host(&v, value_, sizeof v), "copying to the host");
        return v;
    }

private:
    unsigned long long* value_;
};

template <class T>
unsigned long long count_not_finite(const T* p, std::uint64_t n, device_counter& counter, gpu::stream_t s) {
    unsigned long long* bad = counter.reset(s);
    GPU_RAW_LAUNCH(count_not_finite_kernel<T>, dim3(helper_blocks), dim3(helper_threads), 0, s, p, n, bad);
    gpu::check_last_launch("launching count_not_finite_kernel");
    return counter.read(s);
}

}  // namespace wavefit_bench::zoo
