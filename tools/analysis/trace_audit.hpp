// SPDX-License-Identifier: MIT
// From the kernel dispatches of a profiler trace to the launches worth fixing: dispatches grouped
// per kernel and launch configuration, their share of GPU time, and findings with stable codes
// (docs/cli.md, "wavefit audit"). Readers of the trace formats are the CLI's trace_reader.cpp; this
// only sees dispatches, so that the arithmetic (work-items to blocks, VGPR+AGPR unification, tails) is
// one tested piece whatever the profiler.
#pragma once

#include <cstddef>        // caps
#include <cstdint>        // counts
#include <optional>       // what a trace may not say
#include <string>         // names, messages
#include <string_view>    // architecture names
#include <unordered_map>  // grouping
#include <vector>         // groups, findings

#include <wavefit/detail/arithmetic.hpp>
#include <wavefit/device_limits.hpp>
#include <wavefit/dims.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/launch_config.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/plan.hpp>

#include "occupancy_hint.hpp"

namespace wavefit::analysis {

// One kernel dispatch as a trace records it, in wavefit's units: grid in blocks, block in threads,
// shared memory in bytes per block (static + dynamic), scratch in bytes per work-item.
struct trace_dispatch {
    std::string name;
    std::uint64_t kernel_id = 0;  // a reader's own key (rocprofv3 JSON resolves names later); 0 = none
    dims grid{0, 0, 0};
    dims block{0, 0, 0};
    std::uint64_t duration_ns = 0;
    std::optional<std::uint32_t> registers;   // what the trace calls registers per thread (NVIDIA: regs/thread)
    std::optional<std::uint32_t> arch_vgpr;   // AMD: architectural VGPRs
    std::optional<std::uint32_t> accum_vgpr;  // AMD: accumulation VGPRs (AGPRs)
    std::optional<std::uint32_t> sgprs;
    std::uint64_t shared = 0;
    std::uint64_t scratch = 0;
    std::optional<double> trace_occupancy;  // the profiler's own estimate, 0..1 (Kineto)
};

// AMD traces count the grid in work-items (rocprof's Grid_Size, grd): blocks = ceil(work-items / block)
// per dimension (a partial last block still is a block). A zero block gives a zero grid.
constexpr dims blocks_from_work_items(const dims& work_items, const dims& block) noexcept {
    return {block.x == 0 ? 0 : wavefit::detail::ceil_div(work_items.x, block.x),
            block.y == 0 ? 0 : wavefit::detail::ceil_div(work_items.y, block.y),
            block.z == 0 ? 0 : wavefit::detail::ceil_div(work_items.z, block.z)};
}

// Work-items per dimension of a grid in blocks (saturating at 2^64-1).
constexpr dims work_items_of(const dims& grid, const dims& block) noexcept {
    return {wavefit::detail::saturating_mul(grid.x, block.x), wavefit::detail::saturating_mul(grid.y, block.y),
            wavefit::detail::saturating_mul(grid.z, block.z)};
}

// Registers per thread as the occupancy rules count them, from a trace's architectural and
// accumulation VGPR columns. On unified-register targets the AGPRs are placed after the VGPRs at a
// 4-register boundary (LLVM AMDGPUBaseInfo getTotalNumVGPRs: alignTo(VGPRs, 4) + AGPRs), which is
// the code object's .vgpr_count (256 + 234 -> 490); elsewhere the two files are separate and the
// larger one counts. The allocation granule (8 on gfx90a/gfx942) is applied by the occupancy model.
// Which targets unify the files is the core's one list (detail::has_unified_vector_registers).
std::uint32_t unified_vgprs(std::string_view arch, std::uint32_t arch_vgpr, std::uint32_t accum_vgpr) noexcept;

// All dispatches of one kernel with one launch configuration.
struct kernel_group {
    trace_dispatch launch;  // the configuration (duration_ns unused)
    std::uint64_t dispatches = 0;
    std::uint64_t total_ns = 0;
    double trace_occupancy_sum = 0;  // over dispatches that carry an estimate
    std::uint64_t trace_occupancy_count = 0;

