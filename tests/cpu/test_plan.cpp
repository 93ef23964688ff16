// SPDX-License-Identifier: MIT
// Specification of wavefit::plan: the block from the device and the kernel, the grid from the work
// in 64 bits, clamped per axis to what the device accepts, with grid_stride telling the kernel to loop,
// and a reason that names what decided the block.
#include <catch2/catch.hpp>

#include "support.hpp"

#include <wavefit/diagnostic.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>
#include <string>

namespace {

using block_rule = wavefit::launch_plan::block_rule;
using wavefit::diagnostic_code;
using wavefit::dims;
using grid_clamp = wavefit::launch_plan::grid_clamp;
using wavefit::kernel_resources;
using wavefit::launch_plan;
using wavefit::plan;
using wavefit::work;
namespace presets = wavefit::presets;

using spec::ceil_div;
using spec::contains;
using spec::u64_max;
using spec::with_bound;
using spec::with_registers;
using spec::with_static_shared;

// The plan passes validation for the same inputs (the contract's "a plan always passes check").
void require_launchable(const launch_plan& p, const wavefit::device_limits& d, const kernel_resources& k) {
    INFO("plan: " << wavefit::plan_reason(p, d, k));
    REQUIRE(p.ok());
    REQUIRE_FALSE(p.empty);
    REQUIRE(spec::no_error(wavefit::check(d, k, p.config())));
}

// Plans `extent` for a kernel without resource limits on `d`, requires this block and grid and a plan that
// launches, and returns the plan for the case's own checks.
launch_plan require_extent_plan(const wavefit::device_limits& d, dims extent, dims block, dims grid) {
    const launch_plan p = plan(d, kernel_resources{}, extent);
    CAPTURE(p.block.x, p.block.y, p.block.z, p.grid.x, p.grid.y, p.grid.z);
    CAPTURE(block.x, block.y, block.z, grid.x, grid.y, grid.z);  // expected: dims print as {?}
    REQUIRE(p.block == block);
    REQUIRE(p.grid == grid);
    require_launchable(p, d, kernel_resources{});
    return p;
}

}  // namespace

TEST_CASE("0 elements give an empty plan that launches nothing", "[plan]") {
    for (const auto& pr : presets::all) {
        const launch_plan p = plan(pr.limits, kernel_resources{}, 0);
        const std::string reason = wavefit::plan_reason(p, pr.limits, kernel_resources{});
        CAPTURE(pr.key, reason, p.grid.x);
        REQUIRE(p.ok());
        REQUIRE(p.empty);
        REQUIRE(p.elements == 0);
        REQUIRE(p.grid.x == 0);  // a launch of this grid would be rejected: nothing is to be launched
        REQUIRE_FALSE(p.grid_stride);
        REQUIRE(contains(reason, "nothing to launch"));
    }
    const launch_plan extent = plan(presets::detail::h200, kernel_resources{}, dims{0, 5, 7});
    CAPTURE(extent.grid.x);
    REQUIRE(extent.ok());
    REQUIRE(extent.empty);
    REQUIRE(extent.grid.x == 0);
}

TEST_CASE("1 element is one block of one wave", "[plan]") {
    const launch_plan amd = plan(presets::detail::mi300x, kernel_resources{}, 1);
    CAPTURE(amd.block.x, amd.grid.x);
    REQUIRE(amd.block.x == 64);
    REQUIRE(amd.grid.x == 1);
    REQUIRE_FALSE(amd.grid_stride);
    require_launchable(amd, presets::detail::mi300x, kernel_resources{});
    const launch_plan nv = plan(presets::detail::h200, kernel_resources{}, 1);
    CAPTURE(nv.block.x, nv.grid.x);
    REQUIRE(nv.block.x == 32);
    REQUIRE(nv.grid.x == 1);
}

TEST_CASE("one wave minus one, one wave and one wave plus one element", "[plan]") {
    struct row {
        const wavefit::device_limits* d;
        std::uint64_t elements;
        std::uint64_t block;
        std::uint64_t grid;
    };
    const row rows[] = {
        {&presets::detail::mi300x, 63, 64, 1}, {&presets::detail::mi300x, 64, 64, 1}, {&presets::detail::mi300x, 65, 64, 2},
        {&presets::detail::h200, 31, 32, 1},   {&presets::detail::h200, 32, 32, 1},   {&presets::detail::h200, 33, 32, 2},
    };
    for (const row& x : rows) {
        const launch_plan p = plan(*x.d, kernel_resources{}, x.elements);
        CAPTURE(wavefit::to_string(*x.d), x.elements, p.block.x, p.grid.x);
        REQUIRE(p.block.x == x.block);
        REQUIRE(p.grid.x == x.grid);
        REQUIRE_FALSE(p.grid_stride);
        require_launchable(p, *x.d, kernel_resources{});
    }
}

