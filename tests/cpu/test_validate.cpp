// SPDX-License-Identifier: MIT
// Specification of launch validation: for every diagnostic code of docs/cli.md, the exact boundary on
// AMD and NVIDIA presets (the limit passes, limit + 1 fails), its severity, that `valid` holds exactly
// when no error is reported, and that each message names the value, the limit and the device while
// each fix names a concrete number.
#include <catch2/catch.hpp>

#include "support.hpp"

#include <wavefit/diagnostic.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/launch_config.hpp>
#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

using wavefit::diagnostic;
using wavefit::diagnostic_code;
using wavefit::dims;
using wavefit::kernel_resources;
using wavefit::launch_config;
using wavefit::severity;
namespace presets = wavefit::presets;

using spec::cfg;
using spec::check_launch;
using spec::contains;
using spec::require_absent;
using spec::require_present;
using spec::require_rejected;
using spec::u64_max;
using spec::with_bound;
using spec::with_registers;
using spec::with_static_shared;
using outcome = spec::checked_launch;

// MI300X as rocminfo describes the dispatch (grid maxima 2^32-1 per dimension; docs/device-facts.md §1 footnote 1),
// so that the work-item cap can be reached in y and z without a grid-dimension error.
wavefit::device_limits mi300x_with_rocminfo_grid() {
    wavefit::device_limits d = presets::detail::mi300x;
    d.max_grid = dims{4294967295u, 4294967295u, 4294967295u};
    return d;
}

// A block of 2048 threads on MI300X is refused as beyond the device's 1024, and `unjudged`, a check that
// assumes a block the device accepts, says nothing about it.
void require_block_refused_by_the_device_only(const kernel_resources& k, diagnostic_code unjudged) {
    const outcome o = check_launch(presets::detail::mi300x, k, cfg(dims{1}, dims{2048}));
    require_present(o, diagnostic_code::block_exceeds_device_max_threads, {"2048"});
    require_absent(o, unjudged);
}

// `code` is among the findings, and every time with its value saturated at 2^64-1.
void require_saturated(const wavefit::detail::findings& f, diagnostic_code code) {
    CAPTURE(wavefit::to_string(code));
    bool saw = false;
    for (const wavefit::detail::finding& x : f)
        if (x.code == code) {
            saw = true;
            REQUIRE(x.value == u64_max);
        }
    REQUIRE(saw);
}

}  // namespace

TEST_CASE("diagnostic codes have the contract's spellings and severities", "[validate]") {
    struct spelled {
        diagnostic_code code;
        const char* name;
    };
    // Errors refuse the launch, warnings only inform.
    const std::vector<spelled> errors = {
        {diagnostic_code::zero_dimension, "zero_dimension"},
        {diagnostic_code::block_exceeds_device_max_threads, "block_exceeds_device_max_threads"},
        {diagnostic_code::block_dim_exceeds_device_limit, "block_dim_exceeds_device_limit"},
        {diagnostic_code::block_exceeds_kernel_max_threads, "block_exceeds_kernel_max_threads"},
        {diagnostic_code::registers_exceed_limit, "registers_exceed_limit"},
        {diagnostic_code::shared_memory_exceeds_limit, "shared_memory_exceeds_limit"},
        {diagnostic_code::grid_dim_exceeds_device_limit, "grid_dim_exceeds_device_limit"},
        {diagnostic_code::work_items_exceed_dispatch_limit, "work_items_exceed_dispatch_limit"},
        // Added with the kernel's contract (the contract's ten are unchanged).
        {diagnostic_code::negative_size, "negative_size"},
        {diagnostic_code::contract_allows_no_block, "contract_allows_no_block"},
    };
    const std::vector<spelled> warnings = {
        {diagnostic_code::shared_memory_requires_opt_in, "shared_memory_requires_opt_in"},
        {diagnostic_code::block_not_wave_multiple, "block_not_wave_multiple"},
        {diagnostic_code::grid_underfills_device, "grid_underfills_device"},
    };
    REQUIRE(wavefit::detail::diagnostic_code_count == 13);
    for (const auto& [level, codes] : {std::pair{severity::error, &errors}, std::pair{severity::warning, &warnings}}) {
        for (const spelled& x : *codes) {
            CAPTURE(x.name, wavefit::to_string(level));
            REQUIRE(wavefit::to_string(x.code) == x.name);
            REQUIRE(wavefit::detail::severity_of(x.code) == level);
            diagnostic_code parsed = diagnostic_code::zero_dimension;
            REQUIRE(wavefit::detail::parse_diagnostic_code(x.name, parsed));
            REQUIRE(parsed == x.code);
        }
    }
    diagnostic_code unused = diagnostic_code::zero_dimension;
    REQUIRE_FALSE(wavefit::detail::parse_diagnostic_code("grid_too_big", unused));
    REQUIRE(wavefit::to_string(severity::error) == "error");
    REQUIRE(wavefit::to_string(severity::warning) == "warning");
}

