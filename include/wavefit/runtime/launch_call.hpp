// SPDX-License-Identifier: MIT
// wavefit::launch and only what its call needs: the work and configuration types, the argument
// checks and the declarations of the entry points. No <string>, no planning code: with
// WAVEFIT_SEPARATE_COMPILATION a launch's translation unit (<wavefit/launch.hpp>) compiles this and
// nothing more of wavefit.
// try_launch and launch_result, which carry messages, are in launch.hpp.
#pragma once

#include <cstdint>  // sizes
#include <utility>  // std::forward

#include "../config.hpp"
#include "../dims.hpp"
#include "../launch_config.hpp"
#include "../platform.hpp"
#include "../work.hpp"
#include "kernel_arguments.hpp"
#include "launch_key.hpp"
#include "launch_status.hpp"
#include "runtime_types.hpp"

WAVEFIT_BEGIN_NAMESPACE

// A launch configuration whose block is fixed at compile time: 0 or more than 1024 threads does not
// compile.
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

template <class Kernel>
const void* kernel_address(Kernel* kernel) noexcept {
    return reinterpret_cast<const void*>(kernel);
}

// Checks the arguments against the kernel's parameters at compile time, packs them, and hands their
// addresses to `go`; `refuse` answers for an integer of NULL's type that is not 0 for a pointer.
template <class Result, class... Params, class Go, class Refuse, class... Args>
Result with_packed_arguments(Go&& go, Refuse&& refuse, Args&&... args) {
    using packed_type = packed_arguments<Params...>;
    if constexpr (!packed_type::template fits<Args...>()) {
        return Result();  // fits() has stopped the compilation with the error that names the mistake
    } else {
        packed_type packed(std::forward<Args>(args)...);
        if (packed.nonzero_null()) return refuse();
        return go(packed.addresses());
    }
}

// The quiet launch of planned work whose entry exists: its key's work words (work_key, packed by the
// caller: launch_key.hpp says why), the count of items or units along x and the work's size (read
// only while tuning). not_attempted where the launch needs more (its first launch, a count beyond
// the entry's closed form): the work itself is handed over only then.
WAVEFIT_FUNC launch_status launch_cached_quietly(const void* kernel, const launch_key& work_words, std::uint64_t count,
                                                 std::uint64_t size, backend::stream_type stream, void** args) noexcept;

#if WAVEFIT_EXCEPTIONS
// The throwing entry points: launch, or throw wavefit::launch_error (launch_impl.hpp).
// launch_planned_or_throw finishes a launch of `w` whose quiet cached launch (launch_cached_quietly,
// or its element-count twin) ended with `quiet`: not_attempted, or a failure to explain.
WAVEFIT_FUNC void launch_planned_or_throw(const void* kernel, const work& w, backend::stream_type stream, void** args,
                                          launch_status quiet);
WAVEFIT_FUNC void launch_configured_or_throw(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                             void** args);
// launch(kernel, n): launch_planned_or_throw with work::elements(n), which it builds only when it needs it.
WAVEFIT_FUNC void launch_elements_or_throw(const void* kernel, std::uint64_t n, bool negative, backend::stream_type stream,
                                           void** args);
[[noreturn]] WAVEFIT_FUNC void throw_nonzero_null(const launch_config& cfg);
#endif

}  // namespace detail

#if WAVEFIT_EXCEPTIONS
// Validates `cfg` against the device and the kernel, launches, checks the launch error; failures
// throw wavefit::launch_error (<wavefit/runtime/launch.hpp> declares it).
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const launch_config& cfg, detail::backend::stream_type stream, Args&&... args) {
    const void* address = detail::kernel_address(kernel);
    detail::with_packed_arguments<void, Params...>(
        [&](void** packed) { detail::launch_configured_or_throw(address, cfg, stream, packed); },
        [&] { detail::throw_nonzero_null(cfg); }, std::forward<Args>(args)...);
}

// Plans the launch for `w` (the block from the device, the kernel and its contract), then as above.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const work& w, detail::backend::stream_type stream, Args&&... args) {
    const void* address = detail::kernel_address(kernel);
    const detail::launch_key work_words = detail::work_key(w);  // constants where `w` is made here of constants
    detail::with_packed_arguments<void, Params...>(
        [&](void** packed) WAVEFIT_ALWAYS_INLINE_LAMBDA {  // with the copy below, GCC -O2 would call it
            // A negative work and one that replaces a configuration take the whole path at once.
            const launch_status quiet =
                w.negative || w.has_baseline
                    ? launch_status::not_attempted
                    : detail::launch_cached_quietly(address, work_words, w.extent.x, w.size(), stream, packed);
            if (!detail::went_well(quiet)) {
                // The rest of the path gets a copy: then only this branch needs `w` in memory, and a
                // work built at the call site (work::per_block(rows).block_fixed(b)) can stay in
                // registers on the cached path, which reads its key words only (13 stores before the
                // cached run instead of 39 in the benchmark's nvcc -O3 build).
                const work copy = w;
                detail::launch_planned_or_throw(address, copy, stream, packed, quiet);
            }
        },
        [&] { detail::throw_nonzero_null(launch_config{dims{0}, dims{0}}); }, std::forward<Args>(args)...);
}

// One thread per element over `elements` items (work::elements).
template <class... Params, class Count, class... Args, detail::if_size_type<Count> = 0>
void launch(void (*kernel)(Params...), Count elements, detail::backend::stream_type stream, Args&&... args) {
    bool negative = false;
    const std::uint64_t n = detail::size_from(elements, negative);
    const void* address = detail::kernel_address(kernel);
    detail::with_packed_arguments<void, Params...>(
        [&](void** packed) { detail::launch_elements_or_throw(address, n, negative, stream, packed); },
        [&] { detail::throw_nonzero_null(launch_config{dims{0}, dims{0}}); }, std::forward<Args>(args)...);
}

// One thread per item of a 2-D/3-D extent (work::over).
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const dims& extent, detail::backend::stream_type stream, Args&&... args) {
    launch(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}
#endif

WAVEFIT_END_NAMESPACE
