// SPDX-License-Identifier: MIT
// The one set of ASCII text helpers: case-insensitive comparison and search, character classes,
// trimming, and ISA names without their target features. Locale-free and constexpr, because the
// explanation lookup, the presets, the device attribute mapping, the CLI's number syntax and the
// trace and log readers all run on untrusted text, at compile time in tests, and in any locale.
#pragma once

#include "../config.hpp"

#include <cstddef>      // std::size_t
#include <string_view>  // every input

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline constexpr std::size_t text_npos = std::string_view::npos;

constexpr char to_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Letters, digits and '_': the characters of a C identifier (an error name, a diagnostic code).
constexpr bool is_identifier_char(char c) noexcept { return is_digit(c) || is_alpha(c) || c == '_'; }

constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// 0-15 for a hex digit of either case, -1 otherwise.
constexpr int hex_digit_value(char c) noexcept {
    if (is_digit(c)) return c - '0';
    const char l = to_lower(c);
    return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
}

// Appends a byte as two hex digits ("0a", or "0A" with `upper`): the one spelling of a byte that JSON
// escapes (\u00XX), percent-encoded paths and messages ("byte 0x1f") share. A template so that this
// header stays free of <string>: `Text` is any string with `+= char`.
template <class Text>
void append_hex_byte(Text& out, unsigned char byte, bool upper = false) {
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    out += digits[byte >> 4];
    out += digits[byte & 0xf];
}

constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (to_lower(a[i]) != to_lower(b[i])) return false;
    return true;
}

constexpr bool starts_with(std::string_view s, std::string_view prefix) noexcept {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

constexpr bool istarts_with(std::string_view s, std::string_view prefix) noexcept {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// Case-insensitive search from `from`; text_npos when absent or when `needle` is empty.
constexpr std::size_t ifind(std::string_view hay, std::string_view needle, std::size_t from = 0) noexcept {
    if (needle.empty() || needle.size() > hay.size()) return text_npos;
    const char first = to_lower(needle[0]);
    for (std::size_t i = from; i + needle.size() <= hay.size(); ++i) {
        if (to_lower(hay[i]) != first) continue;
        std::size_t j = 1;
        while (j < needle.size() && to_lower(hay[i + j]) == to_lower(needle[j])) ++j;
        if (j == needle.size()) return i;
    }
    return text_npos;
}

constexpr std::string_view trim(std::string_view s) noexcept {
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && is_space(s[b])) ++b;
    while (e > b && is_space(s[e - 1])) --e;
    return s.substr(b, e - b);
}

// "gfx90a:sramecc+:xnack-" -> "gfx90a": target features change no launch limit, so lookups by ISA
// ignore them. A loop, not find(':'): find calls memchr, and the launch path reads the ISA name at a
// process's first launch, where memchr would be one more symbol for the dynamic linker to resolve
// (glibc's is an indirect function: resolving it took 3 to 5 us of an H100 host's first launch,
// bench/README.md).
constexpr std::string_view isa_name(std::string_view target) noexcept {
    std::size_t length = 0;
    while (length < target.size() && target[length] != ':') ++length;
    return std::string_view(target.data(), length);
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
