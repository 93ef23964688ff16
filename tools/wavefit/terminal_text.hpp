// SPDX-License-Identifier: MIT
// The one sanitizer for text the CLI prints: a user's argument echoed in a one-line message, and
// text read from a file that may be hostile. (JSON output has its own escaping, json_writer.hpp.)
#pragma once

#include <string>       // results
#include <string_view>  // inputs

namespace wavefit::cli {

// The one escaping loop; the functions below name what each mode is for.
enum class escape_mode {
    one_line,  // control characters only: the text cannot break its line
    argument,  // also quotes and backslashes: the text cannot break the quotes around it
    file,      // every byte outside printable ASCII: the text cannot drive the terminal
};

inline std::string escape(std::string_view text, escape_mode mode) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        const bool control = c < 0x20 || c == 0x7f;
        const bool kept = mode == escape_mode::file ? c >= 0x20 && c < 0x7f : !control;  // UTF-8 stays in arguments
        if (kept) {
            if (mode == escape_mode::argument && (c == '\\' || c == '\'')) out += '\\';
            out += ch;
        } else if (mode != escape_mode::file && c == '\n') {
            out += "\\n";
        } else if (mode != escape_mode::file && c == '\t') {
            out += "\\t";
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    return out;
}

// A user's argument inside a message: control characters (\n, \t, \xNN), single quotes and
// backslashes escaped, so that the argument can never break the message it appears in.
inline std::string escaped(std::string_view argument) { return escape(argument, escape_mode::argument); }

// escaped(argument) in single quotes: "--preset 'mi400': unknown preset".
inline std::string quoted(std::string_view argument) { return "'" + escaped(argument) + "'"; }

// `text` (a path, a message from a reader) with control characters escaped and nothing else
// changed: the message that quotes it stays one line.
inline std::string one_line(std::string_view text) { return escape(text, escape_mode::one_line); }

// Text taken from a file (kernel names, targets) for a terminal: control characters, DEL and every
// non-ASCII byte shown as \xNN, so that a hostile file cannot move the cursor, recolour or rewrite
// the output.
inline std::string terminal_safe(std::string_view file_text) { return escape(file_text, escape_mode::file); }

}  // namespace wavefit::cli
