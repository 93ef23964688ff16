// SPDX-License-Identifier: MIT
// Specification of the built-in devices: every name in docs/cli.md resolves, every value is the one
// docs/device-facts.md §1 records (what the vendor runtime reports), and the lookups work at compile time.
#include <catch2/catch.hpp>

#include <wavefit/device_limits.hpp>
#include <wavefit/presets.hpp>

#include <array>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

namespace presets = wavefit::presets;
using wavefit::dims;

constexpr std::uint64_t KiB = 1024;

// One row of docs/device-facts.md §1, written out here rather than derived from the presets under test.
struct facts_row {
    const char* key;
    const char* name;
    const char* arch;
    wavefit::device_limits::vendor_kind vendor;
    std::uint32_t wave_size;
    std::uint32_t compute_units;
    std::uint64_t shared_per_block;        // usable without opt-in
    std::uint64_t shared_per_block_optin;  // AMD: no opt-in exists, the whole LDS is usable
    std::uint64_t shared_per_cu;
    dims max_block;
    dims max_grid;
    std::uint64_t work_item_cap;      // per dimension; 0 = none (NVIDIA)
    std::uint32_t max_blocks_per_cu;  // 0 = no hardware block limit modelled (HIP)
    std::uint32_t max_waves_per_simd;
    std::uint32_t registers_per_simd_lane;  // AMD: VGPRs per SIMD lane; NVIDIA: 65536 / (4 x 32)
    std::uint32_t register_granule;
    std::uint32_t scalar_registers_per_simd;  // gfx9: 800; elsewhere 0 (SGPRs do not limit)
};

const dims cdna_block{1024, 1024, 1024};
const dims nvidia_block{1024, 1024, 64};
// HIP reports y/z = 65536 (ROCm/clr hip_device.cpp, docs/device-facts.md §1 footnote 1); CUDA 65535.
const dims hip_grid{2147483647, 65536, 65536};
const dims cuda_grid{2147483647, 65535, 65535};
constexpr std::uint64_t u32_max = 4294967295u;

const std::array<facts_row, 10> facts{{
    {"mi250x", "MI250X", "gfx90a", wavefit::device_limits::vendor_kind::amd, 64, 110, 64 * KiB, 64 * KiB, 64 * KiB,
     cdna_block, hip_grid, u32_max, 0, 8, 512, 8, 800},
    {"mi210", "MI210", "gfx90a", wavefit::device_limits::vendor_kind::amd, 64, 104, 64 * KiB, 64 * KiB, 64 * KiB, cdna_block,
     hip_grid, u32_max, 0, 8, 512, 8, 800},
    {"mi300x", "MI300X", "gfx942", wavefit::device_limits::vendor_kind::amd, 64, 304, 64 * KiB, 64 * KiB, 64 * KiB,
     cdna_block, hip_grid, u32_max, 0, 8, 512, 8, 800},
    {"mi300a", "MI300A", "gfx942", wavefit::device_limits::vendor_kind::amd, 64, 228, 64 * KiB, 64 * KiB, 64 * KiB,
     cdna_block, hip_grid, u32_max, 0, 8, 512, 8, 800},
    {"mi325x", "MI325X", "gfx942", wavefit::device_limits::vendor_kind::amd, 64, 304, 64 * KiB, 64 * KiB, 64 * KiB,
     cdna_block, hip_grid, u32_max, 0, 8, 512, 8, 800},
    {"mi355x", "MI355X", "gfx950", wavefit::device_limits::vendor_kind::amd, 64, 256, 160 * KiB, 160 * KiB, 160 * KiB,
     cdna_block, hip_grid, u32_max, 0, 8, 512, 8, 800},
    // RDNA3: HIP reports the 48 WGPs as multiProcessorCount; 1536 VGPRs per SIMD lane in wave32.
    {"rx7900xtx", "RX 7900 XTX", "gfx1100", wavefit::device_limits::vendor_kind::amd, 32, 48, 64 * KiB, 64 * KiB, 64 * KiB,
     cdna_block, hip_grid, u32_max, 0, 16, 1536, 24, 0},
    {"a100", "NVIDIA A100", "sm_80", wavefit::device_limits::vendor_kind::nvidia, 32, 108, 48 * KiB, 163 * KiB, 164 * KiB,
     nvidia_block, cuda_grid, 0, 32, 16, 512, 8, 0},
    {"h100", "NVIDIA H100", "sm_90", wavefit::device_limits::vendor_kind::nvidia, 32, 132, 48 * KiB, 227 * KiB, 228 * KiB,
     nvidia_block, cuda_grid, 0, 32, 16, 512, 8, 0},
    // H200 values measured on the test H200 (CUDA 13.0, driver 580).
    {"h200", "NVIDIA H200", "sm_90", wavefit::device_limits::vendor_kind::nvidia, 32, 132, 48 * KiB, 232448, 233472,
     nvidia_block, cuda_grid, 0, 32, 16, 512, 8, 0},
}};

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string mixed_case(std::string_view s) {
    std::string out(s);
    for (std::size_t i = 0; i < out.size(); i += 2)
        out[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[i])));
    return out;
}

}  // namespace

