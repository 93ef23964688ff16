// SPDX-License-Identifier: MIT
// The launch rules without their words: every rule the runtimes enforce (and the ones they do not
// report, such as register pressure or AMD's 2^32 work-item cap) as numbers (find_problems, constexpr
// and allocation-free), the bounds a launch entry keeps (launch_bounds) and the one predicate,
// is_launchable. What a launch file compiles: validate.hpp adds the messages (describe, check()), which
// a launch file leaves to the registered explainer (runtime/launch_explainer.hpp), so it does not
// even parse them.
#pragma once

#include <cstdint>  // sizes

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../diagnostic.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../occupancy.hpp"
#include "arithmetic.hpp"
#include "grid_fill.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The kernel's own bound, or the device's maximum where the kernel has none.
constexpr std::uint64_t kernel_max_threads(const device_limits& d, const kernel_resources& k) noexcept {
    return k.max_threads_per_block == 0 ? d.max_threads_per_block : k.max_threads_per_block;
}

// Every problem of launching `k` with `cfg` on `d`, as numbers. Errors and warnings; no strings.
constexpr findings find_problems(const device_limits& d, const kernel_resources& k, const launch_config& cfg) noexcept {
    findings out;
    const dims& grid = cfg.grid;
    const dims& block = cfg.block;

    // A size given as a negative number is refused whatever else is wrong with it.
    if (cfg.has_negative())
        out.add({diagnostic_code::negative_size, -1, grid.negative, 0, cfg.negative_shared ? 1u : 0u});
    for (int a = 0; a < 3; ++a)
        if (grid[a] == 0) out.add({diagnostic_code::zero_dimension, a, true, 0, 1});
    for (int a = 0; a < 3; ++a)
        if (block[a] == 0) out.add({diagnostic_code::zero_dimension, a, false, 0, 1});

    for (int a = 0; a < 3; ++a)
        if (block[a] > d.max_block[a])
            out.add({diagnostic_code::block_dim_exceeds_device_limit, a, false, block[a], d.max_block[a]});

    const std::uint64_t threads = block.volume();
    const std::uint64_t kernel_max = kernel_max_threads(d, k);
    if (threads > d.max_threads_per_block)
        out.add({diagnostic_code::block_exceeds_device_max_threads, -1, false, threads, d.max_threads_per_block});
    if (k.max_threads_per_block != 0 && threads > k.max_threads_per_block)
        out.add({diagnostic_code::block_exceeds_kernel_max_threads, -1, false, threads, k.max_threads_per_block});

    for (int a = 0; a < 3; ++a)
        if (grid[a] > d.max_grid[a])
            out.add({diagnostic_code::grid_dim_exceeds_device_limit, a, true, grid[a], d.max_grid[a]});

    if (d.max_work_items_per_dimension != 0)
        for (int a = 0; a < 3; ++a)
            if (product_exceeds(grid[a], block[a], d.max_work_items_per_dimension))
                // The value saturates at 2^64-1 for a product beyond it; describe() then says "more than".
                out.add({diagnostic_code::work_items_exceed_dispatch_limit, a, true, saturating_mul(grid[a], block[a]),
                         d.max_work_items_per_dimension});

    // Registers only matter for a block the device and the kernel would otherwise accept.
    const bool shape_ok = threads > 0 && threads <= d.max_threads_per_block && threads <= kernel_max;
    if (k.registers > 0 && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread) {
        out.add({diagnostic_code::registers_exceed_limit, -1, false, k.registers, d.max_registers_per_thread});
    } else if (shape_ok && k.registers > 0 && device_limits_problem(d).empty() &&
               occupancy(d, k, threads, cfg.dynamic_shared).limits.registers == 0) {
        out.add({diagnostic_code::registers_exceed_limit, -1, false, k.registers, max_registers_for_block(d, threads)});
    }
    // SGPRs are allocated per wave: when the SIMDs' scalar budget cannot hold the block's waves, the
    // block never becomes resident (the occupancy model says 0 blocks), so it is an error too.
    if (shape_ok && k.scalar_registers > 0 && d.scalar_registers_per_simd > 0 && device_limits_problem(d).empty() &&
        occupancy(d, k, threads, cfg.dynamic_shared).limits.scalar_registers == 0)
        out.add({diagnostic_code::registers_exceed_limit, -1, false, k.scalar_registers, d.scalar_registers_per_simd, true});

    const std::uint64_t shared = saturating_add(k.static_shared, cfg.dynamic_shared);
    if (!shared_fits_one_block(d, shared))
        out.add({diagnostic_code::shared_memory_exceeds_limit, -1, false, shared, d.shared_per_block_optin});
    else if (shared > d.shared_per_block && d.shared_per_block_optin > d.shared_per_block)
        out.add({diagnostic_code::shared_memory_requires_opt_in, -1, false, shared, d.shared_per_block});

    if (threads > 0 && d.wave_size != 0 && threads % d.wave_size != 0)
        out.add({diagnostic_code::block_not_wave_multiple, -1, false, threads, d.wave_size});
    return out;
}

// The part of find_problems' verdict that depends on the device and the kernel only, computed once:
// the launch's shape against the device and the kernel's bound (registers included, as a thread
// count: register_bound_threads), and its shared memory. The runtime keeps one in each launch entry,
// beside the recipe, so that a launch compares with numbers it has already fetched instead of reading
// the device's and the kernel's records: a launch's overhead is mostly cache lines (bench/README.md).
struct launch_bounds {
    std::uint64_t max_block[3] = {0, 0, 0};
    std::uint64_t max_grid[3] = {0, 0, 0};
    std::uint64_t max_work_items = 0;  // grid x block per dimension (AMD's dispatch limit); 0: none
    std::uint64_t max_threads = 0;     // the device's, the kernel's own bound and its registers', the least
    std::uint64_t static_shared = 0;
    std::uint64_t shared_room = 0;  // static + dynamic shared memory fits one block below this (occupancy.hpp)