TEST_CASE("a well-formed launch has no diagnostics on every preset", "[validate]") {
    for (const auto& p : presets::all) {
        CAPTURE(p.key);
        const outcome o = check_launch(p.limits, kernel_resources{}, cfg(dims{1000}, dims{256}));
        REQUIRE(o.valid);
        REQUIRE(o.diagnostics.empty());
    }
}

TEST_CASE("a zero grid or block dimension is rejected in each axis", "[validate][zero_dimension]") {
    for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200}) {
        for (int axis = 0; axis < 3; ++axis) {
            CAPTURE(wavefit::to_string(*d), axis);
            dims grid{4, 4, 4};
            dims block{64, 2, 2};
            const outcome fine = check_launch(*d, kernel_resources{}, cfg(grid, block));
            require_absent(fine, diagnostic_code::zero_dimension);

            dims zero_grid = grid;
            (axis == 0 ? zero_grid.x : axis == 1 ? zero_grid.y : zero_grid.z) = 0;
            const outcome g = check_launch(*d, kernel_resources{}, cfg(zero_grid, block));
            require_rejected(g, diagnostic_code::zero_dimension,
                             {"grid", std::string("0 blocks in ") + wavefit::detail::axis_name(axis)});

            dims zero_block = block;
            (axis == 0 ? zero_block.x : axis == 1 ? zero_block.y : zero_block.z) = 0;
            const outcome b = check_launch(*d, kernel_resources{}, cfg(grid, zero_block));
            require_rejected(b, diagnostic_code::zero_dimension,
                             {"block", std::string("0 threads in ") + wavefit::detail::axis_name(axis)});
        }
    }
    // One finding per zero: a (0, 0, 0) grid reports three.
    const wavefit::detail::findings f =
        wavefit::detail::find_problems(presets::detail::mi300x, kernel_resources{}, cfg(dims{0, 0, 0}, dims{64}));
    REQUIRE(f.size() == 3);
    REQUIRE(f[0].in_grid);
    REQUIRE(f[2].axis == 2);
}

TEST_CASE("a block dimension beyond the device's maximum for it is rejected", "[validate][block_dim]") {
    SECTION("block z 64 passes and 65 fails on the H200") {
        require_absent(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{1, 1, 64})),
                       diagnostic_code::block_dim_exceeds_device_limit);
        const outcome o = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{1, 1, 65}));
        REQUIRE_FALSE(o.valid);
        const diagnostic& dg = require_present(o, diagnostic_code::block_dim_exceeds_device_limit,
                                               {"block z = 65", "maximum block z of 64", "NVIDIA H200 (sm_90)"}, {"64"});
        REQUIRE(dg.severity == severity::error);
    }
    SECTION("block z 1024 passes on the MI300X, 1025 fails") {
        const outcome fine = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1}, dims{1, 1, 1024}));
        REQUIRE(fine.valid);
        require_absent(fine, diagnostic_code::block_dim_exceeds_device_limit);
        const outcome o = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1}, dims{1, 1, 1025}));
        require_rejected(o, diagnostic_code::block_dim_exceeds_device_limit,
                         {"block z = 1025", "maximum block z of 1024", "MI300X (gfx942)"}, {"1024"});
    }
    SECTION("block x 1024 passes and 1025 fails on both vendors") {
        for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200}) {
            CAPTURE(wavefit::to_string(*d));
            require_absent(check_launch(*d, kernel_resources{}, cfg(dims{1}, dims{1024})),
                           diagnostic_code::block_dim_exceeds_device_limit);
            require_present(check_launch(*d, kernel_resources{}, cfg(dims{1}, dims{1025})),
                            diagnostic_code::block_dim_exceeds_device_limit, {"block x = 1025", "1024"});
        }
    }
}

