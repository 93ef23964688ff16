// SPDX-License-Identifier: MIT
// The configuration a fix names, as numbers: describe() renders it and a property test launches
// every one it can produce through is_launchable. A fix never names a grid and block that check()
// would reject for the same device and kernel: where no configuration can repair the launch (the
// kernel's registers or shared memory fit no block at all) it names none.
#pragma once

#include <cstdint>   // sizes
#include <numeric>   // std::gcd
#include <optional>  // a configuration, or none

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../diagnostic.hpp"
#include "../dims.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../occupancy.hpp"
#include "arithmetic.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// How the kernel maps its work onto the launch, which decides what a fix may change without
// changing what the kernel computes.
//  - thread_per_item: every thread handles the item at blockIdx * blockDim + threadIdx, behind an
//    index guard, or loops over the items with a grid-stride loop. The grid may be rescaled with
//    the block: grid x block (the threads in each dimension) is what must stay the same.
//  - block_per_unit: the kernel takes unit blockIdx.x (a row, a tile): the grid is the unit count
//    and stays; only the block's threads change (capped grids need a block-stride loop).
//  - group_per_unit: a group of `group_threads` threads (a wave, or a CUDA warp of 32 kept as written)
//    takes a unit: the units, not the threads, stay the same, so the grid follows the units per block.
enum class launch_work_shape { thread_per_item, block_per_unit, group_per_unit };

struct launch_fix {
    launch_config config{dims{1}, dims{1}};
    // The grid covers fewer threads than the launch did in some dimension (a device limit caps it):
    // the kernel must loop over the rest (a grid-stride loop). Otherwise grid x block covers at least
    // the launch's threads in every dimension (rounded up to whole blocks).
    bool grid_stride = false;
};

// Sets one axis of a dims (dims has no mutable index operator).
constexpr void set_axis(dims& d, int axis, std::uint64_t value) noexcept {
    if (axis == 0) d.x = value;
    if (axis == 1) d.y = value;
    if (axis == 2) d.z = value;
}

// The block the repaired launch uses: the launch's own, with a 0 made 1 (x: a block of 256, or
// less if the kernel allows less), each dimension within the device's, and the total within
// `largest` (the largest block the device, the kernel's bound, its registers and its shared memory
// allow: largest_runnable_block). With `whole_waves`, x is moved to the nearest value that makes
// the block a whole number of waves, where one exists within the limits.
constexpr dims repaired_block(const device_limits& d, const launch_config& cfg, std::uint64_t largest,
                              bool whole_waves) noexcept {
    dims block = cfg.block;
    for (int a = 0; a < 3; ++a) {
        std::uint64_t b = block[a];
        if (b == 0) b = a == 0 ? min_u64(256, largest) : 1;
        set_axis(block, a, min_u64(b, d.max_block[a]));
    }
    if (block.volume() > largest) {
        if (block.y == 1 && block.z == 1) {
            block.x = largest;
        } else {
            // Halve the largest dimension until the block fits: keeps the block's shape roughly.
            while (block.volume() > largest) {
                const int a = block.x >= block.y && block.x >= block.z ? 0 : block.y >= block.z ? 1 : 2;
                set_axis(block, a, ceil_div(block[a], 2));
            }
        }
    }
    const std::uint64_t wave = d.wave_size;
    const std::uint64_t yz = block.y * block.z;  // both at most the device's block maximum: no overflow
    if (whole_waves && wave > 1 && block.volume() % wave != 0 && yz != 0) {
        const std::uint64_t top = min_u64(d.max_block.x, largest / yz);
        // x * y * z is a whole number of waves exactly when x is a multiple of `step`: the nearest such
        // x within the limits (above on a tie: fewer, fuller blocks).
        const std::uint64_t step = wave / std::gcd(yz, wave);
        const std::uint64_t below = align_down(min_u64(block.x, top), step);
        const std::uint64_t above = align_up(block.x, step);
        const bool can_go_up = above <= top;
        if (can_go_up && (below == 0 || above - block.x <= block.x - below)) {
            block.x = above;
        } else if (below >= 1) {
            block.x = below;
        }
    }
    return block;
}