TEST_CASE("small work spreads over min(CUs, ceil(n / wave)) CUs", "[plan]") {
    for (const auto& pr : presets::all) {
        const wavefit::device_limits& d = pr.limits;
        const std::uint64_t full_row = std::uint64_t{d.compute_units} * d.wave_size;
        for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{100}, full_row - 1, full_row, full_row + 1, 2 * full_row,
                                3 * full_row + 5, 10 * full_row}) {
            const launch_plan p = plan(d, kernel_resources{}, n);
            const std::uint64_t cus_with_work = std::min<std::uint64_t>(d.compute_units, ceil_div(n, d.wave_size));
            CAPTURE(pr.key, n, cus_with_work, p.block.x, p.grid.x, p.occupancy_block);
            REQUIRE(p.grid.x >= cus_with_work);
            REQUIRE(p.grid.x * p.block.x >= n);
            REQUIRE(p.block.x % d.wave_size == 0);
            REQUIRE(p.block.x <= p.occupancy_block);
            require_launchable(p, d, kernel_resources{});
        }
    }
    // 2 x 304 x 64 elements on the MI300X: blocks of 2 waves, one per CU.
    const launch_plan p = plan(presets::detail::mi300x, kernel_resources{}, 38912);
    const std::string reason = wavefit::plan_reason(p, presets::detail::mi300x, kernel_resources{});
    CAPTURE(reason);
    REQUIRE(p.block.x == 128);
    REQUIRE(p.grid.x == 304);
    REQUIRE(p.rule == block_rule::spread_small_work);
    REQUIRE(p.occupancy_block == 256);
    REQUIRE(contains(reason, "304 of the 304 CUs"));
    REQUIRE(contains(reason, "instead of 256"));
}

TEST_CASE("small work is not spread when spread_small_work is off", "[plan]") {
    wavefit::plan_options opt;
    opt.spread_small_work = false;
    const launch_plan p = plan(presets::detail::mi300x, kernel_resources{}, 1, opt);
    CAPTURE(p.block.x);
    REQUIRE(p.block.x == 256);
    REQUIRE(p.grid.x == 1);
}

TEST_CASE("large work uses the smallest best-occupancy block of at least 256 threads", "[plan]") {
    for (const auto& pr : presets::all) {
        const launch_plan p = plan(pr.limits, kernel_resources{}, std::uint64_t{1} << 30);
        CAPTURE(pr.key, p.block.x, p.occupancy.occupancy);
        REQUIRE(p.block.x == 256);
        REQUIRE(p.rule == block_rule::best_occupancy);
        REQUIRE(p.occupancy.occupancy == Approx(1.0));
        require_launchable(p, pr.limits, kernel_resources{});
    }
    SECTION("168 registers on the H200: 12 warps per SM, reached by 384 threads but not by 256") {
        // Any wave multiple allowed: 384.
        const launch_plan any = plan(presets::detail::h200, with_registers(168),
                                     work::elements(std::uint64_t{1} << 26).block_any_wave_multiple());
        CAPTURE(any.block.x, any.occupancy.active_waves_per_cu);
        REQUIRE(any.block.x == 384);
        REQUIRE(any.occupancy.active_waves_per_cu == 12);
        REQUIRE(wavefit::occupancy(presets::detail::h200, with_registers(168), 256).active_waves_per_cu == 8);
        require_launchable(any, presets::detail::h200, with_registers(168));
        // The default contract (powers of two): 128 reaches the same 12 warps (3 blocks), 256 and 512 do not.
        const launch_plan pow2 = plan(presets::detail::h200, with_registers(168), std::uint64_t{1} << 26);
        CAPTURE(pow2.block.x, pow2.occupancy.active_waves_per_cu);
        REQUIRE(pow2.block.x == 128);
        REQUIRE(pow2.occupancy.active_waves_per_cu == 12);
        REQUIRE(pow2.rule == block_rule::best_occupancy_below_min);
        require_launchable(pow2, presets::detail::h200, with_registers(168));
    }
    SECTION("plan_options::min_efficient_block moves the preference") {
        wavefit::plan_options opt;
        opt.min_efficient_block = 512;
        const launch_plan p = plan(presets::detail::mi300x, kernel_resources{}, std::uint64_t{1} << 30, opt);
        CAPTURE(p.block.x);
        REQUIRE(p.block.x == 512);
        REQUIRE(contains(wavefit::plan_reason(p, presets::detail::mi300x, kernel_resources{}), "at least 512 threads"));
    }
}