TEST_CASE("every preset name of the contract resolves, case-insensitively, to one device", "[presets]") {
    for (const facts_row& row : facts) {
        CAPTURE(row.key);
        const wavefit::device_limits& d = presets::by_name(row.key);
        REQUIRE(d.name.view() == row.name);
        REQUIRE(&presets::by_name(upper(row.key)) == &d);
        REQUIRE(&presets::by_name(mixed_case(row.key)) == &d);
        REQUIRE(presets::find(row.key) == &d);
    }
}

TEST_CASE("the preset table holds exactly the ten contract presets", "[presets]") {
    REQUIRE(presets::all.size() == facts.size());
    for (const auto& p : presets::all) {
        CAPTURE(p.key);
        bool listed = false;
        for (const facts_row& row : facts) listed = listed || p.key == row.key;
        REQUIRE(listed);
    }
}

TEST_CASE("each preset's launch limits match docs/device-facts.md section 1", "[presets]") {
    for (const facts_row& row : facts) {
        const wavefit::device_limits& d = presets::by_name(row.key);
        INFO("preset " << row.key << " (" << wavefit::to_string(d) << ")");
        CHECK(d.name.view() == row.name);
        CHECK(d.arch.view() == row.arch);
        CHECK(d.vendor == row.vendor);
        CHECK(d.wave_size == row.wave_size);
        CHECK(d.max_threads_per_block == 1024);
        CHECK(d.max_block.x == row.max_block.x);
        CHECK(d.max_block.y == row.max_block.y);
        CHECK(d.max_block.z == row.max_block.z);
        CHECK(d.max_grid.x == row.max_grid.x);
        CHECK(d.max_grid.y == row.max_grid.y);
        CHECK(d.max_grid.z == row.max_grid.z);
        CHECK(d.max_work_items_per_dimension == row.work_item_cap);
        CHECK(d.compute_units == row.compute_units);
        CHECK(d.shared_per_block == row.shared_per_block);
        CHECK(d.shared_per_block_optin == row.shared_per_block_optin);
        CHECK(d.shared_per_cu == row.shared_per_cu);
        CHECK(d.max_blocks_per_cu == row.max_blocks_per_cu);
        CHECK(d.max_waves_per_simd == row.max_waves_per_simd);
        CHECK(d.registers_per_simd_lane == row.registers_per_simd_lane);
        CHECK(d.register_granule == row.register_granule);
        CHECK(d.scalar_registers_per_simd == row.scalar_registers_per_simd);
        // 2048 resident threads per CU/SM on every preset (per WGP on RDNA: 4 SIMDs x 16 waves x 32).
        CHECK(d.max_threads_per_cu() == 2048);
        CHECK(wavefit::detail::device_limits_problem(d).empty());
    }
}

TEST_CASE("the work-item cap of 2^32-1 per dimension exists on AMD presets only", "[presets]") {
    for (const auto& p : presets::all) {
        CAPTURE(p.key);
        if (p.limits.is_amd())
            REQUIRE(p.limits.max_work_items_per_dimension == 4294967295u);
        else
            REQUIRE(p.limits.max_work_items_per_dimension == 0);
    }
}

TEST_CASE("NVIDIA presets describe 65536 registers per SM and per block, 255 per thread", "[presets][nvidia]") {
    for (const char* key : {"a100", "h100", "h200"}) {
        const wavefit::device_limits& d = presets::by_name(key);
        CAPTURE(key, d.registers_per_simd_lane, d.wave_size, d.simds_per_cu);
        // Per lane x 32 lanes x 4 sub-partitions is the SM's register file.
        REQUIRE(std::uint64_t{d.registers_per_simd_lane} * d.wave_size * d.simds_per_cu == 65536);
        REQUIRE(d.max_registers_per_block == 65536);
        REQUIRE(d.max_registers_per_thread == 255);
        // Driver reservation and allocation unit from cuda_occupancy.h (sm_80+).
        REQUIRE(d.shared_reserved_per_block == 1024);
        REQUIRE(d.shared_allocation_unit == 128);
    }
}

