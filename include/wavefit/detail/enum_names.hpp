// SPDX-License-Identifier: MIT
// The one way wavefit spells an enum's values (diagnostic codes, which carry more, have their own
// table): names in enumerator order, indexed by the value. The names are the CLI's and the JSON's
// spellings, so tests/cpu/test_enum_names.cpp checks each one (an enumerator added without its name
// reads as `beyond`: no compiler warns, as one did of a switch's missing case). A value outside the
// table (a byte cast from bad input) reads as `beyond`.
#pragma once

#include "../config.hpp"

#include <cstddef>      // std::size_t
#include <string_view>  // names

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

template <class Enum, std::size_t N>
constexpr std::string_view enum_name(const std::string_view (&names)[N], Enum value,
                                     std::string_view beyond = "unknown") noexcept {
    const auto index = static_cast<std::size_t>(value);
    return index < N ? names[index] : beyond;
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