TEST_CASE("a block of more than 1024 threads is rejected even when each dimension fits", "[validate][block_threads]") {
    for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200, &presets::detail::rx7900xtx}) {
        CAPTURE(wavefit::to_string(*d));
        const outcome fine = check_launch(*d, kernel_resources{}, cfg(dims{1}, dims{32, 32, 1}));
        REQUIRE(fine.valid);
        const outcome o = check_launch(*d, kernel_resources{}, cfg(dims{1}, dims{41, 25, 1}));  // 1025 threads
        require_rejected(o, diagnostic_code::block_exceeds_device_max_threads,
                         {"(41, 25, 1)", "1025 threads", "maximum of 1024"},
                         {"1024", "grid (2, 1, 1) x block (21, 25, 1), which covers the same threads in every dimension"});
        require_absent(o, diagnostic_code::block_dim_exceeds_device_limit);
    }
}

TEST_CASE("a block above the kernel's own bound is rejected: 256 passes, 257 fails", "[validate][kernel_bound]") {
    const kernel_resources k = with_bound(256);
    SECTION("on AMD, naming HIP's launch-bounds log line") {
        const outcome fine = check_launch(presets::detail::mi300x, k, cfg(dims{100}, dims{256}));
        REQUIRE(fine.valid);
        const outcome o = check_launch(presets::detail::mi300x, k, cfg(dims{100}, dims{257}));
        require_rejected(o, diagnostic_code::block_exceeds_kernel_max_threads,
                         {"257 threads", "maximum of 256", "Launch params (257, 1, 1) are larger than launch bounds (256)",
                          "MI300X (gfx942)"},
                         {"256", "__launch_bounds__(257)"});
    }
    SECTION("on NVIDIA") {
        REQUIRE(check_launch(presets::detail::h200, k, cfg(dims{100}, dims{256})).valid);
        const outcome o = check_launch(presets::detail::h200, k, cfg(dims{100}, dims{257}));
        require_rejected(o, diagnostic_code::block_exceeds_kernel_max_threads,
                         {"257 threads", "maximum of 256", "NVIDIA H200"}, {"256"});
    }
    SECTION("a kernel bound above the device's maximum does not raise it") {
        require_block_refused_by_the_device_only(with_bound(2048), diagnostic_code::block_exceeds_kernel_max_threads);
    }
}

