// SPDX-License-Identifier: MIT
// How many blocks of one kernel a CU/SM holds at once, and which resource stops it holding more.
// AMD follows HIP's hipOccupancyMaxActiveBlocksPerMultiprocessor (ROCm/clr hip_platform.cpp); NVIDIA
// follows the allocation rules behind cudaOccupancyMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h),
// checked row by row against the H200 (tests/data/h200). Both reduce to one formula: a block needs
// ceil(block / wave) waves; each resource allows some whole number of blocks; the minimum wins.
#pragma once

#include <cstdint>      // fixed-width counts
#include <limits>       // unlimited
#include <string_view>  // to_string(limiter)

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/enum_names.hpp"
#include "device_limits.hpp"
#include "kernel_resources.hpp"

WAVEFIT_BEGIN_NAMESPACE

namespace detail {

// Blocks per CU/SM each resource would allow on its own. `unlimited` where it does not bound.
struct block_limits {
    static constexpr std::uint32_t unlimited = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t waves = unlimited;             // wave/warp slots of the CU/SM
    std::uint32_t blocks = unlimited;            // hardware block slots
    std::uint32_t registers = unlimited;         // vector register file
    std::uint32_t scalar_registers = unlimited;  // AMD gfx9 SGPR budget
    std::uint32_t shared_memory = unlimited;     // LDS / shared memory
};

}  // namespace detail

struct occupancy_report {
    // The resource that bounds residency. Names are the CLI/JSON spellings (docs/cli.md).
    enum class limiter : std::uint8_t { waves, blocks, registers, scalar_registers, shared_memory, block_size };

    std::uint64_t block_threads = 0;
    std::uint64_t dynamic_shared = 0;
    std::uint32_t waves_per_block = 0;
    std::uint32_t active_blocks_per_cu = 0;
    std::uint32_t active_waves_per_cu = 0;
    std::uint32_t max_waves_per_cu = 0;
    double occupancy = 0.0;  // active / max waves, 0..1
    limiter limited_by = limiter::block_size;
    detail::block_limits limits;  // blocks per CU/SM each resource allows: .waves, .blocks, .registers, ...

    // True when at least one block can be resident, i.e. the launch can run at all.
    constexpr bool fits() const noexcept { return active_blocks_per_cu > 0; }
};

constexpr std::string_view to_string(occupancy_report::limiter l) noexcept {
    constexpr std::string_view names[] = {"waves", "blocks", "registers", "scalar_registers", "shared_memory", "block_size"};
    return detail::enum_name(names, l);
}

