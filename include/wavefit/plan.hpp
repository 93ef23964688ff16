// SPDX-License-Identifier: MIT
// Choosing a launch from the work instead of hard-coding dim3(256): the block from the device and
// the kernel's own resources, the grid from the element count in 64 bits, clamped to what the
// device accepts, with a flag telling the kernel when it must grid-stride. A plan always passes
// find_problems() for the same inputs (property-tested).
#pragma once

#include <cmath>    // std::lround
#include <cstdint>  // sizes
#include <string>   // plan_reason

#include "detail/arithmetic.hpp"
#include "detail/text.hpp"
#include "device_limits.hpp"
#include "diagnostic.hpp"
#include "kernel_resources.hpp"
#include "launch_config.hpp"
#include "occupancy.hpp"
#include "validate.hpp"

namespace wavefit {

// How many blocks a 1-D plan launches.
enum class grid_policy : std::uint8_t {
    cover,     // one element per thread: grid = ceil(elements / block), clamped only by the device
    saturate,  // at most saturation_rounds x the blocks all CUs hold at once; the kernel grid-strides
};

struct plan_options {
    // Dynamic shared memory / LDS the launch will request per block.
    std::uint64_t dynamic_shared = 0;
    // Blocks smaller than this are chosen only when no larger block reaches the best occupancy.
    // Occupancy alone would pick tiny blocks (64 threads already fill an SM on paper), but block
    // scheduling then dominates: on the H200 a one-element-per-thread copy runs at 1693 GB/s with
    // block 64 against 3883 GB/s with 256 (docs/performance.md). 256 is also rocPRIM's and CUB's default.
    std::uint64_t min_efficient_block = 256;
    // Shrink the block for small work so that min(CUs, ceil(n / wave)) CUs get a block each.
    bool spread_small_work = true;
    // One element per thread suits streaming kernels: on the H200 copy/add/triad ran 5% slower with
    // a saturated grid. Kernels that amortise per-block or per-thread setup over many elements
    // (a register-heavy compute kernel, block reductions with one atomic per block) ran up to 6%
    // faster saturated (bench/RESULTS.md). 1-D plans only.
    grid_policy grid = grid_policy::cover;
    std::uint32_t saturation_rounds = 4;  // saturate: blocks per CU-slot, so the tail stays balanced
};

// Why the block has its size.
enum class block_rule : std::uint8_t {
    best_occupancy,            // the smallest block >= min_efficient_block reaching the best occupancy
    best_occupancy_below_min,  // no block >= min_efficient_block reaches it: the largest that does
    spread_small_work,         // smaller than the best-occupancy block, to reach more CUs
    kernel_bound_below_wave,   // the kernel's own bound is below one wave: the bound itself
};

// Why a grid dimension is smaller than ceil(extent / block).
enum class grid_clamp : std::uint8_t { none, device_grid_limit, dispatch_work_item_limit, saturated };

struct launch_plan {
    dims extent{0, 1, 1};        // the work: {n, 1, 1} for an element count
    std::uint64_t elements = 0;  // extent volume
    bool empty = false;          // no work: nothing is launched
    bool feasible = false;       // some configuration of this kernel can run on this device
    dims grid{0, 1, 1};
    dims block{0, 1, 1};
    std::uint64_t dynamic_shared = 0;
    // The kernel must loop: for 1-D work, grid.x * block.x < elements; for extents, some axis was
    // clamped (see clamps).
    bool grid_stride = false;
    grid_clamp clamps[3] = {grid_clamp::none, grid_clamp::none, grid_clamp::none};
    occupancy_report occupancy;
    block_rule rule = block_rule::best_occupancy;
    std::uint64_t occupancy_block = 0;  // the best-occupancy block, before spreading small work
    std::uint64_t min_efficient_block = 0;  // plan_options::min_efficient_block the plan used
    findings problems;                  // errors when infeasible; otherwise warnings only