TEST_CASE("a kernel bound of 128 keeps the block at 128 or less", "[plan]") {
    const kernel_resources k = with_bound(128);
    for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200}) {
        const launch_plan p = plan(*d, k, std::uint64_t{1} << 24);
        const std::string reason = wavefit::plan_reason(p, *d, k);
        CAPTURE(wavefit::to_string(*d), p.block.x, reason);
        REQUIRE(p.block.x == 128);
        REQUIRE(p.rule == block_rule::best_occupancy_below_min);
        REQUIRE(contains(reason, "kernel's bound"));
        require_launchable(p, *d, k);
    }
}

TEST_CASE("a kernel bound of 32 on wave64 gives block 32 with a partial-wave warning", "[plan]") {
    const kernel_resources k = with_bound(32);
    const launch_plan p = plan(presets::detail::mi300x, k, std::uint64_t{1} << 20);
    const std::string reason = wavefit::plan_reason(p, presets::detail::mi300x, k);
    CAPTURE(p.block.x, reason);
    REQUIRE(p.block.x == 32);
    REQUIRE(p.rule == block_rule::kernel_bound_below_wave);
    REQUIRE(p.ok());
    REQUIRE(p.problems.size() == 1);
    REQUIRE(p.problems[0].code == diagnostic_code::block_not_wave_multiple);
    REQUIRE(p.grid.x == (std::uint64_t{1} << 20) / 32);
    REQUIRE(contains(reason, "below one 64-thread wave"));
    // On a 32-wide device the same bound is a whole warp: no warning.
    const launch_plan nv = plan(presets::detail::h200, k, std::uint64_t{1} << 20);
    CAPTURE(nv.block.x);
    REQUIRE(nv.block.x == 32);
    REQUIRE(nv.problems.empty());
}

TEST_CASE("registers that make 1024 threads impossible give a smaller block", "[plan]") {
    SECTION("256 VGPRs on the MI300X: 512 threads at most, even when 1024 is preferred") {
        wavefit::plan_options opt;
        opt.min_efficient_block = 1024;
        const launch_plan p = plan(presets::detail::mi300x, with_registers(256), std::uint64_t{1} << 26, opt);
        CAPTURE(p.block.x, p.occupancy.active_waves_per_cu);
        REQUIRE(p.block.x == 512);
        REQUIRE(p.rule == block_rule::best_occupancy_below_min);
        REQUIRE(p.occupancy.active_waves_per_cu == 8);
        require_launchable(p, presets::detail::mi300x, with_registers(256));
    }
    SECTION("kokkos#9402: 132 VGPRs on the MI300A for the failing work sizes") {
        // Kokkos picked 1024 for nwork in [116737, 466943] and the dispatch aborted.
        for (std::uint64_t nwork : {116736u, 116737u, 118638u, 195112u, 466943u, 466944u}) {
            const launch_plan p = plan(presets::detail::mi300a, with_registers(132), nwork);
            CAPTURE(nwork, p.block.x);
            REQUIRE(p.block.x <= 768);
            require_launchable(p, presets::detail::mi300a, with_registers(132));
        }
    }
    SECTION("65 registers on the H200: block 1024 cannot run, the plan never picks it") {
        wavefit::plan_options opt;
        opt.min_efficient_block = 1024;
        const launch_plan p = plan(presets::detail::h200, with_registers(65), std::uint64_t{1} << 26, opt);
        CAPTURE(p.block.x);
        REQUIRE(p.block.x < 1024);
        require_launchable(p, presets::detail::h200, with_registers(65));
    }
}

