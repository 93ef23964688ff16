// SPDX-License-Identifier: MIT
// Properties of the planning core over thousands of random but sane devices, kernels, element counts
// and extents (seeded std::mt19937_64; the seed is printed with every failure). The rules that
// decide validity are written out again here, independently of validate.hpp, and compared with
// find_problems() in both directions.
#include <catch2/catch.hpp>

#include "describe_case.hpp"
#include "support.hpp"

#include <wavefit/device_limits.hpp>
#include <wavefit/diagnostic.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/launch_config.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/tuning_records.hpp>
#include <wavefit/validate.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using wavefit::device_limits;
using wavefit::diagnostic_code;
using wavefit::dims;
using wavefit::kernel_resources;
using wavefit::launch_config;

using spec::describe_device;
using spec::describe_kernel;
using spec::u64_max;
using spec::with_registers;
// A fixed seed keeps CI reproducible; WAVEFIT_PROPERTY_SEED=N explores others (the seed in use is
// printed with every failure).
std::uint64_t seed_in_use() {
    if (const char* text = std::getenv("WAVEFIT_PROPERTY_SEED")) return std::strtoull(text, nullptr, 0);
    return 0x5eed'2026'0917ULL;
}
const std::uint64_t seed = seed_in_use();

class random_source {
public:
    explicit random_source(std::uint64_t s) : engine_(s) {}
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) {  // inclusive
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(engine_);
    }
    bool chance(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_) < p; }
    template <typename T, std::size_t N>
    T pick(const std::array<T, N>& options) {
        return options[static_cast<std::size_t>(between(0, N - 1))];
    }
    std::uint32_t between32(std::uint64_t lo, std::uint64_t hi) { return static_cast<std::uint32_t>(between(lo, hi)); }

private:
    std::mt19937_64 engine_;
};

using spec::ceil_div;
std::uint64_t round_up(std::uint64_t a, std::uint64_t unit) {
    if (unit <= 1) return a;
    const std::uint64_t r = a % unit;
    if (r == 0) return a;
    return a > u64_max - (unit - r) ? u64_max : a + (unit - r);
}
// a x b > limit without computing the product.
bool product_exceeds(std::uint64_t a, std::uint64_t b, std::uint64_t limit) { return b != 0 && a > limit / b; }
std::uint64_t product_or_max(std::uint64_t a, std::uint64_t b) { return (b != 0 && a > u64_max / b) ? u64_max : a * b; }
std::uint64_t volume(const dims& d) { return product_or_max(product_or_max(d.x, d.y), d.z); }

// A device as a runtime could describe it: AMD-like (wave 32/64, LDS without opt-in, optional SGPR
// budget and work-item cap) or NVIDIA-like (reserved shared memory, 128-byte allocation, per-block
// register cap, block slots). Limits may be tiny; they are always self-consistent (what one block may
// use also fits the CU/SM, and the CU/SM can hold the largest block's waves).
device_limits random_device(random_source& rnd) {
    device_limits d{};
    const bool amd = rnd.chance(0.5);
    d.name.assign(amd ? "random AMD" : "random NVIDIA");
    d.arch.assign(amd ? "gfxRND" : "sm_RND");
    d.vendor = amd ? wavefit::device_limits::vendor_kind::amd : wavefit::device_limits::vendor_kind::nvidia;
    d.wave_size = rnd.chance(0.5) ? 32 : 64;
    d.max_threads_per_block = rnd.pick(std::array<std::uint32_t, 9>{1, 16, 32, 64, 100, 256, 768, 1024, 2048});
    if (rnd.chance(0.2)) d.max_threads_per_block = rnd.between32(1, 2048);
    auto block_limit = [&] {
        return rnd.chance(0.6) ? std::uint64_t{d.max_threads_per_block}
                               : rnd.pick(std::array<std::uint64_t, 7>{1, 2, 7, 16, 64, 1024, 4096});
    };
    d.max_block = dims{block_limit(), block_limit(), block_limit()};
    d.max_grid = dims{rnd.pick(std::array<std::uint64_t, 6>{1, 2, 1000, 65535, 2147483647u, 4294967295u}),
                      rnd.pick(std::array<std::uint64_t, 5>{1, 3, 1000, 65535, 65536}),
                      rnd.pick(std::array<std::uint64_t, 5>{1, 3, 1000, 65535, 65536})};
    d.max_work_items_per_dimension = amd && rnd.chance(0.7) ? 4294967295u : 0;
    d.compute_units = rnd.between32(1, 1000);

    d.simds_per_cu = rnd.between32(1, 4);
    // Enough wave slots for the largest block: max_threads_per_cu >= max_threads_per_block.
    const std::uint64_t waves_needed = ceil_div(d.max_threads_per_block, d.wave_size);
    const std::uint64_t per_simd_needed = ceil_div(waves_needed, d.simds_per_cu);
    d.max_waves_per_simd = static_cast<std::uint32_t>(per_simd_needed + rnd.between(0, 16));
    d.max_blocks_per_cu = amd ? 0 : rnd.pick(std::array<std::uint32_t, 3>{1, 16, 32});

    if (amd) {
        const std::uint64_t lds = rnd.pick(std::array<std::uint64_t, 6>{0, 1024, 16384, 32768, 65536, 163840});
        d.shared_per_block = d.shared_per_block_optin = d.shared_per_cu = lds;
        d.shared_reserved_per_block = 0;
        d.shared_allocation_unit = 1;
        d.registers_per_simd_lane = rnd.pick(std::array<std::uint32_t, 5>{0, 256, 512, 1024, 1536});
        d.register_granule = rnd.pick(std::array<std::uint32_t, 5>{1, 4, 8, 16, 24});
        d.max_registers_per_thread = rnd.pick(std::array<std::uint32_t, 4>{0, 255, 256, 512});
        d.max_registers_per_block = 0;
        d.scalar_registers_per_simd = rnd.chance(0.5) ? 800 : 0;
        d.scalar_register_granule = 16;
    } else {
        d.shared_reserved_per_block = rnd.chance(0.8) ? 1024 : 0;
        d.shared_allocation_unit = rnd.pick(std::array<std::uint32_t, 3>{1, 128, 256});
        d.shared_per_cu = rnd.pick(std::array<std::uint64_t, 5>{16384, 65536, 102400, 167936, 233472});
        d.shared_per_block = std::min<std::uint64_t>(49152, d.shared_per_cu - d.shared_reserved_per_block);
        // Opt-in such that one block of the largest allowed size still fits the SM.
        const std::uint64_t most = d.shared_per_cu - d.shared_reserved_per_block - d.shared_allocation_unit;
        d.shared_per_block_optin =
            rnd.chance(0.3) ? d.shared_per_block : rnd.between(d.shared_per_block, std::max(most, d.shared_per_block));
        d.registers_per_simd_lane = rnd.pick(std::array<std::uint32_t, 3>{256, 512, 1024});
        d.register_granule = rnd.pick(std::array<std::uint32_t, 2>{8, 16});
        d.max_registers_per_thread = rnd.pick(std::array<std::uint32_t, 2>{255, 0});
        d.max_registers_per_block = rnd.pick(std::array<std::uint32_t, 3>{0, 32768, 65536});
        d.scalar_registers_per_simd = 0;
    }
    return d;
}