TEST_CASE("AMD CDNA presets describe a unified 512-VGPR file and 4 SIMDs per CU", "[presets][amd]") {
    for (const char* key : {"mi210", "mi250x", "mi300a", "mi300x", "mi325x", "mi355x"}) {
        const wavefit::device_limits& d = presets::by_name(key);
        CAPTURE(key);
        REQUIRE(d.simds_per_cu == 4);
        REQUIRE(d.max_registers_per_thread == 512);
        REQUIRE(d.max_registers_per_block == 0);
        REQUIRE(d.scalar_register_granule == 16);
        REQUIRE(d.shared_reserved_per_block == 0);
    }
}

TEST_CASE("devices are named as 'MI300X (gfx942)' in messages", "[presets]") {
    REQUIRE(wavefit::to_string(presets::detail::mi300x) == "MI300X (gfx942)");
    REQUIRE(wavefit::to_string(presets::detail::h200) == "NVIDIA H200 (sm_90)");
    REQUIRE(wavefit::to_string(presets::detail::rx7900xtx) == "RX 7900 XTX (gfx1100)");
    REQUIRE(wavefit::to_string(wavefit::device_limits{}) == "unnamed device");
}

TEST_CASE("find and by_name map each ISA to its representative preset, ignoring target features", "[presets]") {
    struct mapping {
        const char* arch;
        const wavefit::device_limits* expected;
    };
    const mapping table[] = {
        {"gfx90a", &presets::detail::mi250x},     {"gfx90a:sramecc+:xnack-", &presets::detail::mi250x},
        {"gfx940", &presets::detail::mi300x},     {"gfx941", &presets::detail::mi300x},
        {"gfx942", &presets::detail::mi300x},     {"gfx942:sramecc+:xnack-", &presets::detail::mi300x},
        {"GFX942", &presets::detail::mi300x},     {"gfx950", &presets::detail::mi355x},
        {"gfx1100", &presets::detail::rx7900xtx}, {"sm_80", &presets::detail::a100},
        {"sm_90", &presets::detail::h100},
    };
    for (const mapping& m : table) {
        CAPTURE(m.arch, m.expected->name.view());
        const wavefit::device_limits& d = presets::by_name(m.arch);
        CAPTURE(d.name.view());
        REQUIRE(&d == m.expected);
        REQUIRE(presets::find(m.arch) == m.expected);
    }
}

TEST_CASE("an unknown name gives nullptr from find and std::invalid_argument from by_name, listing the known ones",
          "[presets]") {
    for (const char* unknown : {"mi400x", "", "mi300", "gfx1201", "sm_100"}) {
        CAPTURE(unknown);
        REQUIRE(presets::find(unknown) == nullptr);
        REQUIRE_THROWS_AS(presets::by_name(unknown), std::invalid_argument);
    }
    std::string message;
    try {
        presets::by_name("mi400x");
    } catch (const std::invalid_argument& e) {
        message = e.what();
    }
    CAPTURE(message);
    REQUIRE(message.find("'mi400x'") != std::string::npos);
    for (const facts_row& row : facts) {
        CAPTURE(row.key);
        REQUIRE(message.find(row.key) != std::string::npos);
    }
    for (const char* isa : {"gfx90a", "gfx942", "gfx950", "gfx1100", "sm_80", "sm_90"}) {
        CAPTURE(isa);
        REQUIRE(message.find(isa) != std::string::npos);
    }
}

// Presets and their lookups are constant expressions: usable in static_assert and templates.
static_assert(wavefit::presets::detail::mi300x.wave_size == 64, "MI300X is wave64");
static_assert(wavefit::presets::detail::rx7900xtx.wave_size == 32, "RDNA3 defaults to wave32");
static_assert(wavefit::presets::detail::h200.shared_per_block_optin == 232448, "H200 opt-in as measured");
// One table: every lookup and every named reference is the same object.
static_assert(wavefit::presets::find("MI300X") == &wavefit::presets::detail::mi300x,
              "case-insensitive constexpr lookup into the table");
static_assert(wavefit::presets::find("gfx940") == &wavefit::presets::detail::mi300x,
              "gfx940 is modelled by the MI300X entry");
static_assert(wavefit::presets::detail::preset_of(wavefit::presets::detail::h200)->key == "h200",
              "a named reference knows its table key");
static_assert(wavefit::presets::find("gfx942:sramecc+:xnack-")->compute_units == 304,
              "target features are ignored at compile time too");
static_assert(wavefit::presets::find("nope") == nullptr, "unknown names give nullptr");

TEST_CASE("presets are usable in constant expressions", "[presets]") {
    constexpr std::uint32_t cus = wavefit::presets::detail::mi250x.compute_units;
    constexpr std::uint64_t lds = wavefit::presets::find("mi355x")->shared_per_cu;
    REQUIRE(cus == 110);
    REQUIRE(lds == 163840);
}
