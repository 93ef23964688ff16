// SPDX-License-Identifier: MIT
// What a translation unit that tunes compiles: wavefit::tune, its result, and the tuning settings,
// declared. Their definitions (the measurement, the database) are in tuner.hpp, which the host pass of
// a header-only build compiles, and which the compiled library holds with WAVEFIT_SEPARATE_COMPILATION;
// a device pass never needs them.
#pragma once
// Also a classic guard: tuning_api.hpp and tuner.hpp include each other, and #pragma once does not hold
// for the main file (clang-tidy analyses each header as its own translation unit).
#ifndef WAVEFIT_RUNTIME_TUNING_API_HPP
#define WAVEFIT_RUNTIME_TUNING_API_HPP

#include <cstdint>  // counts
#include <string>   // the message, the file's path
#include <utility>  // std::forward

#include "../config.hpp"
#include "../dims.hpp"
#include "../launch_config.hpp"
#include "../platform.hpp"
#include "../tuning_mode.hpp"
#include "../work.hpp"
#include "kernel_arguments.hpp"
#include "launch_call.hpp"
#include "runtime_types.hpp"

WAVEFIT_BEGIN_NAMESPACE

// What wavefit::tune measured and chose.
struct tuning_result {
    bool ok = false;     // the measurement ran (else `message` says why)
    bool tuned = false;  // a candidate beat the configuration it would replace by more than the noise
    launch_config chosen{dims{0}, dims{0}};  // for the tuned work: the plan's (or the baseline's) unless `tuned`
    launch_config plan{dims{0}, dims{0}};
    bool has_baseline = false;  // the work replaced a configuration (work::replacing): measured first
    launch_config baseline{dims{0}, dims{0}};
    double chosen_ns = 0;  // median device time per launch
    double plan_ns = 0;
    double baseline_ns = 0;
    double spread = 0;        // the larger relative spread of the chosen and the replaced configuration
    bool cold_cache = false;  // the L2 was flushed before each timed launch
    std::uint32_t candidates = 0;
    std::uint32_t failed = 0;
    double tuning_ms = 0;
    std::string message;  // why tuning failed, empty when ok
};

namespace detail {
WAVEFIT_FUNC tuning_result tune_packed(const void* kernel, const work& w, backend::stream_type stream, void** args);
}  // namespace detail

// Tunes `kernel` for `w` on `stream`: runs it with `args` in each configuration its contract allows
// (at most 64, the plan first and the configuration the work replaces, if any, too; about a second
// of device time), keeps the fastest if a confirmation round shows it beats what it would replace by
// more than the measured noise, keeps the record for this process (planned launches use it while
// tuning is on: WAVEFIT_TUNING=use or set_tuning_mode) and adds it to WAVEFIT_TUNING_FILE when that
// is set. The kernel runs many times with these arguments: unless it is idempotent (its outputs do
// not depend on its earlier outputs), pass scratch buffers.
template <class... Params, class... Args>
tuning_result tune(void (*kernel)(Params...), const work& w, detail::backend::stream_type stream, Args&&... args) {
    using packed_type = detail::packed_arguments<Params...>;
    if constexpr (!packed_type::template fits<Args...>()) {
        return tuning_result{};
    } else {
        packed_type packed(std::forward<Args>(args)...);
        if (packed.nonzero_null()) {
            tuning_result out;
            out.message = "an integer of NULL's type that is not 0 was passed for a pointer parameter";
            return out;
        }
        return detail::tune_packed(detail::kernel_address(kernel), w, stream, packed.addresses());
    }
}

template <class... Params, class Count, class... Args, detail::if_size_type<Count> = 0>
tuning_result tune(void (*kernel)(Params...), Count elements, detail::backend::stream_type stream, Args&&... args) {
    return tune(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

template <class... Params, class... Args>
tuning_result tune(void (*kernel)(Params...), const dims& extent, detail::backend::stream_type stream, Args&&... args) {
    return tune(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

// Sets what planned launches do with tuning records for the rest of the process (WAVEFIT_TUNING
// sets it at start-up). Entries already computed are recomputed on their next launch.
WAVEFIT_FUNC void set_tuning_mode(tuning_mode m) noexcept;

// The tuning file this process reads and adds to from now on (WAVEFIT_TUNING_FILE sets it at
// start-up); an empty path keeps new results in this process only.
WAVEFIT_FUNC void set_tuning_file(const std::string& path);

namespace detail {

// The mode planned launches follow now (set_tuning_mode, or WAVEFIT_TUNING at start-up).
WAVEFIT_FUNC tuning_mode current_tuning_mode() noexcept;

// Whether new tuning choices are reported on stderr (WAVEFIT_TUNING_VERBOSE=1 at start-up).
WAVEFIT_FUNC void set_tuning_verbose(bool on) noexcept;

}  // namespace detail

WAVEFIT_END_NAMESPACE

// Header-only: the tuner, in the host pass only (a device pass compiles no host function). The
// compiled library holds it with WAVEFIT_SEPARATE_COMPILATION (compiled.hpp), and there
// WAVEFIT_TUNING works in every program that links the library.
#if WAVEFIT_DEFINES_FUNCS
#include "tuner.hpp"
#endif

#endif  // WAVEFIT_RUNTIME_TUNING_API_HPP
