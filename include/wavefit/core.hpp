// SPDX-License-Identifier: MIT
// The pure planning core: limits, presets, occupancy, validation, planning and explanations. No GPU
// header is included, so it compiles with any C++17 compiler and runs on machines without a GPU.
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "device_limits.hpp"
#include "diagnostic.hpp"
#include "dims.hpp"
#include "explain.hpp"
#include "kernel_resources.hpp"
#include "launch_config.hpp"
#include "occupancy.hpp"
#include "plan.hpp"
#include "presets.hpp"
#include "validate.hpp"
#include "version.hpp"

#endif  // WAVEFIT_HAS_CXX17
