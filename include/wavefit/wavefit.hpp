// SPDX-License-Identifier: MIT
// The umbrella header: the planning core always; when the including translation unit is compiled as
// HIP or CUDA (or defines WAVEFIT_BACKEND_HIP / WAVEFIT_BACKEND_CUDA for host-only code), also the
// launch layer (wavefit::launch and friends), and in device compilers the device helpers. Tuning is
// not here: one translation unit of a program includes <wavefit/tuning.hpp> to make WAVEFIT_TUNING
// and wavefit::tune available to every launch of the program.
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "core.hpp"
#include "platform.hpp"

#if WAVEFIT_HAS_RUNTIME
#include "runtime/kernel_queries.hpp"
#include "runtime/launch.hpp"
// The full messages of a refused launch, for every launch of the program (the compiled library
// registers them itself).
#if !defined(WAVEFIT_SEPARATE_COMPILATION) && !WAVEFIT_DEVICE_PASS
#include "runtime/launch_messages.hpp"
#endif
#endif

#if WAVEFIT_DEVICE_COMPILER
#include "device/grid_stride.hpp"
#include "device/wave.hpp"
#endif

#endif  // WAVEFIT_HAS_CXX17
