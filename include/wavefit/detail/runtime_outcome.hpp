// SPDX-License-Identifier: MIT
// What each runtime does with a launch that breaks one of wavefit's diagnostic rules: the one place
// that says it. A rejected launch's message quotes it (validate.hpp), and `wavefit explain CODE`
// shows it beside the code's causes and fixes (the CLI's explanation table). Sources: ROCm/clr
// hipamd/src/hip_module.cpp and hip_platform.cpp; CUDA 13.0 measured on an H200 with driver 580.
// Texts are printable ASCII without double quotes or backslashes, so they can be put into JSON verbatim.
#pragma once

#include <string_view>  // texts

#include "../config.hpp"
#include "../diagnostic.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

struct runtime_outcome_text {
    diagnostic_code code;
    std::string_view on_amd;
    std::string_view on_nvidia;
};

// clang-format off
inline constexpr runtime_outcome_text runtime_outcomes[] = {
    {diagnostic_code::zero_dimension,
     "hipErrorInvalidConfiguration from hipLaunchKernel / <<<...>>> on recent ROCm; hipErrorInvalidValue "
     "from hipModuleLaunchKernel and older ROCm.",
     "cudaErrorInvalidValue (CUDA 13.0, measured on an H200); older CUDA releases report "
     "cudaErrorInvalidConfiguration."},
    {diagnostic_code::block_exceeds_device_max_threads,
     "hipErrorInvalidConfiguration from hipLaunchKernel / <<<...>>>; hipErrorInvalidValue from "
     "hipModuleLaunchKernel (Triton, XLA, hipModule users).",
     "cudaErrorInvalidValue (CUDA 13.0, measured with 1025 threads); older releases report "
     "cudaErrorInvalidConfiguration."},
    {diagnostic_code::block_dim_exceeds_device_limit,
     "Only possible together with more than 1024 threads in total, so AMD reports it as for "
     "block_exceeds_device_max_threads.",
     "cudaErrorInvalidValue (CUDA 13.0, measured with blockDim.z = 65); older releases report "
     "cudaErrorInvalidConfiguration."},
    {diagnostic_code::block_exceeds_kernel_max_threads,
     "hipErrorLaunchFailure; the only detail is the log line 'Launch params (x, y, z) are larger than "
     "launch bounds (N) for kernel K', shown with AMD_LOG_LEVEL=1 or higher.",
     "cudaErrorInvalidValue (CUDA 13.0, measured on an H200 with __launch_bounds__(256) and 512 threads)."},
    {diagnostic_code::registers_exceed_limit,
     "Not checked by the HIP runtime: the dispatch fails with HSA_STATUS_ERROR_INVALID_ISA (the process "
     "aborts) or hipErrorLaunchFailure.",
     "cudaErrorLaunchOutOfResources, too many resources requested for launch (measured on an H200: 112 "
     "registers x 1024 threads)."},
    {diagnostic_code::shared_memory_exceeds_limit,
     "hipErrorInvalidValue from the launch.",
     "cudaErrorInvalidValue (CUDA 13.0, measured with 300000 bytes on an H200)."},
    {diagnostic_code::shared_memory_requires_opt_in,
     "Not applicable: AMD has no opt-in (sharedMemPerBlockOptin reads 0 on HIP), and hipFuncSetAttribute "
     "asking for more than the LDS left after static shared memory fails with hipErrorInvalidValue.",
     "cudaErrorInvalidValue without the attribute (measured on an H200: 49153 bytes fail; 200000 bytes run"
     " once the attribute is set)."},
    {diagnostic_code::grid_dim_exceeds_device_limit,
     "hipErrorInvalidValue from hipModuleLaunchKernel; other launch paths and ROCm releases may not reject"
     " an oversized gridDim.y or gridDim.z at all, so code that runs on AMD can still fail on NVIDIA.",
     "cudaErrorInvalidValue (CUDA 13.0, measured with gridDim.y = 65536 and gridDim.x = 2^31); older "
     "releases report cudaErrorInvalidConfiguration (seen in ml-explore/mlx#2267)."},
    {diagnostic_code::work_items_exceed_dispatch_limit,
     "hipErrorInvalidConfiguration from hipLaunchKernel / <<<...>>>, hipErrorInvalidValue from "
     "hipModuleLaunchKernel (seen in cupy/cupy#9746); some releases and paths accept it and silently run "
     "nothing or a wrapped-around grid (cupy/cupy#4461, ROCm/rocm-systems#2372).",
     "Valid: a grid of 2^31-1 blocks of 1024 threads launches (measured on an H200)."},
    {diagnostic_code::block_not_wave_multiple,
     "No runtime error: the launch runs with partly filled waves (half of every wave idle for a 32-thread "
     "block on wave64).",
     "No runtime error: partly filled warps."},
    {diagnostic_code::grid_underfills_device,
     "No runtime error: the kernel runs on part of the device.",
     "No runtime error: the kernel runs on part of the device."},
    {diagnostic_code::negative_size,
     "Not applicable: wavefit refuses the launch before the runtime sees it; a raw launch with a negative "
     "int converted to unsigned asks for a grid of about 2^32 blocks and fails or runs far too many "
     "blocks.",
     "Not applicable: wavefit refuses the launch before the runtime sees it."},
    {diagnostic_code::contract_allows_no_block,
     "Not applicable: wavefit refuses the launch before the runtime sees it.",
     "Not applicable: wavefit refuses the launch before the runtime sees it."},
};
// clang-format on

// By value, with empty texts for a code without an entry: GCC's -fsanitize=null makes any comparison
// of a table element's address with nullptr non-constant, so no pointer leaves this lookup.
constexpr runtime_outcome_text find_runtime_outcome(diagnostic_code c) noexcept {
    for (const runtime_outcome_text& o : runtime_outcomes)
        if (o.code == c) return o;
    return {c, {}, {}};
}

constexpr bool every_code_has_an_outcome() noexcept {
    for (const auto& info : code_table)
        if (find_runtime_outcome(info.code).on_amd.empty()) return false;
    return true;
}
static_assert(every_code_has_an_outcome(), "wavefit: a diagnostic code has no entry in detail/runtime_outcome.hpp");

}  // namespace detail
WAVEFIT_END_NAMESPACE
