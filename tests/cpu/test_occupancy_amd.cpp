// SPDX-License-Identifier: MIT
// Specification of the AMD occupancy model: wavefit::occupancy must return what HIP's
// hipOccupancyMaxActiveBlocksPerMultiprocessor returns (ROCm/clr hipamd/src/hip_platform.cpp,
// ihipOccupancyMaxActiveBlocksPerMultiprocessor; docs/device-facts.md §3). The reference below is a literal
// transcription of that function, fed with the device constants clr reads (rocdevice.cpp), written
// here independently of wavefit's device_limits fields.
#include <catch2/catch.hpp>

#include <wavefit/kernel_resources.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "occupancy_reference.hpp"
#include "support.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace occupancy_spec;

// What clr knows about a device: isa().versionMajor(), info().vgprsPerSimd_, vgprAllocGranularity_,
// sgprsPerSimd_ (800 on gfx9, UINT32_MAX on gfx10+), isa().simdPerCU() (2 per CU on gfx10+, doubled
// in WGP mode), localMemSize_, maxWorkGroupSize_; and the kernel's wavefrontSize_.
struct hip_device {
    const char* preset;
    unsigned isa_major;
    std::size_t vgprs_per_simd;
    std::uint32_t vgpr_alloc_granularity;
    std::size_t sgprs_per_simd;
    std::uint32_t simd_per_cu;
    bool wgp_mode;
    std::size_t local_mem_size;
    int max_work_group_size;
    std::size_t wavefront_size;
};

constexpr std::size_t no_sgpr_limit = std::numeric_limits<std::uint32_t>::max();

const hip_device hip_devices[] = {
    {"mi250x", 9, 512, 8, 800, 4, false, 65536, 1024, 64},
    {"mi210", 9, 512, 8, 800, 4, false, 65536, 1024, 64},
    {"mi300x", 9, 512, 8, 800, 4, false, 65536, 1024, 64},
    {"mi300a", 9, 512, 8, 800, 4, false, 65536, 1024, 64},
    {"mi325x", 9, 512, 8, 800, 4, false, 65536, 1024, 64},
    {"mi355x", 9, 512, 8, 800, 4, false, 163840, 1024, 64},
    // gfx1100, wave32, WGP mode (hip-clang's default): 1536 VGPRs per SIMD, granule 24.
    {"rx7900xtx", 11, 1536, 24, no_sgpr_limit, 2, true, 65536, 1024, 32},
};

const hip_device& hip_device_for(const std::string& preset) { return reference_device(hip_devices, preset); }

std::size_t align_up(std::size_t v, std::size_t unit) { return (v + unit - 1) / unit * unit; }

// ihipOccupancyMaxActiveBlocksPerMultiprocessor with bCalcPotentialBlkSz == false, returning
// *maxBlocksPerCU. The VgprWaves == 0 case (clr returns hipErrorUnknown) is reported as 0 blocks:
// no block of that kernel can be resident. HIP ignores the kernel's own launch bound here.
int hip_max_blocks_per_cu(const hip_device& device, int inputBlockSize, std::size_t usedVGPRs, std::size_t usedSGPRs,
                          std::size_t usedLDSSize, std::size_t dynamicSMemSize) {
    const int maxWorkGroupSize = device.max_work_group_size;
    if (inputBlockSize > maxWorkGroupSize) return 0;

    const std::size_t MaxWavesPerSimd = (device.isa_major <= 9) ? 8 : 16;
    const std::size_t wavefrontSize = device.wavefront_size;
    const bool adjust_for_wave64 = device.isa_major >= 10 && wavefrontSize == 64;
    const std::uint32_t VgprGranularity =
        adjust_for_wave64 ? device.vgpr_alloc_granularity >> 1 : device.vgpr_alloc_granularity;
    const std::size_t maxVGPRs = adjust_for_wave64 ? device.vgprs_per_simd >> 1 : device.vgprs_per_simd;
    const std::size_t VgprWaves = usedVGPRs > 0 ? maxVGPRs / align_up(usedVGPRs, VgprGranularity) : MaxWavesPerSimd;
    if (VgprWaves == 0) return 0;

    const std::size_t GprWaves =
        usedSGPRs > 0 ? std::min(VgprWaves, device.sgprs_per_simd / align_up(usedSGPRs, 16)) : VgprWaves;
    const std::uint32_t simdPerCU = device.wgp_mode ? device.simd_per_cu * 2 : device.simd_per_cu;
    const std::size_t alu_occupancy = simdPerCU * std::min(MaxWavesPerSimd, GprWaves);
    const int alu_limited_threads = static_cast<int>(alu_occupancy * wavefrontSize);

    const std::size_t total_used_lds = usedLDSSize + dynamicSMemSize;
    const int lds_occupancy_wgs = total_used_lds != 0 ? static_cast<int>(device.local_mem_size / total_used_lds) : INT_MAX;
    const int aligned_input_size = static_cast<int>(align_up(static_cast<std::size_t>(inputBlockSize), wavefrontSize));
    int maxBlocksPerCU = alu_limited_threads / aligned_input_size;
    maxBlocksPerCU = std::min(maxBlocksPerCU, lds_occupancy_wgs);
    return maxBlocksPerCU;
}

