// SPDX-License-Identifier: MIT
// Number and size formatting for messages. Messages are built only when something is wrong, so
// plain std::string concatenation is fast enough and keeps the core free of dependencies.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <string>       // std::string, std::to_string
#include <string_view>  // message pieces
#include <type_traits>  // whole numbers among the pieces

#include "../config.hpp"
#include "../dims.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline std::string num(std::uint64_t v) { return std::to_string(v); }

// One piece of a message, appended out of line (WAVEFIT_NOINLINE): a message is a row of calls,
// which a compiler turns into little code, rather than a chain of inlined std::string operator+.
WAVEFIT_NOINLINE inline void append_piece(std::string& out, std::string_view piece) { out.append(piece); }
WAVEFIT_NOINLINE inline void append_piece(std::string& out, std::uint64_t value) {
    char digits[20];
    std::size_t n = 0;
    do {
        digits[n++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (n > 0) out.push_back(digits[--n]);
}

template <class Piece>
void append_any(std::string& out, const Piece& piece) {
    if constexpr (std::is_integral_v<Piece> && !std::is_same_v<Piece, bool> && !std::is_same_v<Piece, char>)
        append_piece(out, static_cast<std::uint64_t>(piece));
    else
        append_piece(out, std::string_view(piece));
}

// "grid " + dims_text(g) + " has 0 blocks" as concat("grid ", dims_text(g), " has 0 blocks"); whole
// numbers may be given as they are (unsigned).
template <class... Pieces>
std::string concat(const Pieces&... pieces) {
    std::string out;
    (append_any(out, pieces), ...);
    return out;
}

// "65536 bytes (64 KiB)", "40000 bytes (39.1 KiB)", "512 bytes".
inline std::string bytes_text(std::uint64_t v) {
    std::string text = std::to_string(v) + (v == 1 ? " byte" : " bytes");
    if (v >= 1024) {
        const std::uint64_t whole = v / 1024;
        const std::uint64_t tenths = (v % 1024) * 10 / 1024;
        text += " (" + std::to_string(whole);
        if (v % 1024 != 0) text += "." + std::to_string(tenths);
        text += " KiB)";
    }
    return text;
}

// "(1024, 1, 1)".
inline std::string dims_text(const dims& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// "2^32-1" style names for the limits people recognise by their shape.
inline std::string limit_text(std::uint64_t v) {
    if (v == 4294967295u) return "4294967295 (2^32-1)";
    if (v == 2147483647u) return "2147483647 (2^31-1)";
    return std::to_string(v);
}

inline std::string plural(std::uint64_t n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
