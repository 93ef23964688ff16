// SPDX-License-Identifier: MIT
// An explicit launch: grid, block and dynamic shared memory. It has no default constructor on
// purpose (a launch without a shape is a bug, not a default), and holds 64-bit sizes so that a
// grid computed from a large element count reaches validation intact. Grid and block take what a
// `<<<grid, block, shared>>>` launch takes (dim3, int, unsigned...): launch_config{dim3(g), 256, bytes}.
#pragma once

#include <cstdint>  // std::uint64_t

#include "config.hpp"
#include "detail/sizes.hpp"
#include "dims.hpp"

WAVEFIT_BEGIN_NAMESPACE

struct launch_config {
    dims grid;
    dims block;
    std::uint64_t dynamic_shared = 0;  // bytes of dynamic shared memory / LDS per block
    bool negative_shared = false;      // made from a negative byte count: refused (negative_size)

    template <class Bytes = std::uint64_t, detail::if_size_type<Bytes> = 0>
    constexpr launch_config(dims grid_, dims block_, Bytes dynamic_shared_ = 0) noexcept : grid(grid_), block(block_) {
        bool below_zero = false;
        dynamic_shared = detail::size_from(dynamic_shared_, below_zero);
        negative_shared = below_zero;
    }

    constexpr std::uint64_t block_threads() const noexcept { return block.volume(); }
    // Whether a grid, block or shared size was given as a negative number.
    constexpr bool has_negative() const noexcept { return grid.negative || block.negative || negative_shared; }

    friend constexpr bool operator==(const launch_config& a, const launch_config& b) noexcept {
        return a.grid == b.grid && a.block == b.block && a.dynamic_shared == b.dynamic_shared &&
               a.negative_shared == b.negative_shared;
    }
    friend constexpr bool operator!=(const launch_config& a, const launch_config& b) noexcept { return !(a == b); }
};

WAVEFIT_END_NAMESPACE