kernel_resources random_kernel(random_source& rnd, const device_limits& d) {
    kernel_resources k{};
    const std::uint64_t register_top = d.max_registers_per_thread != 0
                                           ? d.max_registers_per_thread
                                           : (d.registers_per_simd_lane != 0 ? d.registers_per_simd_lane : 256);
    k.registers = rnd.chance(0.2) ? 0 : rnd.between32(1, register_top + 10);
    // Scalar registers a real gfx9 kernel can have (up to 102 + VCC/XNACK/flat scratch, 112 at most).
    k.scalar_registers = rnd.chance(0.5) ? 0 : rnd.between32(1, 112);
    const std::uint64_t optin = d.shared_per_block_optin;
    switch (rnd.between(0, 4)) {
        case 0: k.static_shared = 0; break;
        case 1: k.static_shared = rnd.between(0, optin); break;
        case 2: k.static_shared = optin; break;
        case 3: k.static_shared = optin + rnd.between(1, 4096); break;
        default: k.static_shared = rnd.between(0, optin / 4); break;
    }
    k.max_threads_per_block = rnd.chance(0.4) ? 0 : rnd.between32(1, 1100);
    return k;
}

std::uint64_t random_dynamic(random_source& rnd, const device_limits& d, const kernel_resources& k) {
    if (rnd.chance(0.5)) return 0;
    const std::uint64_t room = d.shared_per_block_optin > k.static_shared ? d.shared_per_block_optin - k.static_shared : 0;
    return rnd.chance(0.9) ? rnd.between(0, room) : room + rnd.between(1, 1000);
}

std::uint64_t random_elements(random_source& rnd) {
    switch (rnd.between(0, 6)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return rnd.between(2, 5000);
        case 3: {
            const std::uint64_t p = std::uint64_t{1} << rnd.between(1, 63);
            return rnd.chance(0.5) ? p - 1 : p + 1;
        }
        case 4: return u64_max - rnd.between(0, 2);
        case 5: return std::uint64_t{1} << rnd.between(0, 63);
        default: return rnd.between(5000, std::uint64_t{1} << 40);
    }
}

dims random_extent(random_source& rnd) {
    auto axis = [&]() -> std::uint64_t {
        switch (rnd.between(0, 5)) {
            case 0: return 1;
            case 1: return rnd.between(2, 100);
            case 2: return rnd.between(100, 1u << 20);
            case 3: return std::uint64_t{1} << rnd.between(16, 40);
            case 4: return rnd.chance(0.1) ? 0 : rnd.between(1, 70000);
            default: return rnd.chance(0.05) ? u64_max / rnd.between(1, 3) : rnd.between(1, 4096);
        }
    };
    return dims{axis(), axis(), axis()};
}

// --- the validity rules, restated ----------------------------------------------------------------

std::uint64_t kernel_bound(const device_limits& d, const kernel_resources& k) {
    return k.max_threads_per_block == 0 ? d.max_threads_per_block
                                        : std::min<std::uint64_t>(k.max_threads_per_block, d.max_threads_per_block);
}

bool registers_fit(const device_limits& d, const kernel_resources& k, std::uint64_t threads) {
    if (k.registers == 0 || d.registers_per_simd_lane == 0) return true;
    if (d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread) return false;
    const std::uint64_t per_lane = round_up(k.registers, d.register_granule);
    const std::uint64_t waves_per_simd = d.registers_per_simd_lane / per_lane;
    const std::uint64_t waves = ceil_div(threads, d.wave_size);
    if (waves > waves_per_simd * d.simds_per_cu) return false;
    // NVIDIA's per-block check with warps rounded up to the sub-partitions.
    if (d.max_registers_per_block != 0 &&
        per_lane * d.wave_size * round_up(waves, d.simds_per_cu) > d.max_registers_per_block)
        return false;
    return true;
}

bool shared_fits(const device_limits& d, std::uint64_t total) {
    if (d.shared_reserved_per_block == 0 && d.shared_allocation_unit <= 1) return total <= d.shared_per_block_optin;
    if (total > u64_max - d.shared_reserved_per_block) return false;
    return round_up(total + d.shared_reserved_per_block, d.shared_allocation_unit) <=
           d.shared_per_block_optin + d.shared_reserved_per_block;
}

struct expected_codes {
    std::array<int, wavefit::detail::diagnostic_code_count> count{};
    void add(diagnostic_code c) { ++count[static_cast<std::size_t>(c)]; }
};

expected_codes restate_rules(const device_limits& d, const kernel_resources& k, const launch_config& c) {
    expected_codes e;
    for (int a = 0; a < 3; ++a)
        if (c.grid[a] == 0) e.add(diagnostic_code::zero_dimension);
    for (int a = 0; a < 3; ++a)
        if (c.block[a] == 0) e.add(diagnostic_code::zero_dimension);
    for (int a = 0; a < 3; ++a)
        if (c.block[a] > d.max_block[a]) e.add(diagnostic_code::block_dim_exceeds_device_limit);
    const std::uint64_t threads = volume(c.block);
    if (threads > d.max_threads_per_block) e.add(diagnostic_code::block_exceeds_device_max_threads);
    if (k.max_threads_per_block != 0 && threads > k.max_threads_per_block)
        e.add(diagnostic_code::block_exceeds_kernel_max_threads);
    for (int a = 0; a < 3; ++a)
        if (c.grid[a] > d.max_grid[a]) e.add(diagnostic_code::grid_dim_exceeds_device_limit);
    if (d.max_work_items_per_dimension != 0)
        for (int a = 0; a < 3; ++a)
            if (product_exceeds(c.grid[a], c.block[a], d.max_work_items_per_dimension))
                e.add(diagnostic_code::work_items_exceed_dispatch_limit);
    const bool shape_ok = threads > 0 && threads <= kernel_bound(d, k);
    const bool per_thread_over =
        k.registers > 0 && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread;
    if (per_thread_over || (shape_ok && !registers_fit(d, k, threads))) e.add(diagnostic_code::registers_exceed_limit);
    // SGPRs (gfx9): a second registers_exceed_limit when the scalar budget cannot hold the block's waves.
    if (shape_ok && k.scalar_registers > 0 && d.scalar_registers_per_simd > 0) {
        const std::uint64_t waves_per_simd =
            d.scalar_registers_per_simd / round_up(k.scalar_registers, d.scalar_register_granule);
        if (ceil_div(threads, d.wave_size) > waves_per_simd * d.simds_per_cu) e.add(diagnostic_code::registers_exceed_limit);
    }
    const std::uint64_t shared = k.static_shared > u64_max - c.dynamic_shared ? u64_max : k.static_shared + c.dynamic_shared;
    if (!shared_fits(d, shared))
        e.add(diagnostic_code::shared_memory_exceeds_limit);
    else if (shared > d.shared_per_block && d.shared_per_block_optin > d.shared_per_block)
        e.add(diagnostic_code::shared_memory_requires_opt_in);
    if (threads > 0 && threads % d.wave_size != 0) e.add(diagnostic_code::block_not_wave_multiple);
    return e;
}

