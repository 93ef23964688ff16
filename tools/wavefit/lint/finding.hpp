// SPDX-License-Identifier: MIT
// One lint finding, as every output format (text, JSON, SARIF) and the suppressions see it.
#pragma once

#include <cstdint>  // positions
#include <string>   // texts
#include <tuple>    // ordering

#include "rules.hpp"

namespace wavefit::cli::lint {

struct finding {
    const rule* kind = nullptr;  // never null once built
    std::string file;            // as printed: relative to the working directory when under it
    std::uint32_t line = 0;      // 1-based
    std::uint32_t column = 0;    // 1-based
    std::string message;         // what was found, with its numbers and the AMD reason
    std::string fix;             // what to change
    std::string replacement;     // the wavefit launch or device call that replaces it; may be empty
    std::string source_line;     // the text of the line, for fingerprints and the text report

    std::string_view code() const noexcept { return kind->code; }
    lint::level level() const noexcept { return kind->level; }
};

// File, line, column, code: the order of every report, so that output is deterministic.
inline bool reported_before(const finding& a, const finding& b) {
    return std::tie(a.file, a.line, a.column, a.kind->code, a.message) <
           std::tie(b.file, b.line, b.column, b.kind->code, b.message);
}

}  // namespace wavefit::cli::lint
