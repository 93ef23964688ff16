// SPDX-License-Identifier: MIT
// The one table of `wavefit lint`'s finding codes: the check group, the severity, a title and the
// AMD-specific reason every finding of the code carries. The codes are stable (docs/lint.md). Where a
// finding means exactly what a `wavefit check` diagnostic means, it has that diagnostic's code, so that
// `wavefit explain CODE` explains both.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t
#include <string_view>  // table text

#include <wavefit/detail/enum_names.hpp>

namespace wavefit::cli::lint {

enum class level : std::uint8_t { error, warning, note };

constexpr std::string_view to_string(level l) noexcept {
    constexpr std::string_view names[] = {"error", "warning", "note"};
    return wavefit::detail::enum_name(names, l);
}

// The five groups of checks.
enum class check_group : std::uint8_t { launch, warp, index, bounds, memory };

constexpr std::string_view to_string(check_group g) noexcept {
    constexpr std::string_view names[] = {"launch", "warp", "index", "bounds", "memory"};
    return wavefit::detail::enum_name(names, g);
}

struct rule {
    std::string_view code;
    check_group group;
    lint::level level;
    std::string_view title;  // one line: what is found
    std::string_view why;    // why it matters on AMD (the SARIF rule's full description)
};

inline constexpr rule rules[] = {
    {"hardcoded_launch_config", check_group::launch, level::note,
     "launch with a hard-coded block (and grid)",
     "A block tuned for NVIDIA's 32-wide warps is launched unchecked on AMD: nothing validates it against the "
     "kernel's compiled bound, the device's limits or the 64-wide wavefront, and on gfx9 the compiler allocates "
     "registers for the kernel's launch bound (1024 threads by default), not for the block actually used."},
    {"block_not_wave_multiple", check_group::launch, level::warning,
     "block is not a whole number of wavefronts",
     "AMD schedules whole 64-lane wavefronts (gfx9): a block of 32, 96 or 160 threads leaves lanes of its last "
     "wavefront idle, and a block of 32 runs half-empty wavefronts."},
    {"block_exceeds_device_max_threads", check_group::launch, level::error,
     "block larger than 1024 threads",
     "No AMD or NVIDIA GPU runs a block above 1024 threads; `num_warps * 64` reaches 2048 where `num_warps * 32` "
     "was 1024 (hipErrorInvalidValue / invalid configuration)."},
    {"work_items_exceed_dispatch_limit", check_group::launch, level::error,
     "grid times block reaches 2^32 work-items in one dimension",
     "The HSA dispatch packet holds the grid size in work-items as a 32-bit number: a dimension of 2^32 or more "
     "work-items is refused or wraps on AMD, where NVIDIA has no such limit."},
    {"grid_dim_exceeds_device_limit", check_group::memory, level::error,
     "grid y or z dimension above 65,535",
     "Grid y and z are limited to 65,535 blocks on NVIDIA and on ROCm 7.14 and later (65,536 before): a larger "
     "value fails to launch."},
    {"hardcoded_warp_size", check_group::warp, level::warning,
     "warp size defined as a constant",
     "A warp-size macro or constant of 32 is wrong on gfx9 (MI200, MI300: 64-lane wavefronts): lane indices, "
     "strides, ballot widths and reductions built from it cover half a wavefront."},
    {"lane_math_assumes_warp32", check_group::warp, level::warning,
     "lane or warp index computed with 32",
     "`threadIdx.x % 32`, `& 31`, `>> 5` and `/ 32` compute a position in a 32-lane warp; on a 64-lane wavefront "
     "lanes 32-63 alias lanes 0-31 and two 'warps' share one wavefront."},
    {"full_mask_32bit", check_group::warp, level::error,
     "32-bit full mask in a *_sync warp intrinsic",
     "0xffffffff names lanes 0-31 only; HIP's *_sync intrinsics take a 64-bit mask on wave64 and ROCm 7 refuses a "
     "32-bit mask type at compile time (static_assert: the mask must be a 64-bit integer)."},
    {"ballot_truncated", check_group::warp, level::error,
     "64-bit ballot or active mask stored in 32 bits",
     "__ballot, __ballot_sync and __activemask return 64 bits on AMD (one per lane of a 64-lane wavefront); "
     "storing the result in 32 bits silently drops lanes 32-63."},
    {"shuffle_reduction_from_16", check_group::warp, level::warning,
     "shuffle reduction that starts at offset 16",
     "A butterfly or down-shuffle reduction starting at offset 16 combines 32 lanes; on a 64-lane wavefront each "
     "half keeps its own partial result, so a wave-wide reduction is off by half."},
    {"per_warp_array_too_small", check_group::warp, level::warning,
     "per-warp shared array sized for a wider warp than the target's",
     "Shared storage with one slot per warp sized blockDim / 64 (or N / 64) has too few slots on a wave32 target "
     "(gfx1100), where the block holds twice as many wavefronts: the last wavefronts write past its end. (On wave64 "
     "targets a size of blockDim / 32 only over-allocates.)"},
    {"warp_size_not_constexpr", check_group::warp, level::error,
     "warpSize used where a constant expression is needed",
     "warpSize is not a constant expression since ROCm 7 (and never was in CUDA): template arguments, array "
     "bounds, static_assert and __launch_bounds__ built from it do not compile."},
    {"index_32bit", check_group::index, level::warning,
     "global thread index computed in 32 bits",
     "blockIdx.x * blockDim.x + threadIdx.x stored in an int overflows past 2^31 work-items, while AMD dispatches "
     "up to 2^32 - 1 work-items per dimension and the kernel is given a 64-bit element count: items past 2^31 "
     "index negative addresses or are skipped."},
    {"grid_from_64bit_count", check_group::index, level::warning,
     "grid computed from a 64-bit count without a clamp",
     "A grid of (n + B - 1) / B blocks for a 64-bit count n reaches 2^32 work-items in x once n does: AMD's "
     "dispatch packet holds at most 2^32 - 1 work-items per dimension, so the launch is refused or wraps and covers "
     "part of the work (cupy/cupy#9746); narrowed to 32 bits on the way, the grid itself wraps."},
    {"work_size_narrowed", check_group::index, level::warning,
     "64-bit work size narrowed to 32 bits at a launch",
     "A 64-bit element count passed to a 32-bit kernel parameter is truncated before the kernel sees it: "
     "past 2^31 elements the kernel processes a wrong count (ROCm/rocm-libraries#9441, #12195)."},
    {"launch_bounds_min_blocks", check_group::bounds, level::warning,
     "__launch_bounds__ minimum read with CUDA's meaning",
     "HIP reads the second argument of __launch_bounds__(MAX, MIN) as the minimum number of wavefronts per "
     "execution unit (SIMD), not CUDA's minimum blocks per multiprocessor (ROCm/hip#2062): the register budget "
     "the compiler derives from it differs from the one intended."},
    {"block_exceeds_kernel_max_threads", check_group::bounds, level::error,
     "launch block larger than the kernel's __launch_bounds__",
     "A block above the kernel's compiled bound fails on AMD with hipErrorLaunchFailure and only a log line "
     "('Launch params ... are larger than launch bounds'); the fault is often blamed on the next kernel."},
    {"wave_size_host_device_mismatch", check_group::bounds, level::error,
     "wave size macro that differs between the host and the device pass",
     "A macro defined from a device-only macro (__GFX9__, __AMDGCN_WAVEFRONT_SIZE, __HIP_DEVICE_COMPILE__) has one "
     "value in the device pass and another in the host pass: a host launch sized with it disagrees with the "
     "kernel's __launch_bounds__ built from it (sgl-project/sglang#25175, #28097)."},
    {"shared_memory_exceeds_limit", check_group::memory, level::error,
     "static shared memory above the LDS of the target",
     "A block can use at most 64 KiB of LDS on gfx90a and gfx942 (160 KiB on gfx950): a kernel whose static "
     "__shared__ arrays exceed it does not compile or launch on AMD."},
    {"dynamic_shared_memory_unchecked", check_group::memory, level::warning,
     "dynamic shared memory raised without a per-device check",
     "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) above 64 KiB is NVIDIA's opt-in; AMD has no opt-in and a "
     "block cannot use more than its LDS (64 KiB on gfx90a/gfx942): the attribute call or the launch fails."},
};

inline constexpr std::size_t rule_count = sizeof(rules) / sizeof(rules[0]);

constexpr const rule* find_rule(std::string_view code) noexcept {
    for (const rule& r : rules)
        if (r.code == code) return &r;
    return nullptr;
}

}  // namespace wavefit::cli::lint