// Whether any block of 1..bound threads can be resident, by brute force.
bool some_block_runs(const device_limits& d, const kernel_resources& k, std::uint64_t dynamic, std::uint64_t bound) {
    for (std::uint64_t b = 1; b <= bound; ++b)
        if (wavefit::occupancy(d, k, b, dynamic).fits()) return true;
    return false;
}

}  // namespace

// Exact products of two 64-bit sizes, independent of the library's arithmetic.
__extension__ using wide = unsigned __int128;

// Half the time a built-in device (what tuning and planning meet), half a random one (what they might).
device_limits preset_or_random_device(random_source& rnd) {
    return rnd.chance(0.5) ? wavefit::presets::all[rnd.between(0, wavefit::presets::all.size() - 1)].limits
                           : random_device(rnd);
}

// Thread counts of the per_group work the properties draw (rnd.pick).
constexpr std::array<std::uint64_t, 5> group_sizes{4, 8, 16, 32, 64};

// A random kernel contract: one pass or a loop, powers of two or any wave multiple, sometimes a
// maximum of its own (a shared array).
wavefit::work with_random_contract(random_source& rnd, wavefit::work w) {
    if (rnd.chance(0.5)) w = w.kernel_loops();
    if (rnd.chance(0.5)) w = w.block_any_wave_multiple();
    if (rnd.chance(0.3)) w = w.block_at_most(static_cast<std::uint32_t>(rnd.between(1, 1100)));
    return w;
}

std::string describe_contract(const wavefit::work::kernel_contract& c) {
    std::ostringstream s;
    s << (c.cover == wavefit::work::coverage::kernel_loops ? "loops" : "one pass")
      << (c.powers_of_two ? ", powers of two" : ", any wave multiple") << ", at most " << c.max_block;
    return s.str();
}

// The blocks a contract allows, restated.
bool allowed_by(const wavefit::work::kernel_contract& c, std::uint64_t threads) {
    if (threads == 0) return false;
    if (c.max_block != 0 && threads > c.max_block) return false;
    return !c.powers_of_two || (threads & (threads - 1)) == 0;
}

// Runs `one_case(rnd, i, d, k)` for `cases` random cases, each a random device and a random kernel for it, drawn from
// the property's own seed (seed + offset), printed with every failure beside the case's own description.
template <class Case>
void for_random_cases(std::uint64_t offset, int cases, Case one_case) {
    INFO("seed " << seed + offset);
    random_source rnd(seed + offset);
    for (int i = 0; i < cases; ++i) {
        const device_limits d = random_device(rnd);
        const kernel_resources k = random_kernel(rnd, d);
        one_case(rnd, i, d, k);
    }
}

TEST_CASE("random 1-D plans stay within every limit and the contract, never wrap, and reach every element in one pass "
          "unless the kernel loops",
          "[properties][plan]") {
    for_random_cases(0, 6000, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        wavefit::plan_options opt;
        opt.dynamic_shared = random_dynamic(rnd, d, k);
        if (rnd.chance(0.2)) opt.min_efficient_block = rnd.between(0, 1100);
        opt.spread_small_work = rnd.chance(0.8);
        const std::uint64_t elements = random_elements(rnd);
        const wavefit::work w = with_random_contract(rnd, wavefit::work::elements(elements, opt));
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", dynamic shared "
                     << opt.dynamic_shared << ", min efficient block " << opt.min_efficient_block << ", spread "
                     << opt.spread_small_work << ", elements " << elements << ", contract "
                     << describe_contract(w.contract));
        REQUIRE(wavefit::detail::device_limits_problem(d).empty());

        const wavefit::launch_plan p = wavefit::plan(d, k, w);
        CAPTURE(p.ok(), p.feasible, p.empty, p.exceeds_one_pass, p.block.x, p.block.y, p.block.z, p.grid.x, p.grid.y,
                p.grid.z, p.grid_stride);

        // Whether any block size at all can run, by brute force over every size the plan may use.
        std::uint64_t bound = std::min<std::uint64_t>(kernel_bound(d, k), d.max_block.x);
        if (w.contract.max_block != 0) bound = std::min<std::uint64_t>(bound, w.contract.max_block);
        const bool runnable = some_block_runs(d, k, opt.dynamic_shared, bound);
        CAPTURE(bound, runnable);
        if (!runnable) {
            REQUIRE_FALSE(p.ok());
            REQUIRE_FALSE(p.feasible);
            REQUIRE_FALSE(wavefit::plan_reason(p, d, k).empty());
            return;
        }
        // Every device here can launch some block: the plan must find one the contract allows.
        REQUIRE(p.feasible);
        REQUIRE(p.occupancy.fits());
        REQUIRE(p.occupancy.active_blocks_per_cu ==
                wavefit::occupancy(d, k, volume(p.block), opt.dynamic_shared).active_blocks_per_cu);

        // The block is within every limit and one the contract allows.
        REQUIRE(p.block.y == 1);
        REQUIRE(p.block.z == 1);
        REQUIRE(p.block.x >= 1);
        REQUIRE(p.block.x <= d.max_block.x);
        REQUIRE(p.block.x <= d.max_threads_per_block);
        if (k.max_threads_per_block != 0) REQUIRE(p.block.x <= k.max_threads_per_block);
        REQUIRE(allowed_by(w.contract, p.block.x));

        if (elements == 0) {
            REQUIRE(p.ok());
            REQUIRE(p.empty);
            REQUIRE(p.grid.x == 0);
            return;
        }
        REQUIRE_FALSE(p.empty);
        REQUIRE(p.grid.x >= 1);
        REQUIRE(p.grid.x <= ceil_div(elements, p.block.x));  // not more blocks than the work needs
        REQUIRE_FALSE(wavefit::plan_reason(p, d, k).empty());
        // Exactly, in 128 bits: a refused one-pass grid may hold 2^64 threads or more.
        const wide covered = static_cast<wide>(p.grid.x) * p.block.x;
        if (!w.loops()) {
            // One pass: the grid always covers every element; the launch is refused exactly when the
            // device cannot take that grid, and never clamped in silence.
            REQUIRE(covered >= elements);
            REQUIRE_FALSE(p.grid_stride);
            const std::uint64_t cap = d.max_work_items_per_dimension == 0
                                          ? d.max_grid.x
                                          : std::min<std::uint64_t>(d.max_grid.x, d.max_work_items_per_dimension / p.block.x);
            CAPTURE(cap);
            REQUIRE(p.exceeds_one_pass == (p.grid.x > cap));
            REQUIRE(p.ok() == !p.exceeds_one_pass);
            if (p.exceeds_one_pass) return;
        }
        // The launch the plan describes passes validation.
        REQUIRE(p.ok());
        REQUIRE_FALSE(wavefit::detail::find_problems(d, k, p.config()).has_error());
        REQUIRE(p.grid.x <= u64_max / p.block.x);
        const std::uint64_t one_pass = p.grid.x * p.block.x;
        CAPTURE(one_pass);
        // The grid never wraps and stays within the device's limits.
        REQUIRE(p.grid.x <= d.max_grid.x);
        if (d.max_work_items_per_dimension != 0) REQUIRE(p.grid.x * p.block.x <= d.max_work_items_per_dimension);
        // One pass covers every element exactly when the kernel need not grid-stride.
        REQUIRE((one_pass >= elements) == !p.grid_stride);
    });
}

