// SPDX-License-Identifier: MIT
// libFuzzer target: validation (find_problems / check / describe) and planning (plan over element
// counts and extents, plan_reason, occupancy) over arbitrary device limits, kernel resources,
// launch configurations and work. Devices come from a preset with fields overwritten, from
// device_limits_from_attributes over arbitrary runtime attribute values (the runtime layer's path),
// or from raw field values. The invariants, asserted with 128-bit arithmetic written here:
//   * check() renders every finding of find_problems() with a message and a fix; is_launchable agrees,
//     and so do both detail::has_launch_errors() verdicts, which the launch path uses;
//   * a configuration without errors is within every limit (block and grid per dimension, block
//     volume, the kernel's bound, work-items per dimension, shared memory) and one that breaks a
//     limit has an error;
//   * a feasible plan passes find_problems, stays within every limit, never needs more blocks than
//     the work, and covers every element in one pass exactly when it does not say grid_stride;
//   * an infeasible plan is not ok and explains itself; invalid device limits give no plan;
//   * occupancy stays within the device's wave slots and between 0 and 1.
// Nothing may trap under ASan/UBSan (this target is also built with unsigned-integer-overflow
// checks, so a wrapped 64-bit size is a finding too).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <wavefit/device_attributes.hpp>
#include <wavefit/device_limits.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include "describe_case.hpp"  // tests/cpu: the device and kernel as the property tests print them

namespace {

__extension__ typedef unsigned __int128 u128;  // exact sums and products of 64-bit sizes
using wavefit::device_limits;
using wavefit::dims;
using wavefit::kernel_resources;
using wavefit::launch_config;

// What the current input is, printed with a finding (set as each part is decided).
std::string current_case;

[[noreturn]] void finding(const char* what) {
    __builtin_fprintf(stderr, "fuzz_check_plan: invariant broken: %s\n%s\n", what, current_case.c_str());
    std::abort();
}
void require(bool ok, const char* what) {
    if (!ok) finding(what);
}

// A 64-bit value with the sizes that matter over-represented: 0, 1, small counts, powers of two
// and their neighbours, the 32-bit edge and the top of the range.
std::uint64_t interesting(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return in.ConsumeIntegralInRange<std::uint64_t>(0, 2048);
        case 3: return in.ConsumeIntegralInRange<std::uint64_t>(0, 1u << 20);
        case 4: {
            const std::uint64_t p = std::uint64_t{1} << in.ConsumeIntegralInRange<int>(0, 63);
            const int delta = in.ConsumeIntegralInRange<int>(-1, 1);
            return delta < 0 ? p - 1 : delta > 0 ? p + 1 : p;
        }
        case 5: return 4294967295u - in.ConsumeIntegralInRange<std::uint64_t>(0, 2);
        case 6: return ~std::uint64_t{0} - in.ConsumeIntegralInRange<std::uint64_t>(0, 2);
        case 7: return 2147483647u + in.ConsumeIntegralInRange<std::uint64_t>(0, 2);
        case 8: return in.ConsumeIntegralInRange<std::uint64_t>(0, 1u << 16) * 32;
        default: return in.ConsumeIntegral<std::uint64_t>();
    }
}
std::uint32_t interesting32(FuzzedDataProvider& in) {
    const std::uint64_t v = interesting(in);
    return v > 4294967295u ? static_cast<std::uint32_t>(4294967295u - (v & 3)) : static_cast<std::uint32_t>(v);
}

