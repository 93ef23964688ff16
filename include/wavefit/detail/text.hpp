// SPDX-License-Identifier: MIT
// Number and size formatting for messages. Messages are built only when something is wrong, so
// plain std::string concatenation is fast enough and keeps the core free of dependencies.
#pragma once

#include <cstdint>  // std::uint64_t
#include <string>   // std::string, std::to_string

#include "../config.hpp"
#include "../dims.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline std::string num(std::uint64_t v) { return std::to_string(v); }

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