TEST_CASE("random extent plans stay within every limit per axis, never wrap, cover the extent or grid-stride",
          "[properties][plan]") {
    for_random_cases(1, 4000, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        wavefit::plan_options opt;
        opt.dynamic_shared = random_dynamic(rnd, d, k);
        const dims extent = random_extent(rnd);
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", dynamic shared "
                     << opt.dynamic_shared << ", extent (" << extent.x << ", " << extent.y << ", " << extent.z << ")");
        // A kernel that strides every axis (grid_stride_axis): one pass is specified by the 1-D property above.
        const wavefit::launch_plan p = wavefit::plan(d, k, wavefit::work::over(extent, opt).kernel_loops());
        CAPTURE(p.ok(), p.feasible, p.empty, p.block.x, p.block.y, p.block.z, p.grid.x, p.grid.y, p.grid.z, p.grid_stride);

        const bool runnable = some_block_runs(d, k, opt.dynamic_shared, kernel_bound(d, k));
        CAPTURE(runnable);
        if (!runnable) {
            REQUIRE_FALSE(p.ok());
            return;
        }
        REQUIRE(p.feasible);
        REQUIRE(p.ok());
        const std::uint64_t threads = volume(p.block);
        REQUIRE(threads >= 1);
        REQUIRE(threads <= d.max_threads_per_block);
        if (k.max_threads_per_block != 0) REQUIRE(threads <= k.max_threads_per_block);
        for (int a = 0; a < 3; ++a) {
            CAPTURE(a);
            REQUIRE(p.block[a] >= 1);
            REQUIRE(p.block[a] <= d.max_block[a]);
        }
        REQUIRE(wavefit::occupancy(d, k, threads, opt.dynamic_shared).fits());

        if (extent.has_zero()) {
            REQUIRE(p.empty);
            return;
        }
        REQUIRE_FALSE(wavefit::detail::find_problems(d, k, p.config()).has_error());
        bool covers_all = true;
        for (int a = 0; a < 3; ++a) {
            CAPTURE(a);
            REQUIRE(p.grid[a] >= 1);
            REQUIRE(p.grid[a] <= d.max_grid[a]);
            REQUIRE(p.grid[a] <= u64_max / p.block[a]);
            if (d.max_work_items_per_dimension != 0) REQUIRE(p.grid[a] * p.block[a] <= d.max_work_items_per_dimension);
            REQUIRE(p.grid[a] <= ceil_div(extent[a], p.block[a]));
            covers_all = covers_all && p.grid[a] * p.block[a] >= extent[a];
        }
        CAPTURE(covers_all);
        REQUIRE(covers_all == !p.grid_stride);
    });
}

TEST_CASE("the best-occupancy block of a plan is the best any block its contract allows reaches", "[properties][plan]") {
    for_random_cases(2, 3000, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        wavefit::plan_options opt;
        opt.dynamic_shared = random_dynamic(rnd, d, k);
        opt.spread_small_work = false;
        const bool powers_of_two = rnd.chance(0.5);
        wavefit::work w = wavefit::work::elements(std::uint64_t{1} << 40, opt).kernel_loops();
        if (!powers_of_two) w = w.block_any_wave_multiple();
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", dynamic "
                     << opt.dynamic_shared << ", powers of two " << powers_of_two);
        const wavefit::launch_plan p = wavefit::plan(d, k, w);
        const std::uint64_t bound = std::min<std::uint64_t>(kernel_bound(d, k), d.max_block.x);
        if (!p.feasible || bound < d.wave_size) return;
        std::uint64_t best = 0;
        for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size)
            if (allowed_by(w.contract, b))
                best = std::max<std::uint64_t>(best, wavefit::occupancy(d, k, b, opt.dynamic_shared).active_waves_per_cu);
        REQUIRE(allowed_by(w.contract, p.block.x));
        // largest_runnable_block is about the block volume (any shape), so x's own limit does not apply.
        std::uint64_t largest_fit = 0;
        for (std::uint64_t b = d.wave_size; b <= kernel_bound(d, k); b += d.wave_size)
            if (wavefit::occupancy(d, k, b, opt.dynamic_shared).fits()) largest_fit = b;
        CAPTURE(best, largest_fit, p.block.x, p.occupancy.active_waves_per_cu);
        REQUIRE(p.occupancy.active_waves_per_cu == best);
        REQUIRE(wavefit::detail::largest_runnable_block(d, k, opt.dynamic_shared) == largest_fit);
        if (p.block.x < opt.min_efficient_block) {
            // Only when no wave-multiple block of at least min_efficient_block reaches the best.
            for (std::uint64_t b = std::max<std::uint64_t>(d.wave_size, round_up(opt.min_efficient_block, d.wave_size));
                 b <= bound; b += d.wave_size) {
                CAPTURE(b);
                if (!allowed_by(w.contract, b)) continue;
                REQUIRE(wavefit::occupancy(d, k, b, opt.dynamic_shared).active_waves_per_cu < best);
            }
        }
    });
}

