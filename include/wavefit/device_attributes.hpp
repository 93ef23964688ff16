// SPDX-License-Identifier: MIT
// Turning what a runtime reports about a device into device_limits. The runtime layer reads each
// attribute with hip/cudaDeviceGetAttribute; this header holds the mapping and the per-ISA facts
// the runtimes do not report (wave slots per SIMD, register files, SGPR budgets), so the mapping is
// pure, shared by HIP and CUDA, and testable on a CPU with recorded attribute values.
#pragma once

#include <cstddef>      // the count
#include <cstdint>      // fixed-width values
#include <string_view>  // architecture names

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/ascii.hpp"
#include "device_limits.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The attributes wavefit reads, named independently of HIP and CUDA spellings.
enum class device_attribute : std::uint8_t {
    warp_size,
    max_threads_per_block,
    max_block_dim_x,
    max_block_dim_y,
    max_block_dim_z,
    max_grid_dim_x,
    max_grid_dim_y,
    max_grid_dim_z,
    multiprocessor_count,
    max_shared_memory_per_block,
    max_shared_memory_per_block_optin,  // 0 on HIP (no opt-in)
    max_shared_memory_per_multiprocessor,
    reserved_shared_memory_per_block,
    max_threads_per_multiprocessor,
    max_blocks_per_multiprocessor,
    max_registers_per_block,
    max_registers_per_multiprocessor,
};

// How many attributes there are (the last one's value + 1), for code that walks them all (the first
// launch's parts bench). A spec (test_h200_runtime_table.cpp) fails when device_limits_from_attributes
// reads one at or past it, or leaves one below it unread (NVIDIA and AMD together).
inline constexpr std::size_t device_attribute_count =
    static_cast<std::size_t>(device_attribute::max_registers_per_multiprocessor) + 1;

// Whether the ISA has one register file for VGPRs and AGPRs, 512 per lane (CDNA2 and later: gfx90a,
// gfx940-gfx942, gfx950), where the occupancy rules count both together. The one list of these ISAs:
// apply_amd_isa_model below and the CLI's offline analysis (traces, target features) read it.
constexpr bool has_unified_vector_registers(std::string_view arch) noexcept {
    const std::string_view isa = isa_name(arch);
    return isa == "gfx90a" || isa == "gfx940" || isa == "gfx941" || isa == "gfx942" || isa == "gfx950";
}


// Fills the AMD residency and register model of `arch` (target features ignored) as HIP's occupancy
// code uses it (ROCm/clr hip_platform.cpp with ROCclr's per-device vgprsPerSimd_ and
// vgprAllocGranularity_; LLVM AMDGPUBaseInfo). Returns false for an ISA family it does not know,
// leaving the gfx9 generic model in place.
constexpr bool apply_amd_isa_model(device_limits& d, std::string_view arch) noexcept {
    const std::string_view isa = isa_name(arch);

    // gfx9 baseline: 4 SIMDs, 8 waves each (the SPI allows 32 waves per CU), 256 VGPRs per lane in
    // granules of 4, 800 SGPRs in granules of 16.
    d.simds_per_cu = 4;
    d.max_waves_per_simd = 8;
    d.registers_per_simd_lane = 256;
    d.register_granule = 4;
    d.max_registers_per_thread = 256;
    d.scalar_registers_per_simd = 800;
    d.scalar_register_granule = 16;
    d.max_registers_per_block = 0;

    if (detail::has_unified_vector_registers(isa)) {
        // CDNA2/3: one unified VGPR+AGPR file of 512 per lane, allocated in granules of 8.
        d.registers_per_simd_lane = 512;
        d.register_granule = 8;
        d.max_registers_per_thread = 512;
        return true;
    }
    if (starts_with(isa, "gfx9")) return true;  // gfx900/906/908: the baseline

    if (starts_with(isa, "gfx10") || starts_with(isa, "gfx11") || starts_with(isa, "gfx12")) {
        // RDNA: 16 waves per SIMD, SGPRs are not shared between waves, and HIP's multiProcessorCount
        // counts WGPs of 4 SIMDs (WGP mode, the default).
        d.max_waves_per_simd = 16;
        d.scalar_registers_per_simd = 0;
        d.max_registers_per_thread = 256;
        if (isa == "gfx1100" || isa == "gfx1101" || isa == "gfx1151" || starts_with(isa, "gfx12")) {
            d.registers_per_simd_lane = 1536;  // 1.5x register file
            d.register_granule = 24;
        } else if (isa == "gfx1102" || isa == "gfx1103") {
            d.registers_per_simd_lane = 1024;
            d.register_granule = 16;
        } else {
            d.registers_per_simd_lane = 1024;
            d.register_granule = 8;
        }
        // HIP halves both for kernels compiled as wave64 on RDNA.
        if (d.wave_size == 64) {
            d.registers_per_simd_lane /= 2;
            d.register_granule /= 2;
        }
        return true;
    }
    return false;
}

