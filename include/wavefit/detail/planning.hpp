// SPDX-License-Identifier: MIT
// Choosing a launch from the work instead of hard-coding dim3(256), without the words: the block from
// the device and the kernel's own resources, the grid from the element count in 64 bits, clamped to
// what the device accepts, with a flag telling the kernel when it must grid-stride (plan(),
// configure(): the one planning path of plan() and of every launch). A plan always passes
// find_problems() for the same inputs (property-tested). plan.hpp adds why a plan looks as it does
// (plan_reason), which a launch file leaves to the registered explainer
// (runtime/launch_explainer.hpp), so it does not even parse it.
#pragma once

#include <cmath>        // std::lround
#include <cstdint>      // sizes
#include <string_view>  // to_string

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../diagnostic.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../occupancy.hpp"
#include "../work.hpp"
#include "../work_names.hpp"  // to_string of the work's kinds, for the recipe's and the plan's words
#include "arithmetic.hpp"
#include "enum_names.hpp"
#include "launch_rules.hpp"

WAVEFIT_BEGIN_NAMESPACE

struct launch_plan {
    // Why the block has its size.
    enum class block_rule : std::uint8_t {
        best_occupancy,            // the smallest allowed block >= min_efficient_block reaching the best occupancy
        best_occupancy_below_min,  // no allowed block >= min_efficient_block reaches it: the largest that does
        spread_small_work,         // smaller than the best-occupancy block, to reach more CUs
        kernel_bound_below_wave,   // the kernel's own bound (or the contract's maximum) is below one wave
        tuned,                     // measured on the device (wavefit::tune or WAVEFIT_TUNING)
        fixed_by_contract,         // the kernel's contract fixes the block (work::block_fixed)
        long_units,                // units of many elements: the largest block that reaches the best occupancy
        few_units,                 // fewer units than resident blocks: a larger block puts more threads on each
        baseline,                  // the configuration the launch replaces (work::replacing), kept
    };

    // Why a grid dimension is smaller than ceil(extent / block).
    // saturated_short_units: wavefit saturated the grid of a per-block kernel that loops over short
    // units (short_unit_elements_per_thread, below); saturated and coarsened: the work asked.
    enum class grid_clamp : std::uint8_t {
        none,
        device_grid_limit,
        dispatch_work_item_limit,
        saturated,
        coarsened,
        saturated_short_units
    };

    work::work_kind kind = work::work_kind::elements;
    dims extent{0, 1, 1};        // the work: {n, 1, 1} for an element or unit count
    std::uint64_t elements = 0;  // extent volume (units for per_block and per_wave)
    bool empty = false;          // no work: nothing is launched
    bool feasible = false;       // some configuration the kernel's contract allows can run on this device
    dims grid{0, 1, 1};
    dims block{0, 1, 1};
    std::uint64_t dynamic_shared = 0;
    // The kernel must loop: one pass covers fewer items (units) than the work has. Only ever true for
    // a kernel that loops (coverage::kernel_loops).
    bool grid_stride = false;
    // The work is one pass (the default) and the device cannot hold it in one: the launch is refused.
    bool exceeds_one_pass = false;
    grid_clamp clamps[3] = {grid_clamp::none, grid_clamp::none, grid_clamp::none};
    occupancy_report occupancy;
    block_rule rule = block_rule::best_occupancy;
    std::uint64_t occupancy_block = 0;      // the best-occupancy block, before spreading small work
    std::uint64_t min_efficient_block = 0;  // plan_options::min_efficient_block the plan used
    std::uint64_t unit_threads = 1;         // per_wave: threads per unit (the wave, or the contract's group)
    std::uint64_t unit_size = 0;            // per_block, per_wave: elements per unit, 0 when not said
    work::kernel_contract contract{};       // what the kernel allows (the work's)
    detail::findings problems;              // errors when infeasible; otherwise warnings only

    constexpr launch_config config() const noexcept { return {grid, block, dynamic_shared}; }
    constexpr bool ok() const noexcept { return feasible && !problems.has_error(); }
};

constexpr std::string_view to_string(launch_plan::block_rule r) noexcept {
    constexpr std::string_view names[] = {
        "best_occupancy", "best_occupancy_below_min", "spread_small_work", "kernel_bound_below_wave",
        "tuned",          "fixed_by_contract",        "long_units",        "few_units",
        "baseline"};
    return detail::enum_name(names, r);
}

constexpr std::string_view to_string(launch_plan::grid_clamp c) noexcept {
    constexpr std::string_view names[] = {"none",      "device_grid_limit", "dispatch_work_item_limit",
                                          "saturated", "coarsened",         "saturated_short_units"};
    return detail::enum_name(names, c);
}