TEST_CASE("occupancy never increases with registers or shared memory and stays within the wave slots",
          "[properties][occupancy]") {
    for_random_cases(3, 1000, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        const std::uint64_t block = rnd.between(1, d.max_threads_per_block);
        const std::uint64_t dynamic = random_dynamic(rnd, d, k);
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", block " << block
                     << ", dynamic " << dynamic);
        const std::uint32_t max_waves = static_cast<std::uint32_t>(d.max_waves_per_cu());

        auto check_bounds = [&](const wavefit::occupancy_report& r) {
            REQUIRE(r.active_waves_per_cu <= max_waves);
            REQUIRE(r.occupancy >= 0.0);
            REQUIRE(r.occupancy <= 1.0);
            REQUIRE(r.max_waves_per_cu == max_waves);
            REQUIRE(r.active_waves_per_cu == r.active_blocks_per_cu * ceil_div(block, d.wave_size));
            if (d.max_blocks_per_cu != 0) REQUIRE(r.active_blocks_per_cu <= d.max_blocks_per_cu);
        };

        // Along kernels that each need more of one resource than the one before, blocks per CU never increase.
        auto require_non_increasing = [&](const std::vector<kernel_resources>& growing) {
            std::uint32_t previous = std::numeric_limits<std::uint32_t>::max();
            for (const kernel_resources& g : growing) {
                const wavefit::occupancy_report r = wavefit::occupancy(d, g, block, dynamic);
                CAPTURE(g.registers, g.static_shared, r.active_blocks_per_cu, previous);
                check_bounds(r);
                REQUIRE(r.active_blocks_per_cu <= previous);
                previous = r.active_blocks_per_cu;
            }
        };
        std::vector<kernel_resources> more_registers;
        for (std::uint32_t regs = 0; regs <= 600; regs += (regs < 64 ? 1 : 7)) {
            more_registers.push_back(k);
            more_registers.back().registers = regs;
        }
        require_non_increasing(more_registers);
        std::vector<kernel_resources> more_shared;
        for (std::uint64_t shared = 0; shared <= d.shared_per_block_optin + 2048; shared += 1 + shared / 8) {
            more_shared.push_back(k);
            more_shared.back().static_shared = shared;
        }
        require_non_increasing(more_shared);

        // Larger blocks never hold more waves' worth of blocks than the slots allow, and whether a
        // block fits at all never improves as it grows.
        bool fitted = true;
        for (std::uint64_t b = 1; b <= d.max_threads_per_block; b += 1 + b / 16) {
            const bool fits = wavefit::occupancy(d, k, b, dynamic).fits();
            CAPTURE(b, fits, fitted);
            REQUIRE((fitted || !fits));
            fitted = fits;
        }
    });
}

TEST_CASE("find_problems reports exactly the errors and warnings the restated rules find on random launches",
          "[properties][validate]") {
    const auto grid_axis = [](random_source& rnd, std::uint64_t limit) -> std::uint64_t {
        switch (rnd.between(0, 5)) {
            case 0: return 0;
            case 1: return limit;
            case 2: return limit + 1;
            case 3: return rnd.between(1, 1000);
            case 4: return rnd.between(1, u64_max);
            default: return std::uint64_t{1} << rnd.between(0, 63);
        }
    };
    const auto block_axis = [](random_source& rnd, std::uint64_t limit) -> std::uint64_t {
        switch (rnd.between(0, 5)) {
            case 0: return 0;
            case 1: return limit;
            case 2: return limit + 1;
            case 3: return 1;
            case 4: return rnd.between(1, 1100);
            default: return rnd.chance(0.1) ? rnd.between(1, u64_max) : rnd.between(1, 64);
        }
    };
    for_random_cases(4, 60000, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        const launch_config c{
            dims{grid_axis(rnd, d.max_grid.x), grid_axis(rnd, d.max_grid.y), grid_axis(rnd, d.max_grid.z)},
            dims{block_axis(rnd, d.max_block.x), block_axis(rnd, d.max_block.y), block_axis(rnd, d.max_block.z)},
            random_dynamic(rnd, d, k)};
        const expected_codes expected = restate_rules(d, k, c);
        expected_codes actual;
        const wavefit::detail::findings f = wavefit::detail::find_problems(d, k, c);
        for (const wavefit::detail::finding& x : f) actual.add(x.code);
        bool expect_error = false;
        for (std::size_t code = 0; code < wavefit::detail::diagnostic_code_count; ++code)
            expect_error = expect_error ||
                           (expected.count[code] > 0 &&
                            wavefit::detail::severity_of(static_cast<diagnostic_code>(code)) == wavefit::severity::error);
        for (std::size_t code = 0; code < wavefit::detail::diagnostic_code_count; ++code) {
            if (expected.count[code] == actual.count[code]) continue;
            INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << "\ngrid ("
                         << c.grid.x << ", " << c.grid.y << ", " << c.grid.z << "), block (" << c.block.x << ", "
                         << c.block.y << ", " << c.block.z << "), dynamic shared " << c.dynamic_shared);
            CAPTURE(wavefit::to_string(static_cast<diagnostic_code>(code)), expected.count[code], actual.count[code]);
            FAIL_CHECK("find_problems disagrees with the restated rules");
        }
        if (f.has_error() != expect_error) {
            CAPTURE(i, f.has_error(), expect_error);
            FAIL("validity disagrees with the restated rules");
        }
    });
    SUCCEED();
}

TEST_CASE("a block within the shape limits passes validation's resource checks exactly when occupancy says it fits",
          "[properties][validate][occupancy]") {
    // Registers (vector and scalar) and shared memory are judged by both find_problems and occupancy;
    // on a self-consistent device they must agree on every block size.
    for_random_cases(5, 1500, [&](random_source& rnd, int i, const device_limits& d, const kernel_resources& k) {
        const std::uint64_t dynamic = random_dynamic(rnd, d, k);
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", dynamic "
                     << dynamic);
        for (std::uint64_t b = 1; b <= kernel_bound(d, k); b += 1 + b / 32) {
            const wavefit::detail::findings f =
                wavefit::detail::find_problems(d, k, launch_config{dims{1}, dims{b}, dynamic});
            const bool resource_error = f.contains(diagnostic_code::registers_exceed_limit) ||
                                        f.contains(diagnostic_code::shared_memory_exceeds_limit);
            const wavefit::occupancy_report r = wavefit::occupancy(d, k, b, dynamic);
            CAPTURE(b, resource_error, r.active_blocks_per_cu, wavefit::to_string(r.limited_by));
            REQUIRE(r.fits() == !resource_error);
        }
    });
}

TEST_CASE("more registers than a thread may have cannot run even when the register file is not described",
          "[properties][occupancy]") {
    // Found by the random plans above: with registers_per_simd_lane = 0 occupancy ignored
    // max_registers_per_thread, so plan() chose a block that find_problems() then rejected.
    device_limits d{};
    d.name.assign("registers per thread only");
    d.wave_size = 64;
    d.max_threads_per_block = 64;
    d.max_block = dims{64, 64, 64};
    d.registers_per_simd_lane = 0;
    d.max_registers_per_thread = 512;
    kernel_resources k = with_registers(518);
    const wavefit::occupancy_report r = wavefit::occupancy(d, k, 64);
    CAPTURE(r.active_blocks_per_cu, r.limits.registers);
    REQUIRE_FALSE(r.fits());
    REQUIRE(r.limited_by == wavefit::occupancy_report::limiter::registers);
    REQUIRE(wavefit::detail::find_problems(d, k, launch_config{dims{1}, dims{64}})
                .contains(diagnostic_code::registers_exceed_limit));
    const wavefit::launch_plan p = wavefit::plan(d, k, 2048);
    REQUIRE_FALSE(p.feasible);
    REQUIRE_FALSE(p.ok());
    REQUIRE(p.problems.contains(diagnostic_code::registers_exceed_limit));
    k.registers = 512;
    REQUIRE(wavefit::occupancy(d, k, 64).fits());
    REQUIRE(wavefit::plan(d, k, 2048).ok());
}

// --- the configurations fixes name (detail/launch_fix.hpp) ----------------------------------------