    constexpr launch_config config() const noexcept { return {grid, block, dynamic_shared}; }
    constexpr bool ok() const noexcept { return feasible && !problems.has_error(); }
};

// The part of a plan that does not depend on how much work there is: the block size that
// reaches the best occupancy. The runtime layer caches it per (device, kernel, shared memory) so a
// repeated launch only does the cheap, work-dependent rest (block_for_work, grid_for_elements).
struct block_choice {
    std::uint64_t threads = 0;  // 0: no block of this kernel can run on this device
    block_rule rule = block_rule::best_occupancy;
    std::uint32_t active_blocks_per_cu = 0;  // residency at `threads`, for saturated grids
};

// The block volume that reaches the best occupancy, preferring blocks of at least
// opt.min_efficient_block threads; `axis_limit` caps it (max_block.x for 1-D plans).
constexpr block_choice choose_block(const device_limits& d, const kernel_resources& k, const plan_options& opt,
                                    std::uint64_t axis_limit = detail::u64_max) noexcept {
    block_choice c{};
    std::uint64_t bound = detail::min_u64(kernel_max_threads(d, k), d.max_threads_per_block);
    bound = detail::min_u64(bound, axis_limit);
    if (bound == 0 || !device_limits_problem(d).empty()) return c;

    if (bound < d.wave_size) {
        const occupancy_report r = occupancy(d, k, bound, opt.dynamic_shared);
        if (r.fits()) {
            c.threads = bound;
            c.active_blocks_per_cu = r.active_blocks_per_cu;
        }
        c.rule = block_rule::kernel_bound_below_wave;
        return c;
    }

    std::uint64_t best_waves = 0;
    for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size) {
        const occupancy_report r = occupancy(d, k, b, opt.dynamic_shared);
        if (r.fits() && r.active_waves_per_cu > best_waves) best_waves = r.active_waves_per_cu;
    }
    if (best_waves == 0) return c;

    std::uint64_t largest_at_best = 0;
    std::uint32_t largest_blocks = 0;
    for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size) {
        const occupancy_report r = occupancy(d, k, b, opt.dynamic_shared);
        if (r.active_waves_per_cu != best_waves) continue;
        largest_at_best = b;
        largest_blocks = r.active_blocks_per_cu;
        if (b >= opt.min_efficient_block) {
            c.threads = b;
            c.active_blocks_per_cu = r.active_blocks_per_cu;
            return c;
        }
    }
    c.threads = largest_at_best;
    c.active_blocks_per_cu = largest_blocks;
    c.rule = block_rule::best_occupancy_below_min;
    return c;
}

// The block for `work` items: the chosen block, or a smaller one for small work. A block of
// wave * floor(work / (CUs * wave)) threads leaves ceil(work / block) >= CUs blocks; at one wave
// per block the grid is ceil(work / wave): either way min(CUs, ceil(work / wave)) CUs get work.
constexpr std::uint64_t block_for_work(const device_limits& d, const block_choice& c, std::uint64_t work,
                                       const plan_options& opt) noexcept {
    // wave_size is a divisor below; 0 (invalid limits, found by fuzz/fuzz_check_plan) leaves c as it is.
    if (d.wave_size == 0 || !opt.spread_small_work || c.rule == block_rule::kernel_bound_below_wave || d.compute_units == 0 ||
        work == 0)
        return c.threads;
    // Large work (the common case on the launch path) needs no division: the formula below gives at
    // least c.threads exactly when work >= CUs * c.threads, c.threads being whole waves here.
    if (work >= detail::saturating_mul(d.compute_units, c.threads)) return c.threads;
    const std::uint64_t per_cu = work / detail::saturating_mul(d.compute_units, d.wave_size);
    return detail::min_u64(c.threads, detail::saturating_mul(d.wave_size, detail::max_u64(1, per_cu)));
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

// Blocks along `axis` to cover `extent` items with blocks `block_extent` wide, clamped to the
// device; `clamp` tells whether (and why) the kernel must stride along that axis.
constexpr std::uint64_t grid_for_extent(const device_limits& d, int axis, std::uint64_t extent, std::uint64_t block_extent,
                                        grid_clamp& clamp) noexcept {
    grid_clamp why = grid_clamp::none;
    const std::uint64_t cap = grid_cap(d, axis, block_extent, why);
    const std::uint64_t needed = detail::ceil_div(extent, block_extent);
    clamp = needed > cap ? why : grid_clamp::none;
    return detail::min_u64(needed, cap);
}

// Blocks for `elements` items in `threads`-thread blocks along x under the grid policy: what
// plan() and the runtime's planned launches both use, so they cannot disagree.
constexpr std::uint64_t grid_for_elements(const device_limits& d, const block_choice& c, std::uint64_t threads,
                                          std::uint64_t elements, const plan_options& opt, grid_clamp& clamp) noexcept {
    std::uint64_t grid = grid_for_extent(d, 0, elements, threads, clamp);
    if (opt.grid == grid_policy::saturate && c.active_blocks_per_cu > 0 && threads > 0) {
        // A block smaller than the chosen one (small work) is resident that many times more often.
        const std::uint64_t resident = detail::saturating_mul(detail::saturating_mul(c.active_blocks_per_cu, d.compute_units),
                                                              detail::ceil_div(c.threads, threads));
        const std::uint64_t cap = detail::max_u64(1, detail::saturating_mul(detail::max_u64(1, opt.saturation_rounds), resident));
        if (grid > cap) {
            grid = cap;
            clamp = grid_clamp::saturated;
        }
    }
    return grid;
}

namespace detail {

constexpr std::uint64_t next_pow2(std::uint64_t v) noexcept {
    std::uint64_t p = 1;
    while (p < v && p <= (u64_max >> 1)) p <<= 1;
    return p;
}

// Shapes `threads` into a block for an extent: x first (coalescing), whole waves along x when the
// extent is wide enough, powers of two along short axes so the volume stays a multiple of the wave.
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
    const std::uint64_t by = max_u64(1, min_u64(min_u64(threads / bx, next_pow2(extent.y)), d.max_block.y));
    const std::uint64_t bz = max_u64(1, min_u64(min_u64(threads / (bx * by), next_pow2(extent.z)), d.max_block.z));
    return dims{bx, by, bz};
}

// The smallest launch that could exist: one block of one wave (or of the kernel's bound when that
// is below a wave). An infeasible plan reports the problems of this launch.
constexpr launch_config smallest_launch(const device_limits& d, const kernel_resources& k,
                                        std::uint64_t dynamic_shared) noexcept {
    const std::uint64_t probe = max_u64(1, min_u64(d.wave_size, kernel_max_threads(d, k)));
    return launch_config{dims{1}, dims{probe}, dynamic_shared};
}

constexpr launch_plan infeasible_plan(launch_plan p, const device_limits& d, const kernel_resources& k) noexcept {
    p.feasible = false;
    p.problems = find_problems(d, k, smallest_launch(d, k, p.dynamic_shared));
    p.grid = dims{0, 1, 1};
    p.block = dims{0, 1, 1};
    return p;
}

}  // namespace detail

