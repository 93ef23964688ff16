// SPDX-License-Identifier: MIT
// The names of the work's kinds, coverage and grid policies (to_string), for messages, the CLI and
// the tuning records. Apart from work.hpp so that a translation unit that only launches, which never
// prints them, does not parse <string_view> (the separately compiled launch tier: launch_call.hpp).
#pragma once

#include <string_view>  // names

#include "config.hpp"
#include "work.hpp"

WAVEFIT_BEGIN_NAMESPACE
constexpr std::string_view to_string(grid_policy g) noexcept {
    return g == grid_policy::cover ? "cover" : g == grid_policy::saturate ? "saturate" : "coarsen";
}

constexpr std::string_view to_string(work::work_kind k) noexcept {
    using work_kind = work::work_kind;
    return k == work_kind::elements    ? "elements"
           : k == work_kind::extent    ? "extent"
           : k == work_kind::per_block ? "per_block"
                                       : "per_wave";
}
constexpr std::string_view to_string(work::coverage c) noexcept {
    return c == work::coverage::one_pass ? "one_pass" : "kernel_loops";
}

WAVEFIT_END_NAMESPACE
