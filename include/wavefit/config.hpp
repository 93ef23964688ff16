// SPDX-License-Identifier: MIT
// What every wavefit header agrees on: the versioned namespace and how its non-template functions
// are compiled.
//  - Every name lives in an inline namespace named after the version (wavefit::v0_2), as {fmt} and
//    CCCL do: two libraries built against different wavefit releases can share a process without
//    sharing (or corrupting) each other's caches, and code still says wavefit::launch.
//  - WAVEFIT_FUNC marks the non-template functions of the runtime layer. Header-only (the default)
//    makes them inline in every translation unit; with WAVEFIT_SEPARATE_COMPILATION defined they are
//    only declared, and one translation unit that includes <wavefit/compiled.hpp> (the CMake target
//    wavefit::compiled builds it) defines them, so a launch TU compiles almost nothing of wavefit.
#pragma once

#include "version.hpp"

#define WAVEFIT_ABI_NAMESPACE v0_2
#define WAVEFIT_BEGIN_NAMESPACE \
    namespace wavefit {         \
    inline namespace WAVEFIT_ABI_NAMESPACE {
#define WAVEFIT_END_NAMESPACE \
    }                         \
    }

#if defined(WAVEFIT_SEPARATE_COMPILATION)
#define WAVEFIT_FUNC
#else
#define WAVEFIT_FUNC inline
#endif
