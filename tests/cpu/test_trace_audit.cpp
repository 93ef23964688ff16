// SPDX-License-Identifier: MIT
// Specifications of `wavefit audit`'s arithmetic (tools/analysis/trace_audit.hpp), the occupancy
// hint (occupancy_hint.hpp) and the CSV cell reader (csv_reader.hpp): work-items to blocks,
// VGPR+AGPR unification, grouping and time shares, and every finding code with its numbers.
#include <catch2/catch.hpp>

#include <wavefit/presets.hpp>

#include "analysis/csv_reader.hpp"
#include "analysis/occupancy_hint.hpp"
#include "analysis/trace_audit.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace analysis = wavefit::analysis;

namespace {

using wavefit::dims;
using wavefit::analysis::kernel_group;
using wavefit::analysis::trace_dispatch;
namespace presets = wavefit::presets;

trace_dispatch dispatch(std::string name, dims grid, dims block, std::uint64_t ns) {
    trace_dispatch t;
    t.name = std::move(name);
    t.grid = grid;
    t.block = block;
    t.duration_ns = ns;
    return t;
}

kernel_group group_of(const trace_dispatch& t) {
    analysis::kernel_grouping g;
    REQUIRE(g.add(t));
    return g.sorted().front();
}

const analysis::audit_finding* find(const analysis::kernel_audit& a, std::string_view code) {
    for (const auto& f : a.findings)
        if (f.code == code) return &f;
    return nullptr;
}

std::string codes(const analysis::kernel_audit& a) {
    std::string s;
    for (const auto& f : a.findings) s += f.code + " ";
    return s;
}

// audit's findings for one kernel launched as `t` on `d`.
analysis::kernel_audit audit(const wavefit::device_limits& d, const trace_dispatch& t) {
    return analysis::audit_kernel(d, group_of(t));
}

// The finding `code`, which must be there: a failure lists the codes the audit found instead.
const analysis::audit_finding& require_finding(const analysis::kernel_audit& a, std::string_view code) {
    INFO("findings: " << codes(a));
    CAPTURE(code);
    const analysis::audit_finding* f = find(a, code);
    REQUIRE(f != nullptr);
    return *f;
}

}  // namespace

TEST_CASE("rocprof's Grid_Size counts work-items: blocks are its ceiling over the block", "[audit]") {
    // rocpd's published MI300A row: Grid_Size_X 233472 with Workgroup_Size_X 256 is 912 blocks.
    REQUIRE(analysis::blocks_from_work_items(dims{233472, 1, 1}, dims{256, 1, 1}) == dims{912, 1, 1});
    // A partial last block is still a block.
    REQUIRE(analysis::blocks_from_work_items(dims{1000, 10, 3}, dims{256, 4, 2}) == dims{4, 3, 2});
    REQUIRE(analysis::blocks_from_work_items(dims{100, 1, 1}, dims{0, 1, 1}) == dims{0, 1, 1});
    REQUIRE(analysis::work_items_of(dims{912, 1, 1}, dims{256, 1, 1}) == dims{233472, 1, 1});
    // Saturates instead of wrapping.
    REQUIRE(analysis::work_items_of(dims{UINT64_MAX, 1, 1}, dims{2, 1, 1}).x == UINT64_MAX);
}

TEST_CASE("VGPRs and AGPRs unify on gfx90a/gfx94x: AGPRs start at a 4-register boundary", "[audit]") {
    REQUIRE(analysis::unified_vgprs("gfx90a", 256, 234) == 490);  // the code object's .vgpr_count
    REQUIRE(analysis::unified_vgprs("gfx942", 130, 120) == 252);  // align_up(130, 4) = 132
    REQUIRE(analysis::unified_vgprs("gfx942", 96, 0) == 96);
    REQUIRE(analysis::unified_vgprs("gfx950", 1, 1) == 5);
    // Separate register files elsewhere: the larger one counts.
    REQUIRE(analysis::unified_vgprs("gfx908", 130, 120) == 130);
    REQUIRE(analysis::unified_vgprs("gfx1100", 64, 0) == 64);

    // And the occupancy model applies the granule of 8 to the sum: 252 -> 256 -> 2 waves per SIMD.
    trace_dispatch t = dispatch("mfma", dims{1216, 1, 1}, dims{256, 1, 1}, 1000);
    t.arch_vgpr = 130;
    t.accum_vgpr = 120;
    const analysis::kernel_audit a = audit(presets::detail::mi300x, t);
    REQUIRE(a.resources.registers == 252);
    REQUIRE(a.occupancy.active_waves_per_cu == 8);
    REQUIRE(a.occupancy.limited_by == wavefit::occupancy_report::limiter::registers);
}

