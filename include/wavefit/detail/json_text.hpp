// SPDX-License-Identifier: MIT
// The one way wavefit writes a JSON string: the tuning records (tuning_records.hpp) and the CLI's
// JSON writer both call it, so what one writes the other's reader (json_reader.hpp) reads back.
#pragma once

#include "../config.hpp"
#include "ascii.hpp"
#include "utf8.hpp"

#include <cstddef>      // std::size_t
#include <string>       // the output
#include <string_view>  // the text

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// Appends `text` to `out` as a JSON string literal, quotes included. Quotes and backslashes are
// escaped, newline, tab and carriage return by name, the other control characters and DEL as \u00XX;
// a byte that starts no well-formed UTF-8 sequence becomes U+FFFD, as in well_formed_utf8(): JSON
// holds only well-formed text, and a reader (json_reader.hpp) refuses the rest.
inline void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    const auto append_run = [&](std::size_t first, std::size_t length) {
        for (std::size_t i = first; i < first + length; ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += static_cast<char>(c);
            } else if (c == '\n') {
                out += "\\n";
            } else if (c == '\t') {
                out += "\\t";
            } else if (c == '\r') {
                out += "\\r";
            } else if (c < 0x20 || c == 0x7f) {
                out += "\\u00";
                append_hex_byte(out, c);
            } else {
                out += static_cast<char>(c);
            }
        }
    };
    for_each_utf8_run(text, append_run, [&] { out += utf8_replacement; });
    out += '"';
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