TEST_CASE("registers that a block cannot hold on one CU/SM are rejected at the exact boundary", "[validate][registers]") {
    SECTION("MI300X: block 1024 fits 128 VGPRs, not 129") {
        REQUIRE(check_launch(presets::detail::mi300x, with_registers(128), cfg(dims{10}, dims{1024})).valid);
        const outcome o = check_launch(presets::detail::mi300x, with_registers(129), cfg(dims{10}, dims{1024}));
        // 129 -> 136 per lane -> 3 waves per SIMD = 12 per CU: blocks up to 768 threads fit.
        require_rejected(o, diagnostic_code::registers_exceed_limit,
                         {"1024 threads", "129 registers", "136 registers per lane", "room for only 3", "MI300X (gfx942)"},
                         {"768", "128"});
        const wavefit::detail::findings f =
            wavefit::detail::find_problems(presets::detail::mi300x, with_registers(129), cfg(dims{10}, dims{1024}));
        REQUIRE(f.first_error()->value == 129);
        REQUIRE(f.first_error()->limit == 128);
    }
    SECTION("MI300X: 512 VGPRs per thread exist, 513 do not") {
        REQUIRE(check_launch(presets::detail::mi300x, with_registers(512), cfg(dims{10}, dims{256})).valid);
        const outcome o = check_launch(presets::detail::mi300x, with_registers(513), cfg(dims{10}, dims{64}));
        require_rejected(o, diagnostic_code::registers_exceed_limit, {"513 registers", "maximum of 512"}, {"512"});
    }
    SECTION("RX 7900 XTX: 256 VGPRs per thread exist, 257 do not") {
        REQUIRE(check_launch(presets::detail::rx7900xtx, with_registers(256), cfg(dims{10}, dims{32})).valid);
        require_present(check_launch(presets::detail::rx7900xtx, with_registers(257), cfg(dims{10}, dims{32})),
                        diagnostic_code::registers_exceed_limit,
                        {"257 registers", "maximum of 256", "RX 7900 XTX (gfx1100)"});
    }
    SECTION("H200: block 1024 fits 64 registers, not 65") {
        REQUIRE(check_launch(presets::detail::h200, with_registers(64), cfg(dims{10}, dims{1024})).valid);
        const outcome o = check_launch(presets::detail::h200, with_registers(65), cfg(dims{10}, dims{1024}));
        // 65 x 32 -> 2304 per warp x 32 warps = 73728 > 65536; by sub-partition 7 warps each = 28 warps = 896 threads.
        require_rejected(o, diagnostic_code::registers_exceed_limit,
                         {"65 registers", "73728", "65536", "NVIDIA H200 (sm_90)"}, {"896", "64"});
    }
    SECTION("H200: 255 registers per thread exist, 256 do not") {
        REQUIRE(check_launch(presets::detail::h200, with_registers(255), cfg(dims{10}, dims{256})).valid);
        require_present(check_launch(presets::detail::h200, with_registers(256), cfg(dims{10}, dims{32})),
                        diagnostic_code::registers_exceed_limit, {"256 registers", "maximum of 255"}, {"255"});
    }
    SECTION("gfx9 SGPRs: 192 per wave let a 1024-thread block run, 193 do not; gfx1100 has no SGPR limit") {
        // 800 / align_up(192, 16) = 4 waves per SIMD = 16 per CU = one 1024-thread block;
        // 193 -> 208 per wave -> 3 waves per SIMD = 12 per CU = 768 threads.
        kernel_resources k{};
        k.scalar_registers = 192;
        REQUIRE(check_launch(presets::detail::mi300x, k, cfg(dims{4}, dims{1024})).valid);
        k.scalar_registers = 193;
        const outcome o = check_launch(presets::detail::mi300x, k, cfg(dims{4}, dims{1024}));
        require_rejected(o, diagnostic_code::registers_exceed_limit,
                         {"193 scalar registers", "208 SGPRs", "800 SGPRs", "MI300X (gfx942)"}, {"768"});
        REQUIRE(check_launch(presets::detail::rx7900xtx, k, cfg(dims{4}, dims{1024})).valid);
    }
    SECTION("registers are judged only for a block the device and the kernel accept") {
        require_block_refused_by_the_device_only(with_registers(129), diagnostic_code::registers_exceed_limit);
    }
}