// Waves per block follow from the kernel's wavefront size; a CU holds simds x max waves per SIMD.
reference_waves waves_of(const hip_device& hip) {
    const std::uint32_t simds = hip.wgp_mode ? hip.simd_per_cu * 2 : hip.simd_per_cu;
    return {hip.wavefront_size, simds * (hip.isa_major <= 9 ? 8u : 16u)};
}

void compare(const wavefit::device_limits& d, const hip_device& hip, const kernel_resources& k, std::uint64_t dynamic,
             std::uint64_t block, sweep_tally& tally) {
    const int expected = hip_max_blocks_per_cu(hip, static_cast<int>(block), k.registers, k.scalar_registers,
                                               static_cast<std::size_t>(k.static_shared), static_cast<std::size_t>(dynamic));
    compare_with_reference(d, k, dynamic, block, expected, waves_of(hip), tally);
}

// The exhaustive comparison for one preset:
//  (a) every register count 0..max (512 on gfx9; 256 on gfx1100, see the deliberate difference below)
//      x every SGPR count in {0, 16, 32, ..., 112} x every block size 1..1024, without LDS;
//  (b) every static/dynamic LDS pair of {0, 1, 4096, 16384, 32768, 65536, 65537 (+163840, 163841 on
//      gfx950)} x every block size 1..1024 x register counts at granule edges x SGPRs {0, 112}.
void sweep_preset(const std::string& key) {
    const wavefit::device_limits& d = presets::by_name(key);
    const hip_device hip = hip_device_for(key);
    INFO("preset " << key << " (" << wavefit::to_string(d) << ")");
    const std::uint32_t max_registers = hip.isa_major >= 10 ? 256 : 512;

    sweep_tally regs_sweep;
    kernel_resources k{};
    for (std::uint32_t sgprs : {0u, 16u, 32u, 48u, 64u, 80u, 96u, 112u}) {
        k.scalar_registers = sgprs;
        for (std::uint32_t regs = 0; regs <= max_registers; ++regs) {
            k.registers = regs;
            for (std::uint64_t block = 1; block <= 1024; ++block) compare(d, hip, k, 0, block, regs_sweep);
        }
    }
    require_agreement("registers x SGPRs x block sizes", regs_sweep);

    std::vector<std::uint64_t> lds_sizes{0, 1, 4096, 16384, 32768, 65536, 65537};
    if (hip.local_mem_size > 65536) {
        lds_sizes.push_back(hip.local_mem_size);
        lds_sizes.push_back(hip.local_mem_size + 1);
    }
    std::vector<std::uint32_t> register_edges{0, 1, 8, 9, 24, 25, 64, 65, 96, 128, 129, 168, 256};
    if (max_registers == 512) register_edges.insert(register_edges.end(), {257, 464, 490, 512});
    sweep_tally lds_sweep;
    for (std::uint64_t static_lds : lds_sizes)
        for (std::uint64_t dynamic_lds : lds_sizes)
            for (std::uint32_t regs : register_edges)
                for (std::uint32_t sgprs : {0u, 112u}) {
                    k = kernel_resources{};
                    k.registers = regs;
                    k.scalar_registers = sgprs;
                    k.static_shared = static_lds;
                    for (std::uint64_t block = 1; block <= 1024; ++block) compare(d, hip, k, dynamic_lds, block, lds_sweep);
                }
    require_agreement("static x dynamic LDS x block sizes", lds_sweep);
}

}  // namespace

TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI250X",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi250x");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI210",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi210");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI300X",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi300x");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI300A",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi300a");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI325X",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi325x");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on MI355X",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("mi355x");
}
TEST_CASE("AMD occupancy equals HIP's formula for every register, SGPR, LDS and block size on RX 7900 XTX",
          "[occupancy][amd][exhaustive]") {
    sweep_preset("rx7900xtx");
}

TEST_CASE("a block above the device's 1024 threads gets 0 blocks on AMD, as in HIP", "[occupancy][amd]") {
    for (const char* key : {"mi250x", "mi300x", "mi355x", "rx7900xtx"}) {
        const hip_device hip = hip_device_for(key);
        for (std::uint64_t block : {1025u, 2048u, 65536u}) {
            const wavefit::occupancy_report r = occupancy(presets::by_name(key), kernel_resources{}, block);
            CAPTURE(key, block, r.active_blocks_per_cu);
            REQUIRE(hip_max_blocks_per_cu(hip, static_cast<int>(block), 0, 0, 0, 0) == 0);
            REQUIRE(r.active_blocks_per_cu == 0);
            REQUIRE(r.limited_by == limiter::block_size);
        }
    }
}

TEST_CASE("deliberate difference: a block above the kernel's own bound gets 0 blocks, where HIP's API ignores the bound",
          "[occupancy][amd]") {
    // hipOccupancyMaxActiveBlocksPerMultiprocessor compares the block only with the device's
    // maxWorkGroupSize, so for a __launch_bounds__(256) kernel it happily reports 4 blocks of 512
    // threads, a launch that then fails. wavefit reports that the block cannot run at all.
    const kernel_resources k = spec::with_bound(256);
    const wavefit::occupancy_report r = occupancy(presets::detail::mi300x, k, 512);
    const int hip = hip_max_blocks_per_cu(hip_device_for("mi300x"), 512, 0, 0, 0, 0);
    CAPTURE(hip, r.active_blocks_per_cu);
    REQUIRE(hip == 4);
    REQUIRE(r.active_blocks_per_cu == 0);
    REQUIRE(r.limited_by == limiter::block_size);
    REQUIRE_FALSE(r.fits());
    // At the bound itself both agree.
    REQUIRE(occupancy(presets::detail::mi300x, k, 256).active_blocks_per_cu == 8);
    REQUIRE(hip_max_blocks_per_cu(hip_device_for("mi300x"), 256, 0, 0, 0, 0) == 8);
}

TEST_CASE(
    "deliberate difference: more than 256 VGPRs per thread cannot run on gfx1100, where HIP's formula still counts waves",
    "[occupancy][amd]") {
    // RDNA3 addresses at most 256 VGPRs per lane (v0..v255); a code object claiming 257 or more is
    // not for this GPU. HIP's formula would still divide 1536 by the aligned count: 257 and 256 both
    // round to 264, and 1536 / 264 = 5 waves per SIMD.
    kernel_resources k = spec::with_registers(257);
    const wavefit::occupancy_report r = occupancy(presets::detail::rx7900xtx, k, 32);
    const int hip = hip_max_blocks_per_cu(hip_device_for("rx7900xtx"), 32, 257, 0, 0, 0);
    CAPTURE(hip, r.active_blocks_per_cu, r.limits.registers);
    REQUIRE(hip == 20);  // 4 SIMDs x 5 waves of one wave each
    REQUIRE(r.active_blocks_per_cu == 0);
    REQUIRE(r.limited_by == limiter::registers);
    k.registers = 256;
    REQUIRE(occupancy(presets::detail::rx7900xtx, k, 32).active_blocks_per_cu == 20);
    REQUIRE(hip_max_blocks_per_cu(hip_device_for("rx7900xtx"), 32, 256, 0, 0, 0) == 20);
}

TEST_CASE("waves per SIMD equal the compiler's occupancy comment for .vgpr_count on gfx90a and gfx942", "[occupancy][amd]") {
    // docs/device-facts.md §3: hipcc's "; Occupancy:" comment = min(8, 512 / align_up(.vgpr_count, 8)):
    // 52 -> 8, 128 -> 4, 256 -> 2, 464 / 490 / 512 -> 1. One-wave blocks expose waves per SIMD directly.
    struct row {
        std::uint32_t vgpr_count;
        std::uint32_t waves_per_simd;
    };
    const row rows[] = {{52, 8}, {128, 4}, {256, 2}, {464, 1}, {490, 1}, {512, 1}};
    for (const char* key : {"mi250x", "mi300x"}) {
        for (const row& x : rows) {
            const kernel_resources k = spec::with_registers(x.vgpr_count);
            const wavefit::occupancy_report r = occupancy(presets::by_name(key), k, 64);
            CAPTURE(key, x.vgpr_count, x.waves_per_simd, r.active_waves_per_cu, r.occupancy);
            REQUIRE(r.active_waves_per_cu == 4 * x.waves_per_simd);
            REQUIRE(r.active_blocks_per_cu == 4 * x.waves_per_simd);
            REQUIRE(r.occupancy == Approx(x.waves_per_simd / 8.0));
        }
    }
}

