// SPDX-License-Identifier: MIT
// How check and plan print diagnostics, so that both show a problem the same way: in JSON as
// {"code","severity","message","fix"}, in text as "error [code] message" with the fix below it.
#pragma once

#include <string>  // text
#include <vector>  // diagnostic lists

#include <wavefit/diagnostic.hpp>

#include "json_writer.hpp"

namespace wavefit::cli {

// Writes "diagnostics": [...] into the current JSON object.
void write_diagnostics(json_writer& json, const std::vector<diagnostic>& diagnostics);

// One "severity [code] message" line per diagnostic, each followed by "  fix: ...".
std::string diagnostics_text(const std::vector<diagnostic>& diagnostics);

}  // namespace wavefit::cli
