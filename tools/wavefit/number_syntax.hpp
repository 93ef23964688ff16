// SPDX-License-Identifier: MIT
// The number syntax of the wavefit command line: decimal, 0x hex, k/M/G and Ki/Mi/Gi suffixes, 2^N,
// and dimension lists X[,Y[,Z]]. Header-only, constexpr, noexcept and free of I/O, so that unit
// tests and fuzz targets can include it alone: a user's typing must never throw or reach UB.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <string_view>  // inputs and static error texts

#include <wavefit/detail/ascii.hpp>
#include <wavefit/dims.hpp>

namespace wavefit::cli {

// A parsed number, or why the text is not one. Errors are static texts (no allocation), phrased to
// follow "--flag 'value': ".
struct number_result {
    std::uint64_t value = 0;
    std::string_view error;

    constexpr bool ok() const noexcept { return error.empty(); }
};

// A parsed X[,Y[,Z]] list; missing trailing dimensions are 1. On error, `failed_axis` names the
// dimension whose text is wrong (0/1/2), or -1 when the list itself is malformed.
struct dims_result {
    dims value{};
    int count = 0;  // how many numbers the list held (1 to 3)
    std::string_view error;
    int failed_axis = -1;

    constexpr bool ok() const noexcept { return error.empty(); }
};

namespace number_syntax_detail {

inline constexpr std::uint64_t u64_max = ~std::uint64_t{0};

// Whitespace (detail::is_space) is rejected everywhere rather than trimmed: a quoted " 5" is more
// likely a scripting bug than an intent, and silently accepting it would hide the bug.
using wavefit::detail::hex_digit_value;
using wavefit::detail::is_digit;
using wavefit::detail::is_space;

constexpr number_result failure(std::string_view why) noexcept { return number_result{0, why}; }

constexpr number_result parse_hex(std::string_view digits) noexcept {
    if (digits.empty()) return failure("'0x' without hex digits");
    std::uint64_t value = 0;
    for (char c : digits) {
        if (c == '.') return failure("fractions are not allowed (integers only)");
        const int d = hex_digit_value(c);
        if (d < 0) return failure("unexpected characters in a hex number (suffixes and 2^N do not combine with 0x)");
        if (value > (u64_max >> 4)) return failure("larger than 2^64-1");
        value = (value << 4) | static_cast<std::uint64_t>(d);
    }
    return {value, {}};
}

// Decimal suffixes follow SI (k = 1000); binary ones (Ki = 1024) exist because shared memory sizes
// are powers of two: --static-shared 48Ki is 49152 bytes.
constexpr bool suffix_multiplier(std::string_view suffix, std::uint64_t& multiplier) noexcept {
    struct entry {
        std::string_view text;
        std::uint64_t factor;
    };
    constexpr entry table[] = {{"", 1},
                               {"k", 1000},
                               {"K", 1000},
                               {"M", 1000000},
                               {"G", 1000000000},
                               {"Ki", std::uint64_t{1} << 10},
                               {"Mi", std::uint64_t{1} << 20},
                               {"Gi", std::uint64_t{1} << 30}};
    for (const entry& e : table)
        if (e.text == suffix) {
            multiplier = e.factor;
            return true;
        }
    return false;
}

constexpr number_result parse_power_of_two(std::uint64_t base, bool base_overflowed, std::string_view exponent) noexcept {
    if (base_overflowed || base != 2) return failure("only powers of two can be written with '^' (2^N)");
    if (exponent.empty()) return failure("'2^' without an exponent");
    std::uint64_t n = 0;
    for (char c : exponent) {
        if (!is_digit(c)) return failure("the exponent of 2^N must be a decimal integer from 0 to 63");
        // Saturate instead of wrapping so that 2^99999999999999999999 reports overflow, not 2^something.
        n = n > 64 ? n : n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (n > 63) return failure("larger than 2^64-1");
    return {std::uint64_t{1} << n, {}};
}

}  // namespace number_syntax_detail

// Parses one non-negative integer: "4096", "0x1000", "4k" (4000), "4Ki" (4096), "2^12", "007".
constexpr number_result parse_number(std::string_view text) noexcept {
    namespace d = number_syntax_detail;
    if (text.empty()) return d::failure("empty value");
    for (char c : text)
        if (d::is_space(c)) return d::failure("whitespace is not allowed");
    if (text[0] == '+' || text[0] == '-') return d::failure("a sign is not allowed (non-negative integers only)");
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return d::parse_hex(text.substr(2));

    std::uint64_t value = 0;
    bool overflowed = false;
    std::size_t i = 0;
    for (; i < text.size() && d::is_digit(text[i]); ++i) {
        const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (d::u64_max - digit) / 10) overflowed = true;
        if (!overflowed) value = value * 10 + digit;
    }
    if (i == 0) return d::failure("not a number (expected digits, 0x hex or 2^N)");

    const std::string_view rest = text.substr(i);
    if (!rest.empty() && rest[0] == '^') return d::parse_power_of_two(value, overflowed, rest.substr(1));
    if (!rest.empty() && (rest[0] == '.' || rest[0] == ',')) {
        // A comma here only reaches parse_number from a flag that takes one number.
        if (rest[0] == '.') return d::failure("fractions are not allowed (integers only)");
        return d::failure("a list is not allowed here (one number expected)");
    }
    if (overflowed) return d::failure("larger than 2^64-1");

    std::uint64_t multiplier = 1;
    if (!d::suffix_multiplier(rest, multiplier))
        return d::failure("unexpected text after the number (suffixes: k, M, G, Ki, Mi, Gi)");
    if (value != 0 && multiplier > d::u64_max / value) return d::failure("larger than 2^64-1");
    return {value * multiplier, {}};
}

// Parses "X", "X,Y" or "X,Y,Z", each in number syntax. Zeros are accepted: whether a zero is
// allowed is for validation to say (check reports it as zero_dimension), not for the parser.
constexpr dims_result parse_dims(std::string_view text) noexcept {
    dims_result r{};
    if (text.empty()) {
        r.error = "empty value (expected X[,Y[,Z]])";
        return r;
    }
    std::size_t commas = 0;
    for (char c : text) commas += c == ',' ? 1 : 0;
    if (commas > 2) {
        r.error = "more than 3 dimensions (expected X[,Y[,Z]])";
        return r;
    }

    std::uint64_t values[3] = {1, 1, 1};
    std::size_t start = 0;
    for (int axis = 0; axis <= static_cast<int>(commas); ++axis) {
        const std::size_t comma = text.find(',', start);
        const std::string_view part =
            comma == std::string_view::npos ? text.substr(start) : text.substr(start, comma - start);
        if (part.empty()) {
            r.error = "empty dimension (expected X[,Y[,Z]])";
            r.failed_axis = axis;
            return r;
        }
        const number_result n = parse_number(part);
        if (!n.ok()) {
            r.error = n.error;
            r.failed_axis = axis;
            return r;
        }
        values[axis] = n.value;
        start = comma == std::string_view::npos ? text.size() : comma + 1;
    }
    r.value = dims{values[0], values[1], values[2]};
    r.count = static_cast<int>(commas) + 1;
    return r;
}

}  // namespace wavefit::cli
