// SPDX-License-Identifier: MIT
// An explicit launch: grid, block and dynamic shared memory. It has no default constructor on
// purpose (a launch without a shape is a bug, not a default), and holds 64-bit sizes so that a
// grid computed from a large element count reaches validation intact.
#pragma once

#include <cstdint>  // std::uint64_t

#include "dims.hpp"

namespace wavefit {

struct launch_config {
    dims grid;
    dims block;
    std::uint64_t dynamic_shared = 0;  // bytes of dynamic shared memory / LDS per block

    constexpr launch_config(dims grid_, dims block_, std::uint64_t dynamic_shared_ = 0) noexcept
        : grid(grid_), block(block_), dynamic_shared(dynamic_shared_) {}

    constexpr std::uint64_t block_threads() const noexcept { return block.volume(); }

    friend constexpr bool operator==(const launch_config& a, const launch_config& b) noexcept {
        return a.grid == b.grid && a.block == b.block && a.dynamic_shared == b.dynamic_shared;
    }
    friend constexpr bool operator!=(const launch_config& a, const launch_config& b) noexcept { return !(a == b); }
};

}  // namespace wavefit