// Overwrites some fields of `d` with fuzzed values.
void perturb(FuzzedDataProvider& in, device_limits& d) {
    const int edits = in.ConsumeIntegralInRange<int>(0, 24);
    for (int i = 0; i < edits && in.remaining_bytes() > 0; ++i) {
        switch (in.ConsumeIntegralInRange<int>(0, 23)) {
            case 0: d.wave_size = interesting32(in); break;
            case 1: d.max_threads_per_block = interesting32(in); break;
            case 2: d.max_block.x = interesting(in); break;
            case 3: d.max_block.y = interesting(in); break;
            case 4: d.max_block.z = interesting(in); break;
            case 5: d.max_grid.x = interesting(in); break;
            case 6: d.max_grid.y = interesting(in); break;
            case 7: d.max_grid.z = interesting(in); break;
            case 8: d.max_work_items_per_dimension = interesting(in); break;
            case 9: d.compute_units = interesting32(in); break;
            case 10: d.shared_per_block = interesting(in); break;
            case 11: d.shared_per_block_optin = interesting(in); break;
            case 12: d.shared_per_cu = interesting(in); break;
            case 13: d.shared_reserved_per_block = interesting32(in); break;
            case 14: d.shared_allocation_unit = interesting32(in); break;
            case 15: d.simds_per_cu = interesting32(in); break;
            case 16: d.max_waves_per_simd = interesting32(in); break;
            case 17: d.max_blocks_per_cu = interesting32(in); break;
            case 18: d.registers_per_simd_lane = interesting32(in); break;
            case 19: d.register_granule = interesting32(in); break;
            case 20: d.max_registers_per_thread = interesting32(in); break;
            case 21: d.max_registers_per_block = interesting32(in); break;
            case 22: d.scalar_registers_per_simd = interesting32(in); break;
            default: d.scalar_register_granule = interesting32(in); break;
        }
    }
    if (in.ConsumeBool())
        d.vendor = in.ConsumeBool() ? wavefit::device_limits::vendor_kind::amd : wavefit::device_limits::vendor_kind::nvidia;
}

device_limits fuzzed_device(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: {  // a preset, perhaps with some fields changed
            const auto& all = wavefit::presets::all;
            device_limits d = all[in.ConsumeIntegralInRange<std::size_t>(0, all.size() - 1)].limits;
            perturb(in, d);
            return d;
        }
        case 1: {  // what the runtime layer builds from hip/cudaDeviceGetAttribute values
            const bool amd = in.ConsumeBool();
            const std::string name = in.ConsumeRandomLengthString(80);
            const std::string arch = in.ConsumeRandomLengthString(40);
            std::vector<int> values;
            for (int i = 0; i < 17; ++i) {
                switch (in.ConsumeIntegralInRange<int>(0, 3)) {
                    case 0: values.push_back(static_cast<int>(interesting32(in))); break;  // wraps to negative too
                    case 1: values.push_back(in.ConsumeIntegralInRange<int>(-2, 2048)); break;
                    case 2: values.push_back(in.ConsumeIntegral<int>()); break;
                    default: values.push_back(in.ConsumeIntegralInRange<int>(0, 1 << 20)); break;
                }
            }
            return wavefit::detail::device_limits_from_attributes(
                amd ? wavefit::device_limits::vendor_kind::amd : wavefit::device_limits::vendor_kind::nvidia, name, arch,
                [&](wavefit::detail::device_attribute a) { return values[static_cast<std::size_t>(a) % values.size()]; });
        }
        default: {  // every field from the input
            device_limits d{};
            d.name.assign(in.ConsumeRandomLengthString(70));
            d.arch.assign(in.ConsumeRandomLengthString(70));
            for (int i = 0; i < 3; ++i) perturb(in, d);
            return d;
        }
    }
}

kernel_resources fuzzed_kernel(FuzzedDataProvider& in) {
    kernel_resources k{};
    if (in.ConsumeBool()) k.registers = interesting32(in);
    if (in.ConsumeBool()) k.scalar_registers = interesting32(in);
    if (in.ConsumeBool()) k.static_shared = interesting(in);
    if (in.ConsumeBool()) k.max_threads_per_block = interesting32(in);
    if (in.ConsumeBool()) k.local_bytes_per_thread = interesting(in);
    return k;
}

dims fuzzed_dims(FuzzedDataProvider& in) {
    dims v{interesting(in), 1, 1};
    if (in.ConsumeBool()) v.y = interesting(in);
    if (in.ConsumeBool()) v.z = interesting(in);
    return v;
}

std::string describe_case(const device_limits& d, const kernel_resources& k, const wavefit::plan_options& opt) {
    std::ostringstream s;
    s << "device " << spec::describe_device(d) << " granule " << d.scalar_register_granule << "\nkernel "
      << spec::describe_kernel(k) << "\noptions dynamic shared " << opt.dynamic_shared << ", min efficient block "
      << opt.min_efficient_block << ", spread " << opt.spread_small_work;
    return s.str();
}