// The launch repaired as a whole: the block of repaired_block, and a grid that covers the launch's
// threads in every dimension with it, capped where the device's grid or work-item limits require
// (then grid_stride). nullopt when no block of the kernel can run on the device at all.
constexpr std::optional<launch_fix> repaired_launch(const device_limits& d, const kernel_resources& k,
                                                    const launch_config& cfg, launch_work_shape shape,
                                                    std::uint64_t group_threads, bool whole_waves) noexcept {
    const std::uint64_t largest = largest_runnable_block(d, k, cfg.dynamic_shared);
    if (largest == 0) return std::nullopt;
    launch_fix fix;
    fix.config.dynamic_shared = cfg.dynamic_shared;
    fix.config.block = repaired_block(d, cfg, largest, whole_waves);
    const std::uint64_t group = shape == launch_work_shape::group_per_unit ? max_u64(1, group_threads) : 1;
    if (group > 1) {
        // Whole groups per block: x a multiple of the group (1-D blocks are what such kernels use).
        if (fix.config.block.y != 1 || fix.config.block.z != 1 || fix.config.block.x < group) return std::nullopt;
        fix.config.block.x = align_down(fix.config.block.x, group);
    }
    for (int a = 0; a < 3; ++a) {
        const std::uint64_t grid = cfg.grid[a] == 0 ? 1 : cfg.grid[a];
        const std::uint64_t block = fix.config.block[a];
        std::uint64_t want = grid;
        if (shape == launch_work_shape::block_per_unit) {
            // One block per unit: the grid is the unit count whatever the block.
        } else if (a == 0 && group > 1) {
            // The same units: grid x (block / group) before and after.
            const std::uint64_t units_before = saturating_mul(grid, max_u64(1, cfg.block.x / group));
            want = ceil_div(units_before, block / group);
        } else if (cfg.block[a] != 0) {
            if (product_exceeds(grid, cfg.block[a], u64_max)) {
                want = u64_max;  // more threads than 64 bits count: capped below, so the kernel loops
            } else {
                want = ceil_div(grid * cfg.block[a], block);
            }
        }
        std::uint64_t cap = d.max_grid[a];
        if (d.max_work_items_per_dimension != 0) cap = min_u64(cap, d.max_work_items_per_dimension / block);
        if (want > cap) {
            want = cap;
            fix.grid_stride = true;
        }
        set_axis(fix.config.grid, a, max_u64(want, 1));
    }
    return fix;
}

// The configuration the fix of finding `f` names, for launching `k` with `cfg` on `d`; nullopt where
// the fix names none: the kernel itself must change (registers per thread above the device's
// maximum, shared memory above what a block may use, no block that fits at all), or nothing is
// wrong with the configuration (the shared memory opt-in is a call, not a configuration).
constexpr std::optional<launch_fix> fix_config(const device_limits& d, const kernel_resources& k,
                                               const launch_config& cfg, const finding& f,
                                               launch_work_shape shape = launch_work_shape::thread_per_item,
                                               std::uint64_t group_threads = 0) noexcept {
    switch (f.code) {
        case diagnostic_code::shared_memory_exceeds_limit:
        case diagnostic_code::shared_memory_requires_opt_in:
        case diagnostic_code::negative_size:
        case diagnostic_code::contract_allows_no_block: return std::nullopt;
        case diagnostic_code::registers_exceed_limit:
            if (!f.scalar && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread)
                return std::nullopt;
            return repaired_launch(d, k, cfg, shape, group_threads, false);
        case diagnostic_code::block_not_wave_multiple: return repaired_launch(d, k, cfg, shape, group_threads, true);
        default: return repaired_launch(d, k, cfg, shape, group_threads, false);
    }
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
