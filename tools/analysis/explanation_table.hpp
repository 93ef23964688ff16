// SPDX-License-Identifier: MIT
// The entries of wavefit's knowledge base, as data: runtime statuses in HIP number order, then
// runtime log lines, then one entry per diagnostic code. Nothing here decides anything; explain.hpp
// looks entries up. What each runtime does with a diagnostic's launch is the library's one text
// (detail/runtime_outcome.hpp under include/wavefit), which validate.hpp quotes and the entries below show.
//
// Sources for the numbers and texts:
//  - HIP codes and names: hip_runtime_api.h (hip 5.2, identical in current ROCm/clr).
//  - CUDA names and numbers: driver_types.h (CUDA 13.0); cudaGetErrorString texts read from libcudart 13.0.
//  - `message`: what hipGetErrorString prints on current ROCm (ROCm/clr hip_error.cpp). HIP 5.2 and
//    older print the enumerator name instead (checked against libamdhip64.so.5.2), which the lookup also accepts.
//  - Launch checks: ROCm/clr hip_module.cpp / hip_platform.cpp; CUDA behaviour measured on an H200 with
//    CUDA 13.0 and driver 580 (every launch-configuration mistake returned cudaErrorInvalidValue there;
//    registers over the SM's file returned cudaErrorLaunchOutOfResources).
// Texts are printable ASCII without double quotes or backslashes, so they can be put into JSON verbatim.
#pragma once

#include <cstddef>      // std::size_t
#include <string_view>  // texts

#include <wavefit/detail/runtime_outcome.hpp>
#include <wavefit/diagnostic.hpp>

#include "explanation.hpp"

