// SPDX-License-Identifier: MIT
// What a lint run parses and where it reports: the translation units (from PATH arguments, or from a
// build's compile_commands.json with -p) with their own compiler flags, and the directories whose files
// findings are reported in (headers included from elsewhere, system headers and the parser's own
// declarations are read but never reported).
#pragma once

#include <string>  // paths, flags
#include <vector>  // units

namespace wavefit::cli::lint {

struct source_unit {
    std::string path;                // absolute
    std::vector<std::string> flags;  // the unit's own -I/-D/-U/-std/-include flags, paths made absolute
    bool header = false;             // a header parsed on its own because no unit included it
};

struct source_set {
    std::vector<source_unit> units;
    std::vector<std::string> headers;  // .cuh files under the PATH directories, parsed if no unit includes them
    std::vector<std::string> scope;    // absolute directories or files; findings are reported inside them
};

// PATH arguments: files are units whatever their suffix; directories are searched for .cu and .hip units
// and .cuh headers (hidden directories skipped). With a build directory, its compile_commands.json gives
// the units and their flags, restricted to PATHs when any are given. Throws usage_error when a PATH does
// not exist, the database cannot be read, or nothing is left to parse.
source_set collect_sources(const std::vector<std::string>& paths, const std::string& build_directory);

// The flags of a compile command that bear on parsing, from its full argument list (compiler first):
// include paths, macros, the language standard and forced includes, with relative paths resolved against
// `directory`. Everything else (outputs, optimisation, nvcc's and hipcc's own options, offload targets) is
// dropped: the lint parses for its own target.
std::vector<std::string> parse_relevant_flags(const std::vector<std::string>& arguments, const std::string& directory);

}  // namespace wavefit::cli::lint
