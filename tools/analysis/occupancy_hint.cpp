// SPDX-License-Identifier: MIT
// The hint for one more wave per SIMD (occupancy_hint.hpp).
#include "occupancy_hint.hpp"

#include <string_view>  // resource names

#include <wavefit/detail/arithmetic.hpp>
#include <wavefit/detail/text.hpp>

namespace wavefit::analysis {
namespace {

using wavefit::detail::num;
using wavefit::detail::plural;

// "6 waves per SIMD" where the waves split evenly over the SIMDs, else per CU/SM.
std::string waves_phrase(const device_limits& d, std::uint32_t waves_per_cu, bool per_simd) {
    const std::string wave(d.wave_word());
    if (per_simd) return plural(waves_per_cu / d.simds_per_cu, wave) + " per SIMD";
    return plural(waves_per_cu, wave) + " per " + std::string(d.cu_word());
}

std::string hint_text(const device_limits& d, std::string_view what, std::uint64_t from, std::uint64_t to,
                      const occupancy_report& now, const occupancy_report& better) {
    // Per SIMD on AMD, where the waves-per-EU vocabulary (__launch_bounds__, the compiler's "Occupancy")
    // lives; per SM on NVIDIA, as Nsight and the occupancy calculator count warps.
    const bool per_simd = d.is_amd() && d.simds_per_cu != 0 && now.active_waves_per_cu % d.simds_per_cu == 0 &&
                          better.active_waves_per_cu % d.simds_per_cu == 0;
    return std::string(what) + " " + num(from) + " -> " + num(to) + " gives " +
           waves_phrase(d, better.active_waves_per_cu, per_simd) + " instead of " +
           num(per_simd ? now.active_waves_per_cu / d.simds_per_cu : now.active_waves_per_cu);
}

// Scans one register count of the kernel (`field`: registers or SGPRs) down from `top` to 1, and fills
// the hint with the largest count that gives more resident waves than h.now (the allocation granule
// makes a range of counts equal, so the largest is the least to give up). Leaves h as it is if none does.
void scan_down_for_a_wave(const device_limits& d, const kernel_resources& k, std::uint32_t kernel_resources::*field,
                          std::uint64_t top, std::uint64_t block_threads, std::uint64_t dynamic_shared,
                          std::string_view what, occupancy_hint& h) {
    kernel_resources probe = k;
    for (auto r = static_cast<std::uint32_t>(top); r >= 1; --r) {
        probe.*field = r;
        const occupancy_report o = occupancy(d, probe, block_threads, dynamic_shared);
        if (o.active_waves_per_cu > h.now.active_waves_per_cu) {
            h.from = k.*field;
            h.to = r;
            h.better = o;
            h.text = hint_text(d, what, h.from, h.to, h.now, o);
            return;
        }
    }
}

}  // namespace

occupancy_hint hint_for_more_waves(const device_limits& d, const kernel_resources& k, std::uint64_t block_threads,
                                   std::uint64_t dynamic_shared) {
    occupancy_hint h;
    h.now = occupancy(d, k, block_threads, dynamic_shared);
    h.resource = h.now.limited_by;
    // A launch that cannot be resident at all is check's business (registers_exceed_limit, ...).
    if (!h.now.fits()) return h;
    const auto improves = [&](const occupancy_report& o) { return o.active_waves_per_cu > h.now.active_waves_per_cu; };

    if (h.now.limited_by == occupancy_report::limiter::registers && k.registers > 1) {
        // Beyond what a thread may have nothing runs; start the scan there, so that a hostile count
        // (2^32-1 from a trace) costs at most wavefit::detail::max_plausible_registers steps.
        std::uint64_t top = d.max_registers_per_thread != 0 ? d.max_registers_per_thread : d.registers_per_simd_lane;
        top = wavefit::detail::min_u64(
            wavefit::detail::min_u64(top == 0 ? wavefit::detail::max_plausible_registers : top, wavefit::detail::max_plausible_registers), k.registers - 1u);
        scan_down_for_a_wave(d, k, &kernel_resources::registers, top, block_threads, dynamic_shared, "registers", h);
        return h;
    }
    if (h.now.limited_by == occupancy_report::limiter::scalar_registers && k.scalar_registers > 1) {
        const std::uint64_t top = wavefit::detail::min_u64(
            d.scalar_registers_per_simd == 0 ? wavefit::detail::max_plausible_registers : d.scalar_registers_per_simd,
            k.scalar_registers - 1u);
        scan_down_for_a_wave(d, k, &kernel_resources::scalar_registers, top, block_threads, dynamic_shared, "SGPRs", h);
        return h;
    }
    if (h.now.limited_by == occupancy_report::limiter::shared_memory) {
        const std::uint64_t total = wavefit::detail::saturating_add(k.static_shared, dynamic_shared);
        const std::uint64_t want_blocks = std::uint64_t{h.now.active_blocks_per_cu} + 1;
        // Largest per-block allocation that lets want_blocks share the CU, minus what the driver adds.
        std::uint64_t alloc = d.shared_per_cu / want_blocks;
        if (d.shared_allocation_unit > 1) alloc = wavefit::detail::align_down(alloc, d.shared_allocation_unit);
        if (alloc <= d.shared_reserved_per_block) return h;
        const std::uint64_t target = alloc - d.shared_reserved_per_block;
        if (target >= total) return h;
        kernel_resources probe = k;
        probe.static_shared = target;
        const occupancy_report o = occupancy(d, probe, block_threads, 0);
        if (!improves(o)) return h;
        h.from = total;
        h.to = target;
        h.better = o;
        h.text = hint_text(d, std::string(d.shared_word()) + " bytes per block", h.from, h.to, h.now, o);
    }
    return h;
}

}  // namespace wavefit::analysis
