// SPDX-License-Identifier: MIT
// Validation of an explicit launch against a device and a kernel, in words: check() renders the
// findings of detail/launch_rules.hpp (every rule the runtimes enforce, as numbers) for people, each
// message naming the limit, the value and the device, with a fix.
#pragma once

#include <cstdint>  // sizes
#include <optional> // a fix's configuration
#include <string>   // messages
#include <vector>   // check() result

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/ascii.hpp"
#include "detail/launch_fix.hpp"
#include "detail/launch_rules.hpp"
#include "detail/runtime_outcome.hpp"
#include "detail/text.hpp"
#include "device_limits.hpp"
#include "diagnostic.hpp"
#include "kernel_resources.hpp"
#include "launch_config.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The configuration of a fix (launch_fix.hpp) as the fix says it: "grid (G, 1, 1) x block (B, 1, 1),
// which covers the same N threads in x", or "... with a grid-stride loop in the kernel over the rest of
// the N threads in x" where a device limit caps the grid.
WAVEFIT_COLD inline std::string fix_config_text(const launch_fix& fix, const launch_config& cfg,
                                                    launch_work_shape shape = launch_work_shape::thread_per_item,
                                                    std::uint64_t group_threads = 0) {
    std::string text = concat({"grid ", dims_text(fix.config.grid), " x block ", dims_text(fix.config.block)});
    if (shape == launch_work_shape::block_per_unit)
        return text + (fix.grid_stride ? ", with a block-stride loop in the kernel over the rest of the units"
                                       : ": one block per unit as before (the kernel's indexing ties a block to a "
                                         "unit), only the threads per block change");
    if (shape == launch_work_shape::group_per_unit) {
        if (fix.grid_stride) return text + ", with a wave-stride loop in the kernel over the rest of the units";
        const std::uint64_t group = group_threads == 0 ? 1 : group_threads;
        return concat({text, ", which covers the same ", saturating_mul(cfg.grid.x, cfg.block.x / group),
                       " units, one per ", group, " threads (the kernel's indexing ties a group to a unit)"});
    }
    const bool one_dimensional = cfg.grid.y == 1 && cfg.grid.z == 1 && cfg.block.y == 1 && cfg.block.z == 1;
    const bool counted = cfg.grid.x != 0 && cfg.block.x != 0 && !product_exceeds(cfg.grid.x, cfg.block.x, u64_max);
    const bool one_count = one_dimensional && counted;
    if (fix.grid_stride)
        return one_count ? concat({text, " with a grid-stride loop in the kernel over the rest of the ",
                                   cfg.grid.x * cfg.block.x, " threads in x"})
                         : text + " with a grid-stride loop in the kernel over the rest of the launch's threads";
    if (cfg.grid.has_zero() || cfg.block.has_zero()) return text;  // no threads to keep
    return one_count ? concat({text, ", which covers the same ", cfg.grid.x * cfg.block.x, " threads in x"})
                     : text + ", which covers the same threads in every dimension";
}

// ": e.g. grid ... x block ..." for the fix of `f`, or "" where the fix names no configuration.
WAVEFIT_COLD inline std::string fix_example(const finding& f, const device_limits& d, const kernel_resources& k,
                                                const launch_config& cfg, launch_work_shape shape,
                                                std::uint64_t group_threads, const char* lead = ": e.g. ") {
    const std::optional<launch_fix> fix = fix_config(d, k, cfg, f, shape, group_threads);
    return fix ? concat({lead, fix_config_text(*fix, cfg, shape, group_threads)}) : std::string();
}