TEST_CASE("shared memory above the per-block maximum is rejected; NVIDIA's opt-in range only warns", "[validate][shared]") {
    SECTION("MI300X: 65536 bytes pass, 65537 fail, static and dynamic counted together") {
        const outcome fine =
            check_launch(presets::detail::mi300x, with_static_shared(32768), cfg(dims{1}, dims{256}, 32768));
        REQUIRE(fine.valid);
        REQUIRE(fine.diagnostics.empty());  // no opt-in exists on AMD: no warning either
        const outcome o = check_launch(presets::detail::mi300x, with_static_shared(32768), cfg(dims{1}, dims{256}, 32769));
        require_rejected(o, diagnostic_code::shared_memory_exceeds_limit,
                         {"32768 static + 32769 dynamic", "65537 bytes", "65536 bytes", "LDS", "MI300X (gfx942)"},
                         {"65536"});
    }
    SECTION("MI355X: 163840 bytes pass, 163841 fail") {
        REQUIRE(check_launch(presets::detail::mi355x, with_static_shared(163840), cfg(dims{1}, dims{256})).valid);
        require_present(check_launch(presets::detail::mi355x, with_static_shared(163841), cfg(dims{1}, dims{256})),
                        diagnostic_code::shared_memory_exceeds_limit, {"163841 bytes", "163840 bytes", "MI355X (gfx950)"},
                        {"163840"});
    }
    SECTION("H200: 49152 is silent, 49153 needs the opt-in, 232448 still only warns, 232449 fails") {
        const outcome at_default = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{256}, 49152));
        REQUIRE(at_default.valid);
        REQUIRE(at_default.diagnostics.empty());

        const outcome above_default =
            check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{256}, 49153));
        REQUIRE(above_default.valid);
        REQUIRE(above_default.diagnostics.size() == 1);
        const diagnostic& w = require_present(above_default, diagnostic_code::shared_memory_requires_opt_in,
                                              {"49153 bytes", "49152 bytes", "232448 bytes", "NVIDIA H200 (sm_90)"},
                                              {"cudaFuncSetAttribute", "49153"});
        REQUIRE(w.severity == severity::warning);

        const outcome at_optin = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{256}, 232448));
        REQUIRE(at_optin.valid);
        require_present(at_optin, diagnostic_code::shared_memory_requires_opt_in, {"232448 bytes"});
        require_absent(at_optin, diagnostic_code::shared_memory_exceeds_limit);

        const outcome above_optin = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1}, dims{256}, 232449));
        require_rejected(above_optin, diagnostic_code::shared_memory_exceeds_limit,
                         {"232449 bytes", "232448 bytes", "NVIDIA H200 (sm_90)"}, {"232448"});
        require_absent(above_optin, diagnostic_code::shared_memory_requires_opt_in);
    }
    SECTION("A100: 163 KiB with opt-in pass, one byte more fails") {
        REQUIRE(check_launch(presets::detail::a100, kernel_resources{}, cfg(dims{1}, dims{256}, 166912)).valid);
        REQUIRE_FALSE(check_launch(presets::detail::a100, kernel_resources{}, cfg(dims{1}, dims{256}, 166913)).valid);
    }
}

TEST_CASE("a grid dimension beyond the device's maximum is rejected", "[validate][grid]") {
    SECTION("grid y 65535 passes and 65536 fails on the H200") {
        REQUIRE(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1, 65535}, dims{256})).valid);
        const outcome o = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1, 65536}, dims{256}));
        require_rejected(o, diagnostic_code::grid_dim_exceeds_device_limit,
                         {"grid y = 65536", "maximum grid y of 65535", "NVIDIA H200 (sm_90)"}, {"65535"});
    }
    SECTION("grid z 65535 passes and 65536 fails on the H200") {
        REQUIRE(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1, 1, 65535}, dims{256})).valid);
        require_present(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1, 1, 65536}, dims{256})),
                        diagnostic_code::grid_dim_exceeds_device_limit, {"grid z = 65536", "65535"});
    }
    SECTION("grid y 65536 passes and 65537 fails on the MI300X (HIP reports 65536)") {
        REQUIRE(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1, 65536}, dims{256})).valid);
        require_present(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1, 65537}, dims{256})),
                        diagnostic_code::grid_dim_exceeds_device_limit,
                        {"grid y = 65537", "maximum grid y of 65536", "MI300X (gfx942)"}, {"65536"});
    }
    SECTION("grid x 2^31-1 passes and 2^31 fails on both vendors") {
        REQUIRE(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{2147483647u}, dims{1024})).valid);
        require_present(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{2147483648u}, dims{32})),
                        diagnostic_code::grid_dim_exceeds_device_limit, {"grid x = 2147483648", "2147483647 (2^31-1)"});
        const outcome amd = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{2147483648u}, dims{1}));
        require_present(amd, diagnostic_code::grid_dim_exceeds_device_limit, {"2147483648", "2147483647 (2^31-1)"});
    }
}

