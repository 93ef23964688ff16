// SPDX-License-Identifier: MIT
// The declarations the lint parses CUDA and HIP with (parser_headers/*.h), compiled into the binary so
// that `wavefit lint` needs no installed data: CMake embeds the files (embed_parser_headers.cmake).
#pragma once

#include <cstddef>  // std::size_t

namespace wavefit::cli::lint {

struct embedded_file {
    const char* name;  // file name under the parser's include directory
    const char* text;
};

extern const embedded_file parser_header_files[];
extern const std::size_t parser_header_file_count;

// The prelude every source is parsed with (one of parser_header_files).
inline constexpr const char* parser_prelude_name = "wavefit_lint_prelude.h";

}  // namespace wavefit::cli::lint