TEST_CASE("shared memory per block limits residency and the plan grows the block to compensate", "[plan]") {
    SECTION("32 KiB of LDS on the MI300X: 2 blocks per CU, so 16-wave blocks fill it") {
        const kernel_resources k = with_static_shared(32768);
        const launch_plan p = plan(presets::detail::mi300x, k, std::uint64_t{1} << 26);
        CAPTURE(p.block.x, p.occupancy.active_blocks_per_cu, p.occupancy.limits.shared_memory);
        REQUIRE(p.occupancy.limits.shared_memory == 2);
        REQUIRE(p.block.x == 1024);
        REQUIRE(p.occupancy.active_waves_per_cu == 32);
        require_launchable(p, presets::detail::mi300x, k);
    }
    SECTION("100 KiB of dynamic shared memory on the H200: 2 blocks per SM") {
        wavefit::plan_options opt;
        opt.dynamic_shared = 102400;  // + 1024 reserved = 103424; 233472 / 103424 = 2
        const launch_plan p = plan(presets::detail::h200, kernel_resources{}, std::uint64_t{1} << 26, opt);
        CAPTURE(p.block.x, p.occupancy.active_blocks_per_cu);
        REQUIRE(p.occupancy.limits.shared_memory == 2);
        REQUIRE(p.block.x == 1024);
        REQUIRE(p.dynamic_shared == 102400);
        REQUIRE(p.config().dynamic_shared == 102400);
        REQUIRE(p.ok());
        // Above 48 KiB the launch needs the opt-in: a warning, not an error.
        REQUIRE(p.problems.contains(diagnostic_code::shared_memory_requires_opt_in));
    }
    SECTION("16 KiB on the MI300X with block 64 preferred by spreading still fits 4 blocks") {
        const kernel_resources k = with_static_shared(16384);
        const launch_plan p = plan(presets::detail::mi300x, k, 64);
        CAPTURE(p.block.x, p.occupancy.active_blocks_per_cu);
        REQUIRE(p.block.x == 64);
        REQUIRE(p.occupancy.active_blocks_per_cu == 4);
        REQUIRE(p.occupancy.limited_by == wavefit::occupancy_report::limiter::shared_memory);
    }
}

TEST_CASE("a kernel that cannot run at all gives an infeasible plan that says why", "[plan]") {
    SECTION("static LDS above the MI300X's 64 KiB") {
        const kernel_resources k = with_static_shared(65537);
        const launch_plan p = plan(presets::detail::mi300x, k, 1000);
        const std::string reason = wavefit::plan_reason(p, presets::detail::mi300x, k);
        CAPTURE(reason);
        REQUIRE_FALSE(p.ok());
        REQUIRE_FALSE(p.feasible);
        REQUIRE(p.problems.contains(diagnostic_code::shared_memory_exceeds_limit));
        REQUIRE(p.grid.x == 0);
        REQUIRE(p.block.x == 0);
        REQUIRE(contains(reason, "no block size can run"));
        REQUIRE(contains(reason, "65537"));
    }
    SECTION("600 VGPRs on the MI300X") {
        const launch_plan p = plan(presets::detail::mi300x, with_registers(600), 1000);
        CAPTURE(wavefit::plan_reason(p, presets::detail::mi300x, with_registers(600)));
        REQUIRE_FALSE(p.ok());
        REQUIRE(p.problems.contains(diagnostic_code::registers_exceed_limit));
    }
    SECTION("the same for extents") {
        const kernel_resources k = with_static_shared(232449);
        const launch_plan p = plan(presets::detail::h200, k, dims{100, 100});
        REQUIRE_FALSE(p.ok());
        REQUIRE(p.problems.contains(diagnostic_code::shared_memory_exceeds_limit));
    }
}

TEST_CASE("2^33 elements of a kernel that loops clamp grid x to 16,777,215 blocks of 256 on AMD", "[plan][amd]") {
    const std::uint64_t n = std::uint64_t{1} << 33;
    for (const char* key : {"mi210", "mi250x", "mi300a", "mi300x", "mi325x", "mi355x"}) {
        const launch_plan p = plan(presets::by_name(key), kernel_resources{}, work::elements(n).kernel_loops());
        const std::string reason = wavefit::plan_reason(p, presets::by_name(key), kernel_resources{});
        CAPTURE(key, p.block.x, p.grid.x, reason);
        REQUIRE(p.block.x == 256);
        REQUIRE(p.grid.x == 16777215);
        REQUIRE(p.grid.x * p.block.x == 4294967040u);
        REQUIRE(p.grid_stride);
        REQUIRE(p.clamps[0] == grid_clamp::dispatch_work_item_limit);
        REQUIRE(contains(reason, "dispatch limit"));
        REQUIRE(contains(reason, "grid-stride"));
        require_launchable(p, presets::by_name(key), kernel_resources{});
    }
}

