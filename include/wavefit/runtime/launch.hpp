// SPDX-License-Identifier: MIT
// wavefit::launch and wavefit::try_launch: the drop-in for hipLaunchKernelGGL / kernel<<<...>>>.
// Every launch is validated against the device of its stream and the kernel's own attributes before
// the runtime is called, so a rejected launch leaves no runtime error behind; the runtime's own error
// is then checked and reported with the same kind of message. Launches of planned work (an element
// count, an extent, rows per block or per wave) follow the kernel's contract (work.hpp) and plan from
// a cached recipe: no runtime query and no occupancy scan per launch.
//
// launch_call.hpp holds wavefit::launch and the little its call needs; this header adds what
// carries text (launch_result, launch_error), try_launch, and the queries of a real device and
// kernel. Their non-template functions are defined by launch_impl.hpp: in every translation unit in
// header-only mode, or once in the program with WAVEFIT_SEPARATE_COMPILATION (config.hpp).
#pragma once
// Also a classic guard: launch.hpp and launch_impl.hpp include each other, and #pragma once does not
// hold for the main file (clang-tidy analyses each header as its own translation unit).
#ifndef WAVEFIT_RUNTIME_LAUNCH_HPP
#define WAVEFIT_RUNTIME_LAUNCH_HPP

#include <cstdint>  // sizes
#include <utility>  // std::forward

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../dims.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../platform.hpp"
#include "../work.hpp"
#include "launch_call.hpp"
#include "launch_error.hpp"

WAVEFIT_BEGIN_NAMESPACE

#if WAVEFIT_EXCEPTIONS
// A real device's launch-relevant limits, read once with the runtime's attribute queries and cached
// (the name read once too); throws launch_error when the runtime refuses.
WAVEFIT_FUNC const device_limits& device_limits_for(int device);

// device_limits_for() of the calling thread's current device.
WAVEFIT_FUNC const device_limits& current_device_limits();
#endif

namespace detail {

// How many GPUs the runtime shows this process (0 when none, or when the runtime fails).
WAVEFIT_FUNC int visible_device_count() noexcept;

WAVEFIT_FUNC launch_result launch_planned(const void* kernel, const work& w, backend::stream_type stream,
                                          void** args) noexcept;
WAVEFIT_FUNC launch_result launch_configured(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                             void** args) noexcept;
WAVEFIT_FUNC launch_result refuse_nonzero_null(const launch_config& cfg) noexcept;
WAVEFIT_FUNC bool kernel_resources_of(const void* kernel, kernel_resources& out, launch_result& r) noexcept;

}  // namespace detail

namespace detail {

// try_launch's runtime call, by what it is given: a configuration is checked and launched, work is
// planned first.
inline launch_result launch_given(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                  void** args) noexcept {
    return launch_configured(kernel, cfg, stream, args);
}
inline launch_result launch_given(const void* kernel, const work& w, backend::stream_type stream, void** args) noexcept {
    return launch_planned(kernel, w, stream, args);
}

// The configuration a refusal before the runtime call names: the one given, or none yet for work.
inline launch_config config_given(const launch_config& cfg) noexcept { return cfg; }
inline launch_config config_given(const work&) noexcept { return launch_config{dims{0}, dims{0}}; }

template <class Given, class... Params, class... Args>
launch_result try_launch_given(void (*kernel)(Params...), const Given& given, backend::stream_type stream,
                               Args&&... args) noexcept {
    const void* address = kernel_address(kernel);
    return with_packed_arguments<launch_result, Params...>(
        [&](void** packed) { return launch_given(address, given, stream, packed); },
        [&] { return refuse_nonzero_null(config_given(given)); }, std::forward<Args>(args)...);
}

}  // namespace detail

// wavefit::launch without exceptions: the result says what happened (launch_result::ok()).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const launch_config& cfg, detail::backend::stream_type stream,
                         Args&&... args) noexcept {
    return detail::try_launch_given(kernel, cfg, stream, std::forward<Args>(args)...);
}

template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const work& w, detail::backend::stream_type stream,
                         Args&&... args) noexcept {
    return detail::try_launch_given(kernel, w, stream, std::forward<Args>(args)...);
}

template <class... Params, class Count, class... Args, detail::if_size_type<Count> = 0>
launch_result try_launch(void (*kernel)(Params...), Count elements, detail::backend::stream_type stream,
                         Args&&... args) noexcept {
    return try_launch(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const dims& extent, detail::backend::stream_type stream,
                         Args&&... args) noexcept {
    return try_launch(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

#if WAVEFIT_EXCEPTIONS
// The kernel's registers, shared memory and bound on the current device (read once, cached).
template <class... Params>
kernel_resources kernel_resources_for(void (*kernel)(Params...)) {
    kernel_resources out{};
    launch_result r;
    if (!detail::kernel_resources_of(detail::kernel_address(kernel), out, r)) throw launch_error(r);
    return out;
}
#endif

WAVEFIT_END_NAMESPACE

// Header-only: the definitions, in the host pass only (a device pass of hipcc or nvcc compiles no host
// function, so it need not parse them).
#if WAVEFIT_DEFINES_FUNCS
#include "launch_impl.hpp"
#endif

#endif  // WAVEFIT_RUNTIME_LAUNCH_HPP
