// SPDX-License-Identifier: MIT
// Sizes as users pass them: any integer type, signed ones checked. A negative count is never turned
// into 2^64-1 elements: at run time it is marked and refused before the launch, and in a constant
// expression (`constexpr auto w = wavefit::work::elements(-1);`) it does not compile.
#pragma once

#include "../config.hpp"

#include <cstdint>      // std::uint64_t
#include <type_traits>  // std::is_integral_v, std::is_signed_v

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The integer types a size may be given in (bool is not a size).
template <class T>
inline constexpr bool is_size_type_v = std::is_integral_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

template <class T>
using if_size_type = std::enable_if_t<is_size_type_v<T>, int>;

// Reached only for a negative size. Not constexpr on purpose: in a constant expression the compiler
// stops here, and the function's name is the message it prints.
inline void wavefit_error_a_negative_value_is_not_a_size() noexcept {}

// `v` as an unsigned 64-bit size; a negative `v` gives 0 and sets `negative`.
template <class Int>
constexpr std::uint64_t size_from(Int v, bool& negative) noexcept {
    if constexpr (std::is_signed_v<Int>) {
        if (v < 0) {
            wavefit_error_a_negative_value_is_not_a_size();
            negative = true;
            return 0;
        }
    }
    return static_cast<std::uint64_t>(v);
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
