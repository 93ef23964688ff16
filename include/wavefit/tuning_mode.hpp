// SPDX-License-Identifier: MIT
// The three tuning modes (WAVEFIT_TUNING=off|use|tune), shared by the launch path, the opt-in tuner
// and the CLI. No GPU header.
#pragma once

#include <cstdint>      // the enum's size
#include <string_view>  // names

#include "config.hpp"
#include "detail/ascii.hpp"
#include "detail/enum_names.hpp"

WAVEFIT_BEGIN_NAMESPACE

// What planned launches do with the tuning database.
enum class tuning_mode : std::uint8_t {
    off,   // the default: plans only, the database is not read
    use,   // planned launches use a record that fits (validated on the device), else the plan
    tune,  // like use, and a planned launch without a record is tuned in place on first use
};

constexpr std::string_view to_string(tuning_mode m) noexcept {
    constexpr std::string_view names[] = {"off", "use", "tune"};
    return detail::enum_name(names, m);
}

namespace detail {
// "off", "use", "tune" (case-insensitive); false for anything else.
constexpr bool parse_tuning_mode(std::string_view text, tuning_mode& out) noexcept {
    const std::string_view t = trim(text);
    if (iequals(t, "off"))
        out = tuning_mode::off;
    else if (iequals(t, "use"))
        out = tuning_mode::use;
    else if (iequals(t, "tune"))
        out = tuning_mode::tune;
    else
        return false;
    return true;
}
}  // namespace detail

WAVEFIT_END_NAMESPACE
