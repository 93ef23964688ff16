// SPDX-License-Identifier: MIT
// Specifications of AMD target ids (tools/analysis/target_id.hpp): which code loads on which device
// (LLVM AMDGPUUsage "Target ID"; ROCm/clr isCodeObjectCompatibleWithDevice), and of the VGPR budget
// a launch bound leaves a kernel (LLVM AMDGPUBaseInfo), which decides whether a spill is the bound's fault.
#include <catch2/catch.hpp>

#include <string>

#include <wavefit/device_attributes.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "analysis/target_id.hpp"
#include "analysis/trace_audit.hpp"

namespace analysis = wavefit::analysis;
using wavefit::analysis::feature_setting;
using wavefit::analysis::load_problem;
using wavefit::analysis::target_id;

namespace {

target_id parsed(const char* text) {
    target_id t;
    INFO("target id: " << text);
    REQUIRE(analysis::parse_target_id(text, t));
    return t;
}

load_problem loads(const char* code, const char* device) { return analysis::loads_on(parsed(code), parsed(device)); }

}  // namespace

TEST_CASE("the ISA of a target id is what comes before its first colon", "[target_id]") {
    using wavefit::detail::isa_name;
    CHECK(isa_name("gfx90a:sramecc+:xnack-") == "gfx90a");
    CHECK(isa_name("gfx942") == "gfx942");
    CHECK(isa_name("sm_90") == "sm_90");
    CHECK(isa_name(":xnack-").empty());
    CHECK(isa_name("").empty());
    static_assert(isa_name("gfx940:xnack+") == "gfx940", "usable in constant expressions");
}

TEST_CASE("target ids parse into a processor and its xnack and sramecc settings", "[target_id]") {
    const target_id t = parsed("gfx90a:sramecc+:xnack-");
    REQUIRE(t.processor == "gfx90a");
    REQUIRE(t.sramecc == feature_setting::on);
    REQUIRE(t.xnack == feature_setting::off);
    REQUIRE(parsed("gfx942").xnack == feature_setting::any);
    REQUIRE(parsed("gfx90a:xnack+").sramecc == feature_setting::any);
    REQUIRE(analysis::to_string(parsed("gfx90a:xnack-:sramecc+")) == "gfx90a:sramecc+:xnack-");
    target_id ignored;
    for (const char* bad : {"", ":xnack+", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack*", "gfx90a:tgsplit+",
                            "gfx90a:xnack+:xnack-", "gfx90a::xnack+"}) {
        CAPTURE(bad);
        REQUIRE_FALSE(analysis::parse_target_id(bad, ignored));
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
    REQUIRE(analysis::to_string(analysis::default_device_target_id("gfx90a")) == "gfx90a:sramecc+:xnack-");
    REQUIRE(analysis::to_string(analysis::default_device_target_id("gfx942")) == "gfx942:sramecc+:xnack-");
    REQUIRE(analysis::to_string(analysis::default_device_target_id("gfx950")) == "gfx950:sramecc+:xnack-");
    REQUIRE(analysis::to_string(analysis::default_device_target_id("gfx1100")) == "gfx1100");
    REQUIRE(analysis::to_string(analysis::default_device_target_id("gfx1010")) == "gfx1010:xnack-");
}

TEST_CASE("the CDNA2+ ISAs are one list: the register model, the trace VGPR+AGPR sum and the target features follow it",
          "[target_id]") {
    // Only detail::has_unified_vector_registers names gfx90a, gfx940-gfx942 and gfx950; a second list
    // anywhere that disagrees with it fails here.
    const char* const isas[] = {"gfx900", "gfx906", "gfx908",  "gfx90a",  "gfx90c",  "gfx940", "gfx941",
                                "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1200"};
    std::string unified_isas;
    for (const char* isa : isas) {
        const bool unified = wavefit::detail::has_unified_vector_registers(isa);
        if (unified) unified_isas += std::string(unified_isas.empty() ? "" : " ") + isa;
        wavefit::device_limits d{};
        d.vendor = wavefit::device_limits::vendor_kind::amd;
        d.wave_size = wavefit::detail::starts_with(isa, "gfx1") ? 32 : 64;
        REQUIRE(wavefit::detail::apply_amd_isa_model(d, isa));
        const analysis::processor_features f = analysis::features_of(isa);
        INFO(isa << ": unified " << unified << ", registers per lane " << d.registers_per_simd_lane << " in granules of "
                 << d.register_granule << ", 130 VGPRs + 120 AGPRs count " << analysis::unified_vgprs(isa, 130, 120)
                 << ", sramecc " << f.sramecc << ", xnack " << f.xnack);
        CHECK((d.registers_per_simd_lane == 512 && d.register_granule == 8) == unified);
        CHECK((analysis::unified_vgprs(isa, 130, 120) == 252) == unified);  // align_up(130, 4) + 120, else the larger
        if (unified) CHECK((f.sramecc && f.xnack));
    }
    CHECK(unified_isas == "gfx90a gfx940 gfx941 gfx942 gfx950");
    // Target features ignored, as every lookup by ISA does.
    CHECK(wavefit::detail::has_unified_vector_registers("gfx942:sramecc+:xnack-"));
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