TEST_CASE("2^33 elements fit the H200 without striding", "[plan][nvidia]") {
    const std::uint64_t n = std::uint64_t{1} << 33;
    const launch_plan p = plan(presets::detail::h200, kernel_resources{}, n);
    CAPTURE(p.block.x, p.grid.x);
    REQUIRE(p.block.x == 256);
    REQUIRE(p.grid.x == 33554432);
    REQUIRE_FALSE(p.grid_stride);
    REQUIRE(p.clamps[0] == grid_clamp::none);
    require_launchable(p, presets::detail::h200, kernel_resources{});
}

TEST_CASE("2^64-1 elements of a kernel that loops plan without overflow on both vendors", "[plan]") {
    const launch_plan amd = plan(presets::detail::mi300x, kernel_resources{}, work::elements(u64_max).kernel_loops());
    CAPTURE(amd.grid.x, amd.block.x);
    REQUIRE(amd.grid.x == 16777215);
    REQUIRE(amd.grid_stride);
    require_launchable(amd, presets::detail::mi300x, kernel_resources{});

    const launch_plan nv = plan(presets::detail::h200, kernel_resources{}, work::elements(u64_max).kernel_loops());
    const std::string reason = wavefit::plan_reason(nv, presets::detail::h200, kernel_resources{});
    CAPTURE(nv.grid.x, nv.block.x, reason);
    REQUIRE(nv.grid.x == 2147483647u);
    REQUIRE(nv.grid_stride);
    REQUIRE(nv.clamps[0] == grid_clamp::device_grid_limit);
    REQUIRE(contains(reason, "18446744073709551615"));
    REQUIRE(contains(reason, "maximum grid x"));
    require_launchable(nv, presets::detail::h200, kernel_resources{});
}

TEST_CASE("extent plans shape the block x first and cover every axis", "[plan][extent]") {
    SECTION("1024 x 1024 on the MI300X: rows of 256") {
        const launch_plan p =
            require_extent_plan(presets::detail::mi300x, dims{1024, 1024}, dims{256, 1, 1}, dims{4, 1024, 1});
        REQUIRE_FALSE(p.grid_stride);
    }
    SECTION("16 x 16 x 16 on the MI300X: one wave as 16 x 4") {
        const launch_plan p =
            require_extent_plan(presets::detail::mi300x, dims{16, 16, 16}, dims{16, 4, 1}, dims{1, 4, 16});
        REQUIRE(p.block.volume() % 64 == 0);
    }
    SECTION("64 x 64 x 64 on the H200: 64 x 4 blocks") {
        require_extent_plan(presets::detail::h200, dims{64, 64, 64}, dims{64, 4, 1}, dims{1, 16, 64});
    }
    SECTION("a long z axis on the H200 keeps block z within 64") {
        const launch_plan p = plan(presets::detail::h200, kernel_resources{}, dims{1, 1, 1000000});
        CAPTURE(p.block.x, p.block.y, p.block.z, p.grid.z);
        REQUIRE(p.block.z <= 64);
        REQUIRE(p.grid.z * p.block.z >= 1000000);
        require_launchable(p, presets::detail::h200, kernel_resources{});
    }
}

