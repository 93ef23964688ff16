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

// How many blocks a plan launches along x (1-D work and one block per unit; extents always cover).
enum class grid_policy : std::uint8_t {
    cover,     // one element (or unit) per thread (or block): grid = ceil(work / block), clamped only by the device
    saturate,  // at most saturation_rounds x the blocks all CUs hold at once; the kernel strides
    coarsen,   // items_per_thread elements per thread: grid = ceil(work / (block x items)); the kernel strides
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
    // faster saturated (bench/RESULTS.md).
    grid_policy grid = grid_policy::cover;
    std::uint32_t saturation_rounds = 4;  // saturate: blocks per CU-slot, so the tail stays balanced
    std::uint32_t items_per_thread = 4;   // coarsen: elements (or units) each thread (or block) takes
};

// Why the block has its size.
enum class block_rule : std::uint8_t {
    best_occupancy,            // the smallest block >= min_efficient_block reaching the best occupancy
    best_occupancy_below_min,  // no block >= min_efficient_block reaches it: the largest that does
    spread_small_work,         // smaller than the best-occupancy block, to reach more CUs
    kernel_bound_below_wave,   // the kernel's own bound is below one wave: the bound itself
    tuned,                     // measured on the device (wavefit::tune or WAVEFIT_TUNING)
};

// Why a grid dimension is smaller than ceil(extent / block).
enum class grid_clamp : std::uint8_t { none, device_grid_limit, dispatch_work_item_limit, saturated, coarsened };

// The shapes of work a planned launch covers.
enum class work_kind : std::uint8_t {
    elements,   // n items in 1-D, one per thread; the block is capped at max_block.x
    extent,     // a 2-D/3-D extent; the block is shaped x first
    per_block,  // n units (rows, tiles, heads), one per block: softmax, layernorm, attention
};

// Work for a plan: what there is to do and the options to plan it with.
struct work {
    work_kind kind = work_kind::elements;
    dims extent{0, 1, 1};  // elements and per_block: {n, 1, 1}
    plan_options options{};
    // per_block only: how many elements each unit holds (a row's length), 0 when not said. The plan
    // does not use it; the tuner keys its records on it, because the best block for a row of 8192
    // is not the best for a row of 512 of the same kernel.
    std::uint64_t unit_size = 0;

    static constexpr work elements(std::uint64_t n, const plan_options& o = {}) noexcept {
        return {work_kind::elements, dims{n, 1, 1}, o};
    }
    static constexpr work over(const dims& e, const plan_options& o = {}) noexcept { return {work_kind::extent, e, o}; }
    // One block per unit: the grid is the unit count (clamped), each block takes a unit; kernels loop
    // with wavefit::block_stride(units) so that a clamped grid still covers every unit.
    static constexpr work per_block(std::uint64_t units, const plan_options& o = {}) noexcept {
        return {work_kind::per_block, dims{units, 1, 1}, o, 0};
    }
    static constexpr work per_block(std::uint64_t units, std::uint64_t unit_size, const plan_options& o = {}) noexcept {
        return {work_kind::per_block, dims{units, 1, 1}, o, unit_size};
    }
    // Elements, extent volume or units: what "how much work" means for this kind (saturating).
    constexpr std::uint64_t size() const noexcept { return extent.volume(); }
    constexpr bool is_empty() const noexcept { return extent.has_zero(); }
};

struct launch_plan {
    work_kind kind = work_kind::elements;
    dims extent{0, 1, 1};        // the work: {n, 1, 1} for an element or unit count
    std::uint64_t elements = 0;  // extent volume (units for per_block)
    bool empty = false;          // no work: nothing is launched
    bool feasible = false;       // some configuration of this kernel can run on this device
    dims grid{0, 1, 1};
    dims block{0, 1, 1};
    std::uint64_t dynamic_shared = 0;
    // The kernel must loop: for 1-D work, grid.x * block.x < elements; for per_block work, grid.x <
    // units; for extents, some axis was clamped (see clamps).
    bool grid_stride = false;
    grid_clamp clamps[3] = {grid_clamp::none, grid_clamp::none, grid_clamp::none};
    occupancy_report occupancy;
    block_rule rule = block_rule::best_occupancy;
    std::uint64_t occupancy_block = 0;      // the best-occupancy block, before spreading small work
    std::uint64_t min_efficient_block = 0;  // plan_options::min_efficient_block the plan used
    findings problems;                      // errors when infeasible; otherwise warnings only

