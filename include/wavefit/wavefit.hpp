// SPDX-License-Identifier: MIT
// The umbrella header. Always the planning core; when the including translation unit is compiled
// as HIP or CUDA (or defines WAVEFIT_BACKEND_HIP / WAVEFIT_BACKEND_CUDA for host-only code), also
// the runtime layer (wavefit::launch and friends), and in device compilers the device helpers.
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "core.hpp"
#include "platform.hpp"

#if WAVEFIT_HAS_RUNTIME
#include "runtime/launch.hpp"
#endif

#if WAVEFIT_DEVICE_COMPILER
#include "device/grid_stride.hpp"
#include "device/wave.hpp"
#endif

#endif  // WAVEFIT_HAS_CXX17