// What the runtime does with such a launch, quoted from the code's entry in detail/runtime_outcome.hpp
// (the one place that says it), with the launch's own numbers in the launch-bounds log line:
// "; on AMD: hipErrorLaunchFailure; the only detail is the log line 'Launch params (512, 1, 1) ...".
// Empty where the runtime does not fail the launch (a partial wave).
WAVEFIT_COLD inline std::string runtime_outcome(const finding& f, const device_limits& d, const launch_config& cfg) {
    const runtime_outcome_text entry = find_runtime_outcome(f.code);
    std::string text(d.is_amd() ? entry.on_amd : entry.on_nvidia);
    if (text.empty() || starts_with(text, "No runtime error") || starts_with(text, "Not applicable")) return {};
    if (text.back() == '.') text.pop_back();
    // Quoted mid-sentence: "Only possible ..." reads "only possible ...", "HSA_STATUS ..." stays.
    if (text.size() > 1 && text[0] >= 'A' && text[0] <= 'Z' && text[1] >= 'a' && text[1] <= 'z') text[0] = to_lower(text[0]);
    const auto fill = [&text](std::string_view placeholder, const std::string& value) {
        const std::size_t at = text.find(placeholder);
        if (at != std::string::npos) text.replace(at, placeholder.size(), value);
    };
    if (f.code == diagnostic_code::block_exceeds_kernel_max_threads) {
        fill("(x, y, z)", dims_text(cfg.block));
        fill("(N)", "(" + num(f.limit) + ")");
    }
    return std::string(d.is_amd() ? "; on AMD: " : "; on NVIDIA: ") + text;
}

// describe()'s registers_exceed_limit case: scalar registers (AMD SGPRs), registers beyond the
// per-thread maximum, or a block whose waves cannot all be resident.
WAVEFIT_COLD inline void describe_registers(diagnostic& out, const finding& f, const device_limits& d,
                                                const kernel_resources& k, std::uint64_t threads, const std::string& dev,
                                                const std::string& example) {
    const std::string_view wave = d.wave_word();
    const std::string_view cu = d.cu_word();
    if (f.scalar) {
        const std::uint64_t per_wave = align_up(k.scalar_registers, d.scalar_register_granule);
        const std::uint64_t waves_per_simd = per_wave == 0 ? 0 : f.limit / per_wave;
        const std::uint64_t fits = min_u64(waves_per_simd * d.simds_per_cu * d.wave_size, kernel_max_threads(d, k));
        out.message = concat({"a block of ", threads, " threads (", plural(ceil_div(threads, d.wave_size), wave), ") with ",
                              k.scalar_registers, " scalar registers per ", wave, " cannot be resident on one ", cu, " of ",
                              dev, ": at ", per_wave, " SGPRs per ", wave, " (granule ", d.scalar_register_granule, ") the ",
                              f.limit, " SGPRs of a SIMD hold ", plural(waves_per_simd, wave), ", ",
                              waves_per_simd * d.simds_per_cu, " per ", cu});
        out.fix = waves_per_simd > 0 && fits > 0
                      ? concat({"use a block of at most ", fits, " threads", example,
                                ", or reduce the kernel's scalar register use"})
                      : concat({"reduce the kernel's scalar register use to at most ", f.limit, " per ", wave,
                                " (check the compiler's resource report: a count this high was probably mistyped)"});
        return;
    }
    if (d.max_registers_per_thread != 0 && k.registers > d.max_registers_per_thread) {
        out.message = concat({k.registers, " registers per thread exceeds the maximum of ", d.max_registers_per_thread,
                              " per thread on ", dev});
        out.fix = concat({"reduce register use to at most ", d.max_registers_per_thread,
                          " per thread (check the compiler's resource report; a code object or numRegs above the limit ",
                          "means the resources were mistyped or the binary targets another GPU)"});
        return;
    }
    // The largest block these registers allow, whatever else may also be wrong.
    kernel_resources registers_only{};
    registers_only.registers = k.registers;
    registers_only.max_threads_per_block = k.max_threads_per_block;
    const std::uint64_t fits = largest_runnable_block(d, registers_only);
    const std::uint64_t waves = ceil_div(threads, d.wave_size);
    const std::uint64_t per_lane = align_up(k.registers, d.register_granule);
    const std::uint64_t waves_per_simd = d.registers_per_simd_lane / (per_lane == 0 ? 1 : per_lane);
    const std::string why =
        block_exceeds_register_cap(d, k.registers, waves)
            ? concat({"it needs ", saturating_mul(saturating_mul(per_lane, d.wave_size), align_up(waves, d.simds_per_cu)),
                      " registers per block (allocated per ", wave, " and rounded to the ", d.simds_per_cu,
                      " sub-partitions), above the limit of ", d.max_registers_per_block})
            : concat({"the block's ", plural(waves, wave), " need ", ceil_div(waves, d.simds_per_cu), " per ",
                      d.is_amd() ? "SIMD" : "sub-partition", ", but ", per_lane, " registers per lane leave room for only ",
                      waves_per_simd, " (", d.registers_per_simd_lane, " registers per lane)"});
    out.message = concat({"a block of ", threads, " threads with ", k.registers,
                          " registers per thread cannot be resident on one ", cu, " of ", dev, ": ", why});
    out.fix = fits > 0 ? concat({"use a block of at most ", fits, " threads", example})
                       : std::string("no block size fits these resources");
    if (f.limit > 0)
        out.fix += concat({", or bring the kernel to at most ", f.limit, " registers per thread (e.g. __launch_bounds__(",
                           threads, "), which may spill)"});
}