    constexpr launch_config config() const noexcept { return {grid, block, dynamic_shared}; }
    constexpr bool ok() const noexcept { return feasible && !problems.has_error(); }
};

namespace detail {

// What a configuration follows from, apart from how much work there is: the block (chosen once per
// kernel, device and options, or measured by the tuner) and the grid policy. The runtime caches
// one per kernel so that a launch only runs configure(); plan() and the tuner build theirs the same way.
struct launch_recipe {
    std::uint64_t threads = 0;  // block volume; 0: no block of this kernel can run on this device
    dims shape{0, 0, 0};        // extents: the block's shape when it was chosen (tuned); x = 0 shapes it from threads
    block_rule rule = block_rule::best_occupancy;
    std::uint32_t active_blocks_per_cu = 0;  // residency at `threads`, for saturated grids
    grid_policy grid = grid_policy::cover;
    std::uint32_t grid_factor = 1;  // saturation rounds or items per thread
    bool spread_small_work = true;

    friend constexpr bool operator==(const launch_recipe& a, const launch_recipe& b) noexcept {
        return a.threads == b.threads && a.shape == b.shape && a.rule == b.rule &&
               a.active_blocks_per_cu == b.active_blocks_per_cu && a.grid == b.grid && a.grid_factor == b.grid_factor &&
               a.spread_small_work == b.spread_small_work;
    }
};

// The block volume that reaches the best occupancy, preferring blocks of at least
// opt.min_efficient_block threads; `axis_limit` caps it (max_block.x for 1-D plans).
constexpr launch_recipe choose_block(const device_limits& d, const kernel_resources& k, const plan_options& opt,
                                     std::uint64_t axis_limit = u64_max) noexcept {
    launch_recipe c{};
    std::uint64_t bound = min_u64(kernel_max_threads(d, k), d.max_threads_per_block);
    bound = min_u64(bound, axis_limit);
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

// The recipe of an untuned plan: the best-occupancy block under the work's options.
constexpr launch_recipe planned_recipe(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    const plan_options& opt = w.options;
    launch_recipe c = choose_block(d, k, opt, w.kind == work_kind::extent ? u64_max : d.max_block.x);
    c.grid = w.kind == work_kind::extent ? grid_policy::cover : opt.grid;
    c.grid_factor = c.grid == grid_policy::saturate  ? opt.saturation_rounds
                    : c.grid == grid_policy::coarsen ? opt.items_per_thread
                                                     : 1;
    // One block per unit is the kernel's own decomposition: its block is not shrunk for few units.
    c.spread_small_work = opt.spread_small_work && w.kind != work_kind::per_block;
    return c;
}

// The block for `work` items: the recipe's block, or a smaller one for small work. A block of
// wave * floor(work / (CUs * wave)) threads leaves ceil(work / block) >= CUs blocks; at one wave
// per block the grid is ceil(work / wave): either way min(CUs, ceil(work / wave)) CUs get work.
constexpr std::uint64_t block_for_work(const device_limits& d, const launch_recipe& c, std::uint64_t work) noexcept {
    // wave_size is a divisor below; 0 (invalid limits, found by fuzz/fuzz_check_plan) leaves c as it is.
    if (d.wave_size == 0 || !c.spread_small_work || c.rule == block_rule::kernel_bound_below_wave ||
        c.rule == block_rule::tuned || d.compute_units == 0 || work == 0)
        return c.threads;
    // Large work (the common case on the launch path) needs no division: the formula below gives at
    // least c.threads exactly when work >= CUs * c.threads, c.threads being whole waves here.
    if (work >= saturating_mul(d.compute_units, c.threads)) return c.threads;
    const std::uint64_t per_cu = work / saturating_mul(d.compute_units, d.wave_size);
    return min_u64(c.threads, saturating_mul(d.wave_size, max_u64(1, per_cu)));
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

// Blocks along `axis` to cover `items` with `per_block` items per block, clamped to the device for
// blocks `block_extent` threads wide on that axis; `clamp` tells whether (and why) the kernel strides.
constexpr std::uint64_t grid_along(const device_limits& d, int axis, std::uint64_t items, std::uint64_t per_block,
                                   std::uint64_t block_extent, grid_clamp& clamp) noexcept {
    grid_clamp why = grid_clamp::none;
    const std::uint64_t cap = grid_cap(d, axis, block_extent, why);
    const std::uint64_t needed = ceil_div(items, per_block);
    clamp = needed > cap ? why : grid_clamp::none;
    return min_u64(needed, cap);
}

// The grid policy applied to a covering grid along x (1-D and per-block work).
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

// A configuration for work, from a recipe: the one function that computes grids and blocks. plan(),
// the runtime's planned launches and the tuner's candidates all come from here.
struct configured_launch {
    launch_config config{dims{0}, dims{0}};
    std::uint64_t threads = 0;  // the recipe's block for this much work (before an extent shapes it)
    grid_clamp clamps[3] = {grid_clamp::none, grid_clamp::none, grid_clamp::none};
    bool grid_stride = false;
    bool empty = false;  // no work: config has grid 0 and the block the work would get
};

constexpr configured_launch configure(const device_limits& d, const launch_recipe& c, const work& w) noexcept {
    configured_launch out{};
    const std::uint64_t dynamic_shared = w.options.dynamic_shared;
    switch (w.kind) {
        case work_kind::elements: {
            const std::uint64_t n = w.extent.x;
            const std::uint64_t threads = block_for_work(d, c, n);
            out.threads = threads;
            out.config = launch_config{dims{0}, dims{threads}, dynamic_shared};
            if (n == 0) {
                out.empty = true;
                return out;
            }
            std::uint64_t grid = grid_along(d, 0, n, threads, threads, out.clamps[0]);
            grid = apply_grid_policy(d, c, threads, grid, n, threads, out.clamps[0]);
            out.config.grid = dims{grid};
            out.grid_stride = !product_exceeds(grid, threads, n - 1);  // grid x threads < n, exactly
            return out;
        }
        case work_kind::per_block: {
            const std::uint64_t units = w.extent.x;
            out.threads = c.threads;
            out.config = launch_config{dims{0}, dims{c.threads}, dynamic_shared};
            if (units == 0) {
                out.empty = true;
                return out;
            }
            std::uint64_t grid = grid_along(d, 0, units, 1, c.threads, out.clamps[0]);
            grid = apply_grid_policy(d, c, c.threads, grid, units, 1, out.clamps[0]);
            out.config.grid = dims{grid};
            out.grid_stride = grid < units;
            return out;
        }
        case work_kind::extent: {
            const std::uint64_t threads = block_for_work(d, c, w.size());
            out.threads = threads;
            const dims block = c.shape.x != 0 ? c.shape : shape_block(d, threads, w.extent);
            out.config = launch_config{dims{0}, block, dynamic_shared};
            if (w.is_empty()) {
                out.empty = true;
                return out;
            }
            std::uint64_t g[3] = {1, 1, 1};
            for (int a = 0; a < 3; ++a) {
                g[a] = grid_along(d, a, w.extent[a], block[a], block[a], out.clamps[a]);
                if (out.clamps[a] != grid_clamp::none) out.grid_stride = true;
            }
            out.config.grid = dims{g[0], g[1], g[2]};
            return out;
        }
    }
    return out;
}

// The smallest launch that could exist: one block of one wave (or of the kernel's bound when that
// is below a wave). An infeasible plan reports the problems of this launch.
constexpr launch_config smallest_launch(const device_limits& d, const kernel_resources& k,
                                        std::uint64_t dynamic_shared) noexcept {
    const std::uint64_t probe = max_u64(1, min_u64(d.wave_size, kernel_max_threads(d, k)));
    return launch_config{dims{1}, dims{probe}, dynamic_shared};
}

// The plan for `w` from a given recipe: what plan() returns for the planned recipe, and what a
// tuned launch runs for a tuned one.
constexpr launch_plan plan_with_recipe(const device_limits& d, const kernel_resources& k, const work& w,
                                       const launch_recipe& c) noexcept {
    launch_plan p{};
    p.kind = w.kind;
    p.extent = w.extent;
    p.elements = w.size();
    p.dynamic_shared = w.options.dynamic_shared;
    p.min_efficient_block = w.options.min_efficient_block;
    if (c.threads == 0) {
        p.feasible = false;
        p.problems = find_problems(d, k, smallest_launch(d, k, p.dynamic_shared));
        return p;
    }
    const configured_launch cl = configure(d, c, w);
    p.feasible = true;
    p.occupancy_block = c.threads;
    p.block = cl.config.block;
    p.rule = cl.threads < c.threads ? block_rule::spread_small_work : c.rule;
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
    return p;
}

}  // namespace detail

// Plan a launch for `w`: the block from the device and the kernel's resources, the grid from the work.
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, const work& w) noexcept {
    return detail::plan_with_recipe(d, k, w, detail::planned_recipe(d, k, w));
}

// Plan a 1-D launch over `elements` items, one per thread where the device allows it.
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, std::uint64_t elements,
                           const plan_options& opt = {}) noexcept {
    return plan(d, k, work::elements(elements, opt));
}