    // `register_bound`: register_bound_threads(d, k), or u64_max to leave registers out.
    static constexpr launch_bounds of(const device_limits& d, const kernel_resources& k,
                                      std::uint64_t register_bound) noexcept {
        launch_bounds b;
        for (int a = 0; a < 3; ++a) {
            b.max_block[a] = d.max_block[a];
            b.max_grid[a] = d.max_grid[a];
        }
        b.max_work_items = d.max_work_items_per_dimension;
        b.max_threads = min_u64(d.max_threads_per_block, register_bound);
        if (k.max_threads_per_block != 0) b.max_threads = min_u64(b.max_threads, k.max_threads_per_block);
        b.static_shared = k.static_shared;
        b.shared_room = detail::shared_room(shared_fit_limits_of(d));
        return b;
    }

    // Whether a launch of `cfg` breaks one of these limits.
    WAVEFIT_ALWAYS_INLINE constexpr bool refuses(const launch_config& cfg) const noexcept {
        const dims& grid = cfg.grid;
        const dims& block = cfg.block;
        if (grid.has_zero() || block.has_zero() || cfg.has_negative()) return true;
        for (int a = 0; a < 3; ++a) {
            if (block[a] > max_block[a] || grid[a] > max_grid[a]) return true;
            if (max_work_items != 0 && product_exceeds(grid[a], block[a], max_work_items)) return true;
        }
        if (block.volume() > max_threads) return true;
        return saturating_add(static_shared, cfg.dynamic_shared) >= shared_room;
    }

    // The most blocks along x a launch of `block` and `dynamic_shared` may have with a grid of {g, 1, 1}:
    // refuses() lets it through exactly for 1 <= g <= this (0: for no g). Only the grid's x limit and the
    // work items per dimension depend on g, and both only grow with it; a planned launch whose block and
    // shared memory are fixed then compares its grid with one number (count_scaling::keep_launchable).
    constexpr std::uint64_t most_blocks_x(const dims& block, std::uint64_t dynamic_shared) const noexcept {
        if (refuses(launch_config{dims{1}, block, dynamic_shared})) return 0;
        // block.x >= 1 here, and grid x block.x exceeds max_work_items exactly when grid > max_work_items / block.x.
        return max_work_items != 0 ? min_u64(max_grid[0], max_work_items / block.x) : max_grid[0];
    }
};

// The checks both fast verdicts share: everything but the registers (computed, or precomputed per kernel).
constexpr bool shape_or_shared_errors(const device_limits& d, const kernel_resources& k, const launch_config& cfg) noexcept {
    return launch_bounds::of(d, k, u64_max).refuses(cfg);
}

// The verdict of find_problems(d, k, cfg).has_error(), with comparisons and a few divisions only:
// is_launchable runs this, and findings (and messages) are built only when it says there is an error.
// A CPU test checks the two agree on random devices, kernels and configurations.
constexpr bool has_launch_errors(const device_limits& d, const kernel_resources& k, const launch_config& cfg) noexcept {
    if (shape_or_shared_errors(d, k, cfg)) return true;
    if (k.registers > 0 && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread) return true;
    if ((k.registers > 0 || k.scalar_registers > 0) && device_limits_problem(d).empty()) {
        const std::uint64_t waves_per_block = ceil_div(cfg.block.volume(), d.wave_size);
        return register_block_limit(d, k.registers, waves_per_block) == 0 ||
               scalar_register_block_limit(d, k.scalar_registers, waves_per_block) == 0;
    }
    return false;
}

// The most threads per block the kernel's vector and scalar registers let one CU/SM hold (a whole
// number of waves; 0 if not even one wave fits; u64_max when registers do not limit). The runtime
// computes it once per kernel, so the launch path compares instead of dividing.
constexpr std::uint64_t register_bound_threads(const device_limits& d, const kernel_resources& k) noexcept {
    if (k.registers == 0 && k.scalar_registers == 0) return u64_max;
    // Before the validity test: find_problems reports too many registers per thread on any device
    // (fuzz/fuzz_check_plan found the launch path's verdict disagreeing for invalid limits).
    if (k.registers > 0 && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread) return 0;
    if (!device_limits_problem(d).empty()) return u64_max;
    std::uint64_t waves = 0;
    // Residency only falls as blocks gain waves: count up to the first block that does not fit.
    for (std::uint64_t w = 1; w <= ceil_div(d.max_threads_per_block, d.wave_size); ++w) {
        if (register_block_limit(d, k.registers, w) == 0 || scalar_register_block_limit(d, k.scalar_registers, w) == 0)
            break;
        waves = w;
    }
    return waves == ceil_div(d.max_threads_per_block, d.wave_size) ? u64_max : waves * d.wave_size;
}

// has_launch_errors with the kernel's register bound precomputed (register_bound_threads): the verdict
// of every launch, whose entry keeps the launch_bounds.
constexpr bool has_launch_errors(const device_limits& d, const kernel_resources& k, const launch_config& cfg,
                                 std::uint64_t register_bound) noexcept {
    return launch_bounds::of(d, k, register_bound).refuses(cfg);
}

// Whether launching `k` with `cfg` on `d` can work: no diagnostic of find_problems() is an error
// (warnings allowed). The one predicate of wavefit; it is cheap (comparisons and a few divisions)
// and allocates nothing. find_problems() and check() say what is wrong.
constexpr bool is_launchable(const device_limits& d, const kernel_resources& k, const launch_config& cfg) noexcept {
    return !has_launch_errors(d, k, cfg);
}
}  // namespace detail
WAVEFIT_END_NAMESPACE