namespace {

// A launch `check` rejects, drawn around the limits of `d` (grid and block at, just past and far
// beyond them, zeros) with a kernel whose registers, bound and shared memory are also random.
struct random_launch {
    kernel_resources kernel;
    launch_config config{dims{1}, dims{1}};
};

random_launch random_invalid_launch(random_source& rnd, const device_limits& d) {
    auto grid_axis = [&](std::uint64_t limit) -> std::uint64_t {
        switch (rnd.between(0, 7)) {
            case 0: return rnd.chance(0.3) ? 0 : 1;
            case 1: return limit;
            case 2: return limit + rnd.between(1, 3);
            case 3: return rnd.between(1, 1000);
            case 4: return rnd.between(1, u64_max);
            case 5: return std::uint64_t{1} << rnd.between(0, 63);
            case 6: return rnd.between(1u << 20, 1u << 26);
            default: return 1;
        }
    };
    auto block_axis = [&](std::uint64_t limit, bool x) -> std::uint64_t {
        switch (rnd.between(0, 6)) {
            case 0: return rnd.chance(0.3) ? 0 : 1;
            case 1: return limit;
            case 2: return limit + 1;
            case 3: return x ? rnd.between(1, 2048) : rnd.between(1, 8);
            case 4: return rnd.chance(0.05) ? rnd.between(1, u64_max) : rnd.between(1, 100);
            default: return x ? rnd.pick(std::array<std::uint64_t, 6>{64, 100, 256, 512, 1000, 1024}) : 1;
        }
    };
    for (;;) {
        random_launch l;
        kernel_resources& k = l.kernel;
        k.registers = rnd.chance(0.3) ? 0 : rnd.between32(1, rnd.chance(0.1) ? 600 : 256);
        k.scalar_registers = d.is_amd() && rnd.chance(0.4) ? rnd.between32(1, 112) : 0;
        k.static_shared = rnd.chance(0.6) ? 0 : rnd.between(0, rnd.chance(0.1) ? 2 * d.shared_per_block_optin : 16384);
        k.max_threads_per_block = rnd.chance(0.5) ? 0 : rnd.between32(1, 1100);
        const std::uint64_t dynamic = rnd.chance(0.6) ? 0 : rnd.between(0, d.shared_per_block_optin);
        l.config = launch_config{
            dims{grid_axis(d.max_grid.x), grid_axis(d.max_grid.y), grid_axis(d.max_grid.z)},
            dims{block_axis(d.max_block.x, true), block_axis(d.max_block.y, false), block_axis(d.max_block.z, false)},
            dynamic};
        if (wavefit::detail::find_problems(d, k, l.config).has_error()) return l;
    }
}

std::string launch_text(const launch_config& c) {
    std::ostringstream s;
    s << "grid (" << c.grid.x << ", " << c.grid.y << ", " << c.grid.z << ") x block (" << c.block.x << ", " << c.block.y
      << ", " << c.block.z << "), dynamic shared " << c.dynamic_shared;
    return s.str();
}

// Every fix of every finding of launches `check` rejects on `d`: a configuration it names passes
// check for the same device and kernel; one that does not say "grid-stride" covers at least the
// launch's threads in every dimension (and at most a block more); the text names exactly it; and
// only a kernel that no configuration can repair goes without one. Returns the failures.
int check_fixes_of_random_invalid_launches(const device_limits& d, random_source& rnd, int launches,
                                           std::uint64_t& configs_named) {
    int failures = 0;
    for (int i = 0; i < launches; ++i) {
        const random_launch l = random_invalid_launch(rnd, d);
        const kernel_resources& k = l.kernel;
        const launch_config& c = l.config;
        const bool repairable = wavefit::detail::largest_runnable_block(d, k, c.dynamic_shared) > 0;
        // How the kernel maps its work (every third launch each): what the fix may change differs.
        // A group per unit is a 1-D launch of whole groups: other launches are not of that shape.
        auto shape = static_cast<wavefit::detail::launch_work_shape>(i % 3);
        if (shape == wavefit::detail::launch_work_shape::group_per_unit &&
            (c.block.y != 1 || c.block.z != 1 || c.block.x < d.wave_size || d.max_block.x < d.wave_size ||
             wavefit::detail::largest_runnable_block(d, k, c.dynamic_shared) < d.wave_size))
            shape = wavefit::detail::launch_work_shape::thread_per_item;
        const std::uint64_t group = shape == wavefit::detail::launch_work_shape::group_per_unit ? d.wave_size : 0;
        for (const wavefit::detail::finding& f : wavefit::detail::find_problems(d, k, c)) {
            const std::optional<wavefit::detail::launch_fix> fix = wavefit::detail::fix_config(d, k, c, f, shape, group);
            const std::string code(wavefit::to_string(f.code));
            std::string why;
            if (!fix) {
                const bool names_none = f.code == diagnostic_code::shared_memory_exceeds_limit ||
                                        f.code == diagnostic_code::shared_memory_requires_opt_in || !repairable;
                if (!names_none) why = "names no configuration although the kernel can run";
            } else if (!wavefit::detail::is_launchable(d, k, fix->config)) {
                why = "names " + launch_text(fix->config) + ", which check rejects: " +
                      std::string(wavefit::to_string(wavefit::detail::find_problems(d, k, fix->config).begin()->code));
            } else {
                ++configs_named;
                if (shape == wavefit::detail::launch_work_shape::block_per_unit && !fix->grid_stride)
                    for (int a = 0; a < 3 && why.empty(); ++a)
                        if (fix->config.grid[a] != std::max<std::uint64_t>(c.grid[a], 1))
                            why = "changes the unit count (grid " + std::to_string(c.grid[a]) + " -> " +
                                  std::to_string(fix->config.grid[a]) + ") of a kernel that takes a unit per block";
                if (shape == wavefit::detail::launch_work_shape::group_per_unit && !fix->grid_stride && why.empty()) {
                    const std::uint64_t before = c.grid.x * (c.block.x / group);
                    const std::uint64_t after = fix->config.grid.x * (fix->config.block.x / group);
                    if (fix->config.block.x % group != 0)
                        why = "names a block of " + std::to_string(fix->config.block.x) + " that is not whole groups";
                    else if (c.grid.x != 0 && c.block.x >= group && !product_exceeds(c.grid.x, c.block.x / group, u64_max) &&
                             (after < before || after - before >= fix->config.block.x / group))
                        why = "covers " + std::to_string(after) + " units for " + std::to_string(before);
                }
                for (int a = 0; a < 3 && why.empty() && !fix->grid_stride &&
                                shape == wavefit::detail::launch_work_shape::thread_per_item;
                     ++a) {
                    if (c.block[a] == 0 || c.grid[a] == 0 || product_exceeds(c.grid[a], c.block[a], u64_max)) continue;
                    const std::uint64_t before = c.grid[a] * c.block[a];
                    const std::uint64_t after = product_or_max(fix->config.grid[a], fix->config.block[a]);
                    if (after < before || after - before >= fix->config.block[a])
                        why = "covers " + std::to_string(after) + " threads in axis " + std::to_string(a) + " for " +
                              std::to_string(before) + " without saying grid-stride";
                }
                const std::string text = wavefit::detail::describe(f, d, k, c, shape, group).fix;
                const std::string named = wavefit::detail::fix_config_text(*fix, c, shape, group);
                if (why.empty() && f.code != diagnostic_code::work_items_exceed_dispatch_limit &&
                    text.find(named) == std::string::npos)
                    why = "does not name its configuration: " + text;
            }
            if (why.empty()) continue;
            if (++failures <= 5) {
                INFO("device " << wavefit::to_string(d) << "\nkernel " << describe_kernel(k) << "\nlaunch " << launch_text(c)
                               << "\nfinding " << code);
                FAIL_CHECK("the fix " << why);
            }
        }
    }
    return failures;
}

}  // namespace

