// SPDX-License-Identifier: MIT
// The pure planning core: limits, presets, occupancy, validation and planning, with the kernel's
// contract. Explanations of error codes are the CLI's (`wavefit explain`). No GPU
// header is included, so it compiles with any C++17 compiler and runs on machines without a GPU.
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "device_limits.hpp"
#include "diagnostic.hpp"
#include "dims.hpp"
#include "kernel_resources.hpp"
#include "launch_config.hpp"
#include "occupancy.hpp"
#include "plan.hpp"
#include "presets.hpp"
#include "validate.hpp"
#include "tuning_mode.hpp"
#include "version.hpp"
#include "work.hpp"

#endif  // WAVEFIT_HAS_CXX17