namespace detail {

// The fields every plan fills the same way from the block choice.
constexpr bool start_plan(launch_plan& p, const device_limits& d, const kernel_resources& k, const block_choice& c,
                          std::uint64_t threads, const plan_options& opt) noexcept {
    p.dynamic_shared = opt.dynamic_shared;
    p.min_efficient_block = opt.min_efficient_block;
    if (c.threads == 0) {
        p = infeasible_plan(p, d, k);
        return false;
    }
    p.feasible = true;
    p.occupancy_block = c.threads;
    p.rule = threads < c.threads ? block_rule::spread_small_work : c.rule;
    return true;
}

}  // namespace detail

// Plan a 1-D launch over `elements` items, one per thread where the device allows it.
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, std::uint64_t elements,
                           const plan_options& opt = {}) noexcept {
    launch_plan p{};
    p.extent = dims{elements, 1, 1};
    p.elements = elements;
    const block_choice c = choose_block(d, k, opt, d.max_block.x);
    const std::uint64_t threads = block_for_work(d, c, elements, opt);
    if (!detail::start_plan(p, d, k, c, threads, opt)) return p;
    p.block = dims{threads, 1, 1};
    p.occupancy = occupancy(d, k, threads, opt.dynamic_shared);
    if (elements == 0) {
        p.empty = true;
        p.grid = dims{0, 1, 1};
        return p;
    }
    p.grid = dims{grid_for_elements(d, c, threads, elements, opt, p.clamps[0]), 1, 1};
    p.grid_stride = detail::saturating_mul(p.grid.x, p.block.x) < elements;
    p.problems = find_problems(d, k, p.config());
    return p;
}

// Plan a 2-D/3-D launch over `extent`. Each axis is clamped on its own; a clamped axis must be
// strided by the kernel (the device-side grid-stride ranges do this per axis).
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, const dims& extent,
                           const plan_options& opt = {}) noexcept {
    launch_plan p{};
    p.extent = extent;
    p.elements = extent.volume();
    const block_choice c = choose_block(d, k, opt);
    const std::uint64_t threads = block_for_work(d, c, p.elements, opt);
    if (!detail::start_plan(p, d, k, c, threads, opt)) return p;
    p.block = detail::shape_block(d, threads, extent);
    p.occupancy = occupancy(d, k, p.block.volume(), opt.dynamic_shared);
    if (extent.has_zero()) {
        p.empty = true;
        p.grid = dims{0, 1, 1};
        return p;
    }
    std::uint64_t g[3] = {1, 1, 1};
    for (int a = 0; a < 3; ++a) {
        g[a] = grid_for_extent(d, a, extent[a], p.block[a], p.clamps[a]);
        if (p.clamps[a] != grid_clamp::none) p.grid_stride = true;
    }
    p.grid = dims{g[0], g[1], g[2]};
    p.problems = find_problems(d, k, p.config());
    return p;
}

// The launch `p.problems` was found for, to render them with describe(): the plan's own, or for an
// infeasible plan (whose grid and block are 0) the smallest launch that could exist.
constexpr launch_config problems_config(const launch_plan& p, const device_limits& d, const kernel_resources& k) noexcept {
    return p.feasible ? p.config() : detail::smallest_launch(d, k, p.dynamic_shared);
}

