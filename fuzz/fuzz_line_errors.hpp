// SPDX-License-Identifier: MIT
// What the fuzz targets of line-based files (fuzz_team_file, fuzz_lint_suppressions) require of the
// errors their reader reports: at most the cap kept (the rest only counted), and each one line
// "FILE:N: ..." with N a line of the input, so that an editor can jump to it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fuzz_line_errors {

// `parsed` has `errors` (the kept ones) and `error_count` (all); `finding(what, detail)` is the
// target's own report, which aborts.
template <class Parsed, class Finding>
void check(const Parsed& parsed, std::size_t max_kept, std::string_view file, std::uint64_t lines, Finding finding) {
    if (parsed.errors.size() > max_kept) finding("more errors kept than the cap", std::string{});
    if (parsed.error_count < parsed.errors.size()) finding("error_count below the errors kept", std::string{});
    const std::string prefix = std::string(file) + ":";
    for (const std::string& e : parsed.errors) {
        if (e.find('\n') != std::string::npos || e.find('\r') != std::string::npos) finding("an error spans lines", e);
        if (e.rfind(prefix, 0) != 0) finding("an error does not start with the file name", e);
        const std::uint64_t n = std::strtoull(e.c_str() + prefix.size(), nullptr, 10);
        if (n < 1 || n > lines) finding("an error names a line outside the file", e);
    }
}

}  // namespace fuzz_line_errors
