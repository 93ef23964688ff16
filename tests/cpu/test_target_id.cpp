// SPDX-License-Identifier: MIT
// Specifications of AMD target ids (include/wavefit/target_id.hpp): which code loads on which device
// (LLVM AMDGPUUsage "Target ID"; ROCm/clr isCodeObjectCompatibleWithDevice), and of the VGPR budget
// a launch bound leaves a kernel (LLVM AMDGPUBaseInfo), which decides whether a spill is the bound's fault.
#include <catch2/catch.hpp>

#include <string>

#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/target_id.hpp>

using wavefit::detail::feature_setting;
using wavefit::detail::load_problem;
using wavefit::detail::target_id;

namespace {

target_id parsed(const char* text) {
    target_id t;
    INFO("target id: " << text);
    REQUIRE(wavefit::detail::parse_target_id(text, t));
    return t;
}

load_problem loads(const char* code, const char* device) { return wavefit::detail::loads_on(parsed(code), parsed(device)); }

}  // namespace

TEST_CASE("target ids parse into a processor and its xnack and sramecc settings", "[target_id]") {
    const target_id t = parsed("gfx90a:sramecc+:xnack-");
    REQUIRE(t.processor == "gfx90a");
    REQUIRE(t.sramecc == feature_setting::on);
    REQUIRE(t.xnack == feature_setting::off);
    REQUIRE(parsed("gfx942").xnack == feature_setting::any);
    REQUIRE(parsed("gfx90a:xnack+").sramecc == feature_setting::any);
    REQUIRE(wavefit::detail::to_string(parsed("gfx90a:xnack-:sramecc+")) == "gfx90a:sramecc+:xnack-");
    target_id ignored;
    for (const char* bad : {"", ":xnack+", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack*", "gfx90a:tgsplit+",
                            "gfx90a:xnack+:xnack-", "gfx90a::xnack+"}) {
        CAPTURE(bad);
        REQUIRE_FALSE(wavefit::detail::parse_target_id(bad, ignored));
    }
}

TEST_CASE("code loads on its own processor where every setting it names matches", "[target_id]") {
    REQUIRE(loads("gfx90a", "gfx90a:sramecc+:xnack-") == load_problem::none);
    REQUIRE(loads("gfx90a:xnack-", "gfx90a:sramecc+:xnack-") == load_problem::none);
    REQUIRE(loads("gfx90a:xnack+", "gfx90a:sramecc+:xnack-") == load_problem::xnack_mismatch);
    REQUIRE(loads("gfx90a:xnack+", "gfx90a:sramecc+:xnack+") == load_problem::none);
    REQUIRE(loads("gfx942:sramecc-", "gfx942:sramecc+:xnack-") == load_problem::sramecc_mismatch);
    REQUIRE(loads("gfx90a", "gfx942:sramecc+:xnack-") == load_problem::other_processor);
    REQUIRE(loads("gfx940", "gfx942:sramecc+:xnack-") == load_problem::other_processor);
    // A device whose settings were not read rules nothing out but the processor.
    REQUIRE(loads("gfx90a:xnack+", "gfx90a") == load_problem::none);
    REQUIRE(loads("gfx9-4-generic", "gfx942:sramecc+:xnack-") == load_problem::not_modelled);
}

TEST_CASE("an Instinct device runs with SRAM ECC on and XNACK off by default; RDNA3 has neither", "[target_id]") {
    REQUIRE(wavefit::detail::to_string(wavefit::detail::default_device_target_id("gfx90a")) == "gfx90a:sramecc+:xnack-");
    REQUIRE(wavefit::detail::to_string(wavefit::detail::default_device_target_id("gfx942")) == "gfx942:sramecc+:xnack-");
    REQUIRE(wavefit::detail::to_string(wavefit::detail::default_device_target_id("gfx950")) == "gfx950:sramecc+:xnack-");
    REQUIRE(wavefit::detail::to_string(wavefit::detail::default_device_target_id("gfx1100")) == "gfx1100");
    REQUIRE(wavefit::detail::to_string(wavefit::detail::default_device_target_id("gfx1010")) == "gfx1010:xnack-");
}

TEST_CASE("the launch bound divides the VGPR file on CDNA: 128 at 1024 threads, 256 at 512, 512 at 256", "[target_id]") {
    // 768 threads = 12 waves, 3 per SIMD: 512 / 3 rounded down to the granule of 8 (getMaxNumVGPRs).
    namespace presets = wavefit::presets;
    using wavefit::detail::vgpr_budget_for_bound;
    const struct {
        const wavefit::device_limits* d;
        std::uint64_t bound;
        std::uint32_t budget;
    } rows[] = {
        {&presets::detail::mi250x, 1024, 128},
        {&presets::detail::mi250x, 768, 168},
        {&presets::detail::mi250x, 512, 256},
        {&presets::detail::mi250x, 320, 256},
        {&presets::detail::mi250x, 256, 512},
        {&presets::detail::mi250x, 64, 512},
        {&presets::detail::mi300x, 1024, 128},
        {&presets::detail::mi300x, 256, 512},
        {&presets::detail::mi355x, 1024, 128},
        // RDNA3 in wave32: 32 waves of a 1024-thread block on 4 SIMDs share 1536 registers per lane.
        {&presets::detail::rx7900xtx, 1024, 192},
        {&presets::detail::rx7900xtx, 256, 256},
    };
    for (const auto& r : rows) {
        CAPTURE(wavefit::to_string(*r.d), r.bound, r.budget);
        REQUIRE(vgpr_budget_for_bound(*r.d, r.bound) == r.budget);
    }
    // gfx906 (the gfx9 baseline model): 256 registers, so 64 at a bound of 1024.
    wavefit::device_limits gfx906{};
    gfx906.wave_size = 64;
    wavefit::detail::apply_amd_isa_model(gfx906, "gfx906");
    REQUIRE(vgpr_budget_for_bound(gfx906, 1024) == 64);
    REQUIRE(vgpr_budget_for_bound(gfx906, 256) == 256);
    REQUIRE(vgpr_budget_for_bound(wavefit::device_limits{}, 1024) == 0);
}