TEST_CASE("every configuration a fix names passes check: 10,000 random invalid launches on every preset",
          "[properties][validate][fixes]") {
    // Issue 20: `check --preset mi300x --grid 16777216 --block 512 --kernel-max-threads 256` suggested
    // grid 33554432 x block 256, which check rejects (work_items_exceed_dispatch_limit).
    INFO("seed " << seed + 9);
    random_source rnd(seed + 9);
    for (const auto& p : wavefit::presets::all) {
        INFO("preset " << p.key);
        std::uint64_t named = 0;
        CHECK(check_fixes_of_random_invalid_launches(p.limits, rnd, 10000, named) == 0);
        // The test is about something: most fixes of the invalid launches name a configuration.
        CHECK(named > 10000);
    }
}

TEST_CASE("every configuration a fix names passes check on random devices too", "[properties][validate][fixes]") {
    INFO("seed " << seed + 10);
    random_source rnd(seed + 10);
    std::uint64_t named = 0;
    int failures = 0;
    for (int i = 0; i < 4000; ++i) {
        const device_limits d = random_device(rnd);
        failures += check_fixes_of_random_invalid_launches(d, rnd, 5, named);
    }
    CHECK(failures == 0);
    CHECK(named > 5000);
}

// The tuner measures only what the kernel's contract allows, so `tune` then `use` can never change
// what a kernel computes: restated here, independently of tuning_records.hpp, over random devices,
// kernels, work shapes, contracts and sizes.
namespace {

// A launch from the closed form is not validated again (count_scaling::keep_launchable): what the
// entry keeps must be exactly what launch_bounds::refuses() lets through, for this count's launch.
struct kept_launch {
    bool answered = false;    // the closed form answers for the count (else configure() and the full check do)
    bool launchable = false;  // the entry's verdict
    launch_config config{dims{0}, dims{0}};
};

kept_launch kept_launch_of(const wavefit::detail::count_scaling& kept, std::uint64_t count) {
    kept_launch k;
    if (count > kept.above) {
        k.config = kept.config_for(count);
        k.answered = true;
        k.launchable = kept.launchable(k.config);
    } else if (kept.small_config_for(count, k.config)) {
        k.answered = true;
        k.launchable = true;  // a step kept is a step every count of which launches
    }
    return k;
}

}  // namespace

TEST_CASE("configure()'s closed form gives configure()'s launch for every count above its threshold and every count "
          "its steps for little work answer for, for the plan's recipe and every tuning candidate",
          "[properties][plan][launch-path]") {
    INFO("seed " << seed + 13);
    random_source rnd(seed + 13);
    std::uint64_t counts_checked = 0, small_counts_checked = 0, recipes_with_closed_form = 0, recipes = 0;
    std::uint64_t verdicts_checked = 0, refused = 0;
    for (int i = 0; i < 3000; ++i) {
        const device_limits d = preset_or_random_device(rnd);
        const kernel_resources k = random_kernel(rnd, d);
        const std::uint64_t first = rnd.between(1, std::uint64_t{1} << rnd.between(1, 36));
        wavefit::work w = wavefit::work::elements(first);
        switch (rnd.between(0, 4)) {
            case 0: break;
            case 1: w = wavefit::work::per_block(first, rnd.chance(0.5) ? 0 : rnd.between(1, 70000)); break;
            case 2: w = wavefit::work::per_wave(first, rnd.between(0, 8192)); break;
            case 3: w = wavefit::work::per_group(first, rnd.pick(group_sizes), rnd.between(0, 8192)); break;
            default: w = wavefit::work::over(dims{first, rnd.between(1, 64), 1}); break;
        }
        w = with_random_contract(rnd, w);
        if (rnd.chance(0.1)) w = w.block_fixed(dims{rnd.pick(std::array<std::uint64_t, 4>{32, 64, 256, 1024})});
        if (rnd.chance(0.2)) w = w.shared_bytes(rnd.between(0, 4096), rnd.chance(0.5) ? rnd.between(0, 16) : 0);
        if (rnd.chance(0.15)) w = w.grid_saturated(static_cast<std::uint32_t>(rnd.between(1, 8)));
        if (rnd.chance(0.1)) w = w.grid_coarsened(static_cast<std::uint32_t>(rnd.between(1, 8)));
        if (rnd.chance(0.2)) w.options.spread_small_work = false;
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", work "
                     << wavefit::to_string(w.kind) << " of " << first << ", contract " << describe_contract(w.contract));

        std::vector<wavefit::detail::launch_recipe> rs = wavefit::detail::tuning_candidates(d, k, w);
        rs.push_back(wavefit::detail::planned_recipe(d, k, w));
        for (const wavefit::detail::launch_recipe& r : rs) {
            ++recipes;
            const wavefit::detail::count_scaling s = wavefit::detail::scaling_of(d, r, w);
            CAPTURE(r.threads, r.shape.x, static_cast<int>(r.rule), static_cast<int>(r.grid), r.grid_factor, s.above,
                    s.per_block, s.cap);
            if (s.above == u64_max) {
                // No closed form only where the grid or the block depends on more than the count.
                REQUIRE((r.threads == 0 || w.kind == wavefit::work::work_kind::extent ||
                         (r.grid == wavefit::grid_policy::coarsen && r.grid_factor > 1)));
                continue;
            }
            ++recipes_with_closed_form;
            // What a launch entry keeps: the launches the kernel's bounds on this device let through.
            const wavefit::detail::launch_bounds bounds =
                wavefit::detail::launch_bounds::of(d, k, wavefit::detail::register_bound_threads(d, k));
            wavefit::detail::count_scaling kept = s;
            kept.keep_launchable(bounds);
            const std::array<std::uint64_t, 7> counts{s.above + 1, s.above + 2, s.above + rnd.between(1, 1u << 20),
                                                      rnd.between(s.above + 1, std::max(s.above + 1, std::uint64_t{1} << 40)),
                                                      rnd.between(s.above + 1, u64_max), u64_max - 1, u64_max};
            for (const std::uint64_t count : counts) {
                wavefit::work at = w;
                at.extent = dims{count, 1, 1};
                const wavefit::detail::configured_launch cl = wavefit::detail::configure(d, r, at);
                const launch_config closed = s.config_for(count);
                CAPTURE(count, cl.config.grid.x, cl.config.block.x, cl.config.block.y, cl.config.dynamic_shared,
                        closed.grid.x, closed.block.x, closed.block.y, closed.dynamic_shared);
                REQUIRE_FALSE(cl.empty);
                REQUIRE(closed.grid == cl.config.grid);
                REQUIRE(closed.block == cl.config.block);
                REQUIRE(closed.dynamic_shared == cl.config.dynamic_shared);
                const kept_launch verdict = kept_launch_of(kept, count);
                CAPTURE(kept.grid_limit, verdict.launchable);
                REQUIRE(verdict.answered);
                REQUIRE(verdict.launchable == !bounds.refuses(verdict.config));
                refused += verdict.launchable ? 0 : 1;
                ++counts_checked;
                ++verdicts_checked;
            }
            // Little work: every count the steps answer for gets configure()'s launch (each step's ends,
            // counts around them and random ones).
            if (s.small_step == 0 || s.above == 0) continue;
            std::vector<std::uint64_t> small_counts{1, 2, s.above - 1, s.above};
            for (std::uint64_t step = 1; step <= wavefit::detail::count_scaling::small_steps; ++step) {
                const std::uint64_t edge = ceil_div(product_or_max(step, s.small_step), s.lanes);
                for (const std::uint64_t near : {edge - 1, edge, edge + 1})
                    if (near >= 1 && near <= s.above) small_counts.push_back(near);
            }
            for (int pick = 0; pick < 8; ++pick) small_counts.push_back(rnd.between(1, s.above));
            for (const std::uint64_t count : small_counts) {
                launch_config closed{dims{0}, dims{0}};
                if (!s.small_config_for(count, closed)) continue;
                wavefit::work at = w;
                at.extent = dims{count, 1, 1};
                const wavefit::detail::configured_launch cl = wavefit::detail::configure(d, r, at);
                CAPTURE(count, s.small_step, s.lanes, cl.config.grid.x, cl.config.block.x, closed.grid.x, closed.block.x);
                REQUIRE(closed.grid == cl.config.grid);
                REQUIRE(closed.block == cl.config.block);
                REQUIRE(closed.dynamic_shared == cl.config.dynamic_shared);
                ++small_counts_checked;
            }
            for (const std::uint64_t count : small_counts) {
                const kept_launch verdict = kept_launch_of(kept, count);
                if (!verdict.answered) continue;
                CAPTURE(count, verdict.config.grid.x, verdict.config.block.x, verdict.config.dynamic_shared);
                REQUIRE_FALSE(bounds.refuses(verdict.config));
                ++verdicts_checked;
            }
        }
    }
    // Exercised, not skipped: most recipes have the closed form, and many the steps of little work.
    CHECK(recipes_with_closed_form * 2 > recipes);
    CHECK(counts_checked > 20000);
    CHECK(small_counts_checked > 20000);
    // The kept launches were compared with the full check, and some of them were refused by it.
    CHECK(verdicts_checked > 40000);
    CHECK(refused > 1000);
}