TEST_CASE("dispatches group by name and launch configuration, sorted by GPU time, with their shares", "[audit]") {
    analysis::kernel_grouping g;
    REQUIRE(g.add(dispatch("a", dims{100}, dims{256}, 300)));
    REQUIRE(g.add(dispatch("a", dims{100}, dims{256}, 100)));
    REQUIRE(g.add(dispatch("a", dims{200}, dims{256}, 50)));  // another grid: another group
    REQUIRE(g.add(dispatch("b", dims{100}, dims{256}, 550)));
    REQUIRE(g.dispatches() == 4);
    REQUIRE(g.total_ns() == 1000);
    const std::vector<kernel_group> s = g.sorted();
    REQUIRE(s.size() == 3);
    CHECK(s[0].launch.name == "b");
    CHECK(s[1].launch.name == "a");
    CHECK(s[1].dispatches == 2);
    CHECK(s[1].total_ns == 400);
    CHECK(s[1].mean_ns() == 200);
    CHECK(static_cast<double>(s[1].total_ns) / static_cast<double>(g.total_ns()) == Approx(0.4));
    CHECK(s[2].launch.grid.x == 200);

    analysis::kernel_grouping capped(2);
    REQUIRE(capped.add(dispatch("a", dims{1}, dims{64}, 1)));
    REQUIRE(capped.add(dispatch("b", dims{1}, dims{64}, 1)));
    REQUIRE(capped.add(dispatch("a", dims{1}, dims{64}, 1)));  // an existing group still grows
    REQUIRE_FALSE(capped.add(dispatch("c", dims{1}, dims{64}, 1)));

    // The names held are capped too: some tens of groups of 1000-byte names fit 64 KiB, not 100.
    analysis::kernel_grouping small(1000, 64 * 1024);
    int added = 0;
    for (int i = 0; i < 100; ++i)
        if (small.add(dispatch(std::string(1000, 'a') + std::to_string(i), dims{1}, dims{64}, 1))) ++added;
    CHECK(added > 10);
    CHECK(added < 40);
}

TEST_CASE("idle_lanes: a 32-thread block on wave64 leaves half of each wave idle", "[audit]") {
    const auto a = audit(presets::detail::mi300x, dispatch("k", dims{100000}, dims{32}, 1));
    const analysis::audit_finding& f = require_finding(a, "idle_lanes");
    CHECK(f.severity == "warning");
    CHECK(f.message.find("32 of 64 lanes (50%)") != std::string::npos);
    CHECK(f.fix.find("multiple of 64") != std::string::npos);
    // check's own partial-wave warning is not repeated.
    CHECK(find(a, "block_not_wave_multiple") == nullptr);
    // A whole number of waves has no finding.
    CHECK(find(audit(presets::detail::mi300x, dispatch("k", dims{100000}, dims{64}, 1)), "idle_lanes") == nullptr);
}

TEST_CASE("scratch_spill names the bytes per work-item", "[audit]") {
    trace_dispatch t = dispatch("k", dims{608}, dims{1024}, 1);
    t.scratch = 268;
    const auto a = audit(presets::detail::mi300x, t);
    const analysis::audit_finding& f = require_finding(a, "scratch_spill");
    CHECK(f.message.find("268 bytes of scratch per work-item") != std::string::npos);
}