TEST_CASE("extent plans of a kernel that loops clamp grid y and z per axis and then grid-stride", "[plan][extent]") {
    SECTION("grid y stops at 65535 on the H200 and at 65536 on the MI300X") {
        struct row {
            const wavefit::device_limits* d;
            std::uint64_t y_limit;
        };
        for (const row& x : {row{&presets::detail::h200, 65535}, row{&presets::detail::mi300x, 65536}}) {
            const launch_plan p =
                plan(*x.d, kernel_resources{}, work::over(dims{64, std::uint64_t{1} << 20}).kernel_loops());
            const std::string reason = wavefit::plan_reason(p, *x.d, kernel_resources{});
            CAPTURE(wavefit::to_string(*x.d), p.block.x, p.block.y, p.grid.x, p.grid.y, reason);
            REQUIRE(p.block == dims{64, 4, 1});
            REQUIRE(p.grid.y == x.y_limit);
            REQUIRE(p.clamps[1] == grid_clamp::device_grid_limit);
            REQUIRE(p.clamps[0] == grid_clamp::none);
            REQUIRE(p.grid_stride);
            REQUIRE(contains(reason, "y clamped to " + std::to_string(x.y_limit)));
            require_launchable(p, *x.d, kernel_resources{});
        }
    }
    SECTION("grid z stops at 65535 on the H200") {
        const launch_plan p =
            plan(presets::detail::h200, kernel_resources{}, work::over(dims{64, 1, std::uint64_t{1} << 24}).kernel_loops());
        CAPTURE(p.block.x, p.block.y, p.block.z, p.grid.x, p.grid.y, p.grid.z);
        REQUIRE(p.block == dims{64, 1, 4});
        REQUIRE(p.grid.z == 65535);
        REQUIRE(p.clamps[2] == grid_clamp::device_grid_limit);
        REQUIRE(p.grid_stride);
        require_launchable(p, presets::detail::h200, kernel_resources{});
    }
    SECTION("grid x of a 2-D extent stops at the work-item limit on AMD") {
        const launch_plan p =
            plan(presets::detail::mi300x, kernel_resources{}, work::over(dims{std::uint64_t{1} << 33, 2}).kernel_loops());
        CAPTURE(p.block.x, p.grid.x, p.grid.y);
        REQUIRE(p.block.x == 256);
        REQUIRE(p.grid.x == 16777215);
        REQUIRE(p.clamps[0] == grid_clamp::dispatch_work_item_limit);
        REQUIRE(p.grid_stride);
        require_launchable(p, presets::detail::mi300x, kernel_resources{});
    }
    SECTION("an unclamped extent does not stride and covers each axis") {
        const launch_plan p = plan(presets::detail::h200, kernel_resources{}, dims{1000, 1000, 3});
        CAPTURE(p.block.x, p.block.y, p.block.z, p.grid.x, p.grid.y, p.grid.z);
        REQUIRE_FALSE(p.grid_stride);
        for (int a = 0; a < 3; ++a) {
            CAPTURE(a);
            REQUIRE(p.grid[a] * p.block[a] >= p.extent[a]);
        }
    }
}

TEST_CASE("the plan reason names the block, the occupancy and its limiter", "[plan]") {
    struct row {
        const char* what;
        const wavefit::device_limits* d;
        kernel_resources k;
        std::uint64_t elements;
    };
    kernel_resources lds{};
    lds.static_shared = 16384;
    const row rows[] = {
        {"wave slots", &presets::detail::mi300x, kernel_resources{}, std::uint64_t{1} << 30},
        {"registers", &presets::detail::h200, with_registers(168), std::uint64_t{1} << 26},
        {"shared memory", &presets::detail::mi300x, lds, 64},
        {"block slots", &presets::detail::h200, kernel_resources{}, 1},
    };
    for (const row& x : rows) {
        const launch_plan p = plan(*x.d, x.k, x.elements);
        const std::string reason = wavefit::plan_reason(p, *x.d, x.k);
        CAPTURE(x.what, reason);
        REQUIRE_FALSE(reason.empty());
        REQUIRE(contains(reason, "block " + std::to_string(p.block.x)));
        REQUIRE(contains(reason, "limited by " + std::string(wavefit::to_string(p.occupancy.limited_by))));
        REQUIRE(contains(reason, "% occupancy"));
    }
}

TEST_CASE("plans are constant expressions", "[plan]") {
    static_assert(plan(presets::detail::mi300x, kernel_resources{}, std::uint64_t{1} << 30).block.x == 256,
                  "256 for large work");
    static_assert(
        plan(presets::detail::mi300x, kernel_resources{}, work::elements(std::uint64_t{1} << 33).kernel_loops()).grid.x ==
            16777215,
        "clamped at compile time");
    static_assert(plan(presets::detail::mi300x, kernel_resources{}, work::elements(std::uint64_t{1} << 33)).exceeds_one_pass,
                  "one pass refused at compile time");
    SUCCEED();
}

TEST_CASE("a work that replaces a configuration keeps its block unless the blocks are stated", "[plan][contract]") {
    const wavefit::launch_config original{dims{1000}, dims{128}};
    const work kept = work::elements(128000).replacing(original);
    CHECK(kept.contract.fixed_block == dims{128});
    // Stated before or after, a block constraint lifts the baseline's block.
    CHECK_FALSE(work::elements(128000).block_powers_of_two().replacing(original).contract.has_fixed_block());
    CHECK_FALSE(work::elements(128000).replacing(original).block_any_wave_multiple().contract.has_fixed_block());
    CHECK(work::elements(128000).replacing(original).block_at_most(256).contract.max_block == 256);
    CHECK(work::elements(128000).block_fixed(dims{64}).replacing(original).contract.fixed_block == dims{64});
    // plan() of such a work is the configuration it replaces, validated.
    const launch_plan p = plan(presets::detail::mi300x, kernel_resources{}, kept);
    CHECK(p.rule == block_rule::baseline);
    CHECK(p.config() == original);
    CHECK(p.ok());
}