namespace detail {

// The phrases of plan_reason, also for output that shows the plan's fields beside them (the CLI).

// The rule that chose p's block, without the numbers the plan holds itself ("the smallest block of
// at least 256 threads that reaches the best occupancy"). `p` must be feasible.
inline std::string block_rule_phrase(const launch_plan& p, const device_limits& d) {
    switch (p.rule) {
        case block_rule::best_occupancy:
            return "the smallest block of at least " + num(p.min_efficient_block) +
                   " threads that reaches the best occupancy";
        case block_rule::best_occupancy_below_min:
            return "the largest block that reaches the best occupancy";
        case block_rule::spread_small_work:
            return "so that " + plural(p.elements, "element") + " spread over " +
                   num(min_u64(d.compute_units, ceil_div(p.elements, d.wave_size))) + " of the " + num(d.compute_units) +
                   " " + std::string(d.cu_word()) + "s";
        case block_rule::kernel_bound_below_wave:
            return "the kernel's own bound, below one " + num(d.wave_size) + "-thread " + std::string(d.wave_word());
    }
    return {};
}

// What the best_occupancy_below_min rule adds: why no larger block was taken.
inline std::string larger_blocks_phrase(const launch_plan& p, const device_limits& d, const kernel_resources& k) {
    return std::string("larger blocks ") +
           (p.block.volume() >= kernel_max_threads(d, k) ? "exceed the kernel's bound" : "reach less");
}

// Why grid axis `a` was clamped to p.grid[a] (after "clamped to N"), "" when it was not.
inline std::string grid_clamp_phrase(const launch_plan& p, const device_limits& d, int a) {
    switch (p.clamps[a]) {
        case grid_clamp::none: return {};
        case grid_clamp::dispatch_work_item_limit: return " by the 2^32-1 work-items-per-dimension dispatch limit";
        case grid_clamp::saturated:
            return " (a saturated grid: " + num(p.grid[a]) + " blocks keep every " + std::string(d.cu_word()) +
                   " busy, as plan_options::grid asked)";
        case grid_clamp::device_grid_limit: return " by the device's maximum grid " + std::string(axis_name(a));
    }
    return {};
}

}  // namespace detail

// One or two sentences on why the plan looks the way it does.
inline std::string plan_reason(const launch_plan& p, const device_limits& d, const kernel_resources& k) {
    using detail::num;
    const std::string wave(d.wave_word());
    const std::string cu(d.cu_word());
    const std::uint64_t threads = p.block.volume();
    if (!p.feasible) {
        const finding* f = p.problems.first_error();
        if (f == nullptr) {
            const std::string_view bad = device_limits_problem(d);
            return "no launch is possible: " + (bad.empty() ? std::string("no block size fits") : "invalid device limits (" + std::string(bad) + ")");
        }
        return "no block size can run: " + describe(*f, d, k, problems_config(p, d, k)).message;
    }

    const occupancy_report& o = p.occupancy;
    const std::string occ = num(static_cast<std::uint64_t>(std::lround(o.occupancy * 100.0))) + "% occupancy (" +
                            num(o.active_waves_per_cu) + " of " + num(o.max_waves_per_cu) + " " + wave + "s per " + cu +
                            ", limited by " + std::string(to_string(o.limited_by)) + ")";
    std::string text = "block " + num(threads) + " (" + detail::plural(detail::ceil_div(threads, d.wave_size), wave) + ")";
    const std::string rule = detail::block_rule_phrase(p, d);
    switch (p.rule) {
        case block_rule::best_occupancy:
        case block_rule::kernel_bound_below_wave: text += " is " + rule + ": " + occ; break;
        case block_rule::best_occupancy_below_min:
            text += " is " + rule + " (" + occ + "); " + detail::larger_blocks_phrase(p, d, k);
            break;
        case block_rule::spread_small_work: text += " instead of " + num(p.occupancy_block) + " " + rule + ": " + occ; break;
    }
    if (p.empty) return text + "; 0 elements: nothing to launch";

    text += "; grid " + detail::dims_text(p.grid);
    bool clamped = false;
    for (int a = 0; a < 3; ++a) {
        if (p.clamps[a] == grid_clamp::none) continue;
        clamped = true;
        text += std::string(", ") + axis_name(a) + " clamped to " + num(p.grid[a]) + detail::grid_clamp_phrase(p, d, a);
    }
    if (p.grid_stride)
        text += "; the kernel must grid-stride: one pass covers " +
                num(detail::saturating_mul(p.grid.volume(), threads)) + " of " + num(p.elements) + " elements";
    else if (!clamped)
        text += " covers " + detail::plural(p.elements, "element") + ", one per thread";
    return text;
}

}  // namespace wavefit