TEST_CASE("grid_smaller_than_device counts the idle CUs", "[audit]") {
    const auto a = audit(presets::detail::mi300x, dispatch("k", dims{64}, dims{256}, 1));
    const analysis::audit_finding& f = require_finding(a, "grid_smaller_than_device");
    CHECK(f.message.find("64 blocks for the 304 CUs") != std::string::npos);
    CHECK(f.message.find("240 CUs stay idle") != std::string::npos);
    CHECK(find(audit(presets::detail::mi300x, dispatch("k", dims{304}, dims{256}, 1)),
               "grid_smaller_than_device") == nullptr);
}

TEST_CASE("tail_imbalance: the last round of blocks fills only part of the device", "[audit]") {
    // 96 VGPRs: 5 waves per SIMD = 20 per CU = 5 blocks of 256; 304 CUs hold 1520 at once.
    trace_dispatch t = dispatch("k", dims{1600}, dims{256}, 1);
    t.arch_vgpr = 96;
    const auto a = audit(presets::detail::mi300x, t);
    const analysis::audit_finding& f = require_finding(a, "tail_imbalance");
    CHECK(f.severity == "info");
    CHECK(f.message.find("2 rounds of 1520") != std::string::npos);
    CHECK(f.message.find("the last round has 80 (5% of the device busy), about 47%") != std::string::npos);
    // Exactly two full rounds: no tail.
    t.grid = dims{3040};
    CHECK(find(audit(presets::detail::mi300x, t), "tail_imbalance") == nullptr);
    // Many rounds make a small tail cheap: 100 rounds and a 5% last round cost under 1%.
    t.grid = dims{1520 * 99 + 80};
    CHECK(find(audit(presets::detail::mi300x, t), "tail_imbalance") == nullptr);
}

TEST_CASE("work_items_near_dispatch_limit from 90% of 2^32-1 per dimension; beyond it check's error", "[audit]") {
    const auto near = audit(presets::detail::mi300x, dispatch("k", dims{15625000}, dims{256}, 1));
    const analysis::audit_finding& f = require_finding(near, "work_items_near_dispatch_limit");
    CHECK(f.message.find("4000000000 work-items in x is 93%") != std::string::npos);
    const auto over = audit(presets::detail::mi300x, dispatch("k", dims{16777216}, dims{256}, 1));
    CHECK(find(over, "work_items_near_dispatch_limit") == nullptr);
    CHECK(require_finding(over, "work_items_exceed_dispatch_limit").severity == "error");
    // NVIDIA has no such limit.
    CHECK(find(audit(presets::detail::h200, dispatch("k", dims{15625000}, dims{256}, 1)),
               "work_items_near_dispatch_limit") == nullptr);
}

TEST_CASE("low_occupancy names the limiter, the per-resource limits and what to reduce", "[audit]") {
    trace_dispatch t = dispatch("k", dims{1216}, dims{256}, 1);
    t.arch_vgpr = 130;
    t.accum_vgpr = 120;
    const auto a = audit(presets::detail::mi300x, t);
    const analysis::audit_finding& f = require_finding(a, "low_occupancy");
    CHECK(f.message.find("modelled occupancy 25% (8 of 32 waves per CU, 2 blocks), limited by registers") !=
          std::string::npos);
    CHECK(f.message.find("waves 8, registers 2") != std::string::npos);
    CHECK(f.fix.find("registers 252 -> 168 gives 3 waves per SIMD instead of 2") != std::string::npos);
    // 50% and above: no finding.
    t.arch_vgpr = 128;
    t.accum_vgpr = 0;
    CHECK(find(audit(presets::detail::mi300x, t), "low_occupancy") == nullptr);
}

TEST_CASE("a launch check rejects carries check's code and no performance findings", "[audit]") {
    trace_dispatch t = dispatch("k", dims{304}, dims{256}, 1);
    t.shared = 81920;
    const auto a = audit(presets::detail::mi300x, t);
    CHECK(require_finding(a, "shared_memory_exceeds_limit").severity == "error");
    INFO(codes(a));
    CHECK(find(a, "low_occupancy") == nullptr);
    const auto big = audit(presets::detail::h200, dispatch("k", dims{10}, dims{2048}, 1));
    CHECK(find(big, "block_exceeds_device_max_threads") != nullptr);
}

