// SPDX-License-Identifier: MIT
// CSV for untrusted profiler output: one record per line (RFC 4180 quoting: "a,""b""" is a,"b"), so
// that C++ kernel names with commas and quotes survive, and numbers read strictly (a cell that is
// not a number, is negative or does not fit 64 bits is "no value", never a wrapped one).
#pragma once

#include <cstddef>      // sizes
#include <cstdint>      // values
#include <optional>     // cells without a value
#include <string>       // unquoted cells
#include <string_view>  // lines
#include <vector>       // cells

namespace wavefit::analysis {

// Splits one line into cells, unquoting quoted ones. Spaces around an unquoted cell are dropped; a
// quote left open runs to the end of the line (records never span lines in profiler output). At most
// `max_cells` cells are kept: the rest of a hostile line is ignored (`overflowed` says so).
inline void split_csv_line(std::string_view line, std::vector<std::string>& cells, std::size_t max_cells = 512,
                           bool* overflowed = nullptr) {
    cells.clear();
    if (overflowed != nullptr) *overflowed = false;
    std::size_t i = 0;
    const std::size_t n = line.size();
    for (;;) {
        if (cells.size() == max_cells) {
            if (overflowed != nullptr) *overflowed = true;
            return;
        }
        std::string cell;
        while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i < n && line[i] == '"') {
            ++i;
            while (i < n) {
                if (line[i] == '"') {
                    if (i + 1 < n && line[i + 1] == '"') {
                        cell.push_back('"');
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                cell.push_back(line[i++]);
            }
            while (i < n && line[i] != ',') ++i;  // anything after the closing quote is dropped
        } else {
            const std::size_t start = i;
            while (i < n && line[i] != ',') ++i;
            std::size_t end = i;
            while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
            cell.assign(line.substr(start, end - start));
        }
        cells.push_back(std::move(cell));
        if (i >= n) return;
        ++i;  // the comma
    }
}

// A non-negative whole number: digits, optionally with a fraction of zeros only ("256.0", as some
// spreadsheet round trips write), and nothing else. Empty for anything else, including a negative
// number, a fraction, or a value beyond 2^64-1.
inline std::optional<std::uint64_t> parse_csv_uint(std::string_view cell) {
    while (!cell.empty() && (cell.front() == ' ' || cell.front() == '+')) cell.remove_prefix(1);
    while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
    const std::size_t dot = cell.find('.');
    if (dot != std::string_view::npos) {
        for (char c : cell.substr(dot + 1))
            if (c != '0') return std::nullopt;
        cell = cell.substr(0, dot);
    }
    if (cell.empty() || cell.size() > 20) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : cell) {
        if (c < '0' || c > '9') return std::nullopt;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
        v = v * 10 + digit;
    }
    return v;
}

// A non-negative decimal such as "0.049" or "12" (no exponent), scaled by 10^`scale_digits` and
// rounded down: parse_csv_scaled("0.049", 6) is 49000. Empty for anything else or beyond 2^64-1.
inline std::optional<std::uint64_t> parse_csv_scaled(std::string_view cell, int scale_digits) {
    while (!cell.empty() && (cell.front() == ' ' || cell.front() == '+')) cell.remove_prefix(1);
    while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
    if (cell.empty() || cell.size() > 40) return std::nullopt;
    std::uint64_t v = 0;
    int fraction_digits = -1;  // -1: before the dot
    bool any_digit = false;
    for (char c : cell) {
        if (c == '.' && fraction_digits < 0) {
            fraction_digits = 0;
            continue;
        }
        if (c < '0' || c > '9') return std::nullopt;
        any_digit = true;
        if (fraction_digits >= 0) {
            if (fraction_digits == scale_digits) continue;  // below the unit: dropped
            ++fraction_digits;
        }
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
        v = v * 10 + digit;
    }
    if (!any_digit) return std::nullopt;
    for (int k = fraction_digits < 0 ? 0 : fraction_digits; k < scale_digits; ++k) {
        if (v > UINT64_MAX / 10) return std::nullopt;
        v *= 10;
    }
    return v;
}

}  // namespace wavefit::analysis
