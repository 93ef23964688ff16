// SPDX-License-Identifier: MIT
// The one header that decides which GPU platform a translation unit targets (as rocPRIM's config.hpp
// and CUB's config.cuh do). Nothing else in wavefit, its tests, benchmarks or examples tests
// __HIPCC__, __CUDACC__, __HIP_PLATFORM_*__, the device-pass macros or the AMD target macros
// (__AMDGCN_*, __GFX9__, __gfx90a__, ...); they test these instead (tests/policy checks it):
//   WAVEFIT_PLATFORM_HIP         the runtime layer calls HIP: hip-clang/hipcc, a __HIP_PLATFORM_*__
//                                macro, or WAVEFIT_BACKEND_HIP defined by host-only C++
//   WAVEFIT_PLATFORM_HIP_NVIDIA  HIP on NVIDIA (__HIP_PLATFORM_NVIDIA__): hip* calls, NVIDIA devices
//   WAVEFIT_PLATFORM_CUDA        the runtime layer calls CUDA: nvcc, or WAVEFIT_BACKEND_CUDA
//   WAVEFIT_HAS_RUNTIME          one of the two: wavefit.hpp includes the runtime layer
//   WAVEFIT_DEVICE_COMPILER      the compiler takes __global__/__device__ code (hip-clang or nvcc)
//   WAVEFIT_DEVICE_PASS          this is a device compilation pass (on AMD or NVIDIA)
//   WAVEFIT_AMDGCN_DEVICE_PASS   this is a device pass for an AMD GPU
//   WAVEFIT_AMDGCN_WAVEFRONT_SIZE  in such a pass, the compiler's __AMDGCN_WAVEFRONT_SIZE where defined, else 0
//   WAVEFIT_AMDGCN_WAVE64_ONLY   in such a pass, a gfx9 target (__GFX9__: wave64 only)
//   WAVEFIT_EXCEPTIONS           (config.hpp) C++ exceptions are enabled: wavefit::launch throws;
//                                try_launch never does, and is what code built with -fno-exceptions calls
// Each is defined as 0 or 1. With a runtime, the runtime's header is included here, so every file
// that needs hip*/cuda* declarations or blockIdx gets them from one place.
#pragma once

#include "config.hpp"

#if defined(WAVEFIT_BACKEND_HIP) && defined(WAVEFIT_BACKEND_CUDA)
#error "wavefit: define only one of WAVEFIT_BACKEND_HIP and WAVEFIT_BACKEND_CUDA"
#endif

#if defined(WAVEFIT_BACKEND_HIP) ||    \
    (!defined(WAVEFIT_BACKEND_CUDA) && \
     (defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)))
#define WAVEFIT_PLATFORM_HIP 1
#define WAVEFIT_PLATFORM_CUDA 0
#elif defined(WAVEFIT_BACKEND_CUDA) || defined(__CUDACC__)
#define WAVEFIT_PLATFORM_HIP 0
#define WAVEFIT_PLATFORM_CUDA 1
#else
#define WAVEFIT_PLATFORM_HIP 0
#define WAVEFIT_PLATFORM_CUDA 0
#endif

#if WAVEFIT_PLATFORM_HIP && defined(__HIP_PLATFORM_NVIDIA__)
#define WAVEFIT_PLATFORM_HIP_NVIDIA 1
#else
#define WAVEFIT_PLATFORM_HIP_NVIDIA 0
#endif

#define WAVEFIT_HAS_RUNTIME (WAVEFIT_PLATFORM_HIP || WAVEFIT_PLATFORM_CUDA)

#if defined(__HIPCC__) || defined(__CUDACC__)
#define WAVEFIT_DEVICE_COMPILER 1
#else
#define WAVEFIT_DEVICE_COMPILER 0
#endif

#if (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
#define WAVEFIT_DEVICE_PASS 1
#else
#define WAVEFIT_DEVICE_PASS 0
#endif

// WAVEFIT_FUNC marks the non-template functions of the runtime layer. Header-only (the default) makes
// them inline in every translation unit's host pass; with WAVEFIT_SEPARATE_COMPILATION defined they are
// only declared, and one translation unit that includes <wavefit/compiled.hpp> (the CMake target
// wavefit::compiled builds it) defines them. A device pass only declares them either way: it compiles
// no host function, so it never needs their definitions (and an inline declaration without one would
// draw -Wundefined-inline).
// WAVEFIT_DEFINES_FUNCS: this pass defines them (header-only, host pass): the umbrella headers then
// include the definitions (runtime/launch_impl.hpp, the tuner, the full messages).
#if defined(WAVEFIT_SEPARATE_COMPILATION) || WAVEFIT_DEVICE_PASS
#define WAVEFIT_FUNC
#define WAVEFIT_DEFINES_FUNCS 0
#else
#define WAVEFIT_FUNC inline
#define WAVEFIT_DEFINES_FUNCS 1
#endif

#if defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__ && defined(__AMDGCN__)
#define WAVEFIT_AMDGCN_DEVICE_PASS 1
#else
#define WAVEFIT_AMDGCN_DEVICE_PASS 0
#endif

// The AMD target's wave size where the compiler's macros say it (device/wave.hpp prefers the builtin):
// the deprecated __AMDGCN_WAVEFRONT_SIZE, which compilers without the builtin still define and which
// is exact there (-mwavefrontsize64 included), else 0; and whether the target is gfx9, which runs
// wave64 only.
#if WAVEFIT_AMDGCN_DEVICE_PASS && defined(__AMDGCN_WAVEFRONT_SIZE)
#define WAVEFIT_AMDGCN_WAVEFRONT_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define WAVEFIT_AMDGCN_WAVEFRONT_SIZE 0
#endif
#if WAVEFIT_AMDGCN_DEVICE_PASS && defined(__GFX9__)
#define WAVEFIT_AMDGCN_WAVE64_ONLY 1
#else
#define WAVEFIT_AMDGCN_WAVE64_ONLY 0
#endif

#if WAVEFIT_PLATFORM_HIP
#include <hip/hip_runtime.h>
#elif WAVEFIT_PLATFORM_CUDA
#include <cuda_runtime.h>
#endif

// The runtime's own name for a call, type or constant: hip<Name> on HIP, cuda<Name> on CUDA. The two
// name nearly everything alike, so runtime/backend.hpp and gpu_support write most of their wrappers
// once (what differs keeps its own #if).
#if WAVEFIT_PLATFORM_HIP
#define WAVEFIT_RUNTIME_API(name) hip##name
#elif WAVEFIT_PLATFORM_CUDA
#define WAVEFIT_RUNTIME_API(name) cuda##name
#endif