std::string dims_string(const dims& v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

u128 product(std::uint64_t a, std::uint64_t b) { return u128{a} * b; }
u128 volume(const dims& v) {
    // Exact up to 2^128; saturate beyond (a triple product can exceed 128 bits).
    const u128 xy = product(v.x, v.y);
    if (v.z != 0 && xy > (~u128{0}) / v.z) return ~u128{0};
    return xy * v.z;
}
std::uint64_t kernel_bound(const device_limits& d, const kernel_resources& k) {
    return k.max_threads_per_block == 0 || k.max_threads_per_block > d.max_threads_per_block ? d.max_threads_per_block
                                                                                             : k.max_threads_per_block;
}

// Shared memory a block may use: the rule written out with 128-bit sums.
bool shared_fits(const device_limits& d, u128 total) {
    if (d.shared_reserved_per_block == 0 && d.shared_allocation_unit <= 1) return total <= d.shared_per_block_optin;
    u128 allocated = total + d.shared_reserved_per_block;
    if (d.shared_allocation_unit > 1)
        allocated = (allocated + d.shared_allocation_unit - 1) / d.shared_allocation_unit * d.shared_allocation_unit;
    return allocated <= u128{d.shared_per_block_optin} + d.shared_reserved_per_block;
}

// Messages are one line unless the device's own name brings a line break (a hand-built
// device_limits may hold any text; runtimes and presets never do).
bool names_are_one_line = true;

void check_text(const std::string& s, const char* what) {
    require(!s.empty(), what);
    if (!names_are_one_line) return;
    for (char c : s)
        if (c == '\n' || c == '\0') {
            __builtin_fprintf(stderr, "text: %s\n", s.c_str());
            finding(what);
        }
}

// The shape rules every launch must meet, in both directions.
void check_config(const device_limits& d, const kernel_resources& k, const launch_config& cfg) {
    const wavefit::detail::findings f = wavefit::detail::find_problems(d, k, cfg);
    const std::vector<wavefit::diagnostic> diagnostics = wavefit::check(d, k, cfg);
    require(diagnostics.size() == f.size(), "check() and find_problems() disagree on the number of findings");
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        require(diagnostics[i].code == f[i].code, "check() renders a different code");
        check_text(diagnostics[i].message, "a diagnostic without a one-line message");
        check_text(diagnostics[i].fix, "a diagnostic without a one-line fix");
    }
    bool any_error = false;
    for (const wavefit::diagnostic& dg : diagnostics) any_error = any_error || dg.severity == wavefit::severity::error;
    require(any_error == f.has_error(), "check() and find_problems() disagree on errors");
    require(wavefit::detail::is_launchable(d, k, cfg) == !f.has_error(), "is_launchable disagrees with find_problems");
    // The launch path decides with the fast verdicts, not find_problems: they must agree exactly.
    require(wavefit::detail::has_launch_errors(d, k, cfg) == f.has_error(),
            "has_launch_errors disagrees with find_problems");
    require(wavefit::detail::has_launch_errors(d, k, cfg, wavefit::detail::register_bound_threads(d, k)) == f.has_error(),
            "has_launch_errors with the precomputed register bound disagrees with find_problems");

    const u128 threads = volume(cfg.block);
    const u128 shared = u128{k.static_shared} + cfg.dynamic_shared;
    bool breaks_a_limit = cfg.grid.has_zero() || cfg.block.has_zero() || threads > d.max_threads_per_block ||
                          (k.max_threads_per_block != 0 && threads > k.max_threads_per_block) || !shared_fits(d, shared) ||
                          (k.registers != 0 && d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread);
    for (int a = 0; a < 3; ++a) {
        breaks_a_limit = breaks_a_limit || cfg.block[a] > d.max_block[a] || cfg.grid[a] > d.max_grid[a];
        if (d.max_work_items_per_dimension != 0)
            breaks_a_limit = breaks_a_limit || product(cfg.grid[a], cfg.block[a]) > d.max_work_items_per_dimension;
    }
    if (breaks_a_limit) require(f.has_error(), "a launch that breaks a limit passed validation");
    if (!f.has_error()) {
        require(!breaks_a_limit, "a launch without errors breaks a limit");
        // What the runtime layer narrows to dim3 must fit 32 bits whenever the device's limits do.
        if (d.max_grid.x <= 4294967295u && d.max_block.x <= 4294967295u)
            require(cfg.grid.x <= 4294967295u && cfg.block.x <= 4294967295u, "a valid launch does not fit dim3");
    }
}

