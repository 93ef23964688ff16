// SPDX-License-Identifier: MIT
// How much of the device a valid launch's grid fills: its blocks against the device's resident-block
// slots (blocks per CU/SM at this block size, registers and shared memory, times the CUs/SMs). Not a
// validity rule (find_problems never reports it); `wavefit check` and `wavefit audit` both say it,
// with the one code grid_underfills_device.
#pragma once

#include <cstdint>   // counts
#include <optional>  // a finding, or none

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../diagnostic.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../occupancy.hpp"
#include "arithmetic.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// A grid that leaves at least this share of the slots empty (fills less than 75%) is reported: a
// quarter of the device idle for the whole kernel is worth a look, a few idle slots are not.
inline constexpr double grid_fill_threshold = 0.75;

struct grid_fill {
    std::uint64_t blocks = 0;         // the grid's blocks
    std::uint64_t slots = 0;          // resident blocks per CU/SM x CUs/SMs; 0 when no block fits
    std::uint32_t blocks_per_cu = 0;  // resident blocks of this launch per CU/SM
    constexpr double fraction() const noexcept {
        return slots == 0 ? 0.0 : static_cast<double>(blocks) / static_cast<double>(slots);
    }
};

constexpr grid_fill grid_fill_of(const device_limits& d, const kernel_resources& k, const launch_config& cfg) noexcept {
    grid_fill f;
    f.blocks = cfg.grid.volume();
    f.blocks_per_cu = occupancy(d, k, cfg.block.volume(), cfg.dynamic_shared).active_blocks_per_cu;
    f.slots = saturating_mul(f.blocks_per_cu, d.compute_units);
    return f;
}

// The grid_underfills_device finding of a launch (value: the grid's blocks, limit: the slots), when
// the grid fills less than grid_fill_threshold of the slots. The caller decides that the launch is
// valid (a launch check rejects has worse problems than its fill).
constexpr std::optional<finding> grid_underfill_finding(const device_limits& d, const kernel_resources& k,
                                                        const launch_config& cfg) noexcept {
    const grid_fill f = grid_fill_of(d, k, cfg);
    if (f.slots == 0 || f.blocks == 0 || f.blocks >= f.slots || f.fraction() >= grid_fill_threshold) return std::nullopt;
    return finding{diagnostic_code::grid_underfills_device, -1, true, f.blocks, f.slots};
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