TEST_CASE("a 1024-thread block fits with 128 VGPRs and not with 129 or 256 on gfx942", "[occupancy][amd]") {
    // 1024 threads = 16 waves = 4 per SIMD; 512 / 128 = 4 waves per SIMD fit, 512 / 136 = 3 do not.
    kernel_resources k = spec::with_registers(128);
    const wavefit::occupancy_report fits = occupancy(presets::detail::mi300x, k, 1024);
    CAPTURE(fits.active_blocks_per_cu, fits.limits.registers);
    REQUIRE(fits.active_blocks_per_cu == 1);
    for (std::uint32_t regs : {129u, 256u}) {
        k.registers = regs;
        const wavefit::occupancy_report r = occupancy(presets::detail::mi300x, k, 1024);
        CAPTURE(regs, r.active_blocks_per_cu, r.limits.registers);
        REQUIRE(r.active_blocks_per_cu == 0);
        REQUIRE(r.limited_by == limiter::registers);
        REQUIRE_FALSE(r.fits());
    }
    REQUIRE(wavefit::detail::max_registers_for_block(presets::detail::mi300x, 1024) == 128);
    REQUIRE(wavefit::detail::max_registers_for_block(presets::detail::mi300x, 512) == 256);
    REQUIRE(wavefit::detail::max_registers_for_block(presets::detail::mi300x, 256) == 512);
}

TEST_CASE("kokkos#9402: 132 VGPRs on MI300A allow blocks of 768 threads, not 1024", "[occupancy][amd]") {
    // The kernel in kokkos/kokkos#9402 was compiled for the default bound of 1024 (128 VGPRs) and
    // missed it "by a margin of 4 registers" (132); Kokkos then picked block 1024 for nwork in
    // [116737, 466943] and the dispatch aborted with HSA_STATUS_ERROR_INVALID_ISA, while 512 ran.
    // align_up(132, 8) = 136: 512 / 136 = 3 waves per SIMD, 12 per CU
    const kernel_resources k = spec::with_registers(132);
    const wavefit::occupancy_report at_1024 = occupancy(presets::detail::mi300a, k, 1024);
    const wavefit::occupancy_report at_512 = occupancy(presets::detail::mi300a, k, 512);
    CAPTURE(at_1024.active_blocks_per_cu, at_1024.limits.registers, at_512.active_blocks_per_cu);
    REQUIRE(at_1024.active_blocks_per_cu == 0);
    REQUIRE(at_1024.limited_by == limiter::registers);
    REQUIRE(at_512.active_blocks_per_cu == 1);
    REQUIRE(at_512.limited_by == limiter::registers);
    REQUIRE(wavefit::detail::largest_runnable_block(presets::detail::mi300a, k) == 768);
}

