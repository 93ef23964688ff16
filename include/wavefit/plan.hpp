// SPDX-License-Identifier: MIT
// Why a plan looks as it does, in words (plan_reason and its phrases), over detail/planning.hpp, which
// chooses the launch: plan() and launch_plan come with this header.
#pragma once

#include <cstdint>  // sizes
#include <string>   // plan_reason

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/planning.hpp"
#include "detail/text.hpp"
#include "device_limits.hpp"
#include "diagnostic.hpp"
#include "kernel_resources.hpp"
#include "occupancy.hpp"
#include "validate.hpp"
#include "work.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The phrases of plan_reason, also for output that shows the plan's fields beside them (the CLI).
// Written as rows of out-of-line appends (concat) and never inlined, like every message (detail/text.hpp).

inline std::string_view unit_word(const launch_plan& p) noexcept {
    return p.kind == work_kind::per_block || p.kind == work_kind::per_wave ? "unit" : "element";
}

// The rule that chose p's block, without the numbers the plan holds itself ("the smallest block of
// at least 256 threads that reaches the best occupancy"). `p` must be feasible.
WAVEFIT_COLD inline std::string block_rule_phrase(const launch_plan& p, const device_limits& d) {
    switch (p.rule) {
        case block_rule::best_occupancy:
            return concat({"the smallest allowed block of at least ", p.min_efficient_block,
                           " threads that reaches the best occupancy"});
        case block_rule::best_occupancy_below_min: return "the largest allowed block that reaches the best occupancy";
        case block_rule::spread_small_work:
            return concat({"so that ", plural(p.elements, unit_word(p)), " spread over ",
                           min_u64(d.compute_units, ceil_div(saturating_mul(p.elements, p.unit_threads), d.wave_size)),
                           " of the ", d.compute_units, " ", d.cu_word(), "s"});
        case block_rule::kernel_bound_below_wave:
            return concat({"the largest allowed block under the kernel's bound, below one ", d.wave_size, "-thread ",
                           d.wave_word()});
        case block_rule::tuned: return "was measured fastest on this device (a tuning record)";
        case block_rule::fixed_by_contract: return "the block the kernel's contract fixes (block_fixed)";
        case block_rule::long_units:
            return concat({"the largest allowed block that reaches the best occupancy, for units of ", p.unit_size,
                           " elements (at least ", long_unit_elements_per_thread, " per thread of the largest block)"});
        case block_rule::few_units:
            return concat({"larger than the best-occupancy block: ", plural(p.elements, "unit"),
                           " are fewer than the blocks the device holds at once, so more threads per unit do more"});
        case block_rule::baseline: return "the configuration this launch replaces (work::replacing), kept";
    }
    return {};
}

// What the best_occupancy_below_min rule adds: why no larger block was taken.
inline std::string larger_blocks_phrase(const launch_plan& p, const device_limits& d, const kernel_resources& k) {
    return p.block.volume() >= kernel_max_threads(d, k) ? "larger blocks exceed the kernel's bound"
                                                        : "larger blocks reach less or are not allowed";
}

// Why grid axis `a` was clamped to p.grid[a] (after "clamped to N"), "" when it was not.
WAVEFIT_COLD inline std::string grid_clamp_phrase(const launch_plan& p, const device_limits& d, int a) {
    switch (p.clamps[a]) {
        case grid_clamp::none: return {};
        case grid_clamp::dispatch_work_item_limit: return " by the 2^32-1 work-items-per-dimension dispatch limit";
        case grid_clamp::saturated:
            return concat({" (a saturated grid: ", p.grid[a], " blocks keep every ", d.cu_word(),
                           " busy, as grid_saturated() asked)"});
        case grid_clamp::device_grid_limit: return concat({" by the device's maximum grid ", axis_name(a)});
        case grid_clamp::saturated_short_units:
            return concat({" (a saturated grid: ", p.grid[a], " blocks each loop over several ", unit_word(p), "s of ",
                           p.unit_size, " elements, at most ", short_unit_elements_per_thread,
                           " per thread, so that a block's start is paid once per several; grid_covering() keeps one ",
                           "block per ", unit_word(p), ")"});
        case grid_clamp::coarsened:
            return concat({" (a coarsened grid: several ", unit_word(p), "s per ",
                           p.kind == work_kind::per_block  ? "block"
                           : p.kind == work_kind::per_wave ? "wave"
                                                          : "thread",
                           ", as grid_coarsened() asked)"});
    }
    return {};
}

// The blocks a contract allows, for messages: "power-of-two blocks of at most 256 threads".
WAVEFIT_COLD inline std::string contract_text(const kernel_contract& c, const device_limits& d) {
    if (c.has_fixed_block()) return concat({"the fixed block ", dims_text(c.fixed_block)});
    std::string text =
        c.powers_of_two ? std::string("power-of-two blocks") : concat({"blocks of whole ", d.wave_word(), "s"});
    if (c.max_block != 0) text += concat({" of at most ", c.max_block, " threads"});
    if (c.group_threads != 0) text += concat({", whole groups of ", c.group_threads, " threads"});
    return text;
}

