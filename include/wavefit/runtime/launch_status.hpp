// SPDX-License-Identifier: MIT
// What happened to a launch, apart from launch_error.hpp (which carries text) so that the launch
// call (launch_call.hpp) can branch on a cached launch's outcome without <string>.
#pragma once

#include <cstdint>  // std::uint8_t

#include "../config.hpp"

WAVEFIT_BEGIN_NAMESPACE

enum class launch_status : std::uint8_t {
    not_attempted,      // a result nobody filled in: what launch_result{} holds, never success
    launched,           // the runtime accepted the launch
    nothing_to_launch,  // 0 elements: no launch is needed, none was made
    rejected,           // wavefit found an error before calling the runtime; no runtime state changed
    runtime_failed,     // the runtime (or a query wavefit needed) returned an error
};

namespace detail {
constexpr bool went_well(launch_status s) noexcept {
    return s == launch_status::launched || s == launch_status::nothing_to_launch;
}
}  // namespace detail

WAVEFIT_END_NAMESPACE
