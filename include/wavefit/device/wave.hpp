// SPDX-License-Identifier: MIT
// The wavefront / warp size in device code, correct on wave64 (gfx9: MI200, MI300) and wave32
// (gfx10+, NVIDIA) without a constexpr `warpSize` (no longer constexpr in ROCm 7), and without the
// deprecated __AMDGCN_WAVEFRONT_SIZE macro (removed from LLVM, llvm-project#157463) wherever the
// compiler has the builtin (platform.hpp reads the macro for older compilers).
// Host code asks the device instead: device_limits::wave_size, read once per device.
#pragma once

#include "../config.hpp"
#include "../platform.hpp"

#if !(WAVEFIT_DEVICE_COMPILER || WAVEFIT_PLATFORM_HIP)
#error "wavefit/device/wave.hpp is for HIP or CUDA device code"
#endif

WAVEFIT_BEGIN_NAMESPACE

namespace detail {
// Bounds for sizing static arrays that must work on every GPU (rocPRIM's approach).
inline constexpr unsigned min_wave_size = 32;
inline constexpr unsigned max_wave_size = 64;
}  // namespace detail

// The wave size of the code being compiled. On AMD the compiler folds the builtin to a constant
// per target, so `if (wavefit::wave_size() == 64)` costs nothing at run time.
__device__ inline unsigned wave_size() noexcept {
#if WAVEFIT_AMDGCN_DEVICE_PASS
#if defined(__has_builtin) && __has_builtin(__builtin_amdgcn_wavefrontsize)
    return __builtin_amdgcn_wavefrontsize();
#elif WAVEFIT_AMDGCN_WAVEFRONT_SIZE
    // Compilers without the builtin (clang < 17, e.g. Debian's hipcc 5.2) still define the macro,
    // and there it is exact, -mwavefrontsize64 included.
    return WAVEFIT_AMDGCN_WAVEFRONT_SIZE;
#elif WAVEFIT_AMDGCN_WAVE64_ONLY
    return 64;
#else
    return 32;
#endif
#else
    return 32;  // every NVIDIA GPU
#endif
}

namespace detail {
// A compile-time wave size where the target fixes it: gfx9 always runs wave64; gfx10+ defaults
// to wave32 (wave64 only under -mwavefrontsize64, which this constant cannot see: use wave_size()
// for code that must also be right under that flag). NVIDIA: 32. Host pass: 0 (not a device).
#if WAVEFIT_AMDGCN_DEVICE_PASS
#if WAVEFIT_AMDGCN_WAVE64_ONLY
inline constexpr unsigned compiled_wave_size = 64;
#else
inline constexpr unsigned compiled_wave_size = 32;
#endif
#elif WAVEFIT_DEVICE_PASS
inline constexpr unsigned compiled_wave_size = 32;
#else
inline constexpr unsigned compiled_wave_size = 0;
#endif
}  // namespace detail

// This thread's lane within its wave.
__device__ inline unsigned lane_id() noexcept {
    const unsigned linear = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    return linear % wave_size();
}

WAVEFIT_END_NAMESPACE