namespace detail {

// Registers one lane needs, rounded to the allocation granule.
constexpr std::uint64_t allocated_registers_per_lane(const device_limits& d, std::uint32_t registers) noexcept {
    return align_up(registers, d.register_granule);
}

// NVIDIA's per-block register check: the hardware assumes allocations go to all sub-partitions at
// once, so warps are rounded up to a multiple of the sub-partition count (cuda_occupancy.h).
constexpr bool block_exceeds_register_cap(const device_limits& d, std::uint32_t registers,
                                          std::uint64_t waves_per_block) noexcept {
    if (d.max_registers_per_block == 0 || registers == 0) return false;
    const std::uint64_t per_wave = saturating_mul(allocated_registers_per_lane(d, registers), d.wave_size);
    const std::uint64_t rounded_waves = align_up(waves_per_block, d.simds_per_cu);
    return saturating_mul(per_wave, rounded_waves) > d.max_registers_per_block;
}

// Bytes of shared memory one block occupies, with the driver's reservation and granularity.
constexpr std::uint64_t allocated_shared_per_block(const device_limits& d, std::uint64_t total) noexcept {
    return align_up(saturating_add(total, d.shared_reserved_per_block), d.shared_allocation_unit);
}

// The limits that decide whether one block's shared memory fits: the opt-in maximum, the allocation
// unit and the driver's reservation per block (a launch keeps a copy beside its recipe: launch_bounds).
struct shared_fit_limits {
    std::uint64_t optin = 0;
    std::uint64_t unit = 0;
    std::uint64_t reserved = 0;
};

constexpr shared_fit_limits shared_fit_limits_of(const device_limits& d) noexcept {
    return {d.shared_per_block_optin, d.shared_allocation_unit, d.shared_reserved_per_block};
}

// How many sizes of shared memory fit one block with opt-in (the most any launch may use): a block's
// `total` bytes fit exactly when total < shared_room(s). Fitting only gets harder as the size grows, so
// the sizes that fit are 0 up to one last size; a launch compares with the count (launch_bounds keeps
// it) instead of dividing. cuda_occupancy.h compares the allocated size (reservation included, rounded
// up to the unit) with opt-in + reservation: ceil((total + r) / unit) <= floor((optin + r) / unit),
// that is total <= floor((optin + r) / unit) x unit - r. That last size is computed from quotients and
// remainders, so that no sum saturates near 2^64 and turns a "no" into a "yes" (fuzz/fuzz_check_plan).
constexpr std::uint64_t shared_room(const shared_fit_limits& s) noexcept {
    // u64_max stands for a saturated static + dynamic sum (2^64 bytes or more): it fits nothing.
    const auto count_up_to = [](std::uint64_t last) { return last == u64_max ? u64_max : last + 1; };
    if (s.unit <= 1) return count_up_to(s.optin);  // then the reservation is on both sides
    const std::uint64_t unit = s.unit;
    const std::uint64_t optin_rest = s.optin % unit;
    const std::uint64_t reserved_rest = s.reserved % unit;
    // floor((optin + r) / unit) x unit - r = optin - optin_rest - reserved_rest, + unit when the two rests
    // make a unit: at most optin, and below 0 only when nothing fits. (The rests are not added: with a
    // unit above 2^63 their sum would wrap.)
    const std::uint64_t to_a_unit = unit - reserved_rest;
    if (optin_rest >= to_a_unit) return count_up_to(s.optin - (optin_rest - to_a_unit));
    if (s.optin - optin_rest < reserved_rest) return 0;
    return count_up_to(s.optin - optin_rest - reserved_rest);
}

// Whether `total` bytes of shared memory fit one block with opt-in.
constexpr bool shared_fits_one_block(const shared_fit_limits& s, std::uint64_t total) noexcept {
    return total < shared_room(s);
}

constexpr bool shared_fits_one_block(const device_limits& d, std::uint64_t total) noexcept {
    return shared_fits_one_block(shared_fit_limits_of(d), total);
}

constexpr std::uint32_t blocks_from(std::uint64_t units_available, std::uint64_t units_per_block) noexcept {
    return units_per_block == 0 ? block_limits::unlimited : clamp_to_u32(units_available / units_per_block);
}

// Blocks per CU the vector registers allow (unlimited when the kernel or the device does not say).
// More registers than a thread may have never run, whether or not the register file is described
// (validation reports the same as registers_exceed_limit).
constexpr std::uint32_t register_block_limit(const device_limits& d, std::uint32_t registers,
                                             std::uint64_t waves_per_block) noexcept {
    if (registers == 0) return block_limits::unlimited;
    if (d.max_registers_per_thread != 0 && registers > d.max_registers_per_thread) return 0;
    if (d.registers_per_simd_lane == 0) return block_limits::unlimited;
    if (block_exceeds_register_cap(d, registers, waves_per_block)) return 0;
    // NOLINTNEXTLINE(clang-analyzer-core.DivideZero): registers > 0 rounded up to the granule is never 0
    const std::uint64_t waves_per_simd = d.registers_per_simd_lane / allocated_registers_per_lane(d, registers);
    return blocks_from(waves_per_simd * d.simds_per_cu, waves_per_block);
}

// Blocks per CU the scalar register budget allows (AMD gfx9 SGPRs; unlimited elsewhere).
constexpr std::uint32_t scalar_register_block_limit(const device_limits& d, std::uint32_t scalar_registers,
                                                    std::uint64_t waves_per_block) noexcept {
    if (scalar_registers == 0 || d.scalar_registers_per_simd == 0) return block_limits::unlimited;
    const std::uint64_t waves_per_simd = d.scalar_registers_per_simd / align_up(scalar_registers, d.scalar_register_granule);
    return blocks_from(waves_per_simd * d.simds_per_cu, waves_per_block);
}

// The most vector registers per thread the compiler gives a kernel built for blocks of up to
// `bound_threads` threads: a block's waves must fit on the CU together, so each SIMD's register
// file is split between ceil(waves / SIMDs) of them (LLVM AMDGPUBaseInfo getMaxNumVGPRs with the
// waves per EU that getWavesPerEUForWorkGroup derives from the flat work-group size). On gfx90a and
// gfx942: 128 at 1024 threads, 256 at 512, 512 at 256 or fewer. 0 when the device has no register model.
constexpr std::uint32_t vgpr_budget_for_bound(const device_limits& d, std::uint64_t bound_threads) noexcept {
    if (d.registers_per_simd_lane == 0 || d.simds_per_cu == 0 || d.wave_size == 0) return 0;
    const std::uint64_t waves = ceil_div(max_u64(1, bound_threads), d.wave_size);
    const std::uint64_t waves_per_simd = ceil_div(waves, d.simds_per_cu);
    std::uint64_t budget = d.registers_per_simd_lane / waves_per_simd;
    if (d.register_granule != 0) budget = align_down(budget, d.register_granule);
    if (d.max_registers_per_thread != 0) budget = min_u64(budget, d.max_registers_per_thread);
    return clamp_to_u32(budget);
}

}  // namespace detail

