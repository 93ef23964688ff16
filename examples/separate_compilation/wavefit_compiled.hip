// SPDX-License-Identifier: MIT
// The one translation unit that compiles wavefit's non-template functions in the separately compiled
// mode, for a build without the CMake target wavefit::compiled (every translation unit of the program
// defines WAVEFIT_SEPARATE_COMPILATION).
#include <wavefit/compiled.hpp>