// `d` running code compiled for `wave_size`-wide waves. RDNA (gfx10+) runs wave32 and wave64 code, and
// HIP's occupancy then uses the halved wave64 register model (apply_amd_isa_model); gfx9 and NVIDIA
// run one width only, so there `d` is returned unchanged (a mismatch means the code is for another GPU).
constexpr device_limits for_wave_size(const device_limits& d, std::uint32_t wave_size) noexcept {
    device_limits m = d;
    const bool rdna = starts_with(d.arch.view(), "gfx1");
    if (d.is_amd() && rdna && (wave_size == 32 || wave_size == 64) && wave_size != d.wave_size) {
        m.wave_size = wave_size;
        apply_amd_isa_model(m, m.arch.view());
    }
    return m;
}

// Builds device_limits from attribute values. `read(device_attribute)` returns the runtime's value
// (an int, as both runtimes report them); `name` and `arch` are the device's marketing and ISA
// names ("gfx942:sramecc+:xnack-" or "sm_90"). Negative or absurd values are clamped to 0, which
// device_limits_problem() then reports, rather than trusted.
template <class AttributeReader>
constexpr device_limits device_limits_from_attributes(device_limits::vendor_kind v, std::string_view name,
                                                      std::string_view arch, AttributeReader&& read) {
    const auto get = [&](device_attribute a) -> std::uint64_t {
        const auto value = read(a);
        return value < 0 ? 0 : static_cast<std::uint64_t>(value);
    };
    device_limits d{};
    d.vendor = v;
    d.name.assign(name);
    d.arch.assign(isa_name(arch));

    d.wave_size = clamp_to_u32(get(device_attribute::warp_size));
    d.max_threads_per_block = clamp_to_u32(get(device_attribute::max_threads_per_block));
    d.max_block = dims{get(device_attribute::max_block_dim_x), get(device_attribute::max_block_dim_y),
                       get(device_attribute::max_block_dim_z)};
    d.max_grid = dims{get(device_attribute::max_grid_dim_x), get(device_attribute::max_grid_dim_y),
                      get(device_attribute::max_grid_dim_z)};
    d.compute_units = clamp_to_u32(get(device_attribute::multiprocessor_count));
    d.shared_per_block = get(device_attribute::max_shared_memory_per_block);
    const std::uint64_t optin = get(device_attribute::max_shared_memory_per_block_optin);
    d.shared_per_block_optin = max_u64(optin, d.shared_per_block);
    d.shared_per_cu = get(device_attribute::max_shared_memory_per_multiprocessor);

    if (v == device_limits::vendor_kind::amd) {
        // The HSA dispatch packet's per-dimension work-item count is a uint32 (ROCR hsa.h).
        d.max_work_items_per_dimension = 4294967295u;
        // HIP's occupancy divides the LDS size by the exact bytes a block uses: no reservation,
        // no granule; one block may use the whole LDS (sharedMemPerBlockOptin reads 0 on HIP).
        if (d.shared_per_cu == 0) d.shared_per_cu = d.shared_per_block;
        d.shared_reserved_per_block = 0;
        d.shared_allocation_unit = 1;
        d.max_blocks_per_cu = 0;
        apply_amd_isa_model(d, arch);
    } else {
        d.max_work_items_per_dimension = 0;
        d.shared_reserved_per_block = clamp_to_u32(get(device_attribute::reserved_shared_memory_per_block));
        d.shared_allocation_unit = 128;  // cuda_occupancy.h: sm_80 and sm_90 allocate in 128-byte units
        d.max_blocks_per_cu = clamp_to_u32(get(device_attribute::max_blocks_per_multiprocessor));
        // Sub-partitions own a quarter of the SM each (sm_70+); warps per sub-partition follow from
        // the threads an SM holds.
        d.simds_per_cu = 4;
        const std::uint64_t warps =
            d.wave_size == 0 ? 0 : get(device_attribute::max_threads_per_multiprocessor) / d.wave_size;
        d.max_waves_per_simd = clamp_to_u32(warps / d.simds_per_cu);
        const std::uint64_t regs_per_sm = get(device_attribute::max_registers_per_multiprocessor);
        d.registers_per_simd_lane = d.wave_size == 0 ? 0 : clamp_to_u32(regs_per_sm / d.simds_per_cu / d.wave_size);
        d.register_granule = 8;  // 256 registers per warp allocation = 8 per lane
        d.max_registers_per_thread = 255;
        d.max_registers_per_block = clamp_to_u32(get(device_attribute::max_registers_per_block));
        d.scalar_registers_per_simd = 0;
    }
    return d;
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