// Plan a 2-D/3-D launch over `extent`. Each axis is clamped on its own; a clamped axis must be
// strided by the kernel (the device-side grid-stride ranges do this per axis).
constexpr launch_plan plan(const device_limits& d, const kernel_resources& k, const dims& extent,
                           const plan_options& opt = {}) noexcept {
    return plan(d, k, work::over(extent, opt));
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
        case block_rule::best_occupancy_below_min: return "the largest block that reaches the best occupancy";
        case block_rule::spread_small_work:
            return "so that " + plural(p.elements, "element") + " spread over " +
                   num(min_u64(d.compute_units, ceil_div(p.elements, d.wave_size))) + " of the " + num(d.compute_units) +
                   " " + std::string(d.cu_word()) + "s";
        case block_rule::kernel_bound_below_wave:
            return "the kernel's own bound, below one " + num(d.wave_size) + "-thread " + std::string(d.wave_word());
        case block_rule::tuned: return "was measured fastest on this device (a tuning record)";
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
        case grid_clamp::coarsened:
            return std::string(" (a coarsened grid: several items per ") +
                   (p.kind == work_kind::per_block ? "block" : "thread") + ", as plan_options::grid asked)";
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
            return "no launch is possible: " +
                   (bad.empty() ? std::string("no block size fits") : "invalid device limits (" + std::string(bad) + ")");
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
        case block_rule::tuned: text += " " + rule + ": " + occ; break;
    }
    if (p.empty) return text + "; 0 elements: nothing to launch";

    text += "; grid " + detail::dims_text(p.grid);
    bool clamped = false;
    for (int a = 0; a < 3; ++a) {
        if (p.clamps[a] == grid_clamp::none) continue;
        clamped = true;
        text += std::string(", ") + axis_name(a) + " clamped to " + num(p.grid[a]) + detail::grid_clamp_phrase(p, d, a);
    }
    if (p.kind == work_kind::per_block) {
        if (p.grid_stride)
            text += "; the kernel must block-stride: one pass covers " + num(p.grid.x) + " of " + num(p.elements) + " units";
        else if (!clamped)
            text += " covers " + detail::plural(p.elements, "unit") + ", one per block";
        return text;
    }
    if (p.grid_stride)
        text += "; the kernel must grid-stride: one pass covers " + num(detail::saturating_mul(p.grid.volume(), threads)) +
                " of " + num(p.elements) + " elements";
    else if (!clamped)
        text += " covers " + detail::plural(p.elements, "element") + ", one per thread";
    return text;
}

}  // namespace wavefit