TEST_CASE("a per-block kernel that loops over short units gets a saturated grid unless the work states its grid",
          "[plan][contract]") {
    // HeCBench's scan_bcao: tiles of 1024 ints, exactly 512 threads, its own loop over tiles. On the
    // H200 (132 SMs, four blocks of 512 each) the saturated grid is 4 rounds x 528 = 2,112 blocks, the
    // original's own launch; one block per tile ran at 0.89x of it.
    const wavefit::device_limits& h200 = presets::detail::h200;
    const std::uint64_t tiles = std::uint64_t{1} << 18;
    const work scan = work::per_block(tiles, 1024).block_fixed(dims{512}).kernel_loops();

    const launch_plan saturated = plan(h200, kernel_resources{}, scan);
    const std::string reason = wavefit::plan_reason(saturated, h200, kernel_resources{});
    CAPTURE(saturated.grid.x, reason);
    REQUIRE(saturated.block.x == 512);
    REQUIRE(saturated.grid.x == 4 * 132 * 4);
    REQUIRE(saturated.clamps[0] == grid_clamp::saturated_short_units);
    REQUIRE(saturated.grid_stride);
    REQUIRE(contains(reason, "once per several"));
    REQUIRE(contains(reason, "grid_covering()"));
    require_launchable(saturated, h200, kernel_resources{});

    // Stated grids are kept: one block per tile, or the rounds asked for.
    const launch_plan covering = plan(h200, kernel_resources{}, scan.grid_covering());
    CHECK(covering.grid.x == tiles);
    CHECK(covering.clamps[0] == grid_clamp::none);
    const launch_plan two_rounds = plan(h200, kernel_resources{}, scan.grid_saturated(2));
    CHECK(two_rounds.grid.x == 2 * 132 * 4);
    CHECK(two_rounds.clamps[0] == grid_clamp::saturated);

    // Not for a kernel that does not loop, units of more than 4 elements per thread, or fewer units
    // than the saturated grid holds.
    CHECK(plan(h200, kernel_resources{}, work::per_block(tiles, 1024).block_fixed(dims{512})).grid.x == tiles);
    CHECK(plan(h200, kernel_resources{}, work::per_block(tiles, 2049).block_fixed(dims{512}).kernel_loops()).grid.x ==
          tiles);
    CHECK(plan(h200, kernel_resources{}, work::per_block(tiles, 2048).block_fixed(dims{512}).kernel_loops()).grid.x ==
          2112);
    const launch_plan few = plan(h200, kernel_resources{}, work::per_block(2000, 1024).block_fixed(dims{512}).kernel_loops());
    CHECK(few.grid.x == 2000);
    CHECK(few.clamps[0] == grid_clamp::none);
    CHECK_FALSE(few.grid_stride);
}

TEST_CASE("next_pow2 and prev_pow2 agree with doubling loops on every width", "[plan]") {
    const auto next_by_loop = [](std::uint64_t v) {
        std::uint64_t p = 1;
        while (p < v && p <= (u64_max >> 1)) p <<= 1;
        return p;
    };
    const auto prev_by_loop = [](std::uint64_t v) -> std::uint64_t {
        if (v == 0) return 0;
        std::uint64_t p = 1;
        while (p <= (v >> 1)) p <<= 1;
        return p;
    };
    std::vector<std::uint64_t> values;
    for (std::uint64_t v = 0; v < 4100; ++v) values.push_back(v);
    for (int b = 0; b < 64; ++b) {
        const std::uint64_t p = std::uint64_t{1} << b;
        for (const std::uint64_t v : {p - 1, p, p + 1, p + p / 2, p | (p >> 1) | 1}) values.push_back(v);
    }
    values.push_back(u64_max);
    for (const std::uint64_t v : values) {
        CAPTURE(v);
        REQUIRE(wavefit::detail::next_pow2(v) == next_by_loop(v));
        REQUIRE(wavefit::detail::prev_pow2(v) == prev_by_loop(v));
    }
}