TEST_CASE("every tuning candidate is a block the contract allows and, unless the kernel loops, reaches every item "
          "in one pass",
          "[properties][tuning]") {
    INFO("seed " << seed + 11);
    random_source rnd(seed + 11);
    const std::array<std::uint64_t, 6> fixed_blocks{32, 64, 128, 256, 512, 1024};
    std::uint64_t candidates_checked = 0, one_pass_checked = 0;
    for (int i = 0; i < 3000; ++i) {
        const device_limits d = preset_or_random_device(rnd);
        const kernel_resources k = random_kernel(rnd, d);
        // Sizes a tuner meets (it tunes at a size class): up to 2^36 items.
        const std::uint64_t units = rnd.chance(0.1) ? 0 : rnd.between(1, std::uint64_t{1} << rnd.between(1, 36));
        wavefit::work w = wavefit::work::elements(units);
        std::uint64_t group = 0;  // per_wave work: threads per unit (0: the device's wave)
        switch (rnd.between(0, 3)) {
            case 0: break;
            case 1: w = wavefit::work::per_block(units, rnd.between(1, 70000)); break;
            case 2: w = wavefit::work::per_wave(units, rnd.between(1, 8192)); break;
            default:
                group = rnd.pick(group_sizes);
                w = wavefit::work::per_group(units, group, rnd.between(1, 8192));
                break;
        }
        w = with_random_contract(rnd, w);
        std::uint64_t fixed = 0;
        if (rnd.chance(0.15)) {
            fixed = rnd.pick(fixed_blocks);
            w = w.block_fixed(dims{fixed});
        }
        const wavefit::work::kernel_contract& c = w.contract;
        const std::uint64_t unit_threads = w.kind != wavefit::work::work_kind::per_wave ? 1 : group != 0 ? group : d.wave_size;
        INFO("case " << i << ": device " << describe_device(d) << "\nkernel " << describe_kernel(k) << ", work "
                     << wavefit::to_string(w.kind) << " of " << units << " (group " << group << "), contract "
                     << describe_contract(c) << ", fixed block " << fixed);

        for (const wavefit::detail::launch_recipe& r : wavefit::detail::tuning_candidates(d, k, w)) {
            const wavefit::detail::configured_launch cl = wavefit::detail::configure(d, r, w);
            const launch_config& cfg = cl.config;
            const std::uint64_t threads = volume(cfg.block);
            CAPTURE(cfg.grid.x, cfg.grid.y, cfg.grid.z, cfg.block.x, cfg.block.y, cfg.block.z, cl.empty);
            ++candidates_checked;
            // The block: the contract's fixed one, else one it allows (power of two, bound, whole groups).
            if (fixed != 0) {
                REQUIRE(cfg.block.x == fixed);
                REQUIRE(threads == fixed);
            } else {
                REQUIRE(allowed_by(c, threads));
            }
            if (cl.empty) continue;  // no items: nothing is launched, whatever the block
            REQUIRE(threads % unit_threads == 0);
            REQUIRE_FALSE(wavefit::detail::find_problems(d, k, cfg).has_error());
            if (w.loops()) continue;
            // One pass reaches every item: a thread per element, a block per unit, a group per unit.
            ++one_pass_checked;
            const wide blocks = static_cast<wide>(cfg.grid.x) * cfg.grid.y * cfg.grid.z;
            if (w.kind == wavefit::work::work_kind::elements) REQUIRE(blocks * threads >= units);
            if (w.kind == wavefit::work::work_kind::per_block) REQUIRE(blocks >= units);
            if (w.kind == wavefit::work::work_kind::per_wave) REQUIRE(blocks * (threads / unit_threads) >= units);
        }
    }
    // The property was exercised, not skipped (12,086 candidates, 1,764 of them one-pass, with the fixed seed).
    CHECK(candidates_checked > 8000);
    CHECK(one_pass_checked > 1000);
}
