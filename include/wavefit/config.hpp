// SPDX-License-Identifier: MIT
// What every wavefit header agrees on: the versioned namespace and how its non-template functions
// are compiled.
//  - Every name lives in an inline namespace named after the whole version (wavefit::v0_2_0), as {fmt}
//    and CCCL name theirs: two libraries built against different wavefit releases, patch releases
//    included, share a process without sharing (or corrupting) each other's caches, and code still
//    says wavefit::launch. The name is made from version.hpp, so a release cannot forget it; the
//    price is that a type of wavefit in a library's own interface changes its mangled name with every
//    wavefit release (the cached types' layouts may change in any release, so no smaller name is safe).
//  - WAVEFIT_FUNC (platform.hpp) marks the non-template functions of the runtime layer.
#pragma once

#include "version.hpp"

#define WAVEFIT_ABI_NAME_OF(major, minor, patch) v##major##_##minor##_##patch
#define WAVEFIT_ABI_NAME(major, minor, patch) WAVEFIT_ABI_NAME_OF(major, minor, patch)
#define WAVEFIT_ABI_NAMESPACE WAVEFIT_ABI_NAME(WAVEFIT_VERSION_MAJOR, WAVEFIT_VERSION_MINOR, WAVEFIT_VERSION_PATCH)
#define WAVEFIT_BEGIN_NAMESPACE \
    namespace wavefit {         \
    inline namespace WAVEFIT_ABI_NAMESPACE {
#define WAVEFIT_END_NAMESPACE \
    }                         \
    }

// Keeps a function out of its callers: the failure path's message pieces are calls, not inlined
// string arithmetic, so that a launch TU compiles its messages quickly and small.
#if defined(__GNUC__) || defined(__clang__)
#define WAVEFIT_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define WAVEFIT_NOINLINE __declspec(noinline)
#else
#define WAVEFIT_NOINLINE
#endif

// Whether C++ exceptions are enabled. Without them, what would throw is left out (wavefit::launch,
// presets::by_name) and the non-throwing forms remain (try_launch, presets::find).
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define WAVEFIT_EXCEPTIONS 1
#else
#define WAVEFIT_EXCEPTIONS 0
#endif

// A tiny forwarding template that must leave no function of its own behind (detail::concat).
// WAVEFIT_ALWAYS_INLINE_LAMBDA goes after a lambda's parameters: a piece of the cached launch path
// that a compiler would otherwise call (launch_call.hpp says why); MSVC takes no attribute there.
#if defined(__GNUC__) || defined(__clang__)
#define WAVEFIT_ALWAYS_INLINE __attribute__((always_inline))
#define WAVEFIT_ALWAYS_INLINE_LAMBDA __attribute__((always_inline))
#elif defined(_MSC_VER)
#define WAVEFIT_ALWAYS_INLINE __forceinline
#define WAVEFIT_ALWAYS_INLINE_LAMBDA
#else
#define WAVEFIT_ALWAYS_INLINE
#define WAVEFIT_ALWAYS_INLINE_LAMBDA
#endif

// A function of the failure path (messages, rejections): never inlined, and compiled for size, since
// it runs at most once per failure. Every launch's translation unit compiles it in header-only mode.
#if defined(__GNUC__) || defined(__clang__)
#define WAVEFIT_COLD __attribute__((noinline, cold))
#else
#define WAVEFIT_COLD WAVEFIT_NOINLINE
#endif