namespace detail {

using block_rule = launch_plan::block_rule;
using grid_clamp = launch_plan::grid_clamp;

constexpr bool is_pow2(std::uint64_t v) noexcept { return v != 0 && (v & (v - 1)) == 0; }

// Every bit below v's highest set bit set too (a few shifts: the launch path sizes blocks with these).
constexpr std::uint64_t smear_right(std::uint64_t v) noexcept {
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    v |= v >> 32;
    return v;
}

// The smallest power of two >= v (1 for 0; 2^63 for v above it, the largest there is).
constexpr std::uint64_t next_pow2(std::uint64_t v) noexcept {
    if (v <= 1) return 1;
    if (v > (u64_max >> 1)) return (u64_max >> 1) + 1;  // 2^63: the largest power of two
    return smear_right(v - 1) + 1;
}

// The largest power of two <= v (0 for 0).
constexpr std::uint64_t prev_pow2(std::uint64_t v) noexcept {
    const std::uint64_t ones = smear_right(v);
    return ones - (ones >> 1);
}

constexpr std::uint64_t gcd_u64(std::uint64_t a, std::uint64_t b) noexcept {
    while (b != 0) {
        const std::uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// Threads each unit takes: per_wave work's group (the device's wave unless the contract names one), else 1.
constexpr std::uint64_t unit_threads(const device_limits& d, const work& w) noexcept {
    if (w.kind != work_kind::per_wave) return 1;
    return w.contract.group_threads != 0 ? w.contract.group_threads : max_u64(1, d.wave_size);
}

// The step of the blocks a plan considers: whole waves and whole units (lcm of the two).
constexpr std::uint64_t block_step(const device_limits& d, const work& w) noexcept {
    const std::uint64_t wave = max_u64(1, d.wave_size);
    const std::uint64_t unit = unit_threads(d, w);
    if (unit == 1) return wave;  // elements and blocks: no division on the launch path
    return saturating_mul(wave / gcd_u64(wave, unit), unit);
}

// Dynamic shared memory of a block of `threads` threads under the work's options.
constexpr std::uint64_t shared_for(const plan_options& o, std::uint64_t threads) noexcept {
    if (o.shared_for_block != nullptr) return o.shared_for_block(threads);
    return saturating_add(o.dynamic_shared, saturating_mul(o.shared_per_thread, threads));
}

// Whether the kernel's contract allows a block of `threads` threads (a block's volume).
constexpr bool block_allowed(const device_limits& d, const work& w, std::uint64_t threads) noexcept {
    const kernel_contract& c = w.contract;
    if (threads == 0) return false;
    // Every block, the fixed one too, holds whole units: a group of 64 threads per row never fits a fixed
    // block of 32 (found by the tuning-candidate property test).
    if (const std::uint64_t unit = unit_threads(d, w); unit > 1 && threads % unit != 0) return false;
    if (c.has_fixed_block()) return threads == c.fixed_block.volume();
    if (c.max_block != 0 && threads > c.max_block) return false;
    return !c.powers_of_two || is_pow2(threads);
}

// Units of at least this many elements per thread of the largest allowed block are "long": a block
// per row of 50,304 logits ran 12% faster with 1024 threads than with 256 on the H200 (llm.c's
// fused classifier, bench/RESULTS.md), so such units take the largest best-occupancy block.
inline constexpr std::uint64_t long_unit_elements_per_thread = 16;

// What a configuration follows from, apart from how much work there is: the block (chosen once per
// kernel, device, work shape and contract, or measured by the tuner) and the grid policy. The runtime
// caches one per kernel so that a launch only runs configure(); plan() and the tuner build theirs the same way.
struct launch_recipe {
    std::uint64_t threads = 0;  // block volume; 0: no block the contract allows can run on this device
    dims shape{0, 0, 0};        // the block's shape when it is fixed or was measured; x = 0 shapes it from threads
    block_rule rule = block_rule::best_occupancy;
    std::uint32_t active_blocks_per_cu = 0;  // residency at `threads`, for saturated grids and few units
    grid_policy grid = grid_policy::cover;
    std::uint32_t grid_factor = 1;  // saturation rounds or items per thread
    bool spread_small_work = true;
    // per_block work: the largest allowed block that runs, and its residency, for work of fewer units
    // than the device holds blocks at once (configure() picks it when it puts more threads to work).
    std::uint64_t large_threads = 0;
    std::uint32_t large_active_blocks_per_cu = 0;

    friend constexpr bool operator==(const launch_recipe& a, const launch_recipe& b) noexcept {
        return a.threads == b.threads && a.shape == b.shape && a.rule == b.rule &&
               a.active_blocks_per_cu == b.active_blocks_per_cu && a.grid == b.grid && a.grid_factor == b.grid_factor &&
               a.spread_small_work == b.spread_small_work && a.large_threads == b.large_threads &&
               a.large_active_blocks_per_cu == b.large_active_blocks_per_cu;
    }
};

// The block for `w`: among the blocks its contract allows, the one that reaches the best occupancy,
// preferring blocks of at least min_efficient_block threads (the largest such block for long units).
constexpr launch_recipe choose_block(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    launch_recipe c{};
    if (!device_limits_problem(d).empty()) return c;
    const plan_options& opt = w.options;
    const kernel_contract& contract = w.contract;
    const std::uint64_t kernel_bound = min_u64(kernel_max_threads(d, k), d.max_threads_per_block);

    if (contract.has_fixed_block()) {
        c.rule = block_rule::fixed_by_contract;
        c.shape = contract.fixed_block;
        const std::uint64_t t = contract.fixed_block.volume();
        const occupancy_report r = occupancy(d, k, t, shared_for(opt, t));
        if (block_allowed(d, w, t) && t <= kernel_bound && r.fits()) {
            c.threads = t;
            c.active_blocks_per_cu = r.active_blocks_per_cu;
        }
        return c;
    }

    std::uint64_t bound = kernel_bound;
    if (w.kind != work_kind::extent) bound = min_u64(bound, d.max_block.x);
    if (contract.max_block != 0) bound = min_u64(bound, contract.max_block);
    if (bound == 0) return c;

    if (bound < d.wave_size) {
        // Below one wave: the bound itself, or the largest power of two under it.
        const std::uint64_t t = contract.powers_of_two ? prev_pow2(bound) : bound;
        c.rule = block_rule::kernel_bound_below_wave;
        const occupancy_report r = occupancy(d, k, t, shared_for(opt, t));
        if (block_allowed(d, w, t) && r.fits()) {
            c.threads = t;
            c.active_blocks_per_cu = r.active_blocks_per_cu;
        }
        return c;
    }

    const std::uint64_t step = block_step(d, w);
    std::uint64_t best_waves = 0;
    for (std::uint64_t b = step; b <= bound; b += step) {
        if (!block_allowed(d, w, b)) continue;
        const occupancy_report r = occupancy(d, k, b, shared_for(opt, b));
        if (!r.fits()) continue;
        if (r.active_waves_per_cu > best_waves) best_waves = r.active_waves_per_cu;
        c.large_threads = b;
        c.large_active_blocks_per_cu = r.active_blocks_per_cu;
    }
    if (best_waves == 0) return launch_recipe{};

    const bool long_units = w.kind == work_kind::per_block && w.unit_size != 0 &&
                            w.unit_size >= saturating_mul(long_unit_elements_per_thread, bound);
    std::uint64_t largest_at_best = 0;
    std::uint32_t largest_blocks = 0;
    for (std::uint64_t b = step; b <= bound; b += step) {
        if (!block_allowed(d, w, b)) continue;
        const occupancy_report r = occupancy(d, k, b, shared_for(opt, b));
        if (r.active_waves_per_cu != best_waves) continue;
        largest_at_best = b;
        largest_blocks = r.active_blocks_per_cu;
        if (b >= opt.min_efficient_block && !long_units) {
            c.threads = b;
            c.active_blocks_per_cu = r.active_blocks_per_cu;
            return c;
        }
    }
    c.threads = largest_at_best;
    c.active_blocks_per_cu = largest_blocks;
    c.rule = long_units ? block_rule::long_units : block_rule::best_occupancy_below_min;
    return c;
}

// Units of at most this many elements per thread are "short": a per-block kernel that loops over them
// gets a saturated grid unless the work asks for another, so that each block's start (and its shared
// array's setup) is paid once per several units. HeCBench's scan_bcao (tiles of 1024 ints, 512
// threads) ran at 0.89x of its original 2,112-block launch with one block per tile on the H200
// (bench/RESULTS.md).
inline constexpr std::uint64_t short_unit_elements_per_thread = 4;

constexpr bool loops_over_short_units(const work& w, std::uint64_t threads) noexcept {
    return w.kind == work_kind::per_block && w.loops() && !w.options.grid_stated && w.unit_size != 0 &&
           threads != 0 && w.unit_size <= saturating_mul(short_unit_elements_per_thread, threads);
}

// The recipe of an untuned plan: the contract's best block and the work's grid policy.
constexpr launch_recipe planned_recipe(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    const plan_options& opt = w.options;
    launch_recipe c = choose_block(d, k, w);
    c.grid = w.kind == work_kind::extent || !w.loops() ? grid_policy::cover : opt.grid;
    if (loops_over_short_units(w, c.threads)) c.grid = grid_policy::saturate;
    c.grid_factor = c.grid == grid_policy::saturate  ? opt.saturation_rounds
                    : c.grid == grid_policy::coarsen ? opt.items_per_thread
                                                     : 1;
    // One block per unit is the kernel's own decomposition: its block is not shrunk for few units.
    c.spread_small_work = opt.spread_small_work && w.kind != work_kind::per_block;
    if (w.kind != work_kind::per_block || c.large_threads <= c.threads) {
        c.large_threads = 0;
        c.large_active_blocks_per_cu = 0;
    }
    return c;
}

// The largest block the contract allows that is at most `threads` (and at least one step).
constexpr std::uint64_t allowed_at_most(const device_limits& d, const work& w, std::uint64_t threads) noexcept {
    const std::uint64_t step = block_step(d, w);
    std::uint64_t b = max_u64(step, align_down(threads, step));
    if (w.contract.powers_of_two) b = max_u64(prev_pow2(b), next_pow2(step));
    return b;
}

// The block for `needed` threads of work: the recipe's block, or a smaller allowed one for small work.
// A block of wave * floor(needed / (CUs * wave)) threads leaves ceil(needed / block) >= CUs blocks;
// at one wave per block the grid is ceil(needed / wave): either way min(CUs, ceil(needed / wave)) CUs
// get work.
constexpr std::uint64_t block_for_work(const device_limits& d, const launch_recipe& c, const work& w,
                                       std::uint64_t needed) noexcept {
    // wave_size is a divisor below; 0 (invalid limits, found by fuzz/fuzz_check_plan) leaves c as it is.
    if (d.wave_size == 0 || !c.spread_small_work || c.rule == block_rule::kernel_bound_below_wave ||
        c.rule == block_rule::tuned || c.rule == block_rule::fixed_by_contract || d.compute_units == 0 || needed == 0)
        return c.threads;
    // Large work (the common case on the launch path) needs no division: the formula below gives at
    // least c.threads exactly when needed >= CUs * c.threads, c.threads being whole waves here.
    if (needed >= saturating_mul(d.compute_units, c.threads)) return c.threads;
    const std::uint64_t per_cu = needed / saturating_mul(d.compute_units, d.wave_size);
    const std::uint64_t spread = min_u64(c.threads, saturating_mul(d.wave_size, max_u64(1, per_cu)));
    const std::uint64_t b = allowed_at_most(d, w, spread);
    return b <= c.threads && block_allowed(d, w, b) ? b : c.threads;
}

// The block for per_block work of `units` units: the recipe's, or its larger block when fewer units
// than the device holds blocks at once would otherwise leave threads idle (a column reduction of 24
// blocks of 1024 ran 3.7x slower with 256 threads on the H200, bench/RESULTS.md). The larger block
// is taken when min(units, resident large blocks) x its threads exceeds units x the recipe's threads.
constexpr std::uint64_t block_for_units(const device_limits& d, const launch_recipe& c, const work& w,
                                        std::uint64_t units) noexcept {
    if (c.large_threads <= c.threads || c.rule == block_rule::tuned || c.rule == block_rule::fixed_by_contract ||
        d.compute_units == 0)
        return c.threads;
    // More threads than a unit has elements find nothing to do.
    if (w.unit_size != 0 && w.unit_size < c.large_threads) return c.threads;
    const std::uint64_t slots = saturating_mul(c.active_blocks_per_cu, d.compute_units);
    if (units >= slots) return c.threads;
    const std::uint64_t large_slots = saturating_mul(c.large_active_blocks_per_cu, d.compute_units);
    const std::uint64_t large_working = saturating_mul(min_u64(units, large_slots), c.large_threads);
    return large_working > saturating_mul(units, c.threads) ? c.large_threads : c.threads;
}

// Largest grid along `axis` for blocks `block_extent` wide on that axis; `why` says which limit.
constexpr std::uint64_t grid_cap(const device_limits& d, int axis, std::uint64_t block_extent, grid_clamp& why) noexcept {
    std::uint64_t cap = d.max_grid[axis];
    why = grid_clamp::device_grid_limit;
    if (d.max_work_items_per_dimension != 0 && block_extent != 0) {
        const std::uint64_t by_work_items = d.max_work_items_per_dimension / block_extent;
        if (by_work_items < cap) {
            cap = by_work_items;
            why = grid_clamp::dispatch_work_item_limit;
        }
    }
    return cap;
}

// Blocks along `axis` to cover `items` with `per_block` items per block. A kernel that loops gets a
// grid clamped to the device for blocks `block_extent` threads wide on that axis (`clamp` says why);
// one-pass work keeps the covering grid, and validation refuses it where the device cannot hold it.
constexpr std::uint64_t grid_along(const device_limits& d, int axis, std::uint64_t items, std::uint64_t per_block,
                                   std::uint64_t block_extent, bool loops, grid_clamp& clamp) noexcept {
    const std::uint64_t needed = ceil_div(items, per_block);
    clamp = grid_clamp::none;
    if (!loops) return needed;
    grid_clamp why = grid_clamp::none;
    const std::uint64_t cap = grid_cap(d, axis, block_extent, why);
    if (needed > cap) clamp = why;
    return min_u64(needed, cap);
}

// The grid policy applied to a covering grid along x (1-D, per-block and per-wave work).
constexpr std::uint64_t apply_grid_policy(const device_limits& d, const launch_recipe& c, std::uint64_t threads,
                                          std::uint64_t covering, std::uint64_t work, std::uint64_t per_block,
                                          grid_clamp& clamp) noexcept {
    std::uint64_t grid = covering;
    if (c.grid == grid_policy::saturate && c.active_blocks_per_cu > 0 && threads > 0) {
        // A block smaller than the chosen one (small work) is resident that many times more often.
        const std::uint64_t resident =
            saturating_mul(saturating_mul(c.active_blocks_per_cu, d.compute_units), ceil_div(c.threads, threads));
        const std::uint64_t cap = max_u64(1, saturating_mul(max_u64(1, c.grid_factor), resident));
        if (grid > cap) {
            grid = cap;
            clamp = grid_clamp::saturated;
        }
    } else if (c.grid == grid_policy::coarsen && c.grid_factor > 1) {
        const std::uint64_t coarse = max_u64(1, ceil_div(work, saturating_mul(per_block, c.grid_factor)));
        if (grid > coarse) {
            grid = coarse;
            clamp = grid_clamp::coarsened;
        }
    }
    return grid;
}

// Shapes `threads` into a block for an extent: x first (coalescing), whole waves along x when the
// extent is wide enough, powers of two along short axes so the volume stays a multiple of the wave.
// A power-of-two `threads` gives a power-of-two volume (x divides it).
constexpr dims shape_block(const device_limits& d, std::uint64_t threads, const dims& extent) noexcept {
    std::uint64_t bx = 1;
    if (extent.x >= d.wave_size) {
        bx = min_u64(threads, align_up(extent.x, d.wave_size));
        // Keep bx a divisor of `threads` when possible so no thread budget is lost along y.
        while (bx > d.wave_size && threads % bx != 0) bx -= d.wave_size;
    } else {
        bx = min_u64(threads, next_pow2(extent.x));
    }
    bx = max_u64(1, min_u64(bx, d.max_block.x));
    // The divisors are at least 1; the checks at the divisions are for clang's analyzer, which loses
    // track of that through the loop above.
    const std::uint64_t per_x = bx != 0 ? threads / bx : threads;
    const std::uint64_t by = max_u64(1, min_u64(min_u64(per_x, next_pow2(extent.y)), d.max_block.y));
    const std::uint64_t per_xy = bx * by != 0 ? threads / (bx * by) : threads;
    const std::uint64_t bz = max_u64(1, min_u64(min_u64(per_xy, next_pow2(extent.z)), d.max_block.z));
    return dims{bx, by, bz};
}

// A configuration for work, from a recipe: the one function that computes grids and blocks. plan(),
// the runtime's planned launches and the tuner's candidates all come from here.
struct configured_launch {
    launch_config config{dims{0}, dims{0}};
    std::uint64_t threads = 0;  // the recipe's block for this much work (before an extent shapes it)
    grid_clamp clamps[3] = {grid_clamp::none, grid_clamp::none, grid_clamp::none};
    bool grid_stride = false;  // one pass covers less than the work: the kernel loops
    bool empty = false;        // no work: config has grid 0 and the block the work would get
};

constexpr configured_launch configure(const device_limits& d, const launch_recipe& c, const work& w) noexcept {
    configured_launch out{};
    const bool loops = w.loops();
    if (w.kind == work_kind::extent) {
        const std::uint64_t threads = block_for_work(d, c, w, w.size());
        out.threads = threads;
        const dims block = c.shape.x != 0 ? c.shape : shape_block(d, threads, w.extent);
        out.config = launch_config{dims{0}, block, shared_for(w.options, block.volume())};
        if (w.is_empty()) {
            out.empty = true;
            return out;
        }
        std::uint64_t g[3] = {1, 1, 1};
        for (int a = 0; a < 3; ++a) {
            g[a] = grid_along(d, a, w.extent[a], block[a], block[a], loops, out.clamps[a]);
            if (out.clamps[a] != grid_clamp::none) out.grid_stride = true;
        }
        out.config.grid = dims{g[0], g[1], g[2]};
        return out;
    }
    // 1-D work: n elements, a thread each; or n units, a block each (per_block) or a group of lanes each
    // (per_wave), `per_block` of them to a block.
    const std::uint64_t units = w.extent.x;
    const std::uint64_t lanes = unit_threads(d, w);
    const std::uint64_t threads = w.kind == work_kind::per_block ? block_for_units(d, c, w, units)
                                                                 : block_for_work(d, c, w, saturating_mul(units, lanes));
    const std::uint64_t per_block = w.kind == work_kind::elements    ? threads
                                    : w.kind == work_kind::per_block ? 1
                                                                     : max_u64(1, threads / lanes);
    const dims block = c.shape.x != 0 ? c.shape : dims{threads};
    out.threads = threads;
    out.config = launch_config{dims{0}, block, shared_for(w.options, threads)};
    if (units == 0) {
        out.empty = true;
        return out;
    }
    std::uint64_t grid = grid_along(d, 0, units, per_block, block.x, loops, out.clamps[0]);
    if (loops) grid = apply_grid_policy(d, c, threads, grid, units, per_block, out.clamps[0]);
    if (w.kind == work_kind::per_block && out.clamps[0] == grid_clamp::saturated && c.rule != block_rule::tuned &&
        !w.options.grid_stated)
        out.clamps[0] = grid_clamp::saturated_short_units;
    out.config.grid = dims{grid};
    out.grid_stride = !product_exceeds(grid, per_block, units - 1);  // grid x per_block < units, exactly
    return out;
}

// configure() in closed form for 1-D work, so that a launch of planned work runs a comparison, a
// division and a minimum instead of configure() (most of a planned launch's extra instruction-cache
// lines, bench/README.md). Above `above` items or units, configure()'s block and shared memory no
// longer depend on the count and its grid is min(ceil(count / per_block), cap): the small-work rules
// (block_for_work, block_for_units) have let go, and what clamps the grid (the device, saturation) no
// longer depends on the count. At or below it, elements and per_wave work take the block of one of a
// few steps (block_for_work's threads per CU): `small` holds each step's launch, checked against
// configure() at both ends of the step when it was made. above == u64_max: no closed form (extent
// work, coarsened grids, shared memory from a function, no block that runs); small_step == 0: none
// for little work. The tests hold both to configure() for every count (test_properties.cpp).
struct count_scaling {
    // In the order a launch reads them (a launch entry keeps this near its key: device_state.hpp).
    std::uint64_t above = u64_max;
    std::uint64_t per_block = 1;  // items or units a block covers
    std::uint64_t cap = u64_max;  // the largest grid: the device's and the policy's, for a kernel that loops
    // After keep_launchable(): the most blocks config_for() may launch (0: none, the default, so that a
    // scaling nobody checked is never taken as launchable).
    std::uint64_t grid_limit = 0;

    // The block and shared memory of config_for(); the grid is set per count. Kept as these two, not
    // as a launch_config: with a grid nobody reads, the head up to here spans a cache line more.
    dims block{0};
    std::uint64_t dynamic_shared = 0;

    // Little work: the step of a count is count x lanes / small_step (block_for_work's threads per CU).
    static constexpr std::size_t small_steps = 32;
    struct step {
        std::uint32_t threads = 0;    // 0: no count falls in the step
        std::uint32_t per_block = 1;  // items or units a block covers
        std::uint64_t dynamic_shared = 0;
    };
    std::uint64_t small_step = 0;
    std::uint64_t lanes = 1;
    bool fixed_shape = false;  // the recipe's block has a shape of its own: every count launches `block`
    step small[small_steps]{};

    // The largest count of step i (the last whose count x lanes is below (i + 1) x step), at most `above`.
    static constexpr std::uint64_t last_count_of_step(std::size_t i, std::uint64_t step, std::uint64_t lanes,
                                                      std::uint64_t above) noexcept {
        return min_u64(above, ceil_div(saturating_mul(i + 1, step), lanes) - 1);
    }

    constexpr launch_config config_for(std::uint64_t count) const noexcept {
        return launch_config{dims{min_u64(ceil_div(count, per_block), cap)}, block, dynamic_shared};
    }
    // The launch of a count at or below `above`, or false where it has none (no work, no step).
    constexpr bool small_config_for(std::uint64_t count, launch_config& out) const noexcept {
        if (small_step == 0 || count == 0) return false;
        const std::uint64_t index = saturating_mul(count, lanes) / small_step;
        if (index >= small_steps || small[index].threads == 0) return false;
        out = launch_of_step(small[index], count);
        return true;
    }
    // The launch of `count` in step `s` (one of `small`).
    constexpr launch_config launch_of_step(const step& s, std::uint64_t count) const noexcept {
        return launch_config{dims{ceil_div(count, s.per_block)}, fixed_shape ? block : dims{s.threads}, s.dynamic_shared};
    }
    // Whether config_for()'s launch passes the bounds keep_launchable() was given.
    constexpr bool launchable(const launch_config& large) const noexcept {
        return large.grid.x != 0 && large.grid.x <= grid_limit;
    }

    // Keeps only launches that `bounds` lets through, so that a launch from the closed form needs no
    // other check: grid_limit for config_for(), and a step of little work whose launch is refused at
    // its largest count is dropped (its counts then take configure() and the full check). Within a step
    // only the grid changes, and a smaller grid is refused only if a larger one is (most_blocks_x).
    constexpr void keep_launchable(const launch_bounds& bounds) noexcept {
        grid_limit = bounds.most_blocks_x(block, dynamic_shared);
        if (small_step == 0) return;
        for (std::size_t i = 0; i < small_steps; ++i) {
            step& s = small[i];
            if (s.threads == 0) continue;
            if (bounds.refuses(launch_of_step(s, last_count_of_step(i, small_step, lanes, above)))) s = step{};
        }
    }
};

// Fills count_scaling's steps for little work from configure() itself: within a step the block is
// one, so each step's launch is configure()'s at the step's first count, checked at its last (a grid
// that no cap clamps there is clamped nowhere below it). No steps where one does not check out.
constexpr void add_small_steps(const device_limits& d, const launch_recipe& c, const work& w, std::uint64_t lanes,
                               count_scaling& s) noexcept {
    const std::uint64_t step = saturating_mul(d.compute_units, d.wave_size);  // block_for_work's divisor
    if (step == 0 || step == u64_max || lanes == 0) return;
    work at = w;
    const auto configure_at = [&](std::uint64_t count) {
        at.extent = dims{count, 1, 1};
        return configure(d, c, at);
    };
    count_scaling::step steps[count_scaling::small_steps]{};
    for (std::size_t i = 0; i < count_scaling::small_steps; ++i) {
        // The counts whose step is i: count x lanes from i x step to (i + 1) x step - 1.
        const std::uint64_t first = max_u64(1, ceil_div(saturating_mul(i, step), lanes));
        if (first > s.above) break;
        const std::uint64_t last = count_scaling::last_count_of_step(i, step, lanes, s.above);
        if (last < first) continue;  // a group wider than a step: no count falls in it
        const configured_launch a = configure_at(first);
        const configured_launch b = configure_at(last);
        const std::uint64_t per_block = max_u64(1, a.threads / lanes);
        const dims block = c.shape.x != 0 ? c.shape : dims{a.threads};
        const bool holds = !a.empty && !b.empty && a.threads == b.threads && a.threads <= 0xFFFFFFFFu &&
                           a.config.block == block && b.config.block == block &&
                           a.config.dynamic_shared == b.config.dynamic_shared &&
                           a.config.grid == dims{ceil_div(first, per_block)} &&
                           b.config.grid == dims{ceil_div(last, per_block)};
        if (!holds) return;
        steps[i] = {static_cast<std::uint32_t>(a.threads), static_cast<std::uint32_t>(per_block), a.config.dynamic_shared};
    }
    for (std::size_t i = 0; i < count_scaling::small_steps; ++i) s.small[i] = steps[i];
    s.small_step = step;
    s.lanes = lanes;
}

constexpr count_scaling scaling_of(const device_limits& d, const launch_recipe& c, const work& w) noexcept {
    count_scaling s{};
    if (c.threads == 0 || w.kind == work_kind::extent || w.options.shared_for_block != nullptr ||
        (c.grid == grid_policy::coarsen && c.grid_factor > 1))
        return s;
    const std::uint64_t lanes = unit_threads(d, w);
    const auto below = [](std::uint64_t from) { return from == 0 ? 0 : from - 1; };
    if (w.kind == work_kind::per_block) {
        const bool keeps_block = c.large_threads <= c.threads || c.rule == block_rule::tuned ||
                                 c.rule == block_rule::fixed_by_contract || d.compute_units == 0;
        // block_for_units keeps the recipe's block from as many units as the device holds blocks on.
        s.above = keeps_block ? 0 : below(saturating_mul(c.active_blocks_per_cu, d.compute_units));
        s.per_block = 1;
    } else {
        const bool keeps_block = d.wave_size == 0 || !c.spread_small_work || c.rule == block_rule::kernel_bound_below_wave ||
                                 c.rule == block_rule::tuned || c.rule == block_rule::fixed_by_contract ||
                                 d.compute_units == 0;
        // block_for_work keeps the recipe's block from CUs x threads threads of work on: units x lanes of them.
        s.above = keeps_block ? 0 : below(ceil_div(saturating_mul(d.compute_units, c.threads), lanes));
        s.per_block = max_u64(1, c.threads / lanes);
    }
    const dims block = c.shape.x != 0 ? c.shape : dims{c.threads};
    s.block = block;
    s.dynamic_shared = shared_for(w.options, c.threads);
    s.fixed_shape = c.shape.x != 0;
    if (w.loops()) {
        grid_clamp why = grid_clamp::none;
        s.cap = grid_cap(d, 0, block.x, why);
        // apply_grid_policy's saturation, at the recipe's own block (resident once per slot).
        if (c.grid == grid_policy::saturate && c.active_blocks_per_cu > 0)
            s.cap = min_u64(s.cap, max_u64(1, saturating_mul(max_u64(1, c.grid_factor),
                                                                saturating_mul(c.active_blocks_per_cu, d.compute_units))));
    }
    if (w.kind != work_kind::per_block && s.above != 0 && s.above != u64_max) add_small_steps(d, c, w, lanes, s);
    return s;
}

// The smallest launch that could exist: one block of one wave (or of the kernel's bound when that
// is below a wave). An infeasible plan reports the problems of this launch.
constexpr launch_config smallest_launch(const device_limits& d, const kernel_resources& k,
                                        std::uint64_t dynamic_shared) noexcept {
    const std::uint64_t probe = max_u64(1, min_u64(d.wave_size, kernel_max_threads(d, k)));
    return launch_config{dims{1}, dims{probe}, dynamic_shared};
}

// Whether one pass of `cfg` covers all of `w`: what a one-pass kernel needs.
constexpr bool covers_in_one_pass(const device_limits& d, const launch_config& cfg, const work& w) noexcept {
    // grid x per_block >= items, exactly: grid x per_block > items - 1.
    const auto covers = [](std::uint64_t grid, std::uint64_t per_block, std::uint64_t items) {
        return items == 0 || product_exceeds(grid, per_block, items - 1);
    };
    switch (w.kind) {
        case work_kind::elements: return covers(cfg.grid.volume(), cfg.block.volume(), w.extent.x);
        case work_kind::per_block: return covers(cfg.grid.volume(), 1, w.extent.x);
        case work_kind::per_wave:
            return covers(cfg.grid.volume(), cfg.block.volume() / unit_threads(d, w), w.extent.x);
        case work_kind::extent:
            for (int a = 0; a < 3; ++a)
                if (!covers(cfg.grid[a], cfg.block[a], w.extent[a])) return false;
            return true;
    }
    return false;
}

// A plan's description of its work, before anything is planned.
constexpr launch_plan plan_of_work(const device_limits& d, const work& w) noexcept {
    launch_plan p{};
    p.kind = w.kind;
    p.extent = w.extent;
    p.elements = w.size();
    p.min_efficient_block = w.options.min_efficient_block;
    p.unit_threads = unit_threads(d, w);
    p.unit_size = w.unit_size;
    p.contract = w.contract;
    return p;
}

// The plan for `w` from a given recipe: what plan() returns for the planned recipe, and what a
// tuned launch runs for a tuned one.
constexpr launch_plan plan_with_recipe(const device_limits& d, const kernel_resources& k, const work& w,
                                       const launch_recipe& c) noexcept {
    launch_plan p = plan_of_work(d, w);
    if (w.negative) {
        p.feasible = false;
        p.problems.add({diagnostic_code::negative_size, -1, false, 0, 0});
        return p;
    }
    if (c.threads == 0) {
        p.feasible = false;
        const launch_config probe = smallest_launch(d, k, shared_for(w.options, 1));
        p.problems = find_problems(d, k, probe);
        // Some block runs, but none the contract allows: say that, not what the probe found.
        if (!p.problems.has_error() && device_limits_problem(d).empty())
            p.problems.add({diagnostic_code::contract_allows_no_block, -1, false, 0, 0});
        return p;
    }
    const configured_launch cl = configure(d, c, w);
    p.feasible = true;
    p.occupancy_block = c.threads;
    p.block = cl.config.block;
    p.dynamic_shared = cl.config.dynamic_shared;
    p.rule = cl.threads < c.threads ? block_rule::spread_small_work : cl.threads > c.threads ? block_rule::few_units : c.rule;
    p.occupancy = occupancy(d, k, p.block.volume(), p.dynamic_shared);
    if (cl.empty) {
        p.empty = true;
        p.grid = dims{0, 1, 1};
        return p;
    }
    p.grid = cl.config.grid;
    p.grid_stride = cl.grid_stride;
    for (int a = 0; a < 3; ++a) p.clamps[a] = cl.clamps[a];
    p.problems = find_problems(d, k, p.config());
    p.exceeds_one_pass = !w.loops() && p.problems.has_error() &&
                         (p.problems.contains(diagnostic_code::grid_dim_exceeds_device_limit) ||
                          p.problems.contains(diagnostic_code::work_items_exceed_dispatch_limit));
    return p;
}

// The plan of a launch that keeps the configuration it replaces (work::replacing).
constexpr launch_plan plan_of_baseline(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    launch_plan p = plan_of_work(d, w);
    p.rule = block_rule::baseline;
    p.feasible = true;
    p.block = w.baseline.block;
    p.dynamic_shared = w.baseline.dynamic_shared;
    p.occupancy_block = p.block.volume();
    p.occupancy = occupancy(d, k, p.block.volume(), p.dynamic_shared);
    if (w.is_empty()) {
        p.empty = true;
        p.grid = dims{0, 1, 1};
        return p;
    }
    p.grid = w.baseline.grid;
    p.grid_stride = !covers_in_one_pass(d, w.baseline, w);
    p.problems = find_problems(d, k, w.baseline);
    if (w.negative) p.problems.add({diagnostic_code::negative_size, -1, false, 0, 0});
    return p;
}

}  // namespace detail

// Plan a launch for `w`: the block from the device, the kernel's resources and its contract, the grid
// from the work. A work that replaces a configuration (work::replacing) plans that configuration.
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    if (w.has_baseline) return detail::plan_of_baseline(d, k, w);
    return detail::plan_with_recipe(d, k, w, detail::planned_recipe(d, k, w));
}

// Plan a 1-D launch over `elements` items, one per thread (work::elements).
template <class Count, detail::if_size_type<Count> = 0>
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, Count elements,
                           const plan_options& opt = {}) noexcept {
    return plan(d, k, work::elements(elements, opt));
}

// Plan a 2-D/3-D launch over `extent`, one item per thread (work::over).
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, const dims& extent,
                           const plan_options& opt = {}) noexcept {
    return plan(d, k, work::over(extent, opt));
}

namespace detail {

// The launch `p.problems` was found for, to render them with describe(): the plan's own, or for an
// infeasible plan (whose grid and block are 0) the smallest launch that could exist.
constexpr launch_config problems_config(const launch_plan& p, const device_limits& d, const kernel_resources& k) noexcept {
    return p.feasible ? p.config() : smallest_launch(d, k, p.dynamic_shared);
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