    std::uint64_t mean_ns() const noexcept { return dispatches == 0 ? 0 : total_ns / dispatches; }
    std::optional<double> trace_occupancy() const noexcept {
        if (trace_occupancy_count == 0) return std::nullopt;
        return trace_occupancy_sum / static_cast<double>(trace_occupancy_count);
    }
};

// Groups dispatches by name and launch configuration. Memory grows with the distinct groups only,
// which are capped in number (max_groups) and in the bytes their names and keys hold (max_bytes), so
// that a hostile trace of unique names cannot exhaust memory.
class kernel_grouping {
public:
    static constexpr std::size_t default_max_groups = 100000;
    static constexpr std::size_t default_max_bytes = std::size_t{128} << 20;

    explicit kernel_grouping(std::size_t max_groups = default_max_groups, std::size_t max_bytes = default_max_bytes)
        : max_groups_(max_groups), max_bytes_(max_bytes) {}

    // False (and nothing added) when the dispatch would open a group beyond either cap.
    bool add(const trace_dispatch& d);

    // The groups, most GPU time first (ties: more dispatches, then name, so the order is stable).
    std::vector<kernel_group> sorted() const;
    std::vector<kernel_group>& groups() noexcept { return groups_; }
    std::uint64_t total_ns() const noexcept { return total_ns_; }
    std::uint64_t dispatches() const noexcept { return dispatches_; }
    std::size_t max_groups() const noexcept { return max_groups_; }

private:
    std::size_t max_groups_;
    std::size_t max_bytes_;
    std::size_t bytes_ = 0;
    std::vector<kernel_group> groups_;
    std::unordered_map<std::string, std::size_t> index_;
    std::uint64_t total_ns_ = 0;
    std::uint64_t dispatches_ = 0;
};

// Stable finding codes of `wavefit audit` (besides check's own codes).
namespace audit_codes {
inline constexpr std::string_view idle_lanes = "idle_lanes";
inline constexpr std::string_view scratch_spill = "scratch_spill";
inline constexpr std::string_view grid_smaller_than_device = "grid_smaller_than_device";
inline constexpr std::string_view tail_imbalance = "tail_imbalance";
inline constexpr std::string_view work_items_near_dispatch_limit = "work_items_near_dispatch_limit";
inline constexpr std::string_view low_occupancy = "low_occupancy";
}  // namespace audit_codes

struct audit_finding {
    std::string code;
    std::string severity;  // "error", "warning" or "info"
    std::string message;
    std::string fix;
};

// Below this modelled occupancy a kernel gets low_occupancy (half the wave slots empty).
inline constexpr double low_occupancy_threshold = 0.5;
// work_items_near_dispatch_limit from this fraction of 2^32-1 on.
inline constexpr double dispatch_limit_margin = 0.9;
// tail_imbalance when the partly filled last round of blocks costs at least this share of the time.
inline constexpr double tail_waste_threshold = 0.1;

struct kernel_audit {
    kernel_resources resources;  // registers as the occupancy rules count them
    launch_config config{dims{0, 0, 0}, dims{0, 0, 0}};
    occupancy_report occupancy;
    // Modelled occupancy capped by how many blocks the grid gives each CU/SM (what Kineto calls
    // "est. achieved occupancy"): min(resident waves, grid blocks / CUs x waves per block) / max waves.
    double estimated_achieved = 0;
    occupancy_hint hint;
    std::vector<audit_finding> findings;
    launch_plan recommended;
    bool has_recommendation = false;
};

// Resources of a group's kernel for the occupancy model on `d`.
kernel_resources resources_of(const device_limits& d, const trace_dispatch& t);

// Everything `wavefit audit` says about one group on device `d`.
kernel_audit audit_kernel(const device_limits& d, const kernel_group& g);

}  // namespace wavefit::analysis
