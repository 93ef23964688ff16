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
void split_csv_line(std::string_view line, std::vector<std::string>& cells, std::size_t max_cells = 512,
                    bool* overflowed = nullptr);

// A non-negative whole number: digits, optionally with a fraction of zeros only ("256.0", as some
// spreadsheet round trips write), and nothing else. Empty for anything else, including a negative
// number, a fraction, or a value beyond 2^64-1.
std::optional<std::uint64_t> parse_csv_uint(std::string_view cell);

// A non-negative decimal such as "0.049" or "12" (no exponent), scaled by 10^`scale_digits` and
// rounded down: parse_csv_scaled("0.049", 6) is 49000. Empty for anything else or beyond 2^64-1.
std::optional<std::uint64_t> parse_csv_scaled(std::string_view cell, int scale_digits);

}  // namespace wavefit::analysis
