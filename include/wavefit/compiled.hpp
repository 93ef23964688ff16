// SPDX-License-Identifier: MIT
// The implementation of wavefit's non-template launch functions, for the separately compiled mode:
// exactly one translation unit of a program (the CMake target wavefit::compiled is one) is compiled
// with WAVEFIT_SEPARATE_COMPILATION defined and includes this header, and every other translation
// unit defines WAVEFIT_SEPARATE_COMPILATION too and includes only what it uses (<wavefit/launch.hpp> to
// launch, <wavefit/wavefit.hpp> for everything). A unit that leaves it undefined compiles its own inline
// copies of these functions: the program still links, but breaks the one-definition rule.
// Header-only mode (the default) needs none of this.
#pragma once

#if !defined(WAVEFIT_SEPARATE_COMPILATION)
#error "wavefit/compiled.hpp is for the separately compiled mode: define WAVEFIT_SEPARATE_COMPILATION"
#endif

#include "platform.hpp"

#if !WAVEFIT_HAS_RUNTIME
#error "wavefit/compiled.hpp needs HIP or CUDA: compile it with hipcc/nvcc or define WAVEFIT_BACKEND_HIP or WAVEFIT_BACKEND_CUDA"
#endif

#include "runtime/launch.hpp"
#if !WAVEFIT_DEVICE_PASS  // the definitions are host code
#include "runtime/launch_messages.hpp"  // the full messages of a refused launch, for every launch
#include "runtime/launch_impl.hpp"
#include "runtime/tuner.hpp"  // the library holds the tuner: WAVEFIT_TUNING works in every program that links it
#endif
