// SPDX-License-Identifier: MIT
// The launch-relevant limits of one GPU as a plain value. Presets fill it at compile time, the
// runtime layer fills it from hip/cudaDeviceGetAttribute; everything else in wavefit only reads it.
#pragma once

#include <cstdint>      // fixed-width fields
#include <string>       // to_string(device_limits)
#include <string_view>  // to_string(vendor_kind)

#include "config.hpp"
#include "detail/enum_names.hpp"
#include "detail/short_name.hpp"
#include "dims.hpp"

WAVEFIT_BEGIN_NAMESPACE

// Register files are described per SIMD *lane* so that one formula serves both vendors:
// AMD allocates VGPRs per lane in granules (gfx90a/gfx942: 512 per lane, granule 8), and NVIDIA
// allocates regs x 32 rounded to 256 per warp out of 16384 per SM sub-partition, which is the
// same as 512 per lane in granules of 8. "SIMD" below means an AMD SIMD or an NVIDIA SM
// sub-partition (the unit that owns a quarter of the register file and schedules warps).
struct device_limits {
    enum class vendor_kind : std::uint8_t { amd, nvidia };

    detail::short_name name;  // marketing name, e.g. "MI300X", "NVIDIA H200"
    detail::short_name arch;  // ISA name without target features, e.g. "gfx942", "sm_90"
    vendor_kind vendor = vendor_kind::amd;

    // --- launch shape ------------------------------------------------------------------------
    std::uint32_t wave_size = 64;                // wavefront / warp width in threads
    std::uint32_t max_threads_per_block = 1024;  // block volume limit
    dims max_block{1024, 1024, 1024};            // per-dimension block limits
    dims max_grid{2147483647, 65535, 65535};     // per-dimension grid limits, in blocks
    // AMD's HSA dispatch packet stores the grid in work-items as uint32 per dimension, so
    // grid x block must stay <= 2^32-1 in each dimension. 0 means the device has no such limit.
    std::uint64_t max_work_items_per_dimension = 0;
    std::uint32_t compute_units = 0;  // CUs / SMs as the runtime reports multiProcessorCount

    // --- shared memory / LDS (bytes) ---------------------------------------------------------
    std::uint64_t shared_per_block = 0;           // usable without any opt-in
    std::uint64_t shared_per_block_optin = 0;     // usable after opting in; == shared_per_block where no opt-in exists
    std::uint64_t shared_per_cu = 0;              // what all resident blocks of one CU/SM share
    std::uint32_t shared_reserved_per_block = 0;  // NVIDIA sm_80+: 1 KiB the driver reserves per block
    std::uint32_t shared_allocation_unit = 1;     // allocation granularity per block (NVIDIA: 128)

    // --- residency ---------------------------------------------------------------------------
    std::uint32_t simds_per_cu = 4;        // AMD SIMDs per CU (per WGP in WGP mode); NVIDIA sub-partitions per SM
    std::uint32_t max_waves_per_simd = 8;  // resident waves per SIMD (gfx9: 8, gfx10+: 16, NVIDIA: 16)
    std::uint32_t max_blocks_per_cu = 0;   // hardware block slots; 0 = not limited (HIP models none)

    // --- registers ---------------------------------------------------------------------------
    std::uint32_t registers_per_simd_lane = 0;    // vector registers each lane of a SIMD owns
    std::uint32_t register_granule = 1;           // per-thread allocation granule
    std::uint32_t max_registers_per_thread = 0;   // 0 = not limited
    std::uint32_t max_registers_per_block = 0;    // NVIDIA: 65536 (checked with warps rounded to sub-partitions); 0 = none
    std::uint32_t scalar_registers_per_simd = 0;  // AMD gfx9 SGPR budget (800); 0 = SGPRs never limit
    std::uint32_t scalar_register_granule = 16;

