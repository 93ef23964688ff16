// SPDX-License-Identifier: MIT
// Every kernel of the GPU test suite, defined once in kernels.hip (launched from the test files
// through their host stubs), and the list of them that the occupancy and attribute specs walk.
#pragma once

#include <cstdint>     // element and size types
#include <functional>  // the per-kernel model
#include <string>      // names
#include <vector>      // the list

#include "gpu_support/gpu_support.hpp"

#include <wavefit/wavefit.hpp>

// Adds 1 to every element of [0, n) with wavefit::grid_stride: a missed index stays at the poison
// value, a doubly visited one ends 2 above it.
__global__ void increment_u8(std::uint8_t* data, std::uint64_t n);
__global__ void count_visits(std::uint32_t* visits, std::uint64_t n);
// The same over [first, last), with grid_stride(first, last).
__global__ void count_visits_range(std::uint32_t* visits, std::uint64_t first, std::uint64_t last);
// A width x height extent, row-major, with grid_stride_axis<0> and <1>.
__global__ void count_visits_2d(std::uint32_t* visits, std::uint64_t width, std::uint64_t height);
// One unit per block with wavefit::block_stride: every thread of the block adds 1 to its slot of the
// unit (visits[unit * slots + threadIdx.x % slots]), so a unit visited by no block, by two, or by a
// partial block shows.
inline constexpr std::uint64_t block_visit_slots = 32;
__global__ void count_block_visits(std::uint32_t* visits, std::uint64_t units);
// count_visits under __launch_bounds__(256).
__global__ void count_visits_bounded_256(std::uint32_t* visits, std::uint64_t n);

// Keeps many floats live across a loop whose trip count is only known at run time, so the compiler
// needs (about) all 255 registers NVIDIA allows per thread. `in`/`out` hold 1024 x heavy_values
// floats; `rounds` 0 or more.
inline constexpr int heavy_values = 256;
__global__ void register_heavy(const float* in, float* out, int rounds);

// Fills `words` 32-bit words of dynamic shared memory with a per-block pattern, then every thread
// checks words other threads wrote; out[global thread] = mismatches seen (0 when shared memory works).
__global__ void shared_roundtrip(std::uint32_t* out, std::uint32_t words);
// The same kernel body, kept separate so the opt-in spec can launch it raw before wavefit touches it.
__global__ void shared_roundtrip_fresh(std::uint32_t* out, std::uint32_t words);
// The same, for the spec that lowers its opt-in behind wavefit's back.
__global__ void shared_roundtrip_stale(std::uint32_t* out, std::uint32_t words);
// 40000 bytes of static shared memory (occupancy limited by shared memory).
inline constexpr std::uint32_t static_shared_words = 10000;
__global__ void static_shared_40000(std::uint32_t* out);

// y[i] = a * x[i] + y[i]; the argument-conversion spec passes a float* to `x`.
__global__ void axpy(float a, const float* x, float* y, std::uint64_t n);
// Writes its arguments back: out[0] = a, out[1] = b, out[2] = c * 2 (as integers).
__global__ void echo_widened(std::int64_t* out, std::int64_t a, std::uint64_t b, double c);

// Does nothing: planned launches of any size, for comparing configurations.
__global__ void noop_elements(std::uint64_t n);
__global__ void noop_extent(std::uint64_t width, std::uint64_t height);

// Eight distinct kernels (one per tag) that only the concurrency spec launches: out[i] = tag + 1.
inline constexpr int tagged_kernel_count = 8;
using tagged_kernel_type = void (*)(std::uint32_t*, std::uint64_t);
tagged_kernel_type tagged_fill(int tag);

// One kernel of the suite as the occupancy and attribute specs see it.
struct suite_kernel {
    std::string name;
    const void* address;
    // wavefit's model for this kernel on the current device: wavefit::occupancy(kernel, block, dynamic).
    std::function<wavefit::occupancy_report(std::uint64_t, std::uint64_t)> model;
    // wavefit::kernel_resources_for(kernel).
    std::function<wavefit::kernel_resources()> resources;
};
const std::vector<suite_kernel>& suite_kernels();
