// SPDX-License-Identifier: MIT
// The one translation unit that compiles wavefit's non-template functions (WAVEFIT_SEPARATE_COMPILATION).
#include "fake_hip.hpp"
#include <wavefit/compiled.hpp>