    constexpr bool is_amd() const noexcept { return vendor == vendor_kind::amd; }
    constexpr bool is_nvidia() const noexcept { return vendor == vendor_kind::nvidia; }
    constexpr std::uint64_t max_waves_per_cu() const noexcept { return std::uint64_t{simds_per_cu} * max_waves_per_simd; }
    constexpr std::uint64_t max_threads_per_cu() const noexcept { return max_waves_per_cu() * wave_size; }
    // "wave" on AMD, "warp" on NVIDIA: messages use the word the user's vendor uses.
    constexpr std::string_view wave_word() const noexcept { return is_amd() ? "wave" : "warp"; }
    constexpr std::string_view cu_word() const noexcept { return is_amd() ? "CU" : "SM"; }
    constexpr std::string_view shared_word() const noexcept { return is_amd() ? "LDS" : "shared memory"; }
};

// "amd" or "nvidia".
constexpr std::string_view to_string(device_limits::vendor_kind v) noexcept {
    constexpr std::string_view names[] = {"amd", "nvidia"};
    return detail::enum_name(names, v);
}

// "MI300X (gfx942)": how messages name a device.
inline std::string to_string(const device_limits& d) {
    std::string text(d.name.view());
    if (!d.arch.empty()) {
        if (!text.empty()) text += " (";
        text += d.arch.view();
        if (!d.name.empty()) text += ")";
    }
    return text.empty() ? std::string("unnamed device") : text;
}

namespace detail {

// Planning scans block sizes (up to max_threads_per_block) and register counts (up to
// max_registers_per_thread or registers_per_simd_lane) one by one. No GPU comes near these bounds
// (1024 threads, 512 registers); a larger value is a broken report that would make a scan take
// minutes, so it is refused like a zero (found by fuzz/fuzz_check_plan).
inline constexpr std::uint64_t max_plausible_threads_per_block = 65536;
inline constexpr std::uint64_t max_plausible_registers = 65536;
// The largest value a runtime can report for a grid, block or shared-memory limit (an int), and the
// HSA dispatch packet's work-item field (a uint32).
inline constexpr std::uint64_t max_reported_limit = 4294967295u;

// Why a device_limits value cannot be planned for (a zero wave size, say), or empty when it is
// usable. Presets and the runtime never produce such values; hand-built or fuzzed ones may.
constexpr std::string_view device_limits_problem(const device_limits& d) noexcept {
    if (d.wave_size == 0) return "wave_size is 0";
    if (d.max_threads_per_block == 0) return "max_threads_per_block is 0";
    if (d.max_threads_per_block > max_plausible_threads_per_block) return "max_threads_per_block is above 65536";
    if (d.registers_per_simd_lane > max_plausible_registers || d.max_registers_per_thread > max_plausible_registers)
        return "a register count is above 65536";
    if (d.max_block.has_zero()) return "a max_block dimension is 0";
    if (d.max_grid.has_zero()) return "a max_grid dimension is 0";
    // Both runtimes report these as int, and AMD's dispatch packet holds work-items in 32 bits: a
    // value beyond 2^32-1 is a broken report, and would bring limits near 2^64 where no product of
    // two sizes can be compared exactly in 64 bits.
    for (int a = 0; a < 3; ++a)
        if (d.max_block[a] > max_reported_limit || d.max_grid[a] > max_reported_limit)
            return "a max_block or max_grid dimension is above 2^32-1";
    if (d.max_work_items_per_dimension > max_reported_limit) return "max_work_items_per_dimension is above 2^32-1";
    if (d.shared_per_block > max_reported_limit || d.shared_per_block_optin > max_reported_limit ||
        d.shared_per_cu > max_reported_limit)
        return "a shared memory size is above 2^32-1 bytes";
    // A cap below one block leaves no grid at all (AMD's is 2^32-1).
    if (d.max_work_items_per_dimension != 0 && d.max_work_items_per_dimension < d.max_threads_per_block)
        return "max_work_items_per_dimension is below max_threads_per_block";
    if (d.simds_per_cu == 0) return "simds_per_cu is 0";
    if (d.max_waves_per_simd == 0) return "max_waves_per_simd is 0";
    return {};
}

}  // namespace detail

WAVEFIT_END_NAMESPACE