// Renders one finding: the message names the limit, the value and the device; the fix is concrete,
// and every configuration it names passes check() for the same device and kernel (launch_fix.hpp;
// `shape` says what a fix may change without changing what the kernel computes). Messages are rows of
// out-of-line appends (concat), and describe() is never inlined: a launch's translation unit
// compiles it once, on the failure path, at little cost.
WAVEFIT_COLD inline diagnostic describe(const finding& f, const device_limits& d, const kernel_resources& k,
                                        const launch_config& cfg,
                                        launch_work_shape shape = launch_work_shape::thread_per_item,
                                        std::uint64_t group_threads = 0) {
    const std::string dev = to_string(d);
    const std::string_view wave = d.wave_word();
    const std::string_view cu = d.cu_word();
    const std::string_view axis = f.axis >= 0 ? std::string_view(axis_name(f.axis)) : std::string_view();
    const std::string_view other_axis = f.axis == 0 ? "y" : "x";
    const std::uint64_t threads = cfg.block.volume();
    diagnostic out{f.code, f.severity(), {}, {}};
    const std::string example = fix_example(f, d, k, cfg, shape, group_threads);

    switch (f.code) {
        case diagnostic_code::zero_dimension:
            if (f.in_grid) {
                out.message = concat({"grid ", dims_text(cfg.grid), " has 0 blocks in ", axis, " on ", dev,
                                      ": a launch needs at least 1 in every dimension"});
                out.fix = concat({"use 1 for an unused dimension", example,
                                  "; when there is no work (0 elements), skip the launch: wavefit::plan returns an empty ",
                                  "plan and wavefit::launch launches nothing"});
            } else {
                out.message = concat({"block ", dims_text(cfg.block), " has 0 threads in ", axis, " on ", dev,
                                      ": a block needs at least 1 thread in every dimension"});
                out.fix = concat({"use 1 for an unused dimension", example});
            }
            break;
        case diagnostic_code::block_dim_exceeds_device_limit:
            out.message = concat({"block ", axis, " = ", f.value, " exceeds the maximum block ", axis, " of ", f.limit,
                                  " on ", dev, " (block ", dims_text(cfg.block), ")"});
            out.fix = concat({"keep block ", axis, " <= ", f.limit, example, "; or move the extra threads to ", other_axis,
                              ", keeping the block at most ", d.max_threads_per_block, " threads in total"});
            break;
        case diagnostic_code::block_exceeds_device_max_threads:
            out.message = concat({"block ", dims_text(cfg.block), " = ", f.value, " threads exceeds the maximum of ",
                                  f.limit, " threads per block on ", dev});
            out.fix = concat({"use at most ", f.limit, " threads per block", example,
                              d.is_amd() ? "; code written for num_warps x 32 on NVIDIA overflows when the warp becomes a "
                                          "64-wide wave"
                                        : ""});
            break;
        case diagnostic_code::block_exceeds_kernel_max_threads:
            out.message = concat({"block of ", f.value, " threads exceeds this kernel's own maximum of ", f.limit,
                                  " threads per block (its __launch_bounds__ or the compiler's default) on ", dev});
            out.fix = concat({"launch at most ", f.limit, " threads per block", example});
            if (f.value <= d.max_threads_per_block)
                out.fix += concat({", or rebuild the kernel with __launch_bounds__(", f.value, ")",
                                   d.is_amd() ? " (on AMD a higher bound also lowers the registers the compiler may use: "
                                               "at 1024 threads a gfx90a/gfx942 kernel gets at most 128 VGPRs and may "
                                               "spill)"
                                             : ""});
            break;
        case diagnostic_code::registers_exceed_limit: describe_registers(out, f, d, k, threads, dev, example); break;
        case diagnostic_code::shared_memory_exceeds_limit:
            out.message = concat({k.static_shared, " static + ", cfg.dynamic_shared, " dynamic = ", bytes_text(f.value),
                                  " of ", d.shared_word(), " per block exceeds the ", bytes_text(f.limit),
                                  " a block can use on ", dev,
                                  d.is_amd() ? " (AMD has no opt-in beyond the LDS size)" : " even after opting in"});
            out.fix = concat({"shrink the per-block tile so static + dynamic stays within ", bytes_text(f.limit)});
            if (d.is_amd())
                out.fix += concat({"; a CUDA tile sized for 100+ KiB of shared memory must be halved or more on ", dev});
            break;
        case diagnostic_code::shared_memory_requires_opt_in:
            out.message = concat({bytes_text(f.value), " of shared memory per block exceeds the default ",
                                  bytes_text(f.limit), " on ", dev, "; up to ", bytes_text(d.shared_per_block_optin),
                                  " is allowed only after opting in"});
            out.fix = concat({"call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ",
                              cfg.dynamic_shared, ") once before the launch (wavefit::launch does this for you)"});
            break;
        case diagnostic_code::grid_dim_exceeds_device_limit:
            out.message = concat({"grid ", axis, " = ", f.value, " exceeds the maximum grid ", axis, " of ",
                                  limit_text(f.limit), " on ", dev, " (grid ", dims_text(cfg.grid), ")"});
            out.fix = concat({"use grid ", axis, " <= ", f.limit,
                              " and loop over the rest in the kernel (a grid-stride loop)", example,
                              ", or move the excess into ", other_axis,
                              "; wavefit::plan clamps and tells you when to stride"});
            break;
        case diagnostic_code::work_items_exceed_dispatch_limit: {
            const int a = f.axis < 0 ? 0 : f.axis;
            const std::uint64_t b = cfg.block[a];
            // The block of the named configuration, which may differ (a block the kernel's bound refuses).
            const std::optional<launch_fix> fix = fix_config(d, k, cfg, f, shape, group_threads);
            const std::uint64_t fixed_block = fix ? fix->config.block[a] : b;
            const std::uint64_t max_grid = fixed_block == 0 ? 0 : min_u64(f.limit / fixed_block, d.max_grid[a]);
            out.message = concat({"grid ", axis, " ", cfg.grid[a], " x block ", axis, " ", b, " = ", f.value, " work-items",
                                  f.value == u64_max ? " (saturated: the exact product is 2^64 or more)" : "", " in ", axis,
                                  " exceeds the HSA dispatch limit of ", limit_text(f.limit), " per dimension on ", dev});
            out.fix = concat({"use grid ", axis, " <= ", max_grid, " with block ", axis, " ", fixed_block,
                              " and a grid-stride loop in the kernel (wavefit::plan does this), or spread the work over y ",
                              "and z"});
            break;
        }
        case diagnostic_code::block_not_wave_multiple: {
            const std::uint64_t waves = ceil_div(threads, d.wave_size);
            // Lanes past the last thread, without forming waves x wave_size (which wraps for huge blocks).
            const std::uint64_t idle = d.wave_size - threads % d.wave_size;
            out.message = threads < d.wave_size
                              ? concat({"a block of ", threads, " threads fills only ", threads, " of the ", d.wave_size,
                                        " lanes of one ", wave, " on ", dev, "; ", idle, " lanes idle"})
                              : concat({"a block of ", threads, " threads is not a multiple of the ", d.wave_size,
                                        "-thread ", wave, " on ", dev, ": ", plural(waves, wave),
                                        " are scheduled and ", idle, " lanes idle"});
            out.fix = concat({"use a multiple of ", d.wave_size, " threads per block", example,
                              d.is_amd() ? "; code that assumes 32-thread warps wastes half of each wave on gfx9" : ""});
            break;
        }
        case diagnostic_code::grid_underfills_device: {
            // value: the grid's blocks; limit: the device's resident-block slots (detail/grid_fill.hpp).
            const std::uint64_t per_cu = d.compute_units == 0 ? 0 : f.limit / d.compute_units;
            const std::uint64_t percent = f.limit == 0 ? 0 : (saturating_mul(f.value, 100) + f.limit / 2) / f.limit;
            out.message = concat({"the grid of ", plural(f.value, "block"), " fills ",
                                  percent == 0 ? std::string("under 1%") : concat({percent, "%"}), " of the ", f.limit,
                                  " resident-block slots of ", dev, " (", per_cu, " blocks of ", threads, " threads per ",
                                  cu, " x ", d.compute_units, " ", cu, "s): ", f.limit - f.value,
                                  " slots stay empty for the whole kernel"});
            out.fix = concat({"give each launch more work (batch more rows or tensors into one launch, fuse small ",
                              "kernels) or run independent kernels concurrently on other streams; where each thread ",
                              "loops over much work, spread it over more threads: ",
                              f.limit, " blocks of ", threads, " threads fill every slot once"});
            break;
        }
        case diagnostic_code::negative_size:
            out.message = concat({f.limit != 0           ? "the dynamic shared memory size"
                                  : f.in_grid            ? "a grid dimension"
                                  : cfg.block.negative   ? "a block dimension"
                                                        : "the work's count",
                                  " was given as a negative number; as an unsigned size it would be about 2^64, so the ",
                                  "launch on ",
                                  dev, " is refused"});
            out.fix = "compute sizes in 64-bit types and check them before launching (a size that went below 0 usually "
                      "means n - 1 for n = 0 or an int that overflowed)";
            break;
        case diagnostic_code::contract_allows_no_block:
            out.message = concat({"no block the kernel's contract allows can run this kernel on ", dev,
                                  " (its bound, registers or shared memory rule out every allowed block)"});
            out.fix = "check the contract: a fixed block must fit the kernel's bound and registers; block_at_most(N) with "
                      "powers of two may leave no block between the register limit and N (block_any_wave_multiple() "
                      "allows more); per_group sizes must divide the block";
            break;
    }
    out.message += runtime_outcome(f, d, cfg);
    return out;
}

}  // namespace detail

// Every diagnostic for launching `k` with `cfg` on `d`, errors first in the order the checks run.
// `shape` (and `group_threads` for group_per_unit) say how the kernel maps its work onto the launch,
// which decides what the fixes may change.
inline std::vector<diagnostic> check(const device_limits& d, const kernel_resources& k, const launch_config& cfg,
                                     detail::launch_work_shape shape = detail::launch_work_shape::thread_per_item,
                                     std::uint64_t group_threads = 0) {
    std::vector<diagnostic> out;
    for (const detail::finding& f : detail::find_problems(d, k, cfg))
        out.push_back(detail::describe(f, d, k, cfg, shape, group_threads));
    return out;
}

WAVEFIT_END_NAMESPACE
