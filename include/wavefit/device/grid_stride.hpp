// SPDX-License-Identifier: MIT
// Grid-stride ranges for kernels: `for (auto i : wavefit::grid_stride(n))` visits every index of
// [0, n) exactly once across the whole grid, whatever grid the launch used. Planned launches clamp
// the grid where the device cannot hold one thread per element (2^32-1 work-items per dimension on
// AMD), so kernels launched with an element count iterate with these. Indices are 64-bit and the
// stride never wraps past the end.
#pragma once

#include <cstdint>  // std::uint64_t

#include "../config.hpp"
#include "../platform.hpp"
#include "wave.hpp"

#if !(WAVEFIT_DEVICE_COMPILER || WAVEFIT_PLATFORM_HIP)
#error "wavefit/device/grid_stride.hpp is for HIP or CUDA device code"
#endif

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// What grid_stride and its relatives return: a range of indices [first, last) stepping by `stride`,
// starting at `start`.
class grid_stride_range {
public:
    class iterator {
    public:
        __host__ __device__ constexpr iterator(std::uint64_t at, std::uint64_t stride, std::uint64_t last) noexcept
            : at_(at), stride_(stride), last_(last) {}
        __host__ __device__ constexpr std::uint64_t operator*() const noexcept { return at_; }
        __host__ __device__ constexpr iterator& operator++() noexcept {
            // Step to the end instead of past it: at_ + stride_ could wrap near 2^64.
            at_ = last_ - at_ <= stride_ ? last_ : at_ + stride_;
            return *this;
        }
        // Range-for compares with end(): any position at or past the end is the end.
        __host__ __device__ constexpr bool operator!=(const iterator& end) const noexcept { return at_ < end.at_; }

    private:
        std::uint64_t at_;
        std::uint64_t stride_;
        std::uint64_t last_;
    };

    __host__ __device__ constexpr grid_stride_range(std::uint64_t start, std::uint64_t last, std::uint64_t stride) noexcept
        : start_(start < last ? start : last), last_(last), stride_(stride == 0 ? 1 : stride) {}
    __host__ __device__ constexpr iterator begin() const noexcept { return {start_, stride_, last_}; }
    __host__ __device__ constexpr iterator end() const noexcept { return {last_, stride_, last_}; }

private:
    std::uint64_t start_;
    std::uint64_t last_;
    std::uint64_t stride_;
};

// This thread's linear index in the whole launch and the launch's total thread count, over all
// three grid and block dimensions (so folded or 2-D launches are covered too).
__device__ inline std::uint64_t global_thread_index() noexcept {
    const std::uint64_t block = (std::uint64_t{blockIdx.z} * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const std::uint64_t threads_per_block = std::uint64_t{blockDim.x} * blockDim.y * blockDim.z;
    const std::uint64_t thread = (std::uint64_t{threadIdx.z} * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    return block * threads_per_block + thread;
}

__device__ inline std::uint64_t global_thread_count() noexcept {
    return std::uint64_t{gridDim.x} * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
}

}  // namespace detail

// Every index of [0, n) once across the grid.
__device__ inline detail::grid_stride_range grid_stride(std::uint64_t n) noexcept {
    return {detail::global_thread_index(), n, detail::global_thread_count()};
}

// Every index of [first, last) once across the grid.
__device__ inline detail::grid_stride_range grid_stride(std::uint64_t first, std::uint64_t last) noexcept {
    const std::uint64_t index = detail::global_thread_index();
    const std::uint64_t start = last - first <= index ? last : first + index;
    return {start, last, detail::global_thread_count()};
}

// Every unit of [0, units) once across the grid's blocks, for work::per_block launches (a row, a tile
// or a head per block): `for (auto row : wavefit::block_stride(rows))`. Every thread of a block sees the
// same units, so the block works on each together; a grid clamped below the unit count (2^31-1 blocks
// in x on NVIDIA) still covers them all.
__device__ inline detail::grid_stride_range block_stride(std::uint64_t units) noexcept {
    const std::uint64_t block = (std::uint64_t{blockIdx.z} * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    return {block, units, std::uint64_t{gridDim.x} * gridDim.y * gridDim.z};
}

// Every unit of [0, units) once across the grid's groups of `lanes` consecutive threads, for
// work::per_group(units, lanes).kernel_loops() launches: `for (auto row : wavefit::wave_stride(rows, 32))`.
// Every lane of a group sees the same units, so the group works on each together; the block holds
// whole groups (the contract's blocks are multiples of the group).
__device__ inline detail::grid_stride_range wave_stride(std::uint64_t units, unsigned lanes) noexcept {
    const std::uint64_t group = lanes == 0 ? 1 : lanes;
    return {detail::global_thread_index() / group, units, detail::global_thread_count() / group};
}

// The same with one unit per wave (work::per_wave(units).kernel_loops()): 64 lanes on gfx9, 32 on
// NVIDIA and RDNA.
__device__ inline detail::grid_stride_range wave_stride(std::uint64_t units) noexcept {
    return wave_stride(units, wave_size());
}

// Indices [0, n) along one axis of a 2-D/3-D launch (0 = x, 1 = y, 2 = z): a clamped axis of an
// extent plan is covered by striding along it.
template <int Axis>
__device__ inline detail::grid_stride_range grid_stride_axis(std::uint64_t n) noexcept {
    static_assert(Axis >= 0 && Axis <= 2, "wavefit::grid_stride_axis: axis is 0 (x), 1 (y) or 2 (z)");
    if constexpr (Axis == 0) {
        return {std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x, n, std::uint64_t{gridDim.x} * blockDim.x};
    } else if constexpr (Axis == 1) {
        return {std::uint64_t{blockIdx.y} * blockDim.y + threadIdx.y, n, std::uint64_t{gridDim.y} * blockDim.y};
    } else {
        return {std::uint64_t{blockIdx.z} * blockDim.z + threadIdx.z, n, std::uint64_t{gridDim.z} * blockDim.z};
    }
}

WAVEFIT_END_NAMESPACE