TEST_CASE("a grid beyond 2^32-1 work-items in one dimension is rejected on AMD", "[validate][work_items][amd]") {
    SECTION("the largest valid grid x for blocks of 1024, 256 and 64 threads (docs/device-facts.md footnote 2)") {
        struct row {
            std::uint64_t grid;
            std::uint64_t block;
        };
        for (const row& x : {row{4194303, 1024}, row{16777215, 256}, row{67108863, 64}}) {
            CAPTURE(x.grid, x.block);
            const outcome fine = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{x.grid}, dims{x.block}));
            REQUIRE(fine.valid);
            require_absent(fine, diagnostic_code::work_items_exceed_dispatch_limit);
            const outcome o =
                check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{x.grid + 1}, dims{x.block}));
            require_rejected(o, diagnostic_code::work_items_exceed_dispatch_limit,
                             {"grid x " + std::to_string(x.grid + 1), "block x " + std::to_string(x.block),
                              "4294967296 work-items", "4294967295 (2^32-1)", "MI300X (gfx942)"},
                             {"grid x <= " + std::to_string(x.grid)});
        }
    }
    SECTION("exactly 2^32-1 work-items pass and 2^32 fail in x, y and z") {
        const wavefit::device_limits d = mi300x_with_rocminfo_grid();
        for (int axis = 0; axis < 3; ++axis) {
            CAPTURE(axis);
            // 2^32-1 = 1431655765 x 3; 2^32 = 1073741824 x 4.
            dims grid_ok{1, 1, 1}, block_ok{1, 1, 1}, grid_bad{1, 1, 1}, block_bad{1, 1, 1};
            (axis == 0 ? grid_ok.x : axis == 1 ? grid_ok.y : grid_ok.z) = 1431655765u;
            (axis == 0 ? block_ok.x : axis == 1 ? block_ok.y : block_ok.z) = 3;
            (axis == 0 ? grid_bad.x : axis == 1 ? grid_bad.y : grid_bad.z) = 1073741824u;
            (axis == 0 ? block_bad.x : axis == 1 ? block_bad.y : block_bad.z) = 4;
            const outcome fine = check_launch(d, kernel_resources{}, cfg(grid_ok, block_ok));
            require_absent(fine, diagnostic_code::work_items_exceed_dispatch_limit);
            const outcome o = check_launch(d, kernel_resources{}, cfg(grid_bad, block_bad));
            require_present(o, diagnostic_code::work_items_exceed_dispatch_limit,
                            {std::string("work-items in ") + wavefit::detail::axis_name(axis), "4294967296"});
        }
    }
    SECTION("every AMD preset has the cap, including RDNA") {
        for (const char* key : {"mi210", "mi250x", "mi300a", "mi325x", "mi355x", "rx7900xtx"}) {
            CAPTURE(key);
            require_present(check_launch(presets::by_name(key), kernel_resources{}, cfg(dims{16777216}, dims{256})),
                            diagnostic_code::work_items_exceed_dispatch_limit, {"4294967296"});
        }
    }
    SECTION("NVIDIA has no work-item cap") {
        const outcome o = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{2147483647u}, dims{1024}));
        REQUIRE(o.valid);
        REQUIRE(o.diagnostics.empty());
    }
}