// Why a one-pass plan cannot run, and what to do: the kernel must loop.
WAVEFIT_COLD inline std::string one_pass_phrase(const launch_plan& p, const device_limits& d) {
    const std::string what = p.kind == work_kind::per_block  ? std::string("one block per unit")
                             : p.kind == work_kind::per_wave ? concat({"one ", d.wave_word(), " per unit"})
                                                             : std::string("one thread per element");
    const std::string_view loop = p.kind == work_kind::per_block  ? "wavefit::block_stride(units)"
                                  : p.kind == work_kind::per_wave ? "wavefit::wave_stride(units)"
                                  : p.kind == work_kind::extent   ? "wavefit::grid_stride_axis<A>(n)"
                                                                  : "wavefit::grid_stride(n)";
    return concat({"the kernel takes ", what,
                   " in one pass (the default contract: a guarded kernel such as `if (i < n)`), and ",
                   plural(p.elements, unit_word(p)), " need grid ", dims_text(p.grid), " of blocks ", dims_text(p.block),
                   ", more than ", to_string(d), " accepts in one launch; make the kernel loop (", loop,
                   ") and say so with .kernel_loops(), so that wavefit may clamp the grid"});
}

// plan_reason's sentence for a plan that cannot launch.
WAVEFIT_COLD inline std::string infeasible_reason(const launch_plan& p, const device_limits& d,
                                                      const kernel_resources& k) {
    const finding* f = p.problems.first_error();
    if (f == nullptr) {
        const std::string_view bad = device_limits_problem(d);
        return bad.empty() ? std::string("no launch is possible: no block size fits")
                           : concat({"no launch is possible: invalid device limits (", bad, ")"});
    }
    if (f->code == diagnostic_code::negative_size) return "no launch: the work's count is negative";
    if (f->code == diagnostic_code::contract_allows_no_block)
        return concat({"no launch: no block the kernel's contract allows (", contract_text(p.contract, d), ") can run on ",
                       to_string(d), "; ", describe(*f, d, k, problems_config(p, d, k)).message});
    return concat({"no block size can run: ", describe(*f, d, k, problems_config(p, d, k)).message});
}

// What one pass of the plan covers: "; the kernel must grid-stride: ..." or " covers N elements, one
// per thread" (nothing when a clamp already said it).
WAVEFIT_COLD inline std::string coverage_phrase(const launch_plan& p, const device_limits& d, bool clamped) {
    const std::uint64_t threads = p.block.volume();
    if (p.kind == work_kind::per_block) {
        if (p.grid_stride)
            return concat({"; the kernel must block-stride: one pass covers ", p.grid.x, " of ", p.elements, " units"});
        return clamped ? std::string() : concat({" covers ", plural(p.elements, "unit"), ", one per block"});
    }
    if (p.kind == work_kind::per_wave) {
        const std::uint64_t per_block = p.unit_threads == 0 ? 0 : threads / p.unit_threads;
        if (p.grid_stride)
            return concat({"; the kernel must wave-stride: one pass covers ", saturating_mul(p.grid.volume(), per_block),
                           " of ", p.elements, " units"});
        if (clamped) return {};
        const std::string group = p.unit_threads == d.wave_size ? std::string(d.wave_word())
                                                                : concat({"group of ", p.unit_threads, " threads"});
        return concat({" covers ", plural(p.elements, "unit"), ", one per ", group, " (", per_block, " per block)"});
    }
    if (p.grid_stride)
        return concat({"; the kernel must grid-stride: one pass covers ", saturating_mul(p.grid.volume(), threads), " of ",
                       p.elements, " elements"});
    return clamped ? std::string() : concat({" covers ", plural(p.elements, "element"), ", one per thread"});
}

}  // namespace detail

// One or two sentences on why the plan looks the way it does.
WAVEFIT_COLD inline std::string plan_reason(const launch_plan& p, const device_limits& d, const kernel_resources& k) {
    using block_rule = launch_plan::block_rule;
    using detail::concat;
    if (!p.feasible) return detail::infeasible_reason(p, d, k);
    if (p.exceeds_one_pass) return concat({"no launch: ", detail::one_pass_phrase(p, d)});

    const std::string_view wave = d.wave_word();
    const std::uint64_t threads = p.block.volume();
    const occupancy_report& o = p.occupancy;
    const std::string occ = concat({static_cast<std::uint64_t>(std::lround(o.occupancy * 100.0)), "% occupancy (",
                                    o.active_waves_per_cu, " of ", o.max_waves_per_cu, " ", wave, "s per ", d.cu_word(),
                                    ", limited by ", to_string(o.limited_by), ")"});
    std::string text = concat({"block ", threads, " (", detail::plural(detail::ceil_div(threads, d.wave_size), wave), ")"});
    const std::string rule = detail::block_rule_phrase(p, d);
    switch (p.rule) {
        case block_rule::best_occupancy:
        case block_rule::kernel_bound_below_wave:
        case block_rule::fixed_by_contract:
        case block_rule::long_units:
        case block_rule::baseline: text += concat({" is ", rule, ": ", occ}); break;
        case block_rule::best_occupancy_below_min:
            text += concat({" is ", rule, " (", occ, "); ", detail::larger_blocks_phrase(p, d, k)});
            break;
        case block_rule::spread_small_work: text += concat({" instead of ", p.occupancy_block, " ", rule, ": ", occ}); break;
        case block_rule::few_units: text += concat({" instead of ", p.occupancy_block, " is ", rule, ": ", occ}); break;
        case block_rule::tuned: text += concat({" ", rule, ": ", occ}); break;
    }
    if (p.empty) return concat({text, "; 0 ", detail::unit_word(p), "s: nothing to launch"});

    text += concat({"; grid ", detail::dims_text(p.grid)});
    bool clamped = false;
    for (int a = 0; a < 3; ++a) {
        if (p.clamps[a] == launch_plan::grid_clamp::none) continue;
        clamped = true;
        text += concat({", ", detail::axis_name(a), " clamped to ", p.grid[a], detail::grid_clamp_phrase(p, d, a)});
    }
    return text + detail::coverage_phrase(p, d, clamped);
}

WAVEFIT_END_NAMESPACE
