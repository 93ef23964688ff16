// SPDX-License-Identifier: MIT
// Grouping a trace's dispatches and auditing each group (trace_audit.hpp).
#include "trace_audit.hpp"

#include <algorithm>  // std::sort, std::min
#include <cmath>      // std::lround
#include <utility>    // std::move

#include <wavefit/detail/text.hpp>
#include <wavefit/device_attributes.hpp>
#include <wavefit/validate.hpp>

namespace wavefit::analysis {
namespace {

// The grouping key of a dispatch: its name, a NUL, then every launch field as 8 raw bytes (an absent
// optional as 0, a present one as value + 1).
void put(std::string& key, std::uint64_t v) {
    key.append(reinterpret_cast<const char*>(&v), sizeof v);  // NOLINT: a byte key, never read back
}
// cppcheck-suppress constParameter ; `key` is appended to, through the other put
void put(std::string& key, const std::optional<std::uint32_t>& v) { put(key, v ? std::uint64_t{*v} + 1 : 0); }
std::string key_of(const trace_dispatch& d) {
    std::string key = d.name;
    key.push_back('\0');
    put(key, d.kernel_id);
    for (int a = 0; a < 3; ++a) {
        put(key, d.grid[a]);
        put(key, d.block[a]);
    }
    put(key, d.registers);
    put(key, d.arch_vgpr);
    put(key, d.accum_vgpr);
    put(key, d.sgprs);
    put(key, d.shared);
    put(key, d.scratch);
    return key;
}

using wavefit::detail::num;

std::string percent_of(double ratio) { return num(static_cast<std::uint64_t>(std::lround(ratio * 100.0))) + "%"; }

std::string limits_text(const occupancy_report& o) {
    const wavefit::detail::block_limits& l = o.limits;
    std::string text;
    const auto add = [&text](const char* what, std::uint32_t v) {
        if (v == wavefit::detail::block_limits::unlimited) return;
        if (!text.empty()) text += ", ";
        text += std::string(what) + " " + num(v);
    };
    add("waves", l.waves);
    add("blocks", l.blocks);
    add("registers", l.registers);
    add("scalar_registers", l.scalar_registers);
    add("shared_memory", l.shared_memory);
    return text;
}

}  // namespace

std::uint32_t unified_vgprs(std::string_view arch, std::uint32_t arch_vgpr, std::uint32_t accum_vgpr) noexcept {
    if (accum_vgpr == 0) return arch_vgpr;
    if (wavefit::detail::has_unified_vector_registers(arch))
        return wavefit::detail::clamp_to_u32(wavefit::detail::align_up(arch_vgpr, 4) + std::uint64_t{accum_vgpr});
    return arch_vgpr > accum_vgpr ? arch_vgpr : accum_vgpr;
}

bool kernel_grouping::add(const trace_dispatch& d) {
    const std::string key = key_of(d);
    auto it = index_.find(key);
    if (it == index_.end()) {
        const std::size_t cost = 2 * key.size();  // the index's key and the group's copy of the name
        if (groups_.size() >= max_groups_ || bytes_ + cost > max_bytes_) return false;
        bytes_ += cost;
        it = index_.emplace(key, groups_.size()).first;
        kernel_group g;
        g.launch = d;
        g.launch.duration_ns = 0;
        g.launch.trace_occupancy.reset();
        groups_.push_back(std::move(g));
    }
    kernel_group& g = groups_[it->second];
    ++g.dispatches;
    g.total_ns = wavefit::detail::saturating_add(g.total_ns, d.duration_ns);
    total_ns_ = wavefit::detail::saturating_add(total_ns_, d.duration_ns);
    ++dispatches_;
    if (d.trace_occupancy) {
        g.trace_occupancy_sum += *d.trace_occupancy;
        ++g.trace_occupancy_count;
    }
    return true;
}

std::vector<kernel_group> kernel_grouping::sorted() const {
    std::vector<kernel_group> out = groups_;
    std::sort(out.begin(), out.end(), [](const kernel_group& a, const kernel_group& b) {
        if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
        if (a.dispatches != b.dispatches) return a.dispatches > b.dispatches;
        return a.launch.name < b.launch.name;
    });
    return out;
}

kernel_resources resources_of(const device_limits& d, const trace_dispatch& t) {
    kernel_resources k;
    if (t.arch_vgpr || t.accum_vgpr) {
        k.registers = unified_vgprs(d.arch.view(), t.arch_vgpr.value_or(0), t.accum_vgpr.value_or(0));
    } else if (t.registers) {
        k.registers = *t.registers;
    }
    if (t.sgprs && d.is_amd()) k.scalar_registers = *t.sgprs;
    k.static_shared = t.shared;
    k.local_bytes_per_thread = t.scratch;
    return k;
}

kernel_audit audit_kernel(const device_limits& d, const kernel_group& g) {
    using wavefit::detail::num;
    kernel_audit a;
    const trace_dispatch& t = g.launch;
    a.resources = resources_of(d, t);
    a.config = launch_config(t.grid, t.block, 0);
    const std::uint64_t threads = t.block.volume();
    const std::uint64_t blocks = t.grid.volume();
    a.occupancy = occupancy(d, a.resources, threads, 0);
    const std::string wave(d.wave_word());
    const std::string cu(d.cu_word());
    const std::string dev = to_string(d);
    const std::uint64_t waves_per_block = d.wave_size == 0 ? 0 : wavefit::detail::ceil_div(threads, d.wave_size);

    if (a.occupancy.max_waves_per_cu > 0 && d.compute_units > 0) {
        const double grid_waves = static_cast<double>(blocks) / d.compute_units * static_cast<double>(waves_per_block);
        const double resident = std::min<double>(a.occupancy.active_waves_per_cu, grid_waves);
        a.estimated_achieved = resident / a.occupancy.max_waves_per_cu;
    }

    // What check would reject (errors only: a partial wave is idle_lanes below).
    for (const diagnostic& diag : check(d, a.resources, a.config))
        if (diag.severity == severity::error)
            a.findings.push_back({std::string(to_string(diag.code)), "error", diag.message, diag.fix});
    const bool launchable = a.findings.empty();

    if (threads > 0 && d.wave_size > 0 && threads % d.wave_size != 0) {
        const std::uint64_t lanes = waves_per_block * d.wave_size;
        const std::uint64_t idle = lanes - threads;
        a.findings.push_back(
            {std::string(audit_codes::idle_lanes), "warning",
             "a block of " + num(threads) + " threads fills " +
                 wavefit::detail::plural(waves_per_block, num(d.wave_size) + "-lane " + wave) + " on " + dev + ": " +
                 num(idle) + " of " + num(lanes) + " lanes (" +
                 percent_of(static_cast<double>(idle) / static_cast<double>(lanes)) + ") stay idle in every block",
             "use a multiple of " + num(d.wave_size) + " threads per block" +
                 wavefit::detail::fix_example({diagnostic_code::block_not_wave_multiple, -1, false, threads, d.wave_size}, d,
                                              a.resources, a.config, wavefit::detail::launch_work_shape::thread_per_item,
                                              0)});
    }

    if (t.scratch > 0) {
        std::string fix =
            d.is_amd() ? "scratch is private memory the compiler spills registers to; ask for fewer registers per thread "
                         "(smaller arrays in registers, fewer live values) or compile with a smaller __launch_bounds__, "
                         "which gives each thread more VGPRs (1024 threads: 128, 512: 256, 256: 512 on gfx90a/gfx942)"
                       : "local memory holds spilled registers or per-thread arrays indexed at run time; "
                         "reduce live values or raise the register cap (__launch_bounds__, -maxrregcount)";
        a.findings.push_back({std::string(audit_codes::scratch_spill), "warning",
                              num(t.scratch) + " bytes of scratch per work-item: the kernel spills to memory, "
                                               "every spill a round trip to memory",
                              fix});
    }

    if (launchable && blocks > 0 && d.compute_units > 0 && blocks < d.compute_units) {
        a.findings.push_back({std::string(audit_codes::grid_smaller_than_device), "warning",
                              "the grid has " + wavefit::detail::plural(blocks, "block") + " for the " +
                                  num(d.compute_units) + " " + cu + "s of " + dev + ": " + num(d.compute_units - blocks) +
                                  " " + cu + "s stay idle",
                              "give the kernel more, smaller blocks (split the work, e.g. over rows or tiles), or run it "
                              "concurrently with other work on another stream"});
    }

    // A grid of at least one block per CU/SM that still leaves a quarter or more of the resident-block
    // slots empty: the same finding as `wavefit check`'s (detail/grid_fill.hpp), for every format.
    if (launchable && blocks >= d.compute_units)
        if (const std::optional<wavefit::detail::finding> fill = wavefit::detail::grid_underfill_finding(d, a.resources, a.config)) {
            const diagnostic dg = wavefit::detail::describe(*fill, d, a.resources, a.config);
            a.findings.push_back({std::string(to_string(dg.code)), "warning", dg.message, dg.fix});
        }

    if (launchable && a.occupancy.fits() && d.compute_units > 0) {
        const std::uint64_t slots = wavefit::detail::saturating_mul(a.occupancy.active_blocks_per_cu, d.compute_units);
        if (slots > 0 && blocks > slots) {
            const std::uint64_t rounds = wavefit::detail::ceil_div(blocks, slots);
            const std::uint64_t last = blocks - (rounds - 1) * slots;
            const double fill = static_cast<double>(last) / static_cast<double>(slots);
            const double waste = (1.0 - fill) / static_cast<double>(rounds);
            if (waste >= tail_waste_threshold) {
                const std::uint64_t better = rounds * slots;
                a.findings.push_back(
                    {std::string(audit_codes::tail_imbalance), "info",
                     wavefit::detail::plural(blocks, "block") + " run in " + num(rounds) + " rounds of " + num(slots) +
                         " (" + num(a.occupancy.active_blocks_per_cu) + " per " + cu + " x " + num(d.compute_units) + " " +
                         cu + "s); the last round has " + num(last) + " (" + percent_of(fill) +
                         " of the device busy), about " + percent_of(waste) + " of the kernel's time",
                     "size the grid to a multiple of " + num(slots) + " blocks (e.g. " + num(better - slots) + " or " +
                         num(better) + ") or grid-stride over the work with " + num(slots) + " blocks"});
            }
        }
    }

    if (d.max_work_items_per_dimension != 0) {
        const dims items = work_items_of(t.grid, t.block);
        for (int axis = 0; axis < 3; ++axis) {
            const double ratio = static_cast<double>(items[axis]) / static_cast<double>(d.max_work_items_per_dimension);
            if (items[axis] <= d.max_work_items_per_dimension && ratio >= dispatch_limit_margin) {
                a.findings.push_back({std::string(audit_codes::work_items_near_dispatch_limit), "warning",
                                      num(items[axis]) + " work-items in " + std::string(wavefit::detail::axis_name(axis)) + " is " +
                                          percent_of(ratio) + " of the 2^32-1 per-dimension dispatch limit on " + dev +
                                          ": a little more work and the launch fails",
                                      "grid-stride: launch at most what the device holds (wavefit::plan clamps the grid) "
                                      "and loop over the rest"});
            }
        }
    }

    a.hint = hint_for_more_waves(d, a.resources, threads, 0);
    if (launchable && a.occupancy.fits() && a.occupancy.occupancy < low_occupancy_threshold) {
        std::string fix = a.hint.found() ? a.hint.text : std::string();
        if (fix.empty()) {
            switch (a.occupancy.limited_by) {
                case occupancy_report::limiter::waves:
                    fix = "the block's " + wavefit::detail::plural(waves_per_block, wave) + " do not divide the " +
                          num(a.occupancy.max_waves_per_cu) + " slots; choose a block whose " + wave + " count divides it";
                    break;
                case occupancy_report::limiter::blocks:
                    fix = "use larger blocks: the " + cu + " holds at most " + num(d.max_blocks_per_cu) + " blocks";
                    break;
                default: {
                    // No single reduction helps: another resource allows as few blocks (a tie).
                    std::string tied;
                    const wavefit::detail::block_limits& l = a.occupancy.limits;
                    const std::uint32_t least = a.occupancy.active_blocks_per_cu;
                    const auto add = [&tied, least](const char* what, std::uint32_t v) {
                        if (v != least) return;
                        if (!tied.empty()) tied += " and ";
                        tied += what;
                    };
                    add("registers", l.registers);
                    add("scalar_registers", l.scalar_registers);
                    add("shared memory", l.shared_memory);
                    fix = tied + " each allow only " + wavefit::detail::plural(least, "block") + " per " + cu +
                          ": reduce them together (e.g. a smaller tile per block), or accept the occupancy if the kernel is "
                          "bound by its own pipeline (tuned GEMM and attention kernels often are)";
                    break;
                }
            }
        }
        a.findings.push_back({std::string(audit_codes::low_occupancy), "warning",
                              "modelled occupancy " + percent_of(a.occupancy.occupancy) + " (" +
                                  num(a.occupancy.active_waves_per_cu) + " of " + num(a.occupancy.max_waves_per_cu) + " " +
                                  wave + "s per " + cu + ", " +
                                  wavefit::detail::plural(a.occupancy.active_blocks_per_cu, "block") + "), limited by " +
                                  std::string(to_string(a.occupancy.limited_by)) + "; blocks per " + cu +
                                  " by resource: " + limits_text(a.occupancy),
                              fix});
    }

    // What wavefit's plan would launch for the same work-items, named in the fixes where the block
    // or grid is the problem (the kernel's own launch bound is not in a trace: the plan assumes the
    // device maximum, so a kernel compiled for smaller blocks must keep within its bound).
    const dims items = work_items_of(t.grid, t.block);
    if (!items.has_zero()) {
        a.recommended = items.y == 1 && items.z == 1 ? plan(d, a.resources, items.x) : plan(d, a.resources, items);
        a.has_recommendation = a.recommended.feasible && !a.recommended.empty;
    }
    // Named only where the plan reaches more than the trace's launch did.
    if (a.has_recommendation && a.recommended.occupancy.occupancy > a.occupancy.occupancy) {
        const std::string planned = "; wavefit's plan for the same " + num(items.volume()) + " work-items: block " +
                                    wavefit::detail::dims_text(a.recommended.block) + ", grid " +
                                    wavefit::detail::dims_text(a.recommended.grid) + ", modelled occupancy " +
                                    percent_of(a.recommended.occupancy.occupancy);
        for (audit_finding& f : a.findings)
            if (f.code == audit_codes::idle_lanes || f.code == audit_codes::low_occupancy ||
                f.code == audit_codes::tail_imbalance)
                f.fix += planned;
    }
    return a;
}

}  // namespace wavefit::analysis
