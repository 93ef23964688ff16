// SPDX-License-Identifier: MIT
// The CMake target wavefit::compiled: wavefit's non-template functions compiled once, as host C++
// against the HIP or CUDA runtime (WAVEFIT_COMPILED=HIP or CUDA). Programs that link it compile every
// translation unit with WAVEFIT_SEPARATE_COMPILATION (the target says so) and include
// <wavefit/launch.hpp> where they only launch.
#include <wavefit/compiled.hpp>