TEST_CASE("the limiter names the resource that bounds residency, waves first on a tie", "[occupancy][amd]") {
    const wavefit::device_limits& d = presets::detail::mi300x;
    // what, VGPRs, SGPRs, static LDS, dynamic LDS, block: blocks per CU, limiter
    const expected_residency rows[] = {
        {"nothing but wave slots", 0, 0, 0, 0, 256, 8, limiter::waves},
        {"64 VGPRs give exactly 8 waves per SIMD: tie with the slots", 64, 0, 0, 0, 256, 8, limiter::waves},
        {"128 VGPRs: 4 waves per SIMD", 128, 0, 0, 0, 256, 4, limiter::registers},
        {"112 SGPRs: 800 / 112 = 7 waves per SIMD", 64, 112, 0, 0, 64, 28, limiter::scalar_registers},
        {"72 VGPRs and 112 SGPRs both give 7: registers before SGPRs", 72, 112, 0, 0, 64, 28, limiter::registers},
        {"16 KiB of LDS: 4 blocks", 0, 0, 16384, 0, 64, 4, limiter::shared_memory},
        {"16 KiB of LDS and 8-wave blocks: 4 each, slots first", 0, 0, 16384, 0, 512, 4, limiter::waves},
        {"128 VGPRs and 16 KiB at block 256: 4 each, registers before LDS", 128, 0, 16384, 0, 256, 4, limiter::registers},
    };
    for (const expected_residency& x : rows) require_residency(d, x);
    // A block that cannot run at all names block_size.
    for (std::uint64_t block : {0u, 1025u}) {
        const wavefit::occupancy_report r = occupancy(d, kernel_resources{}, block);
        CAPTURE(block);
        REQUIRE(r.active_blocks_per_cu == 0);
        REQUIRE(r.limited_by == limiter::block_size);
    }
    // AMD has no hardware block-slot limit in HIP's model: 64-thread blocks reach 32 per CU.
    REQUIRE(occupancy(d, kernel_resources{}, 64).active_blocks_per_cu == 32);
    REQUIRE(occupancy(d, kernel_resources{}, 64).limits.blocks == wavefit::detail::block_limits::unlimited);
}

TEST_CASE("SGPRs never limit on gfx1100", "[occupancy][amd]") {
    kernel_resources k{};
    k.scalar_registers = 112;
    const wavefit::occupancy_report r = occupancy(presets::detail::rx7900xtx, k, 32);
    CAPTURE(r.active_blocks_per_cu, r.limits.scalar_registers);
    REQUIRE(r.limits.scalar_registers == wavefit::detail::block_limits::unlimited);
    REQUIRE(r.active_blocks_per_cu == 64);  // 4 SIMDs x 16 waves
}

TEST_CASE("the occupancy ratio is resident waves over 32 on gfx9 and over 64 on gfx1100", "[occupancy][amd]") {
    struct row {
        const char* what;
        const wavefit::device_limits* d;
        std::uint32_t registers;
        std::uint32_t max_waves_per_cu;
        std::uint32_t waves_per_cu;
    };
    const row rows[] = {
        {"gfx942: 512 / 96 = 5 waves per SIMD = 20 per CU", &presets::detail::mi300x, 96, 32, 20},
        {"gfx1100: align_up(128, 24) = 144, 1536 / 144 = 10 waves per SIMD = 40 per WGP", &presets::detail::rx7900xtx, 128,
         64, 40},
    };
    for (const row& x : rows) {
        const wavefit::occupancy_report r = occupancy(*x.d, spec::with_registers(x.registers), 256);
        CAPTURE(x.what, r.active_blocks_per_cu, r.active_waves_per_cu, r.max_waves_per_cu, r.occupancy);
        REQUIRE(r.max_waves_per_cu == x.max_waves_per_cu);
        REQUIRE(r.active_blocks_per_cu == 5);
        REQUIRE(r.active_waves_per_cu == x.waves_per_cu);
        REQUIRE(r.occupancy == Approx(static_cast<double>(x.waves_per_cu) / x.max_waves_per_cu));
    }
}

TEST_CASE("LDS is divided by the exact byte count, as HIP does, not by 512-byte granules", "[occupancy][amd]") {
    // AMDGPUUsage allocates LDS in 512-byte granules on GFX7-GFX10; HIP's formula divides by the
    // exact size (docs/device-facts.md §3). 21845 bytes: 65536 / 21845 = 3 blocks (22016 bytes rounded would give 2).
    const kernel_resources k = spec::with_static_shared(21845);
    const wavefit::occupancy_report r = occupancy(presets::detail::mi300x, k, 64);
    CAPTURE(r.active_blocks_per_cu, r.limits.shared_memory);
    REQUIRE(r.active_blocks_per_cu == 3);
    REQUIRE(r.limited_by == limiter::shared_memory);
    REQUIRE(hip_max_blocks_per_cu(hip_device_for("mi300x"), 64, 0, 0, 21845, 0) == 3);
}

TEST_CASE("AMD occupancy is a constant expression", "[occupancy][amd]") {
    static_assert(occupancy(presets::detail::mi300x, kernel_resources{}, 256).active_blocks_per_cu == 8,
                  "8 blocks of 4 waves");
    static_assert(occupancy(presets::detail::mi300x, kernel_resources{}, 1024).active_waves_per_cu == 32,
                  "2 blocks of 16 waves");
    SUCCEED();
}