namespace wavefit::analysis {
namespace detail::explain_impl {

using wavefit::detail::find_runtime_outcome;
using wavefit::detail::runtime_outcome_text;

struct cause_fix {
    std::string_view cause;
    std::string_view fix;
};

// Where an entry's facts come from when it names nothing more specific (`wavefit explain --export`
// prints it with every entry, next to the issues its causes cite).
constexpr std::string_view default_source(explanation_kind kind) noexcept {
    switch (kind) {
        case explanation_kind::runtime_error:
            return "HIP number and name: hip_runtime_api.h (ROCm/HIP); HIP text: ROCm/clr hipamd/src/hip_error.cpp; CUDA "
                   "twin: driver_types.h and cudaGetErrorString (CUDA Runtime API, "
                   "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html)";
        case explanation_kind::log_line: return "ROCm/clr hipamd/src/hip_module.cpp";
        case explanation_kind::diagnostic:
            return "wavefit's diagnostic codes (docs/cli.md); the launch checks of ROCm/clr hipamd/src/hip_module.cpp and "
                   "hip_platform.cpp; the CUDA limits of the CUDA C++ Programming Guide (Compute Capabilities)";
    }
    return {};
}

template <std::size_t N>
constexpr error_explanation make(explanation_kind kind, std::string_view name, int code, std::string_view alias,
                                 std::string_view cuda_name, std::string_view message, std::string_view cuda_message,
                                 std::string_view meaning, std::string_view on_amd, std::string_view on_nvidia,
                                 const cause_fix (&items)[N]) noexcept {
    static_assert(N > 0 && N <= max_explanation_causes, "an entry has 1 to max_explanation_causes causes");
    error_explanation e{};
    e.kind = kind;
    e.name = name;
    e.code = code;
    e.alias = alias;
    e.cuda_name = cuda_name;
    e.cuda_code = cuda_name.empty() ? no_error_code : code;  // every paired CUDA error here has HIP's number
    e.message = message;
    e.cuda_message = cuda_message;
    e.meaning = meaning;
    e.on_amd = on_amd;
    e.on_nvidia = on_nvidia;
    e.source = default_source(kind);
    for (std::size_t i = 0; i < N; ++i) {
        e.causes[i] = items[i].cause;
        e.fixes[i] = items[i].fix;
    }
    e.cause_count = N;
    return e;
}

// A hipError_t value and its CUDA twin.
template <std::size_t N>
constexpr error_explanation runtime(std::string_view name, int code, std::string_view alias, std::string_view cuda_name,
                                    std::string_view message, std::string_view cuda_message, std::string_view meaning,
                                    std::string_view on_amd, std::string_view on_nvidia,
                                    const cause_fix (&items)[N]) noexcept {
    return make(explanation_kind::runtime_error, name, code, alias, cuda_name, message, cuda_message, meaning, on_amd,
                on_nvidia, items);
}

// A line the runtime logs; `name` is the line as people quote it, `message` its exact format, `source`
// the code that prints it.
template <std::size_t N>
constexpr error_explanation log_line(std::string_view name, std::string_view source, std::string_view message,
                                     std::string_view meaning, std::string_view on_amd, std::string_view on_nvidia,
                                     const cause_fix (&items)[N]) noexcept {
    error_explanation e =
        make(explanation_kind::log_line, name, no_error_code, {}, {}, message, {}, meaning, on_amd, on_nvidia, items);
    e.source = source;
    return e;
}

// An entry whose facts come from somewhere more specific than its kind's default source.
constexpr error_explanation with_source(error_explanation e, std::string_view source) noexcept {
    e.source = source;
    return e;
}

// A wavefit diagnostic code; what each runtime does with such a launch is the one text of
// detail/runtime_outcome.hpp (validate.hpp quotes the same).
template <std::size_t N>
constexpr error_explanation diagnostic(std::string_view name, std::string_view meaning,
                                       const cause_fix (&items)[N]) noexcept {
    diagnostic_code code{};
    const runtime_outcome_text outcome =
            wavefit::detail::parse_diagnostic_code(name, code) ? find_runtime_outcome(code) : runtime_outcome_text{code, {}, {}};
    return make(explanation_kind::diagnostic, name, no_error_code, {}, {}, {}, {}, meaning, outcome.on_amd,
                outcome.on_nvidia, items);
}

// The name of the launch-bounds log entry, used by the table and by the phrase lookup.
inline constexpr std::string_view launch_bounds_line = "Launch params (x, y, z) are larger than launch bounds (N)";

// clang-format off
inline constexpr error_explanation table[] = {

// ---------------------------------------------------------------- runtime errors (HIP number order)

runtime("hipSuccess", 0, {}, "cudaSuccess",
    "no error", "no error",
    "Not an error: the call that returned 0 succeeded. A log that reports error 0, hipSuccess or cudaSuccess is "
    "pointing at the wrong call, or at a check made before the failure happened.",
    "Kernel launches are asynchronous: hipLaunchKernel can return hipSuccess for a kernel that later faults, and the "
    "fault is reported by the next call that waits for the device (hipDeviceSynchronize, hipMemcpy, hipStreamSynchronize).",
    "The same on CUDA: an asynchronous kernel error is returned by a later call, and cudaGetLastError after a "
    "successful launch returns cudaSuccess.",
    {
        {"The failing call is another one: the error check ran on a call that succeeded, while the one that failed "
         "was not checked (often the launch itself, whose error only hipGetLastError / cudaGetLastError returns).",
         "Check every runtime call and call hipGetLastError / cudaGetLastError right after each launch; "
         "wavefit::launch checks the launch error for you."},
        {"An asynchronous error: the kernel was launched successfully and failed while running, so the launch "
         "reported success and a later synchronizing call reports the fault.",
         "Synchronize after the launch while debugging (AMD_SERIALIZE_KERNEL=3 on HIP, CUDA_LAUNCH_BLOCKING=1 on "
         "CUDA) so that the failing kernel is the call that reports the error, then explain that error."},
        {"A wrapper printed its message for a status it did not check, e.g. a helper that logs every return code.",
         "Look for the first non-zero status in the log; `wavefit explain --scan LOG` lists every known error in a log."},
    }),

runtime("hipErrorInvalidValue", 1, {}, "cudaErrorInvalidValue",
    "invalid argument", "invalid argument",
    "An argument of the call is null or outside its accepted range. For a kernel launch the runtime refused the "
    "launch configuration or the kernel arguments before anything ran.",
    "hipModuleLaunchKernel (used by Triton, XLA and hipModule code) returns it for zero, oversized or out-of-range "
    "grid and block dimensions and for gridDim x blockDim over 2^32-1 work-items; every launch path returns it for "
    "more shared memory (LDS) than the device has.",
    "CUDA 13.0 returns it for every launch-configuration mistake (measured on an H200): zero dimensions, a block over "
    "1024 threads or over a per-dimension limit, a grid over its limits, a block over the kernel's __launch_bounds__, "
    "and shared memory over the limit or above 48 KiB without opt-in.",
    {
        {"A block of more than 1024 threads from a thread count computed as num_warps x warp size: 32 warps are 1024 "
         "threads on NVIDIA but 2048 on a wave64 AMD GPU (seen in triton-lang/triton#4128, openxla/xla#35026).",
         "Derive the warp count from the queried wave size (at most 16 wavefronts of 64 on gfx9) and check the block "
         "with `wavefit check --preset mi300x --grid G --block B` (diagnostic block_exceeds_device_max_threads)."},
        {"Static plus dynamic shared memory (LDS) over what one block may use: 64 KiB on MI200, MI300 and RDNA, "
         "160 KiB on MI355X; kernels tuned for the 100+ KiB of A100/H100 hit this when ported (seen in "
         "sgl-project/sglang#28518, vllm-project/vllm#45871).",
         "Use smaller tiles on that device and check with `wavefit check --preset mi300x --grid G --block B "
         "--static-shared S --dynamic-shared D` (diagnostic shared_memory_exceeds_limit)."},
        {"On NVIDIA, more than 48 KiB of dynamic shared memory without first raising the kernel's "
         "cudaFuncAttributeMaxDynamicSharedMemorySize attribute (measured on an H200: 49153 bytes fail, 200000 bytes "
         "run once the attribute is set).",
         "Call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) once before the "
         "launch; `wavefit check --preset h100 ...` warns with shared_memory_requires_opt_in."},
        {"A grid or block dimension of 0, typically an empty input or n / block rounding down to 0 "
         "(hipModuleLaunchKernel and older ROCm return this error, recent hipLaunchKernel returns "
         "hipErrorInvalidConfiguration).",
         "Return before launching when there is no work and size the grid by ceiling division; wavefit::plan reports "
         "empty for 0 elements and `wavefit check` reports zero_dimension."},
        {"gridDim x blockDim in one dimension above 2^32-1 work-items on AMD through hipModuleLaunchKernel (seen in "
         "cupy/cupy#9746).",
         "Clamp the grid to (2^32-1) / blockDim.x and loop with a grid-stride loop: `wavefit plan --preset mi300x "
         "--elements N` gives such a grid (diagnostic work_items_exceed_dispatch_limit)."},
        {"A grid dimension over the device limit: gridDim.x above 2^31-1, or gridDim.y or gridDim.z above 65535 on "
         "NVIDIA (above 65536 through hipModuleLaunchKernel on AMD) (seen in ml-explore/mlx#3858).",
         "Put the unbounded extent in gridDim.x or loop over it inside the kernel; `wavefit check --preset h100 "
         "--grid X,Y,Z --block B` reports grid_dim_exceeds_device_limit with the limit."},
        {"On NVIDIA, a block larger than the kernel's own __launch_bounds__ maximum (AMD reports the same mistake as "
         "hipErrorLaunchFailure).",
         "Launch at most the kernel's maxThreadsPerBlock attribute: wavefit::launch(kernel, n, stream, ...) reads it "
         "and sizes the block; `wavefit check --kernel-max-threads N` reports block_exceeds_kernel_max_threads."},
        {"Kernel arguments given wrongly to hipModuleLaunchKernel / cuLaunchKernel (both kernelParams and extra, or "
         "neither for a kernel with parameters), or hipFuncSetAttribute(hipFuncAttributeMaxDynamicSharedMemorySize) "
         "asking for more than the LDS left after static shared memory.",
         "Pass exactly one of kernelParams or extra, with one pointer per kernel parameter; AMD needs no shared-memory "
         "opt-in, so request at most the LDS size minus the static shared memory."},
    }),

runtime("hipErrorOutOfMemory", 2, "hipErrorMemoryAllocation", "cudaErrorMemoryAllocation",
    "out of memory", "out of memory",
    "The runtime could not allocate the memory or other resources the call needs. Mostly an allocation failure; a "
    "launch returns it when the runtime cannot allocate what it needs to enqueue the kernel.",
    {}, {},
    {
        {"An allocation larger than the free device memory, often a buffer sized from a 64-bit element count, or "
         "memory still held by a caching allocator (PyTorch) or by another process.",
         "Check free memory with hipMemGetInfo / cudaMemGetInfo (or rocm-smi / nvidia-smi), free or reuse buffers, "
         "and process the data in chunks."},
        {"A kernel with a large private segment (register spills, big local arrays) needs scratch memory for every "
         "wave that can be resident at once, which a nearly full device may not be able to provide.",
         "Read the kernel's scratch bytes with `wavefit inspect FILE --kernel NAME`, reduce spills and local arrays, "
         "or keep memory free for scratch."},
        {"The launch itself failed to allocate its argument buffer or launch command because memory is exhausted "
         "(ROCm/clr returns this code from the launch).",
         "Free memory before the launch; the launch configuration is not the cause, earlier allocations are."},
    }),

runtime("hipErrorNotInitialized", 3, "hipErrorInitializationError", "cudaErrorInitializationError",
    "initialization error", "initialization error",
    "The HIP or CUDA runtime could not initialize, so no device call can work.",
    {}, {},
    {
        {"The process cannot open the GPU device files: a container started without --device=/dev/kfd "
         "--device=/dev/dri (AMD) or without the NVIDIA container runtime, or a user outside the render and video "
         "groups.",
         "Pass the devices into the container, add the user to the render and video groups, and confirm with rocminfo "
         "or nvidia-smi; `wavefit info` says whether a GPU is visible."},
        {"The kernel driver and the user-space runtime do not match (amdgpu and ROCm, or NVIDIA driver and CUDA), or "
         "the installed ROCm does not support the GPU.",
         "Install a driver that supports the runtime release (dmesg shows amdgpu or NVRM errors) and a ROCm release "
         "that lists the GPU."},
        {"A process forked after the runtime initialized and the child uses the GPU.",
         "Initialize the GPU only in the child, or start workers with spawn instead of fork."},
    }),

runtime("hipErrorInvalidConfiguration", 9, {}, "cudaErrorInvalidConfiguration",
    "invalid configuration argument", "invalid configuration argument",
    "The launch configuration can never run on this device: the runtime refused the grid or block shape before "
    "launching. Its number is 9, not 209: a widely read CUDA-to-ROCm porting guide labels it error code 209, but 209 "
    "is hipErrorNoBinaryForGpu (no code object for this GPU).",
    "hipLaunchKernel and the <<<...>>> launch return it when gridDim x blockDim reaches 2^32 work-items in one "
    "dimension, when the block has more than 1024 threads and, on recent ROCm, when a grid or block dimension is 0; "
    "hipModuleLaunchKernel reports the same mistakes as hipErrorInvalidValue.",
    "Documented for too many threads, blocks or shared memory and widely seen as 'invalid configuration argument' "
    "(e.g. ml-explore/mlx#2267); CUDA 13.0 on an H200 returned cudaErrorInvalidValue for all of these instead.",
    {
        {"On AMD, gridDim x blockDim in one dimension at or above 2^32 work-items: the HSA dispatch packet stores the "
         "grid size in work-items as 32-bit numbers, so the largest gridDim.x is 4194303 at 1024 threads (seen in "
         "pytorch/pytorch#168806, chapel-lang/chapel#23934, iree-org/iree#21527).",
         "Clamp the grid and use a grid-stride loop: `wavefit plan --preset mi300x --elements N` gives a grid that "
         "fits and wavefit::launch(kernel, n, stream, ...) clamps it (diagnostic work_items_exceed_dispatch_limit)."},
        {"A block of more than 1024 threads, e.g. dim3(32, 64) or num_warps x 64 on a wave64 GPU.",
         "Keep x*y*z at or under the device maximum and a multiple of the wave size; check with `wavefit check "
         "--preset mi300x --grid G --block B` (block_exceeds_device_max_threads)."},
        {"A grid or block dimension of 0 on recent ROCm, typically an empty input or n / block rounding down to 0.",
         "Return before launching when there is no work and use ceiling division (n + block - 1) / block; "
         "`wavefit check` reports zero_dimension."},
        {"On NVIDIA with older CUDA releases: a block over 1024 threads or blockDim.z over 64, gridDim.y or gridDim.z "
         "over 65535 (seen in ml-explore/mlx#2267), or too much shared memory.",
         "Check the configuration against the target with `wavefit check --preset h100 --grid X,Y,Z --block X,Y,Z` and "
         "move large extents into gridDim.x."},
        {"A log or guide calls this error 'error code 209'. That label is wrong: a real 209 is a missing code object "
         "(a build problem), not a bad launch configuration.",
         "Trust the number the runtime returns: `wavefit explain 9` is this error, `wavefit explain 209` is "
         "hipErrorNoBinaryForGpu."},
    }),

runtime("hipErrorInvalidSymbol", 13, {}, "cudaErrorInvalidSymbol",
    "invalid device symbol", "invalid device symbol",
    "The symbol given to a symbol call (hipMemcpyToSymbol, hipGetSymbolAddress, ...) is not a device variable the "
    "runtime knows for the current device.",
    {}, {},
    {
        {"The variable's name was passed as a string, an old CUDA idiom that HIP and current CUDA do not accept.",
         "Pass the symbol itself: hipMemcpyToSymbol(HIP_SYMBOL(var), ...) or cudaMemcpyToSymbol(var, ...)."},
        {"The __device__ or __constant__ variable is defined in another translation unit or library without "
         "relocatable device code, so the host refers to a copy the kernel never reads.",
         "Define it next to the kernels that use it, or build with -fgpu-rdc (HIP) / -rdc=true (CUDA) and link the "
         "device code together."},
        {"The code object that holds the variable was never loaded for this GPU because it targets another gfx or sm "
         "architecture.",
         "Rebuild for the device (--offload-arch=gfx942, -gencode arch=compute_90,code=sm_90) and list a binary's "
         "targets with `wavefit inspect FILE`."},
    }),

runtime("hipErrorInvalidDevicePointer", 17, {}, "cudaErrorInvalidDevicePointer",
    "invalid device pointer", "invalid device pointer",
    "A pointer the call requires to be device memory is not an allocation the runtime knows. Launches do not check "
    "pointer arguments, so a bad pointer passed to a kernel shows up later as an illegal address instead.",
    {}, {},
    {
        {"Freeing or copying with a host pointer, a pointer already freed, or a pointer outside its allocation "
         "(hipFree, hipMemset, hipMemcpy with an explicit direction).",
         "Check the pointer with hipPointerGetAttributes / cudaPointerGetAttributes and free each allocation exactly "
         "once from one owner."},
        {"A pointer allocated while another device was current, or one taken from another process without IPC.",
         "Make the owning device current (hipSetDevice), enable peer access for cross-device use, or share memory "
         "between processes with hipIpcGetMemHandle."},
    }),

runtime("hipErrorMissingConfiguration", 52, {}, "cudaErrorMissingConfiguration",
    "__global__ function call is not configured", "__global__ function call is not configured",
    "A kernel was launched through the low-level launch entry without a launch configuration (grid, block, shared "
    "memory, stream) having been pushed first.",
    {}, {},
    {
        {"The kernel was started in a way that bypasses the launch syntax: hipLaunchByPtr / cudaLaunch without "
         "hipConfigureCall / cudaConfigureCall, or the kernel's address called like an ordinary function.",
         "Launch with <<<grid, block, shared, stream>>>, hipLaunchKernelGGL, hipLaunchKernel, or "
         "wavefit::launch(kernel, cfg, stream, args...)."},
        {"The file that launches the kernel was compiled by a host-only compiler or by another GPU toolchain than the "
         "kernel.",
         "Compile every file that launches kernels with hipcc / amdclang++ (HIP) or nvcc (CUDA), one toolchain "
         "release for the whole program."},
    }),

runtime("hipErrorPriorLaunchFailure", 53, {}, "cudaErrorPriorLaunchFailure",
    "unspecified launch failure in prior launch", "unspecified launch failure in prior launch",
    "An earlier launch failed and this call only reports it; the call that returned it is not the cause.",
    {}, {},
    {
        {"The launch that failed was not checked, so its error surfaced at a later call.",
         "Check every launch at once with hipGetLastError (wavefit::launch checks each launch and throws "
         "wavefit::launch_error naming the limit), and rerun with AMD_SERIALIZE_KERNEL=3 or CUDA_LAUNCH_BLOCKING=1 to "
         "find the first failing kernel."},
        {"A previous kernel faulted (out-of-bounds access, failed assert) and left the context unusable.",
         "Fix that first failure; the process must restart before it can use the GPU again."},
    }),

runtime("hipErrorInvalidDeviceFunction", 98, {}, "cudaErrorInvalidDeviceFunction",
    "invalid device function", "invalid device function",
    "The kernel has no code the runtime can run on this device, or the function given to the launch is not a kernel.",
    {}, {},
    {
        {"The program or library was built for other GPU targets than the installed one, e.g. a gfx90a-only build run "
         "on a gfx942 MI300X, or a Python wheel that does not cover a consumer GPU; PyTorch then reports "
         "'HIP error: invalid device function'.",
         "Read the device's target with `rocminfo | grep gfx` and rebuild for it (--offload-arch=gfx942, "
         "PYTORCH_ROCM_ARCH, AMDGPU_TARGETS or CMAKE_HIP_ARCHITECTURES); `wavefit inspect FILE` lists the targets a "
         "binary contains."},
        {"On NVIDIA, no SASS for the GPU's compute capability and no PTX the driver can compile.",
         "Add -gencode arch=compute_XX,code=sm_XX for the GPU (CMAKE_CUDA_ARCHITECTURES) and keep a PTX target for "
         "newer GPUs."},
        {"The pointer handed to the launch call is not a __global__ function: a host function, a __device__ function, "
         "or a kernel template never instantiated for these arguments.",
         "Pass the __global__ function itself with its template arguments spelled out, and prefer typed launches "
         "(<<<...>>>, hipLaunchKernelGGL, wavefit::launch) that catch this at compile time."},
    }),

runtime("hipErrorNoDevice", 100, {}, "cudaErrorNoDevice",
    "no ROCm-capable device is detected", "no CUDA-capable device is detected",
    "The runtime found no GPU it can use.",
    {}, {},
    {
        {"Visibility variables hide every GPU: HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES set "
         "empty, to a missing index, or to an id from another machine.",
         "Unset them or set valid indices; rocm-smi / nvidia-smi list the GPUs that exist."},
        {"The container lacks /dev/kfd and /dev/dri, the user is not in the render and video groups, or the installed "
         "ROCm does not support the GPU.",
         "Run the container with --device=/dev/kfd --device=/dev/dri --group-add video, confirm with rocminfo, and "
         "use a ROCm release that supports the GPU."},
        {"Planning or checking a launch on a machine without a GPU.",
         "Use a preset instead of a device: `wavefit plan --preset mi300x --elements N` and `wavefit check --preset "
         "h100 ...` need no GPU."},
    }),

runtime("hipErrorInvalidDevice", 101, {}, "cudaErrorInvalidDevice",
    "invalid device ordinal", "invalid device ordinal",
    "The device index is not a valid device, or the kernel has no code for the selected device.",
    {}, {},
    {
        {"A device index at or above the device count, often hard-coded on a node with fewer GPUs, or indices "
         "renumbered by HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES.",
         "Take indices from hipGetDeviceCount or `wavefit info` (lists the visible GPUs); visible devices are "
         "renumbered from 0."},
        {"On AMD, a kernel launched on a device its module has no code for (ROCm/clr returns this from the launch), "
         "e.g. a node with two GPU models and a build for only one of them.",
         "Build for every gfx target in the node (`rocminfo | grep gfx`) and check the binary with "
         "`wavefit inspect FILE`."},
    }),

runtime("hipErrorInvalidImage", 200, {}, "cudaErrorInvalidKernelImage",
    "device kernel image is invalid", "device kernel image is invalid",
    "The code object (kernel image) given to the runtime cannot be used: corrupt, truncated, the wrong format, or a "
    "code object version this runtime cannot read.",
    {}, {},
    {
        {"hipModuleLoad / hipModuleLoadData given something that is not an AMDGPU code object for this runtime: an "
         "offload bundle or host object, a truncated file, or output of a newer ROCm.",
         "Load the device code object (unbundle with clang-offload-bundler if needed), build it with the ROCm that "
         "runs it, and check its target and kernels with `wavefit inspect FILE`."},
        {"On NVIDIA, cuModuleLoad given a cubin for another architecture or a damaged fatbin.",
         "Build the cubin for the device's sm_XX, or load a fatbin or PTX that contains it."},
    }),

with_source(runtime("hipErrorNoBinaryForGpu", 209, {}, "cudaErrorNoKernelImageForDevice",
    "no kernel image is available for execution on the device",
    "no kernel image is available for execution on the device",
    "Error 209: the program contains no code object for this GPU's gfx target (on NVIDIA: no kernel image for this "
    "compute capability). ROCm logs it as 'hipErrorNoBinaryForGpu: Unable to find code object for all current "
    "devices!'. It is not an invalid launch configuration: a widely read CUDA-to-ROCm porting guide calls "
    "hipErrorInvalidConfiguration error code 209, but that error is 9.",
    "Raised when the program's GPU code is registered or first used; depending on the ROCm release the process aborts "
    "right after the log line, or launches fail with hipErrorInvalidDeviceFunction or hipErrorSharedObjectInitFailed.",
    "cudaErrorNoKernelImageForDevice from the launch.",
    {
        {"The binary was built for other gfx targets than the GPU's, e.g. only gfx90a (MI200) and run on an MI300X "
         "(gfx942), or a default target list older than the GPU.",
         "Read the target with `rocminfo | grep gfx` and rebuild with it: --offload-arch=gfx942 (repeat the flag for "
         "several GPUs; AMDGPU_TARGETS, CMAKE_HIP_ARCHITECTURES or PYTORCH_ROCM_ARCH in build systems); "
         "`wavefit inspect FILE` lists the targets present."},
        {"The target features do not match, e.g. a code object built for gfx90a:xnack+ on a GPU running with XNACK "
         "off.",
         "Build without a feature suffix (--offload-arch=gfx90a runs either way) or for the exact target id rocminfo "
         "shows."},
        {"On NVIDIA, no SASS for the GPU's compute capability and no compatible PTX, e.g. built for sm_80 only and "
         "run on an sm_90 H100.",
         "Add the architecture (-gencode arch=compute_90,code=sm_90 or CMAKE_CUDA_ARCHITECTURES=90) and keep PTX "
         "(code=compute_XX) for newer GPUs."},
        {"A log or guide blames 209 on a bad grid or block. That label is wrong: an invalid launch configuration is "
         "error 9.",
         "Treat 209 as a build problem (missing target), not a launch-configuration problem; `wavefit explain 9` "
         "describes the configuration error."},
    }),
    "hip_runtime_api.h (ROCm/HIP) and ROCm/clr hipamd/src/hip_error.cpp; the log line Unable to find code object for all current devices from ROCm/clr hipamd/src/hip_code_object.cpp; CUDA: driver_types.h (CUDA Runtime API)"),

runtime("hipErrorInvalidKernelFile", 218, {}, "cudaErrorInvalidPtx",
    "invalid kernel file", "a PTX JIT compilation failed",
    "The runtime could not use the kernel file it was given; the CUDA twin means the driver failed to JIT-compile "
    "PTX.",
    {}, {},
    {
        {"hipModuleLoad on a file that is not a loadable code object, or one produced by an incompatible compiler "
         "(e.g. hiprtc output from another ROCm release).",
         "Regenerate the code object with the ROCm release that loads it and check it with `wavefit inspect FILE`."},
        {"On NVIDIA, PTX newer than the installed driver understands, or a PTX-only build on an old driver.",
         "Update the driver, or embed SASS for the GPU (-gencode arch=compute_XX,code=sm_XX) so no JIT is needed."},
    }),

runtime("hipErrorSharedObjectInitFailed", 303, {}, "cudaErrorSharedObjectInitFailed",
    "shared object initialization failed", "shared object initialization failed",
    "The runtime could not load the GPU code embedded in the program or in a shared library when a kernel from it "
    "was first needed.",
    {}, {},
    {
        {"The embedded fat binary has no usable code object for this device; some ROCm releases report a missing gfx "
         "target this way at the first launch.",
         "Rebuild with --offload-arch for the device (`rocminfo | grep gfx`) and check the binary with "
         "`wavefit inspect FILE`."},
        {"The library was built by a newer ROCm than the one loading it, or two ROCm releases are mixed in one "
         "process.",
         "Build and run with the same ROCm release; ldd shows which libamdhip64 is loaded."},
    }),

runtime("hipErrorInvalidHandle", 400, "hipErrorInvalidResourceHandle", "cudaErrorInvalidResourceHandle",
    "invalid resource handle", "invalid resource handle",
    "A stream, event, module or function handle given to the call is not valid for the current device.",
    {}, {},
    {
        {"A launch on a stream that belongs to another device than the current one (ROCm/clr returns this from the "
         "launch).",
         "Make the stream's device current with hipSetDevice before launching, or keep one stream per device."},
        {"A stream or event used after it was destroyed, or a handle from another process or context.",
         "Keep handles alive while work uses them and destroy them only after synchronizing."},
        {"A null function handle passed to hipModuleLaunchKernel, usually from an unchecked hipModuleGetFunction "
         "failure.",
         "Check the result of hipModuleGetFunction / cuModuleGetFunction before launching."},
    }),

runtime("hipErrorNotFound", 500, {}, "cudaErrorSymbolNotFound",
    "named symbol not found", "named symbol not found",
    "A named kernel or variable was not found in the module searched.",
    {}, {},
    {
        {"hipModuleGetFunction asked for a C++ kernel by its plain name while the code object holds the mangled "
         "name, or for a template instance that was never compiled.",
         "Give the kernel C linkage (extern C) or ask for its mangled name; `wavefit inspect FILE` lists every "
         "kernel's mangled and demangled name."},
        {"The kernel or variable was removed as unused, or lives in another module than the one searched.",
         "Keep it referenced (or mark it used) and load the module that defines it."},
    }),

runtime("hipErrorNotReady", 600, {}, "cudaErrorNotReady",
    "device not ready", "device not ready",
    "Not an error: the queried stream or event still has work in flight. hipStreamQuery and hipEventQuery return it "
    "instead of hipSuccess until the work completes.",
    {}, {},
    {
        {"An error-checking macro treats every value other than success as fatal and wraps hipStreamQuery / "
         "hipEventQuery.",
         "Handle it as still running (poll again or synchronize) and keep the error check for the other values."},
        {"hipEventElapsedTime was called before the stop event completed.",
         "Call hipEventSynchronize on the stop event before reading the elapsed time."},
    }),

with_source(runtime("hipErrorIllegalAddress", 700, {}, "cudaErrorIllegalAddress",
    "an illegal memory access was encountered", "an illegal memory access was encountered",
    "A kernel read or wrote memory it may not access. On AMD it usually appears as 'Memory access fault by GPU node-N "
    "... Reason: Page not present' and the process aborts; on NVIDIA the context is unusable until the process "
    "restarts.",
    {}, {},
    {
        {"The kernel hard-codes a block size (a shared array or index math for 256 threads) but is launched with "
         "another, so threads index past their data.",
         "Derive index math from blockDim instead of a constant and assert the block size the kernel requires; "
         "`wavefit check` validates a fixed block against the device and the kernel."},
        {"The grid is rounded up to whole blocks but the kernel has no i < n check, so the last block runs past the "
         "end of the data.",
         "Guard every access with if (i < n) or use a grid-stride loop (wavefit's device-side grid-stride range)."},
        {"A 32-bit index overflows beyond 2^31 elements (int i = blockIdx.x * blockDim.x + threadIdx.x), or a 64-bit "
         "size was narrowed to 32 bits on the host (seen in ROCm/rocm-libraries#9441).",
         "Compute indices in 64 bits and keep sizes 64-bit up to the launch; `wavefit plan --preset mi300x "
         "--elements 2^33` shows a plan for such sizes."},
        {"A null pointer: a buffer that was never allocated, or a pointer field never set, reaches the kernel. The "
         "fault line then names an address in the first pages, which nothing ever maps: on address (nil), 0x0, or a "
         "small one such as 0x1000 (the null pointer plus the offset of the element or field).",
         "Check every device pointer before the launch (allocation results, struct fields copied to the device); an "
         "address such as 0x1000 is the null pointer plus an index or field offset, so look for the buffer, not the "
         "index."},
        {"A host pointer, or memory of another device, passed as a kernel argument.",
         "Allocate with hipMalloc / hipMallocManaged or register the host memory, and check pointers with "
         "hipPointerGetAttributes."},
        {"The fault comes from the kernel after a rejected launch: a launch refused for exceeding the launch bounds "
         "left state that the next kernel faulted on (seen in sgl-project/sglang#25175).",
         "Rerun with AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=1 (CUDA_LAUNCH_BLOCKING=1 on NVIDIA) and look at the launch "
         "before the fault; wavefit::launch checks each launch and reports the first failure."},
    }),
    "hip_runtime_api.h (ROCm/HIP) and ROCm/clr hipamd/src/hip_error.cpp; the fault line Memory access fault by GPU node-N ... Reason: ... from ROCm/ROCR-Runtime src/core/runtime/runtime.cpp; CUDA: driver_types.h (CUDA Runtime API)"),

runtime("hipErrorLaunchOutOfResources", 701, {}, "cudaErrorLaunchOutOfResources",
    "too many resources requested for launch", "too many resources requested for launch",
    "The launch needs more of a per-SM/CU resource than exists, most often registers: registers per thread times "
    "threads per block exceed what one SM can hold.",
    "The HIP runtime does not check registers at launch (the compiler fits registers to the kernel's launch bound), "
    "so this code is rare on AMD; register over-subscription shows up as HSA_STATUS_ERROR_INVALID_ISA or "
    "hipErrorLaunchFailure instead.",
    "Returned for a block that needs more registers than the SM has (measured on an H200: a 112-register kernel "
    "launched with 1024 threads; its maxThreadsPerBlock was 512) and for kernel parameters over the size limit.",
    {
        {"A block larger than the registers allow: with R registers per thread an NVIDIA SM fits roughly 65536 / R "
         "threads after allocation granularity, so a 112-register kernel fails at 1024 threads and runs at 512 (seen "
         "in apache/tvm#4342).",
         "Launch at most the kernel's maxThreadsPerBlock from cudaFuncGetAttributes / hipFuncGetAttributes: "
         "wavefit::launch does; `wavefit check --preset h100 --regs R --block B` reports registers_exceed_limit."},
        {"A kernel without __launch_bounds__ lets the compiler use up to 255 registers per thread, and large blocks "
         "then do not fit.",
         "Declare __launch_bounds__ for the largest block you launch (or cap with -maxrregcount) and check with "
         "`wavefit occupancy --preset h100 --regs R`."},
        {"Kernel parameters larger than the limit (4 KiB before CUDA 12.1, 32764 bytes since on Volta and newer), e.g. "
         "a big struct passed by value.",
         "Pass large data through a device buffer or __constant__ memory and keep by-value arguments small."},
        {"On AMD, arguments supplied through the extra buffer to a kernel that takes no parameters (ROCm/clr returns "
         "this code).",
         "Pass no extra buffer, or an empty one, to kernels without parameters."},
    }),

runtime("hipErrorLaunchTimeOut", 702, {}, "cudaErrorLaunchTimeout",
    "the launch timed out and was terminated", "the launch timed out and was terminated",
    "The kernel ran longer than the watchdog allows and was stopped; the context is unusable afterwards.",
    {}, {},
    {
        {"The GPU also drives a display and its watchdog (Windows TDR, the X server) stops long kernels.",
         "Compute on a GPU without a display, raise the watchdog timeout, or split the work into shorter launches."},
        {"Blocks spin-wait on other blocks (a global barrier, a producer-consumer flag) that are not resident at the "
         "same time, because the grid is larger than the device holds at once.",
         "Use a cooperative launch with at most resident blocks per CU x CUs (`wavefit occupancy --preset mi300x "
         "--block B` gives blocks per CU), or split the phases into separate launches."},
        {"A loop that never ends: a grid-stride loop with a stride of 0, or a 32-bit index that wraps before reaching "
         "n.",
         "Use a 64-bit index and gridDim.x * blockDim.x as the stride (wavefit's device-side grid-stride range)."},
    }),

runtime("hipErrorAssert", 710, {}, "cudaErrorAssert",
    "device-side assert triggered", "device-side assert triggered",
    "An assert() in device code failed while the kernel ran; the runtime prints the failing expression and the "
    "context cannot be used again.",
    {}, {},
    {
        {"The kernel asserts the launch shape it was written for (e.g. assert(blockDim.x == 256) or a template block "
         "size) and was launched with another block.",
         "Launch with the block size the kernel requires or make the kernel read blockDim; `wavefit check "
         "--kernel-max-threads N` validates fixed shapes."},
        {"An index or size check failed because the data is out of range (e.g. gather or embedding indices past the "
         "table).",
         "Validate the inputs on the host, then rerun with AMD_SERIALIZE_KERNEL=3 or CUDA_LAUNCH_BLOCKING=1 to find "
         "the kernel."},
    }),

runtime("hipErrorLaunchFailure", 719, {}, "cudaErrorLaunchFailure",
    "unspecified launch failure", "unspecified launch failure",
    "The launch failed or the kernel raised an exception while running. On AMD it is also what the launch returns, "
    "before anything runs, when the block is larger than the kernel's compiled launch bound; the only detail is a "
    "log line shown with AMD_LOG_LEVEL=1 or higher.",
    "Returned by the launch for a block over the kernel's launch bound (log line 'Launch params (x, y, z) are larger "
    "than launch bounds (N) for kernel K'), for cooperative launches the device cannot do, and for exceptions while "
    "the kernel runs.",
    "Returned for exceptions while the kernel runs; a block over __launch_bounds__ is cudaErrorInvalidValue instead "
    "(CUDA 13.0, measured).",
    {
        {"On AMD, a block larger than the kernel's compiled bound (__launch_bounds__, --gpu-max-threads-per-block, or a "
         "toolchain default of 256), logged as 'Launch params (x, y, z) are larger than launch bounds (N)' (seen in "
         "ggml-org/llama.cpp#10610; the check came with ROCm/hip#1672).",
         "Launch at most the kernel's maxThreadsPerBlock: wavefit::launch(kernel, n, stream, ...) sizes the block from "
         "the kernel's own bound; or raise the bound with __launch_bounds__(1024) / --gpu-max-threads-per-block=1024; "
         "`wavefit check --kernel-max-threads N` reports block_exceeds_kernel_max_threads."},
        {"Host and device disagree on the wave size: the host builds dim3(WARP_SIZE, k) with 64 while the device pass "
         "compiled __launch_bounds__(k * 32) for a wave32 GPU (seen in sgl-project/sglang#25175).",
         "Take the host-side wave size from hipDeviceAttributeWarpSize at run time, never from a device macro; "
         "`wavefit info --preset rx7900xtx` shows wave size 32."},
        {"A block that needs more registers than the CU has; the runtime does not check registers (seen in "
         "kokkos/kokkos#9402).",
         "Size the block from the kernel's attributes (wavefit::launch does) or compile with a launch bound that "
         "matches the launched block; `wavefit occupancy --preset mi300a --regs R` shows which blocks fit."},
        {"An exception inside the kernel: out-of-bounds or misaligned access, an illegal instruction, or a trap.",
         "Rerun with AMD_SERIALIZE_KERNEL=3 and AMD_LOG_LEVEL=3 (CUDA_LAUNCH_BLOCKING=1 and compute-sanitizer on "
         "NVIDIA) to find the kernel, then check its bounds."},
        {"A cooperative launch on a device or runtime without cooperative-groups support.",
         "Check hipDeviceAttributeCooperativeLaunch before calling hipLaunchCooperativeKernel."},
    }),

runtime("hipErrorCooperativeLaunchTooLarge", 720, {}, "cudaErrorCooperativeLaunchTooLarge",
    "too many blocks in cooperative launch", "too many blocks in cooperative launch",
    "A cooperative launch asked for more blocks than can be resident on the device at once, which grid-wide "
    "synchronization requires.",
    {}, {},
    {
        {"The grid was sized from the data instead of from occupancy (measured on an H200: 1000000 blocks of 1024 "
         "threads are refused).",
         "Use at most resident blocks per CU/SM x CU/SM count: `wavefit occupancy --preset mi300x --block B` gives "
         "blocks per CU; loop inside the kernel over the rest."},
        {"A larger block, more registers or more shared memory lowered the resident blocks below a grid that used to "
         "fit.",
         "Recompute the grid from hipOccupancyMaxActiveBlocksPerMultiprocessor whenever the kernel or block changes; "
         "`wavefit occupancy ... --regs R --dynamic-shared D` names the limiter."},
    }),

runtime("hipErrorNotSupported", 801, {}, "cudaErrorNotSupported",
    "operation not supported", "operation not supported",
    "The operation is not supported by this device, driver or runtime release.",
    {}, {},
    {
        {"A call this ROCm release does not implement or this GPU does not support, such as some function attributes, "
         "multi-device cooperative launches, or managed-memory features without XNACK.",
         "Query the device attribute first (hipDeviceGetAttribute) and keep a fallback path; newer ROCm releases "
         "implement more of the API."},
        {"AMD-only hipExt* calls or attributes used through HIP on NVIDIA, or NVIDIA-only features through HIP on AMD.",
         "Guard platform-specific calls with __HIP_PLATFORM_AMD__ / __HIP_PLATFORM_NVIDIA__."},
    }),

runtime("hipErrorUnknown", 999, {}, "cudaErrorUnknown",
    "unknown error", "unknown error",
    "A catch-all for failures the runtime could not classify; hipGetErrorName also answers hipErrorUnknown for any "
    "number it does not know.",
    {}, {},
    {
        {"A lower layer failed (HSA/ROCr, the kernel driver): queue creation, a GPU reset after a hang, or a driver "
         "that does not match the runtime.",
         "Read dmesg for amdgpu or NVRM messages, rerun with AMD_LOG_LEVEL=3 to see the HSA error, and match driver "
         "and runtime releases."},
        {"An earlier kernel hung or faulted and the device was reset.",
         "Find the first failing launch with AMD_SERIALIZE_KERNEL=3 or CUDA_LAUNCH_BLOCKING=1; wavefit::launch checks "
         "every launch."},
        {"The number is not a hipError_t at all: an HSA status such as 0x100f, or a library status passed to "
         "hipGetErrorName.",
         "Look the number up where it came from: 0x1000-range values are HSA statuses (0x100f is "
         "HSA_STATUS_ERROR_INVALID_ISA), and hipBLAS, rocBLAS or MIOpen have their own status codes."},
    }),

// ---------------------------------------------------------------- log lines without an error code

log_line(launch_bounds_line, "ROCm/clr hipamd/src/hip_module.cpp (the check and the log line); ggml-org/llama.cpp#10610",
    "Launch params (%u, %u, %u) are larger than launch bounds (%lu) for kernel %s",
    "An AMD runtime log line (ROCm/clr hip_module.cpp): the block has more threads than the kernel was compiled for "
    "(its flat work-group size bound from __launch_bounds__ or --gpu-max-threads-per-block). The launch returns "
    "hipErrorLaunchFailure and the kernel never runs; the line appears only with AMD_LOG_LEVEL=1 or higher.",
    "hipErrorLaunchFailure (719) from the launch.",
    "No such line; CUDA 13.0 returns cudaErrorInvalidValue for a block over __launch_bounds__ (measured on an H200).",
    {
        {"A toolchain whose default bound is 256 instead of 1024 (HIP compilers before ROCm 4.1, some vendor SDKs) and a "
         "launch with more threads (seen in ggml-org/llama.cpp#10610: Launch params (1024, 1, 1) are larger than "
         "launch bounds (256)).",
         "Rebuild with --gpu-max-threads-per-block=1024 or give the kernel __launch_bounds__(1024); or launch through "
         "wavefit::launch(kernel, n, stream, ...), which sizes the block from the kernel's own bound."},
        {"The host computes the block with another wave size than the device pass used for __launch_bounds__: 64 on "
         "the host, 32 on a wave32 GPU (seen in sgl-project/sglang#25175: Launch params (64, 4, 1) are larger than "
         "launch bounds (128)).",
         "Query hipDeviceAttributeWarpSize on the host and use it for both; `wavefit check --preset rx7900xtx --grid 1 "
         "--block 64,4 --kernel-max-threads 128` reproduces the mismatch."},
        {"A library picks the block from the device limit (1024) while the kernel was compiled with a smaller bound "
         "such as 256 (seen in lattice/quda#1462).",
         "Read the bound per kernel (hipFuncGetAttributes maxThreadsPerBlock, or max_threads in `wavefit inspect FILE "
         "--kernel NAME`) and check with `wavefit check --kernel FILE:NAME`."},
        {"The bound was lowered to save registers or spills, but some call sites still launch the old block size.",
         "Make the block size and the bound one constant, or launch through wavefit::launch so the block follows the "
         "kernel."},
    }),

log_line("HSA_STATUS_ERROR_INVALID_ISA",
    "ROCm/ROCR-Runtime src/inc/hsa.h (HSA_STATUS_ERROR_INVALID_ISA = 0x100f) and hsa_status_string; kokkos/kokkos#9402",
    "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f",
    "An error of the ROCm HSA runtime (status 0x100f), usually printed just before the process aborts. At a launch "
    "it most often means the dispatched work-group cannot get the registers it needs: the HIP runtime never checks "
    "register use, so the failure surfaces here instead of as a HIP error.",
    "The process usually aborts with this message; sometimes the launch or a later synchronize reports "
    "hipErrorLaunchFailure.",
    "No equivalent; NVIDIA reports the same register problem as cudaErrorLaunchOutOfResources at the launch.",
    {
        {"A block with more threads than the kernel's register use allows on one CU, e.g. a block chosen from the "
         "amount of work rather than from the kernel while the compiler used a few more registers than the launch "
         "bound permits (seen in kokkos/kokkos#9402 on MI300A; ROCm/hip#1185 shows the debug agent reporting Out of "
         "VGPRs).",
         "Size the block from the kernel's limits (wavefit::launch(kernel, n, stream, ...) reads its attributes); "
         "`wavefit occupancy --preset mi300a --regs R` or `--kernel FILE:NAME` shows which blocks fit; add "
         "__launch_bounds__ matching the launched block."},
        {"A CUDA-style __launch_bounds__(MAX, MIN) with MIN meant as blocks per SM: on HIP the second argument is the "
         "minimum waves per execution unit, which changes the register budget (ROCm/hip#2062).",
         "Drop the second argument or recompute it as waves per EU for AMD, and verify vgpr_count with "
         "`wavefit inspect FILE` and the fit with `wavefit occupancy`."},
        {"The code object's ISA does not match the GPU, e.g. HSA_OVERRIDE_GFX_VERSION makes the runtime load code built "
         "for another gfx target.",
         "Build for the GPU's real target (`rocminfo | grep gfx`, --offload-arch=...) instead of overriding the "
         "version."},
    }),

log_line("HSA_STATUS_ERROR_OUT_OF_RESOURCES",
    "ROCm/ROCR-Runtime src/inc/hsa.h (HSA_STATUS_ERROR_OUT_OF_RESOURCES = 0x1008) and src/core/runtime/amd_aql_queue.cpp "
    "(AqlQueue::DynamicScratchHandler: a dispatch whose scratch cannot be allocated); ROCm/hip#3253; "
    "StanfordLegion/legion#1339; ROCm/legacy-rocm-build#95 and #1088 (at start-up)",
    "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also "
    "occur when the core runtime library needs to spawn threads or create internal OS-specific events. code: 0x1008",
    "An error of the ROCm HSA runtime (status 0x1008): it could not allocate something it needs. After a kernel "
    "launch, printed as 'Device::callbackQueue aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES', it comes "
    "from the queue's error handler: the dispatched kernel needs more scratch (private segment: register spills, "
    "stack, local arrays) per thread than the runtime can allocate for the waves that may run at once, and the "
    "process aborts. At start-up (hsa_init, queue creation, rocminfo) it means the driver could not create a queue "
    "or map memory.",
    "The process usually aborts from the queue callback; the HIP call that launched the kernel has already returned "
    "hipSuccess, so the failing kernel is not named.",
    "No equivalent status; NVIDIA reports a kernel whose local memory cannot be allocated as "
    "cudaErrorLaunchOutOfResources or cudaErrorMemoryAllocation at the launch.",
    {
        {"A kernel with a large private segment (spilled registers, a dynamic stack from recursion or indirect calls, "
         "big local arrays): the runtime reserves scratch for every wave that can be resident on every CU, and the "
         "allocation fails (ROCR-Runtime amd_aql_queue.cpp promotes a failed scratch allocation to this status; seen "
         "in ROCm/hip#3253 and in StanfordLegion/legion#1339 on an MI250X).",
         "Find the kernel with AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=3 (the last launch logged before the abort), read "
         "its scratch with `wavefit inspect FILE --kernel NAME` (scratch, spills, dynamic stack), and cut it: a "
         "smaller __launch_bounds__ (more registers per thread, fewer spills), fewer live values, no recursion or "
         "large local arrays."},
        {"The device memory is nearly full when the kernel is dispatched, so even a moderate scratch reservation "
         "fails (the setting of ROCm/hip#3253: a garbage-collected program running close to out of memory).",
         "Free device memory before the kernel (synchronize and release caches) and leave headroom for the "
         "scratch of the largest kernel."},
        {"At start-up, before any kernel: hsa_init or queue creation fails, e.g. opening /dev/kfd fails with ENOMEM "
         "(ROCm/legacy-rocm-build#95 and #1088: rocminfo itself reports 0x1008).",
         "Check `rocminfo` and dmesg for KFD errors and the host's free memory, and reduce the processes sharing the "
         "GPU."},
    }),

// ---------------------------------------------------------------- wavefit diagnostic codes (docs/cli.md)

diagnostic("zero_dimension",
    "wavefit diagnostic (error): a grid or block dimension is 0, so the launch has no threads and every runtime "
    "refuses it.",
    {
        {"The element count is 0 (an empty tensor, an empty batch, the last chunk of a split), so ceil(n / block) is "
         "0.",
         "Return before launching when n is 0; wavefit::plan reports empty for 0 elements and nothing is launched."},
        {"The grid is computed by truncating division, e.g. dim3(n / 512) with n below 512.",
         "Use ceiling division (n + block - 1) / block and guard the tail with if (i < n), or let "
         "wavefit::launch(kernel, n, stream, ...) compute the grid."},
        {"A 64-bit size narrowed to 32 bits wraps to 0, e.g. a global work size of exactly 2^32 stored in a uint32 "
         "(seen in ROCm/rocm-libraries#9441).",
         "Keep sizes 64-bit up to the launch and check them: `wavefit check --preset mi300x --grid G --block B` "
         "reports zero_dimension and work_items_exceed_dispatch_limit."},
        {"A dim3 written with an explicit 0 for an unused dimension, e.g. dim3(x, 0).",
         "Use 1 for unused dimensions: dim3(x) or dim3(x, 1, 1)."},
    }),

diagnostic("block_exceeds_device_max_threads",
    "wavefit diagnostic (error): the block has more threads (x*y*z) than the device allows per block, 1024 on every "
    "current AMD Instinct, Radeon and NVIDIA GPU.",
    {
        {"Threads computed as num_warps x warp size with NVIDIA's 32 in mind: 32 warps are 1024 threads on NVIDIA but "
         "2048 on a wave64 AMD GPU (seen in triton-lang/triton#4128, openxla/xla#35026).",
         "Cap the warp count at max threads per block / wave size (16 on gfx9) from the queried wave size; "
         "`wavefit info --preset mi300x` shows both numbers."},
        {"A 2-D or 3-D block whose dimensions are each legal but whose product is not, e.g. dim3(32, 64) = 2048 "
         "threads.",
         "Keep x*y*z at or under 1024 and check with `wavefit check --preset mi300x --grid X,Y --block 32,32`."},
        {"A block sized from the problem (one thread per row or per tile element) without clamping to the device.",
         "Clamp to the device maximum and loop inside the kernel; wavefit::launch(kernel, n, stream, ...) picks a "
         "legal block by itself."},
    }),

diagnostic("block_dim_exceeds_device_limit",
    "wavefit diagnostic (error): one block dimension is larger than the device allows for that dimension, even if the "
    "total is within the limit. NVIDIA allows 1024 x 1024 x 64, AMD 1024 in each dimension.",
    {
        {"Code developed on AMD uses blockDim.z above 64, which AMD allows, and fails when it runs on NVIDIA.",
         "Put the largest extent in x or y; `wavefit check --preset h100 --grid 1 --block 1,1,128` shows the "
         "per-dimension limit."},
        {"Block dimensions swapped while converting a layout, e.g. dim3(2, 4, 128) meant as dim3(128, 4, 2).",
         "Keep the fastest-varying index in x, which also keeps memory access coalesced."},
    }),

diagnostic("block_exceeds_kernel_max_threads",
    "wavefit diagnostic (error): the block has more threads than the kernel was compiled for (__launch_bounds__, "
    "--gpu-max-threads-per-block, or the compiler's default bound), so the launch is refused although the device "
    "could run such a block.",
    {
        {"A toolchain whose default bound is 256 instead of 1024: HIP compilers before ROCm 4.1 and some vendor SDKs "
         "(seen in ggml-org/llama.cpp#10610).",
         "Rebuild with --gpu-max-threads-per-block=1024 or give the kernel __launch_bounds__(1024); or launch with "
         "wavefit::launch(kernel, n, stream, ...), which sizes the block from the kernel's own bound."},
        {"The host computes the block with another wave size than the device pass used for __launch_bounds__: 64 on "
         "the host, 32 on wave32 GPUs (seen in sgl-project/sglang#25175).",
         "Query hipDeviceAttributeWarpSize on the host and use it for both; `wavefit check --preset rx7900xtx --grid 1 "
         "--block 64,4 --kernel-max-threads 128` reproduces the mismatch."},
        {"A library picks the block from the device limit (1024) while its kernels were compiled with a smaller bound "
         "such as 256 (seen in lattice/quda#1462).",
         "Read the bound per kernel (hipFuncGetAttributes maxThreadsPerBlock, or `wavefit inspect FILE --kernel "
         "NAME`) and check with `wavefit check --kernel FILE:NAME`."},
        {"The bound was lowered to cut register use or spills, but some call sites still launch the old block size.",
         "Make the block size and the bound one constant, or launch through wavefit::launch so the block follows the "
         "kernel."},
    }),

diagnostic("registers_exceed_limit",
    "wavefit diagnostic (error): registers per thread times threads per block need more registers than one CU/SM "
    "has, so not even one block can be resident.",
    {
        {"The block is chosen from the amount of work instead of the kernel's resources, and a register-heavy kernel "
         "gets a 1024-thread block (seen in kokkos/kokkos#9402 on MI300A).",
         "Choose the block from the kernel's attributes (numRegs, maxThreadsPerBlock) as wavefit::launch does; "
         "`wavefit occupancy --preset mi300a --regs R` lists the blocks that fit."},
        {"On NVIDIA, a kernel without __launch_bounds__ (the compiler may use up to 255 registers per thread) launched "
         "with large blocks (seen in apache/tvm#4342).",
         "Declare __launch_bounds__ for the largest block you launch or cap registers with -maxrregcount, then check "
         "with `wavefit check --preset h100 --regs R --grid G --block B`."},
        {"On AMD, the compiler went a few registers over the budget its launch bound implies, so a block the runtime "
         "accepts still does not fit (kokkos/kokkos#9402).",
         "Launch below the bound or compile with a smaller __launch_bounds__; read the real vgpr_count with "
         "`wavefit inspect FILE`."},
    }),

diagnostic("shared_memory_exceeds_limit",
    "wavefit diagnostic (error): static plus dynamic shared memory (LDS on AMD) per block is larger than the device "
    "allows: 64 KiB on MI200, MI300 and RDNA, 160 KiB on MI355X; on NVIDIA 48 KiB by default and up to 163 KiB (A100) "
    "or about 227 KiB (H100, H200) with opt-in.",
    {
        {"Tile sizes tuned for the large shared memory of A100/H100 (over 100 KiB) reused on CDNA, which has 64 KiB per "
         "block (seen in sgl-project/sglang#28518, vllm-project/vllm#45871, ROCm/aiter#4329).",
         "Pick tiles per device from the queried limit (sharedMemPerBlock, wavefit::device_limits) and check with "
         "`wavefit check --preset mi300x --grid G --block B --static-shared S --dynamic-shared D`."},
        {"A configuration written for MI355X (gfx950, 160 KiB of LDS, see lightseekorg/tokenspeed#119) run on MI300X "
         "or MI250X (64 KiB).",
         "Choose the configuration at run time from the device's limit, not from the product name; `wavefit info "
         "--preset mi355x` and `--preset mi300x` show both limits."},
        {"Static shared arrays and dynamic shared memory are sized in different places and their sum is over the "
         "limit.",
         "Count both: pass --static-shared (from `wavefit inspect FILE`) and --dynamic-shared to `wavefit check`."},
    }),

diagnostic("shared_memory_requires_opt_in",
    "wavefit diagnostic (warning, NVIDIA): dynamic shared memory above the default 48 KiB per block is allowed only "
    "after raising the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize attribute; without it the launch fails.",
    {
        {"A kernel launched with more than 48 KiB of dynamic shared memory without calling cudaFuncSetAttribute first.",
         "Call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) once per kernel before "
         "launching, with bytes at most sharedMemPerBlockOptin minus the static shared memory."},
        {"Code that assumes CUDA's opt-in also exists on AMD and asks for more than 64 KiB there (seen in "
         "sgl-project/sglang#28518, vllm-project/vllm#45871, ROCm/aiter#4329).",
         "On AMD treat sharedMemPerBlock (64 KiB on CDNA) as the hard limit, skip the opt-in, and size tiles to fit."},
        {"sharedMemPerBlockOptin read on AMD, where HIP reports 0, and taken as the usable shared memory.",
         "Use the larger of sharedMemPerBlock and sharedMemPerBlockOptin, or take the limit from "
         "wavefit::device_limits."},
    }),

diagnostic("grid_dim_exceeds_device_limit",
    "wavefit diagnostic (error): a grid dimension is larger than the device allows. gridDim.x may reach 2^31-1; "
    "gridDim.y and gridDim.z 65535 on NVIDIA and 65536 as HIP reports it on AMD (newer ROCm reports 65535, see "
    "ROCm/pytorch#3272), so the portable limit is 65535.",
    {
        {"A batch, head or row count mapped to gridDim.y or gridDim.z grows past 65535 at production sizes (seen in "
         "ml-explore/mlx#2267 with gridDim.y = 65536, and ml-explore/mlx#3858).",
         "Map the unbounded extent to gridDim.x, split it across y and z, or loop over it inside the kernel; `wavefit "
         "check --preset h100 --grid X,Y,Z --block B` reports which dimension is over."},
        {"AMD's reported 65536 for y and z is used as the limit, one more than NVIDIA and newer ROCm allow "
         "(ROCm/pytorch#3272).",
         "Query maxGridSize per device and use min(query, 65535) in portable code."},
        {"gridDim.x computed as one block per chunk of data beyond 2^31-1 blocks.",
         "Clamp the grid and use a grid-stride loop: `wavefit plan --preset h100 --elements N` gives a legal grid."},
    }),

diagnostic("work_items_exceed_dispatch_limit",
    "wavefit diagnostic (error, AMD): gridDim x blockDim in one dimension exceeds 2^32-1 work-items. The HSA dispatch "
    "packet stores the grid size in work-items as a 32-bit number, so the largest gridDim.x is 4194303 at 1024 "
    "threads, 16777215 at 256 and 67108863 at 64; NVIDIA has no such limit.",
    {
        {"CUDA code sizes a 1-D grid as one thread per element with a cap of 2^31-1 blocks, valid on NVIDIA but over "
         "2^32 work-items on AMD for large arrays (seen in cupy/cupy#9746, pytorch/pytorch#168806, "
         "pytorch/FBGEMM#6036).",
         "Clamp gridDim.x to (2^32-1) / blockDim.x and use a grid-stride loop: `wavefit plan --preset mi300x "
         "--elements 2^33` returns such a plan and wavefit::launch(kernel, n, stream, ...) clamps by itself."},
        {"A compiler or runtime lowers a parallel loop to one work-item per iteration (seen in "
         "chapel-lang/chapel#23934, iree-org/iree#21527).",
         "Emit a grid-stride loop, or split the work into launches of at most 2^32-1 work-items each."},
        {"A global work size computed in 32 bits wraps around at 2^32 (seen in ROCm/rocm-libraries#9441 and #12195).",
         "Compute grid x block in 64 bits and check it before launching: `wavefit check --preset mi300x --grid G "
         "--block B`."},
    }),

diagnostic("block_not_wave_multiple",
    "wavefit diagnostic (warning): the block's thread count is not a multiple of the wavefront size (64 on gfx9 "
    "Instinct GPUs, 32 on RDNA and NVIDIA), so the last wave of every block runs with idle lanes; a block smaller "
    "than one wave leaves most of a wave idle.",
    {
        {"Block sizes chosen for NVIDIA's 32-lane warps (32, 96, 160) run on wave64 GPUs; tools may even reject "
         "sub-wavefront blocks (seen in tile-ai/tilelang#2918).",
         "Round the block up to a multiple of the queried wave size (hipDeviceAttributeWarpSize); `wavefit occupancy "
         "--preset mi300x` lists block sizes in steps of one wave."},
        {"Blocks sized from a problem dimension (100, 250 threads) rather than from the wave size.",
         "Use a multiple of the wave size and guard the extra threads with a bounds check."},
        {"Kernels that assume a 32-lane warp (shuffles, 32-bit ballot masks, lane = tid & 31) give wrong results on "
         "wave64, not only wasted lanes (seen in ORNL/HeCBench#177).",
         "Use wavefit's device-side wavefront size helper (right on wave64 and wave32, no constexpr warpSize needed) "
         "and 64-bit ballot masks."},
    }),

diagnostic("negative_size",
    "wavefit diagnostic (error): an element count, a grid or block dimension, or a shared memory size was given as a "
    "negative number. Converted to an unsigned size it would be about 2^64, so wavefit refuses it before the launch "
    "instead of planning 18446744073709551615 elements.",
    {
        {"A size computed in int went negative: n - 1 for n = 0, a difference of two offsets, or an int that "
         "overflowed past 2^31-1 (seen in ROCm/rocm-libraries#9441).",
         "Compute sizes in 64-bit unsigned or signed types and check them before launching; a count of 0 launches "
         "nothing, and wavefit::launch refuses a negative one before the runtime sees it."},
        {"An error code (-1) was passed where a size was expected.",
         "Check the call that produced the size before using it."},
    }),

diagnostic("contract_allows_no_block",
    "wavefit diagnostic (error): no block that the kernel's stated contract allows (powers of two, at most N "
    "threads, a fixed block, whole groups for per-wave work) can run this kernel on this device: the kernel's own "
    "bound, its registers or its shared memory rule out every one.",
    {
        {"A fixed block (block_fixed) above the kernel's __launch_bounds__ or above what its registers allow.",
         "Launch the block the kernel was compiled for, or rebuild the kernel with a bound that allows the block; "
         "`wavefit occupancy --kernel FILE:NAME` lists the blocks its registers allow."},
        {"At most N threads (block_at_most) with N below one wave, or powers of two only where registers allow "
         "only a block in between (for example 192 threads).",
         "Allow any multiple of the wave size (block_any_wave_multiple) if the kernel works with it, or reduce the "
         "kernel's registers or shared memory."},
        {"One unit per group of threads (per_group) with a group that does not divide any allowed block.",
         "Use a group that is a power of two no larger than the block."},
    }),

diagnostic("grid_underfills_device",
    "wavefit diagnostic (warning, from `wavefit check` and `wavefit audit`; never from validation): the launch is "
    "valid, but its grid has fewer blocks than the device can hold at once (resident blocks per CU/SM at this "
    "block size, registers and shared memory, times the CUs/SMs), and a quarter or more of those slots stay empty "
    "for the whole kernel: the device runs below its throughput.",
    {
        {"The work is too small for the device: a launch sized for a smaller GPU, one row or one tensor per launch, "
         "or a batch of 1 (e.g. 391 blocks of 256 threads on the 880 slots of a 110-CU MI250X: 44%).",
         "Give each launch more work (batch more rows or tensors into one launch, fuse small kernels), or run "
         "independent kernels concurrently on other streams; `wavefit occupancy --preset P --block B` gives the "
         "blocks per CU/SM that set the slots."},
        {"Large blocks of a kernel whose resources allow few of them per CU/SM, e.g. 128 blocks of 1024 threads on an "
         "MI250X, 2 per CU: 220 slots, 58% filled.",
         "Where each thread loops over much work, spread it over more threads or blocks until the grid fills the "
         "slots; smaller blocks alone fill no more slots when the CU's thread count is what limits."},
    }),
};
// clang-format on

inline constexpr std::size_t table_size = sizeof(table) / sizeof(table[0]);

}  // namespace detail::explain_impl
}  // namespace wavefit::analysis