void check_occupancy(const device_limits& d, const kernel_resources& k, std::uint64_t block, std::uint64_t dynamic) {
    const wavefit::occupancy_report o = wavefit::occupancy(d, k, block, dynamic);
    require(!std::isnan(o.occupancy) && o.occupancy >= 0.0 && o.occupancy <= 1.0, "occupancy outside [0, 1]");
    if (o.fits()) {
        require(block >= 1 && block <= kernel_bound(d, k), "a block above the bounds is resident");
        require(o.active_waves_per_cu <= o.max_waves_per_cu, "more active waves than wave slots");
        require(wavefit::detail::device_limits_problem(d).empty(), "an invalid device holds a block");
        require(shared_fits(d, u128{k.static_shared} + dynamic), "a block with too much shared memory is resident");
    }
}

void check_plan_common(const wavefit::launch_plan& p, const device_limits& d, const kernel_resources& k,
                       const wavefit::plan_options& opt) {
    if (!wavefit::detail::device_limits_problem(d).empty()) require(!p.feasible, "a plan for invalid device limits");
    const std::string reason = wavefit::plan_reason(p, d, k);
    check_text(reason, "a plan without a one-line reason");
    const launch_config diagnosed = wavefit::detail::problems_config(p, d, k);
    for (const wavefit::detail::finding& f : p.problems) {
        const wavefit::diagnostic dg = wavefit::detail::describe(f, d, k, diagnosed);
        check_text(dg.message, "a plan problem without a message");
        check_text(dg.fix, "a plan problem without a fix");
    }
    if (!p.feasible) {
        require(!p.ok(), "an infeasible plan is ok");
        require(p.grid.x == 0 && p.block.x == 0, "an infeasible plan has a launch shape");
        return;
    }
    const u128 threads = volume(p.block);
    require(threads >= 1 && threads <= kernel_bound(d, k), "a plan's block is outside the device's or kernel's bound");
    for (int a = 0; a < 3; ++a) require(p.block[a] >= 1 && p.block[a] <= d.max_block[a], "a plan's block breaks max_block");
    require(p.occupancy.fits(), "a feasible plan's block is not resident");
    require(shared_fits(d, u128{k.static_shared} + opt.dynamic_shared), "a feasible plan with too much shared memory");
    if (p.empty) {
        require(p.elements == 0 || p.extent.has_zero(), "an empty plan for work");
        require(p.grid.x == 0, "an empty plan launches blocks");
        return;
    }
    if (p.exceeds_one_pass) {
        // One pass over more than the device takes in one launch: refused, never clamped in silence.
        require(!p.ok(), "a one-pass plan beyond the device's limits is ok");
        require(!p.grid_stride, "a one-pass plan strides");
        require(p.problems.contains(wavefit::diagnostic_code::grid_dim_exceeds_device_limit) ||
                    p.problems.contains(wavefit::diagnostic_code::work_items_exceed_dispatch_limit),
                "a refused one-pass plan names no grid limit");
        return;
    }
    require(p.ok(), "a feasible plan with work fails validation");
    require(!wavefit::detail::find_problems(d, k, p.config()).has_error(), "a plan's configuration fails find_problems");
    for (int a = 0; a < 3; ++a) {
        require(p.grid[a] >= 1 && p.grid[a] <= d.max_grid[a], "a plan's grid breaks max_grid");
        if (d.max_work_items_per_dimension != 0)
            require(product(p.grid[a], p.block[a]) <= d.max_work_items_per_dimension, "a plan breaks the work-item cap");
    }
}

// Whether the contract allows a block of `threads`, restated.
bool allowed_by(const wavefit::work::kernel_contract& c, u128 threads) {
    if (threads == 0) return false;
    if (c.max_block != 0 && threads > c.max_block) return false;
    return !c.powers_of_two || (threads & (threads - 1)) == 0;
}

