// SPDX-License-Identifier: MIT
// The tuner's L2 flush by reading. Before each timed launch the tuner evicts the kernel's data from the
// L2 (tuner.hpp, cache_flush). Writing a large buffer (hipMemsetAsync / cudaMemsetAsync) leaves the L2
// full of dirty lines that the timed kernel then pays to write back, tens of microseconds on the
// H200, which the candidates pay alike and which blurs the differences between them; reading one
// leaves clean lines that are dropped for free (the external suite measures that way,
// bench/external/suite_case.hpp). Reading takes a kernel, and the tuner is host code that a plain C++
// compiler may build (the compiled library is built so), so the kernel comes from a file that hipcc
// or nvcc compiles: such a file that includes <wavefit/tuning.hpp> registers its copy at start-up.
// Without one, the tuner flushes by writing.
#pragma once

#include <atomic>   // the registered kernel
#include <cstdint>  // sizes

#include "../config.hpp"
#include "../platform.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The registered reader, a kernel (const ulonglong2* data, std::uint64_t vectors, unsigned long long* sink)
// that reads every 16-byte vector of `data`; null until a GPU-compiled file registers one.
inline std::atomic<const void*>& cache_flush_reader() noexcept {
    static std::atomic<const void*> kernel{nullptr};
    return kernel;
}

#if WAVEFIT_DEVICE_COMPILER
// A grid-stride read of the buffer. The sum decides a store that the buffer's fill never triggers, so
// no compiler can drop a load. `static`: every file has its own copy, compiled by its own device pass
// (no relocatable device code needed), and registered by its own initializer below.
static __global__ void wavefit_read_for_cache_flush(const ulonglong2* data, std::uint64_t vectors,
                                                    unsigned long long* sink) {
    unsigned long long sum = 0;
    const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
    for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < vectors; i += stride)
        sum += data[i].x ^ data[i].y;
    if (sum == ~0ull) *sink = sum;
}

#if !WAVEFIT_DEVICE_PASS
// Registers this file's reader when the program starts (any file's will do: they are the same code).
static const bool wavefit_cache_flush_reader_registered = [] {
    cache_flush_reader().store(reinterpret_cast<const void*>(&wavefit_read_for_cache_flush), std::memory_order_release);
    return true;
}();
#endif
#endif

}  // namespace detail
WAVEFIT_END_NAMESPACE
