// SPDX-License-Identifier: MIT
// A finished lint run in the three output formats: text for a terminal, --json (one document, the fields
// docs/cli.md lists) and SARIF 2.1.0 (--format sarif) for GitHub code scanning and CI systems: one result
// per finding, ruleId = the finding code, physicalLocation.region.startLine = the line.
#pragma once

#include <cstdint>  // counts
#include <string>   // documents
#include <vector>   // findings, files

#include "finding.hpp"
#include "lint_target.hpp"

namespace wavefit::cli::lint {

struct file_status {
    std::string path;  // as displayed
    bool parsed = false;
    bool header = false;  // a header parsed on its own
    std::uint32_t errors = 0;  // clang's errors (missing headers and what follows from them)
    std::string first_error;
    bool precompiled = true;  // parsed with the precompiled parser declarations (false: its flags did not fit)
    std::string shared_header;  // the precompiled project header the unit was parsed on (empty: none)
    double parse_seconds = 0;
    double check_seconds = 0;
};

struct lint_report {
    const lint_target* target = nullptr;
    std::vector<finding> findings;           // sorted, display paths
    std::vector<std::string> fingerprints;   // one per finding
    std::vector<file_status> files;          // every unit, in order
    std::uint64_t suppressed_by_comment = 0;
    std::uint64_t suppressed_by_baseline = 0;
    double seconds = 0;
    double precompile_seconds = 0;  // the headers' first parse: the parser's precompiled header and the shared headers
    std::uint64_t shared_headers = 0;  // project headers precompiled once for the units that include them first
    unsigned jobs = 1;
};

std::string render_text(const lint_report& r);
std::string render_json(const lint_report& r);
std::string render_sarif(const lint_report& r, const std::string& working_directory);

// A path as a URI reference (RFC 3986): '/'-separated, every byte outside the unreserved set and '/'
// percent-encoded.
std::string uri_reference(const std::string& path);

}  // namespace wavefit::cli::lint
