// SPDX-License-Identifier: MIT
// The launch tier: wavefit::launch (every form), static_launch_config, the work and its contract, and
// in device code the loops and wave helpers. The header for the many translation units that only
// launch: with WAVEFIT_SEPARATE_COMPILATION it compiles no planning code and no <string>
// (bench/compile_cost measures it). <wavefit/wavefit.hpp> has everything else: try_launch,
// launch_result and launch_error, plans, checks, presets, occupancy.
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "platform.hpp"

#if WAVEFIT_HAS_RUNTIME
#include "runtime/launch_call.hpp"
#if WAVEFIT_DEFINES_FUNCS
#include "runtime/launch.hpp"  // header-only: the definitions come with it
#endif
#endif

#if WAVEFIT_DEVICE_COMPILER
#include "device/grid_stride.hpp"
#include "device/wave.hpp"
#endif

#endif  // WAVEFIT_HAS_CXX17
