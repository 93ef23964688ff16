// SPDX-License-Identifier: MIT
// The one place that says wavefit needs C++17. wavefit.hpp and core.hpp include it first and compile
// nothing else when it fails, so a C++14 translation unit gets this single error instead of dozens
// about std::string_view and inline variables.
#pragma once

#if defined(_MSVC_LANG)
#define WAVEFIT_LANGUAGE_LEVEL _MSVC_LANG
#else
#define WAVEFIT_LANGUAGE_LEVEL __cplusplus
#endif

#if WAVEFIT_LANGUAGE_LEVEL < 201703L
#define WAVEFIT_HAS_CXX17 0
#error \
    "wavefit needs C++17 or later. Compile with -std=c++17 (hipcc and nvcc too); in CMake link wavefit::wavefit (it requires cxx_std_17) or set CMAKE_CXX_STANDARD 17, CMAKE_CUDA_STANDARD 17 or CMAKE_HIP_STANDARD 17."
#else
#define WAVEFIT_HAS_CXX17 1
#endif
