// SPDX-License-Identifier: MIT
// The umbrella header. Always the planning core; when the including translation unit is compiled
// as HIP or CUDA (or defines WAVEFIT_BACKEND_HIP / WAVEFIT_BACKEND_CUDA for host-only code), also
// the runtime layer (wavefit::launch and friends), and in device compilers the device helpers.
#pragma once

#include "core.hpp"

#if defined(WAVEFIT_BACKEND_HIP) || defined(WAVEFIT_BACKEND_CUDA) || defined(__HIPCC__) || defined(__CUDACC__) || \
    defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)
#include "runtime/launch.hpp"
#endif

#if defined(__HIPCC__) || defined(__CUDACC__)
#include "device/grid_stride.hpp"
#include "device/wave.hpp"
#endif