void check_plan_1d(const device_limits& d, const kernel_resources& k, std::uint64_t elements,
                   const wavefit::plan_options& opt, const wavefit::work& contract) {
    wavefit::work w = wavefit::work::elements(elements, opt);
    w.contract = contract.contract;
    if (opt.grid != wavefit::grid_policy::cover) w.contract.cover = wavefit::work::coverage::kernel_loops;
    const wavefit::launch_plan p = wavefit::plan(d, k, w);
    current_case += "\nplan over " + std::to_string(elements) + " elements: grid " + dims_string(p.grid) + " block " +
                    dims_string(p.block) + ", reason: " + wavefit::plan_reason(p, d, k);
    require(p.elements == elements, "a plan reports another element count");
    check_plan_common(p, d, k, opt);
    if (!p.feasible) return;
    require(p.block.y == 1 && p.block.z == 1 && p.grid.y == 1 && p.grid.z == 1, "a 1-D plan is not 1-D");
    if (elements == 0) {
        require(p.empty, "a plan for no work is not empty");
        return;
    }
    require(allowed_by(w.contract, volume(p.block)), "a plan's block is not one the contract allows");
    const u128 one_pass = product(p.grid.x, p.block.x);
    require((one_pass >= elements) == !p.grid_stride, "grid_stride does not match the coverage of one pass");
    if (!w.loops()) require(one_pass >= elements, "a one-pass plan does not reach every element");
    require(p.grid.x <= elements / p.block.x + (elements % p.block.x != 0),
            "a plan launches more blocks than the work needs");
}

void check_plan_extent(const device_limits& d, const kernel_resources& k, const dims& extent,
                       const wavefit::plan_options& opt, bool loops) {
    wavefit::work w = wavefit::work::over(extent, opt);
    if (loops) w = w.kernel_loops();
    const wavefit::launch_plan p = wavefit::plan(d, k, w);
    current_case += "\nplan over extent " + dims_string(extent) + ": grid " + dims_string(p.grid) + " block " +
                    dims_string(p.block) + ", reason: " + wavefit::plan_reason(p, d, k);
    check_plan_common(p, d, k, opt);
    if (!p.feasible) return;
    if (extent.has_zero()) {
        require(p.empty, "a plan for an empty extent is not empty");
        return;
    }
    bool covers = true;
    for (int a = 0; a < 3; ++a) {
        require(p.grid[a] <= extent[a] / p.block[a] + (extent[a] % p.block[a] != 0),
                "a plan launches more blocks than the extent needs");
        covers = covers && product(p.grid[a], p.block[a]) >= extent[a];
    }
    require(covers == !p.grid_stride, "grid_stride does not match the coverage of an extent plan");
    if (!loops) require(covers, "a one-pass extent plan does not reach every item");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    const device_limits d = fuzzed_device(in);
    names_are_one_line = true;
    for (char c : std::string(d.name.view()) + std::string(d.arch.view()))
        names_are_one_line = names_are_one_line && c != '\n' && c != '\0';
    const kernel_resources k = fuzzed_kernel(in);
    wavefit::plan_options opt;
    if (in.ConsumeBool()) opt.dynamic_shared = interesting(in);
    if (in.ConsumeBool()) opt.min_efficient_block = interesting(in);
    opt.spread_small_work = in.ConsumeBool();

    current_case = describe_case(d, k, opt);
    const launch_config cfg{fuzzed_dims(in), fuzzed_dims(in), in.ConsumeBool() ? interesting(in) : 0};
    current_case += "\ncheck grid " + dims_string(cfg.grid) + " block " + dims_string(cfg.block) + " dynamic shared " +
                    std::to_string(cfg.dynamic_shared);
    check_config(d, k, cfg);
    check_occupancy(d, k, interesting(in), opt.dynamic_shared);
    check_occupancy(d, k, cfg.block.volume(), cfg.dynamic_shared);
    const std::uint64_t elements = interesting(in);
    const dims extent = fuzzed_dims(in);
    // The kernel's contract, read last so that older corpus inputs keep their meaning: they plan a
    // one-pass kernel with power-of-two blocks (the default).
    wavefit::work contract;
    if (in.ConsumeBool()) contract = contract.kernel_loops();
    if (in.ConsumeBool()) contract = contract.block_any_wave_multiple();
    if (in.ConsumeBool()) contract = contract.block_at_most(interesting32(in));
    current_case += "\ncontract: " + std::string(contract.loops() ? "loops" : "one pass") +
                    (contract.contract.powers_of_two ? ", powers of two" : ", wave multiples") + ", at most " +
                    std::to_string(contract.contract.max_block);
    check_plan_1d(d, k, elements, opt, contract);
    check_plan_extent(d, k, extent, opt, contract.loops());

    const std::uint64_t largest = wavefit::detail::largest_runnable_block(d, k, opt.dynamic_shared);
    if (largest != 0)
        require(wavefit::occupancy(d, k, largest, opt.dynamic_shared).fits(), "largest_runnable_block does not run");
    return 0;
}