TEST_CASE("a block that is not a whole number of waves warns, without invalidating the launch",
          "[validate][wave_multiple]") {
    SECTION("100 threads on wave64 and on warp32") {
        const outcome amd = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{10}, dims{100}));
        REQUIRE(amd.valid);
        const diagnostic& dg =
            require_present(amd, diagnostic_code::block_not_wave_multiple,
                            {"100 threads", "64-thread wave", "2 waves", "28 lanes idle", "MI300X (gfx942)"}, {"128", "64"});
        REQUIRE(dg.severity == severity::warning);
        const outcome nv = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{10}, dims{100}));
        REQUIRE(nv.valid);
        require_present(nv, diagnostic_code::block_not_wave_multiple,
                        {"100 threads", "32-thread warp", "4 warps", "28 lanes idle"},
                        {"grid (11, 1, 1) x block (96, 1, 1)", "covers the same 1000 threads in x"});
    }
    SECTION("32 threads on wave64 warn, 64 do not; 32 on warp32 do not") {
        const outcome half = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{10}, dims{32}));
        REQUIRE(half.valid);
        require_present(half, diagnostic_code::block_not_wave_multiple, {"32 of the 64 lanes", "32 lanes idle"}, {"64"});
        REQUIRE(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{10}, dims{64})).diagnostics.empty());
        REQUIRE(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{10}, dims{32})).diagnostics.empty());
        REQUIRE(check_launch(presets::detail::rx7900xtx, kernel_resources{}, cfg(dims{10}, dims{32})).diagnostics.empty());
    }
    SECTION("the whole block volume counts, not x alone") {
        REQUIRE(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{10}, dims{16, 4, 1}))
                    .diagnostics.empty());
        require_present(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{10}, dims{16, 3, 1})),
                        diagnostic_code::block_not_wave_multiple, {"48 threads"});
    }
}

TEST_CASE("sizes near 2^64 never wrap: products saturate and are reported as such", "[validate][saturation]") {
    SECTION("grid 2^63 x block 4 is a saturated work-item count, not 0") {
        const outcome o =
            check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{std::uint64_t{1} << 63}, dims{4}));
        require_rejected(o, diagnostic_code::grid_dim_exceeds_device_limit, {"9223372036854775808"});
        require_present(o, diagnostic_code::work_items_exceed_dispatch_limit, {"= 18446744073709551615 work-items"});
        require_saturated(wavefit::detail::find_problems(presets::detail::mi300x, kernel_resources{},
                                                         cfg(dims{std::uint64_t{1} << 63}, dims{4})),
                          diagnostic_code::work_items_exceed_dispatch_limit);
    }
    SECTION("a block volume beyond 2^64 saturates instead of looking small") {
        const launch_config c = cfg(dims{1}, dims{std::uint64_t{1} << 32, std::uint64_t{1} << 32, 16});
        require_saturated(wavefit::detail::find_problems(presets::detail::h200, kernel_resources{}, c),
                          diagnostic_code::block_exceeds_device_max_threads);
        REQUIRE_FALSE(check_launch(presets::detail::h200, kernel_resources{}, c).valid);
    }
    SECTION("static + dynamic shared memory saturates") {
        const outcome o = check_launch(presets::detail::mi300x, with_static_shared(u64_max), cfg(dims{1}, dims{64}, 1));
        require_present(o, diagnostic_code::shared_memory_exceeds_limit, {"18446744073709551615"});
    }
    SECTION("a product beyond 2^64 breaks even a work-item cap of 2^64-1 (it is compared exactly, not saturated)") {
        // The CI fuzz run's input (fuzz/regressions/check_plan holds one of its class): an AMD device
        // whose grid x maximum and work-item cap are both 2^64-1, a grid of 2^64-1 blocks of 675.
        // saturating_mul(grid, block) is 2^64-1, "not above" the cap; the true product is 675 x more.
        wavefit::device_limits d = presets::detail::mi300x;
        d.max_grid = dims{u64_max, 65536, 65536};
        d.max_work_items_per_dimension = u64_max;
        const launch_config c = cfg(dims{u64_max}, dims{675});
        const wavefit::detail::findings f = wavefit::detail::find_problems(d, kernel_resources{}, c);
        CAPTURE(f.size());
        REQUIRE(f.contains(diagnostic_code::work_items_exceed_dispatch_limit));
        REQUIRE(f.has_error());
        REQUIRE(wavefit::detail::has_launch_errors(d, kernel_resources{}, c));
        REQUIRE(wavefit::detail::has_launch_errors(d, kernel_resources{}, c,
                                                   wavefit::detail::register_bound_threads(d, kernel_resources{})));
        require_present(check_launch(d, kernel_resources{}, c), diagnostic_code::work_items_exceed_dispatch_limit,
                        {"2^64 or more", "18446744073709551615"});
        // Such limits are no runtime's report: planning refuses them outright.
        CHECK_FALSE(wavefit::detail::device_limits_problem(d).empty());
        CHECK_FALSE(wavefit::plan(d, kernel_resources{}, std::uint64_t{1} << 40).ok());
        // 2^32-1 exactly (the HSA field) is fine, and so is a product exactly at a cap.
        CHECK(wavefit::detail::device_limits_problem(presets::detail::mi300x).empty());
        wavefit::device_limits exact = presets::detail::mi300x;
        exact.max_work_items_per_dimension = 4294967295u;
        CHECK_FALSE(wavefit::detail::find_problems(exact, kernel_resources{}, cfg(dims{4294967295u}, dims{1}))
                        .contains(diagnostic_code::work_items_exceed_dispatch_limit));
        CHECK(wavefit::detail::find_problems(exact, kernel_resources{}, cfg(dims{2147483648u}, dims{2}))
                  .contains(diagnostic_code::work_items_exceed_dispatch_limit));
    }
    SECTION("a grid of 2^64-1 blocks on every axis is rejected on both vendors") {
        for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200}) {
            CAPTURE(wavefit::to_string(*d));
            const outcome o = check_launch(*d, kernel_resources{}, cfg(dims{u64_max, u64_max, u64_max}, dims{1024}));
            require_rejected(o, diagnostic_code::grid_dim_exceeds_device_limit, {"18446744073709551615"});
        }
    }
}

