// SPDX-License-Identifier: MIT
// What the AMD and NVIDIA occupancy specifications share: their vocabulary, the lookup of a vendor's
// device constants by preset name, the comparison of wavefit::occupancy with a vendor's formula over
// exhaustive sweeps (counting disagreements and keeping the first one for the failure message), and
// tables of expected residency. The vendor formulas themselves stay in each specification.
#pragma once

#include <catch2/catch.hpp>

#include <wavefit/device_limits.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

namespace occupancy_spec {

using wavefit::kernel_resources;
using wavefit::occupancy;
using limiter = wavefit::occupancy_report::limiter;
namespace presets = wavefit::presets;

// The entry of `devices` (each names its preset in `.preset`) for a preset; fails the test without one.
template <class Device, std::size_t N>
const Device& reference_device(const Device (&devices)[N], const std::string& preset) {
    for (const Device& d : devices)
        if (preset == d.preset) return d;
    FAIL("no vendor device constants for preset " << preset);
    return devices[0];
}

// A vendor's wave geometry, written by each specification from the vendor's own constants.
struct reference_waves {
    std::uint64_t threads_per_wave;
    std::uint64_t slots_per_cu;  // waves a CU/SM can hold: the occupancy ratio's denominator
};

// One configuration of a sweep: the kernel and launch, the vendor formula's blocks per CU/SM and wavefit's report.
struct sweep_case {
    kernel_resources kernel;
    std::uint64_t dynamic_shared = 0;
    std::uint64_t block = 0;
    int reference_blocks = 0;
    wavefit::occupancy_report report;
};

inline std::ostream& operator<<(std::ostream& out, const sweep_case& c) {
    return out << "registers " << c.kernel.registers << ", SGPRs " << c.kernel.scalar_registers << ", static shared "
               << c.kernel.static_shared << ", dynamic shared " << c.dynamic_shared << ", block " << c.block
               << ": vendor formula " << c.reference_blocks << " blocks, wavefit " << c.report.active_blocks_per_cu
               << " blocks, " << c.report.active_waves_per_cu << " waves, occupancy " << c.report.occupancy;
}

// How many configurations a sweep compared, and for blocks and for waves (with the occupancy ratio) how many
// disagreed with the vendor formula and the first that did.
struct sweep_tally {
    std::uint64_t compared = 0;
    std::uint64_t block_mismatches = 0;
    std::uint64_t wave_mismatches = 0;
    sweep_case first_block_mismatch;
    sweep_case first_wave_mismatch;
};

// Compares wavefit's occupancy of one configuration with `reference_blocks`, the vendor formula's blocks per
// CU/SM. Waves follow from blocks: each block occupies ceil(block / threads per wave) waves, and the ratio is
// over the CU's wave slots.
inline void compare_with_reference(const wavefit::device_limits& d, const kernel_resources& k, std::uint64_t dynamic,
                                   std::uint64_t block, int reference_blocks, const reference_waves& waves,
                                   sweep_tally& tally) {
    const sweep_case c{k, dynamic, block, reference_blocks, occupancy(d, k, block, dynamic)};
    ++tally.compared;
    if (static_cast<std::int64_t>(c.report.active_blocks_per_cu) != reference_blocks && tally.block_mismatches++ == 0)
        tally.first_block_mismatch = c;
    const std::uint64_t waves_per_block = (block + waves.threads_per_wave - 1) / waves.threads_per_wave;
    const std::uint64_t expected_waves = static_cast<std::uint64_t>(std::max(reference_blocks, 0)) * waves_per_block;
    const double expected_occupancy = static_cast<double>(expected_waves) / static_cast<double>(waves.slots_per_cu);
    if ((c.report.active_waves_per_cu != expected_waves || c.report.occupancy != expected_occupancy) &&
        tally.wave_mismatches++ == 0)
        tally.first_wave_mismatch = c;
}

// Every configuration of the sweep agreed with the vendor formula; otherwise the first that did not, with its inputs.
inline void require_agreement(const char* sweep, const sweep_tally& tally) {
    INFO(sweep << ": compared " << tally.compared << " configurations");
    {
        INFO("first blocks mismatch: " << tally.first_block_mismatch);
        CHECK(tally.block_mismatches == 0);
    }
    {
        INFO("first waves mismatch: " << tally.first_wave_mismatch);
        CHECK(tally.wave_mismatches == 0);
    }
    REQUIRE(tally.compared > 0);
}

// A kernel and launch, and the residency occupancy() must report for them.
struct expected_residency {
    const char* what;
    std::uint32_t registers;
    std::uint32_t scalar_registers;
    std::uint64_t static_shared;
    std::uint64_t dynamic_shared;
    std::uint64_t block;
    std::uint32_t blocks_per_cu;
    limiter limited_by;
};

// occupancy() of the row's kernel and launch on `d`, required to give the row's blocks, limited by its limiter.
inline wavefit::occupancy_report require_residency(const wavefit::device_limits& d, const expected_residency& x) {
    kernel_resources k{};
    k.registers = x.registers;
    k.scalar_registers = x.scalar_registers;
    k.static_shared = x.static_shared;
    const wavefit::occupancy_report r = occupancy(d, k, x.block, x.dynamic_shared);
    CAPTURE(x.what, x.registers, x.scalar_registers, x.static_shared, x.dynamic_shared, x.block, r.active_blocks_per_cu,
            wavefit::to_string(r.limited_by));
    REQUIRE(r.active_blocks_per_cu == x.blocks_per_cu);
    REQUIRE(r.limited_by == x.limited_by);
    return r;
}

}  // namespace occupancy_spec
