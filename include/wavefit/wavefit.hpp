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
#include "launch.hpp"  // the launch tier: wavefit::launch and, in device compilers, the device helpers

#if WAVEFIT_HAS_RUNTIME
#include "runtime/kernel_queries.hpp"
#include "runtime/launch.hpp"  // try_launch, launch_result, launch_error (in either compilation mode)
// The full messages of a refused launch, for every launch of the program (the compiled library
// registers them itself).
#if WAVEFIT_DEFINES_FUNCS
#include "runtime/launch_messages.hpp"
#endif
#endif

#endif  // WAVEFIT_HAS_CXX17