TEST_CASE("a valid grid that leaves a quarter or more of the resident-block slots empty is grid_underfills_device",
          "[validate][grid_fill]") {
    // Issue 20, on the 110 CUs of an MI250X: a softmax of 391 blocks of 256 threads (8 per CU: 880 slots,
    // 44%) and a reduction of 128 blocks of 1024 (2 per CU: 220 slots, 58%).
    const wavefit::device_limits& d = presets::detail::mi250x;
    const auto fill = [&](std::uint64_t grid, std::uint64_t block) {
        return wavefit::detail::grid_underfill_finding(d, kernel_resources{}, cfg(dims{grid}, dims{block}));
    };
    const auto softmax = fill(391, 256);
    REQUIRE(softmax.has_value());
    CHECK((softmax->code == diagnostic_code::grid_underfills_device && softmax->value == 391 && softmax->limit == 880));
    const wavefit::diagnostic text = wavefit::detail::describe(*softmax, d, kernel_resources{}, cfg(dims{391}, dims{256}));
    CHECK(text.severity == severity::warning);
    CHECK(contains(text.message,
                   "the grid of 391 blocks fills 44% of the 880 resident-block slots of MI250X (gfx90a) "
                   "(8 blocks of 256 threads per CU x 110 CUs): 489 slots stay empty"));
    CHECK(contains(text.fix, "880 blocks of 256 threads fill every slot once"));
    const auto reduction = fill(128, 1024);
    REQUIRE(reduction.has_value());
    CHECK((reduction->value == 128 && reduction->limit == 220));
    // 75% and more is no finding, nor a grid beyond the slots (tail_imbalance is audit's), nor 0 slots.
    CHECK_FALSE(fill(660, 256).has_value());
    CHECK_FALSE(fill(5000, 256).has_value());
    CHECK_FALSE(
        wavefit::detail::grid_underfill_finding(d, kernel_resources{0, 0, 80 * 1024}, cfg(dims{1}, dims{256})).has_value());
    // Validation never reports it: it is about the work, not about whether the launch can run.
    for (const wavefit::detail::finding& f :
         wavefit::detail::find_problems(d, kernel_resources{}, cfg(dims{391}, dims{256})))
        CHECK(f.code != diagnostic_code::grid_underfills_device);
}