// Residency of `block_threads`-thread blocks of kernel `k` on device `d` with `dynamic_shared`
// bytes of dynamic shared memory per block. Total for any input: a block the device or the kernel
// cannot run at all (0, above either maximum) gives 0 blocks limited by block_size.
constexpr occupancy_report occupancy(const device_limits& d, const kernel_resources& k, std::uint64_t block_threads,
                                     std::uint64_t dynamic_shared = 0) noexcept {
    using limiter = occupancy_report::limiter;
    using detail::block_limits;
    occupancy_report r{};
    r.block_threads = block_threads;
    r.dynamic_shared = dynamic_shared;
    r.max_waves_per_cu = detail::clamp_to_u32(d.max_waves_per_cu());
    if (!detail::device_limits_problem(d).empty()) {
        r.limits = block_limits{0, 0, 0, 0, 0};
        return r;
    }

    const std::uint64_t kernel_max = k.max_threads_per_block == 0 ? d.max_threads_per_block : k.max_threads_per_block;
    if (block_threads == 0 || block_threads > d.max_threads_per_block || block_threads > kernel_max) {
        r.limited_by = limiter::block_size;
        return r;
    }

    const std::uint64_t waves_per_block = detail::ceil_div(block_threads, d.wave_size);
    r.waves_per_block = detail::clamp_to_u32(waves_per_block);
    block_limits& lim = r.limits;

    lim.waves = detail::blocks_from(d.max_waves_per_cu(), waves_per_block);
    if (d.max_blocks_per_cu != 0) lim.blocks = d.max_blocks_per_cu;

    lim.registers = detail::register_block_limit(d, k.registers, waves_per_block);
    lim.scalar_registers = detail::scalar_register_block_limit(d, k.scalar_registers, waves_per_block);

    const std::uint64_t total_shared = detail::saturating_add(k.static_shared, dynamic_shared);
    if (!detail::shared_fits_one_block(d, total_shared)) {
        lim.shared_memory = 0;
    } else if (total_shared > 0 || d.shared_reserved_per_block > 0) {
        lim.shared_memory = detail::blocks_from(d.shared_per_cu, detail::allocated_shared_per_block(d, total_shared));
    }

    // The first resource reaching the minimum names the limiter: on a tie the hardware's own slot
    // limits come first, since shrinking registers or shared memory would not raise residency.
    struct candidate {
        limiter which;
        std::uint32_t blocks;
    };
    const candidate order[] = {{limiter::waves, lim.waves},
                               {limiter::blocks, lim.blocks},
                               {limiter::registers, lim.registers},
                               {limiter::scalar_registers, lim.scalar_registers},
                               {limiter::shared_memory, lim.shared_memory}};
    candidate best = order[0];
    for (const candidate& c : order)
        if (c.blocks < best.blocks) best = c;

    r.active_blocks_per_cu = best.blocks;
    r.limited_by = best.which;
    r.active_waves_per_cu = detail::clamp_to_u32(detail::saturating_mul(best.blocks, waves_per_block));
    r.occupancy = r.max_waves_per_cu == 0 ? 0.0 : static_cast<double>(r.active_waves_per_cu) / r.max_waves_per_cu;
    return r;
}

namespace detail {

// The largest block that can be resident at all (at least one block per CU/SM): a multiple of the
// wave size, within the device's and the kernel's maxima and what registers and shared memory
// allow. If the bound is below one wave, the bound itself. 0 when no block fits.
constexpr std::uint64_t largest_runnable_block(const device_limits& d, const kernel_resources& k,
                                               std::uint64_t dynamic_shared = 0) noexcept {
    if (!device_limits_problem(d).empty()) return 0;
    std::uint64_t bound = d.max_threads_per_block;
    if (k.max_threads_per_block != 0) bound = min_u64(bound, k.max_threads_per_block);
    if (bound < d.wave_size) return occupancy(d, k, bound, dynamic_shared).fits() ? bound : 0;
    // Residency only falls as blocks grow, so the first fit from the top is the largest.
    for (std::uint64_t b = align_down(bound, d.wave_size); b >= d.wave_size; b -= d.wave_size)
        if (occupancy(d, k, b, dynamic_shared).fits()) return b;
    return 0;
}

// The most registers per thread with which `block_threads`-thread blocks still fit one CU/SM
// (0 if none do): what a __launch_bounds__ for that block size would make the compiler aim for.
constexpr std::uint32_t max_registers_for_block(const device_limits& d, std::uint64_t block_threads) noexcept {
    if (!device_limits_problem(d).empty() || d.registers_per_simd_lane == 0) return 0;
    std::uint32_t top = d.max_registers_per_thread != 0 ? d.max_registers_per_thread : d.registers_per_simd_lane;
    kernel_resources probe{};
    for (std::uint32_t r = top; r > 0; --r) {
        probe.registers = r;
        if (occupancy(d, probe, block_threads).limits.registers > 0) return r;
    }
    return 0;
}

}  // namespace detail

WAVEFIT_END_NAMESPACE
