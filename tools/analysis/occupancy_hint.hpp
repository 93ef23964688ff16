// SPDX-License-Identifier: MIT
// What to reduce for one more wave per SIMD: the one place that turns an occupancy report into
// "registers 96 -> 80 gives 6 waves per SIMD instead of 5". `occupancy`, `inspect` and `audit` all
// print this, so the advice reads the same wherever a kernel is looked at.
#pragma once

#include <cstdint>  // counts
#include <string>   // the hint text

#include <wavefit/occupancy.hpp>

namespace wavefit::analysis {

struct occupancy_hint {
    occupancy_report::limiter resource = occupancy_report::limiter::waves;  // what to reduce: registers, scalar_registers or shared_memory
    std::uint64_t from = 0;             // the kernel's value now (registers per thread, SGPRs, bytes per block)
    std::uint64_t to = 0;               // the largest value that reaches `better`
    occupancy_report now;
    occupancy_report better;
    std::string text;  // "registers 96 -> 80 gives 6 waves per SIMD instead of 5"

    bool found() const noexcept { return !text.empty(); }
};

// The smallest change to the limiting resource that raises residency at this block size, or no
// hint (found() false) when the limiter is not a kernel resource (waves, blocks, block size), no
// block can be resident at all, or no reduction helps. Registers are scanned downwards one by one,
// from the most a thread may have (at most 65536 steps, each O(1)).
occupancy_hint hint_for_more_waves(const device_limits& d, const kernel_resources& k, std::uint64_t block_threads,
                                   std::uint64_t dynamic_shared = 0);

}  // namespace wavefit::analysis
