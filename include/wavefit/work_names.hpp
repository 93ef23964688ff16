// SPDX-License-Identifier: MIT
// The names of the work's kinds, coverage and grid policies (to_string), for messages, the CLI and
// the tuning records. Apart from work.hpp so that a translation unit that only launches, which never
// prints them, does not parse <string_view> (the separately compiled launch tier: launch_call.hpp).
#pragma once

#include <string_view>  // names

#include "config.hpp"
#include "detail/enum_names.hpp"
#include "work.hpp"

WAVEFIT_BEGIN_NAMESPACE
constexpr std::string_view to_string(grid_policy g) noexcept {
    constexpr std::string_view names[] = {"cover", "saturate", "coarsen"};
    return detail::enum_name(names, g);
}

constexpr std::string_view to_string(work::work_kind k) noexcept {
    constexpr std::string_view names[] = {"elements", "extent", "per_block", "per_wave"};
    return detail::enum_name(names, k);
}

constexpr std::string_view to_string(work::coverage c) noexcept {
    constexpr std::string_view names[] = {"one_pass", "kernel_loops"};
    return detail::enum_name(names, c);
}

WAVEFIT_END_NAMESPACE
