// SPDX-License-Identifier: MIT
// Number and size formatting for messages. Messages are built only when something is wrong, but the
// code that builds them is compiled in every translation unit that launches: a message is one call of
// an out-of-line join with an array of pieces (concat), which compiles to little code, instead of a
// chain of std::string +, and the functions that build them are cold (WAVEFIT_COLD).
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <initializer_list>  // a message's pieces
#include <string>       // std::string, std::to_string
#include <string_view>  // message pieces
#include <type_traits>  // whole numbers among the pieces

#include "../config.hpp"
#include "../dims.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline std::string num(std::uint64_t v) { return std::to_string(v); }

// The decimal digits of `v` written at `out` (room for 20), most significant first; returns how many.
// Without std::string, so that the launch path can name a device's ISA with it (backend::read_arch).
constexpr std::size_t write_decimal(char* out, std::uint64_t v) noexcept {
    char reversed[20] = {};
    std::size_t n = 0;
    do {
        reversed[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (std::size_t i = 0; i < n; ++i) out[i] = reversed[n - 1 - i];
    return n;
}

// Where a text_piece's text points for a number below 0 (its magnitude in `value`).
inline constexpr char negative_number[] = "-";

// One piece of a message, two words: text (`value` is its size), or a whole number to print in
// decimal (text is nullptr, or negative_number for a number below 0).
struct text_piece {
    const char* text;
    std::uint64_t value;

    text_piece(std::string_view s) noexcept : text(s.data()), value(s.size()) {}
    text_piece(const std::string& s) noexcept : text(s.data()), value(s.size()) {}
    text_piece(const char* s) noexcept : text_piece(std::string_view(s)) {}
    template <class Number, std::enable_if_t<std::is_integral_v<Number> && !std::is_same_v<Number, bool> &&
                                                 !std::is_same_v<Number, char>,
                                             int> = 0>
    text_piece(Number n) noexcept : text(nullptr), value(static_cast<std::uint64_t>(n)) {
        if constexpr (std::is_signed_v<Number>) {
            if (n < 0) {
                text = negative_number;
                value = 0 - static_cast<std::uint64_t>(n);
            }
        }
    }
};

// The pieces joined, out of line: a message in the source is one call with an array of pieces, which
// compiles to two stores a piece, rather than a chain of inlined std::string operator+.
WAVEFIT_COLD inline std::string join_pieces(const text_piece* pieces, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        const text_piece& p = pieces[i];
        if (p.text != nullptr && p.text != negative_number) {
            out.append(p.text, static_cast<std::size_t>(p.value));
            continue;
        }
        char digits[20];
        const std::size_t n = write_decimal(digits, p.value);
        if (p.text == negative_number) out.push_back('-');
        out.append(digits, n);
    }
    return out;
}

// "grid " + dims_text(g) + " has 0 blocks" as concat({"grid ", dims_text(g), " has 0 blocks"}); whole
// numbers may be given as they are. A list, not a variadic template: a message costs no
// instantiation of its own, only its array of pieces and one call of join_pieces.
inline std::string concat(std::initializer_list<text_piece> pieces) { return join_pieces(pieces.begin(), pieces.size()); }

// "65536 bytes (64 KiB)", "40000 bytes (39.1 KiB)", "512 bytes".
WAVEFIT_COLD inline std::string bytes_text(std::uint64_t v) {
    std::string text = concat({v, v == 1 ? " byte" : " bytes"});
    if (v >= 1024) {
        text += concat({" (", v / 1024});
        if (v % 1024 != 0) text += concat({".", (v % 1024) * 10 / 1024});
        text += " KiB)";
    }
    return text;
}

// "(1024, 1, 1)".
WAVEFIT_COLD inline std::string dims_text(const dims& d) { return concat({"(", d.x, ", ", d.y, ", ", d.z, ")"}); }

// "2^32-1" style names for the limits people recognise by their shape.
WAVEFIT_COLD inline std::string limit_text(std::uint64_t v) {
    if (v == 4294967295u) return "4294967295 (2^32-1)";
    if (v == 2147483647u) return "2147483647 (2^31-1)";
    return std::to_string(v);
}

// "1 wave", "3 waves".
WAVEFIT_COLD inline std::string plural(std::uint64_t n, std::string_view word) {
    return concat({n, " ", word, n == 1 ? "" : "s"});
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
