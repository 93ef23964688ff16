// SPDX-License-Identifier: MIT
// wavefit::launch and wavefit::try_launch: the drop-in for hipLaunchKernelGGL / kernel<<<...>>>.
// Every launch is validated against the device of its stream and the kernel's own attributes before
// the runtime is called, so a rejected launch leaves no runtime error behind; the runtime's own error
// is then checked and reported with the same kind of message. Launches of planned work (an element
// count, an extent, rows per block or per wave) follow the kernel's contract (work.hpp) and plan from
// a cached recipe: no runtime query and no occupancy scan per launch.
//
// This header is what a launching translation unit compiles: the argument checks and packing (a
// template per kernel signature) and calls to a handful of non-template functions. Those are
// defined by launch_impl.hpp, included below in header-only mode, or compiled once into the
// library when WAVEFIT_SEPARATE_COMPILATION is defined (config.hpp).
#pragma once

#include <cstdint>  // sizes
#include <utility>  // std::forward

#include "../config.hpp"
#include "../dims.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"
#include "../platform.hpp"
#include "../work.hpp"
#include "backend.hpp"
#include "kernel_arguments.hpp"
#include "launch_error.hpp"

WAVEFIT_BEGIN_NAMESPACE

// A configuration whose block is a compile-time constant: a block no device allows (0 threads,
// more than 1024 threads, or a dimension above 1024) does not compile.
template <std::uint32_t X, std::uint32_t Y = 1, std::uint32_t Z = 1>
struct static_launch_config {
    static_assert(X > 0 && Y > 0 && Z > 0, "wavefit: a block dimension of 0 never launches");
    static_assert(X <= 1024 && Y <= 1024 && Z <= 1024, "wavefit: no GPU allows a block dimension above 1024");
    static_assert(std::uint64_t{X} * Y * Z <= 1024, "wavefit: no GPU allows more than 1024 threads per block");
    static constexpr dims block{X, Y, Z};

    dims grid;
    std::uint64_t dynamic_shared = 0;

    constexpr operator launch_config() const noexcept { return launch_config{grid, block, dynamic_shared}; }
};

namespace detail {

// The launch entry points every template below ends in (launch_impl.hpp).
WAVEFIT_FUNC launch_result launch_planned(const void* kernel, const work& w, backend::stream_type stream,
                                          void** args) noexcept;
WAVEFIT_FUNC launch_result launch_configured(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                             void** args) noexcept;
// A launch refused because an argument of NULL's type was not 0 for a pointer parameter.
WAVEFIT_FUNC launch_result refuse_nonzero_null(const launch_config& cfg) noexcept;
// The kernel's attributes on the current device (read once); false with `r` saying why.
WAVEFIT_FUNC bool kernel_resources_of(const void* kernel, kernel_resources& out, launch_result& r) noexcept;

template <class Kernel>
const void* kernel_address(Kernel* kernel) noexcept {
    return reinterpret_cast<const void*>(kernel);
}

// Packs the arguments once they passed every compile-time check, then runs `go(addresses)`. A
// wrong argument stops at its static_assert: nothing below it is instantiated.
template <class... Params, class Go, class... Args>
launch_result with_packed_arguments(const launch_config& shown, Go&& go, Args&&... args) noexcept {
    using packed_type = packed_arguments<Params...>;
    if constexpr (!packed_type::template fits<Args...>()) {
        return launch_result{};
    } else {
        packed_type packed(std::forward<Args>(args)...);
        if (packed.nonzero_null()) return refuse_nonzero_null(shown);
        return go(packed.addresses());
    }
}

}  // namespace detail

// Launches `kernel` with an explicit configuration (dim3 and ints convert: launch_config{grid, 256}),
// validated first. Returns the outcome instead of throwing.
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const launch_config& cfg, backend::stream_type stream,
                         Args&&... args) noexcept {
    const void* address = detail::kernel_address(kernel);
    return detail::with_packed_arguments<Params...>(
        cfg, [&](void** packed) { return detail::launch_configured(address, cfg, stream, packed); },
        std::forward<Args>(args)...);
}

// Launches `kernel` over planned work under the kernel's contract (work.hpp): wavefit::work::elements(n),
// work::per_block(rows, row_length), work::per_wave(rows), work::over(extent), with .kernel_loops(),
// .block_fixed(256) and the rest.
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const work& w, backend::stream_type stream, Args&&... args) noexcept {
    const void* address = detail::kernel_address(kernel);
    return detail::with_packed_arguments<Params...>(
        launch_config{dims{0}, dims{0}}, [&](void** packed) { return detail::launch_planned(address, w, stream, packed); },
        std::forward<Args>(args)...);
}

// Launches over `elements` items, one per thread (work::elements(elements)): every item is reached in
// one pass, as a guarded `if (i < n)` kernel needs, or the launch is refused before it runs. A
// negative count is refused too (never 2^64-1 elements).
template <class... Params, class Count, class... Args, detail::if_size_type<Count> = 0>
launch_result try_launch(void (*kernel)(Params...), Count elements, backend::stream_type stream, Args&&... args) noexcept {
    return try_launch(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

// Launches over a 2-D/3-D extent, one item per thread (work::over(extent)).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const dims& extent, backend::stream_type stream,
                         Args&&... args) noexcept {
    return try_launch(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

#if WAVEFIT_EXCEPTIONS
// The throwing forms: the same as try_launch, raising wavefit::launch_error on failure. A launch
// with nothing to do (0 elements) is not a failure.
template <class Kernel, class Shape, class... Args>
void launch(Kernel* kernel, const Shape& shape, backend::stream_type stream, Args&&... args) {
    const launch_result r = try_launch(kernel, shape, stream, std::forward<Args>(args)...);
    if (!r.ok()) throw launch_error(r);
}
#endif

// The attributes of a real kernel on the current device (read once and cached); throws launch_error
// where the runtime cannot say (no GPU).
#if WAVEFIT_EXCEPTIONS
template <class... Params>
kernel_resources kernel_resources_for(void (*kernel)(Params...)) {
    kernel_resources out{};
    launch_result r;
    if (!detail::kernel_resources_of(detail::kernel_address(kernel), out, r)) throw launch_error(r);
    return out;
}
#endif

WAVEFIT_END_NAMESPACE

#if !defined(WAVEFIT_SEPARATE_COMPILATION)
#include "launch_impl.hpp"
#endif
