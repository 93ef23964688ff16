// SPDX-License-Identifier: MIT
// A fixed-capacity, constexpr-constructible name ("MI300X", "gfx942"). device_limits must be a
// plain copyable value that presets can build at compile time and the runtime can fill from a
// C string, without pointing at storage that may go away.
#pragma once

#include "../config.hpp"

#include <cstddef>      // std::size_t
#include <string_view>  // std::string_view

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

class short_name {
public:
    static constexpr std::size_t capacity = 63;

    constexpr short_name() noexcept = default;
    // Truncates silently at `capacity` characters: names are for display and lookup, and the
    // runtime's device names are far shorter.
    constexpr short_name(std::string_view text) noexcept { assign(text); }
    constexpr short_name(const char* text) noexcept : short_name(std::string_view(text ? text : "")) {}

    constexpr void assign(std::string_view text) noexcept {
        size_ = text.size() < capacity ? text.size() : capacity;
        for (std::size_t i = 0; i < capacity + 1; ++i) data_[i] = i < size_ ? text[i] : '\0';
    }
    constexpr std::string_view view() const noexcept { return {data_, size_}; }
    constexpr const char* c_str() const noexcept { return data_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr operator std::string_view() const noexcept { return view(); }

    friend constexpr bool operator==(const short_name& a, const short_name& b) noexcept { return a.view() == b.view(); }

private:
    char data_[capacity + 1]{};
    std::size_t size_ = 0;
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