TEST_CASE("the estimate capped by the grid matches Kineto's est. achieved occupancy on the H200", "[audit]") {
    // From tests/data/traces/kineto_tinylm_h200.json.gz: gather, grid 2048 x block 128, 32 regs: Kineto 97%.
    trace_dispatch t = dispatch("gather", dims{2048}, dims{128}, 1);
    t.registers = 32;
    const auto a = audit(presets::detail::h200, t);
    CHECK(a.occupancy.occupancy == Approx(1.0));
    CHECK(a.estimated_achieved == Approx(0.9697).epsilon(0.001));
    // layer norm, block 32x4, 39 regs: Kineto 75%.
    t.block = dims{32, 4, 1};
    t.registers = 39;
    CHECK(audit(presets::detail::h200, t).occupancy.occupancy == Approx(0.75));
}

TEST_CASE("the hint says what gains one more wave per SIMD", "[audit][hint]") {
    wavefit::kernel_resources k;
    k.registers = 96;
    CHECK(analysis::hint_for_more_waves(presets::detail::mi300x, k, 256).text ==
          "registers 96 -> 80 gives 6 waves per SIMD instead of 5");
    k.registers = 128;
    CHECK(analysis::hint_for_more_waves(presets::detail::h200, k, 96).text ==
          "registers 128 -> 96 gives 18 warps per SM instead of 15");
    k = {};
    k.scalar_registers = 112;
    CHECK(analysis::hint_for_more_waves(presets::detail::mi300x, k, 256).text ==
          "SGPRs 112 -> 96 gives 8 waves per SIMD instead of 7");
    k = {};
    k.static_shared = 40000;  // 5 blocks of 256 on the H200 (41024 allocated of 233472)
    const analysis::occupancy_hint h = analysis::hint_for_more_waves(presets::detail::h200, k, 256);
    CHECK(h.text == "shared memory bytes per block 40000 -> 37888 gives 48 warps per SM instead of 40");
    CHECK(h.better.active_blocks_per_cu == 6);
    // Already at the most waves: no hint.
    k = {};
    k.registers = 32;
    CHECK_FALSE(analysis::hint_for_more_waves(presets::detail::mi300x, k, 256).found());
}

TEST_CASE("CSV cells: quotes, commas and quotes inside names, hostile numbers", "[audit][csv]") {
    std::vector<std::string> cells;
    analysis::split_csv_line(R"csv(1,"void k<int, 2>(int*, char const*)","say ""hi""", spaced ,)csv", cells);
    REQUIRE(cells.size() == 5);
    CHECK(cells[1] == "void k<int, 2>(int*, char const*)");
    CHECK(cells[2] == "say \"hi\"");
    CHECK(cells[3] == "spaced");
    CHECK(cells[4].empty());
    analysis::split_csv_line("\"open quote, to the end", cells);
    REQUIRE(cells.size() == 1);
    bool overflowed = false;
    analysis::split_csv_line(std::string(1000, ','), cells, 16, &overflowed);
    CHECK(cells.size() == 16);
    CHECK(overflowed);

    using analysis::parse_csv_uint;
    CHECK(parse_csv_uint("256") == 256u);
    CHECK(parse_csv_uint("256.0") == 256u);
    CHECK(parse_csv_uint("18446744073709551615") == UINT64_MAX);
    CHECK_FALSE(parse_csv_uint("18446744073709551616"));
    CHECK_FALSE(parse_csv_uint("-1"));
    CHECK_FALSE(parse_csv_uint("1.5"));
    CHECK_FALSE(parse_csv_uint("12abc"));
    CHECK_FALSE(parse_csv_uint(""));
    using analysis::parse_csv_scaled;
    CHECK(parse_csv_scaled("0.049", 6) == 49000u);
    CHECK(parse_csv_scaled("120.5", 3) == 120500u);
    CHECK(parse_csv_scaled("7", 0) == 7u);
    CHECK(parse_csv_scaled("1.99", 0) == 1u);
    CHECK_FALSE(parse_csv_scaled("1e3", 3));
    CHECK_FALSE(parse_csv_scaled("99999999999999999999", 3));
}
