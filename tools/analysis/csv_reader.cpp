// SPDX-License-Identifier: MIT
// CSV cells and numbers of untrusted profiler output (csv_reader.hpp).
#include "csv_reader.hpp"

#include <utility>  // std::move of a cell

namespace wavefit::analysis {

void split_csv_line(std::string_view line, std::vector<std::string>& cells, std::size_t max_cells, bool* overflowed) {
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

std::optional<std::uint64_t> parse_csv_uint(std::string_view cell) {
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

std::optional<std::uint64_t> parse_csv_scaled(std::string_view cell, int scale_digits) {
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
