// SPDX-License-Identifier: MIT
// A team's own notebook entries, from a small line-based file (docs/cli.md, "Team entries"):
//
//     # comment
//     entry: hipErrorNoBinaryForGpu        <- starts an entry; a built-in name extends that entry
//     alias: MIOPEN_STATUS_NOT_INITIALIZED
//     code: 12345                          <- team entries of their own only
//     pattern: could not load the kernel    <- plain text, matched case-insensitively inside a line
//     meaning: one line
//     cause: one line                      <- each cause: is followed by its fix:
//     fix: one line
//     link: https://rocm.docs.amd.com/...
//     seen: nightly CI on the MI300X runner, 2026-11
//
// Every key but entry may repeat (meaning: once). An entry with any error is rejected whole, with one
// line "FILE:LINE: what is wrong"; the entries around it still load, and the built-in notebook is never
// touched. Lines are capped (a longer one is an error, and its rest is never stored), and so are the
// number of entries and values, so a hostile file cannot grow memory.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // line numbers, codes
#include <string>       // texts
#include <string_view>  // lines
#include <utility>      // std::move
#include <vector>       // entries, errors

#include <wavefit/detail/ascii.hpp>

#include "analysis/explain.hpp"  // parse_code

#include "notebook.hpp"
#include "text_lines.hpp"

namespace wavefit::cli {

struct team_file_limits {
    static constexpr std::size_t max_line_bytes = 4096;
    static constexpr std::size_t max_entries = 1024;
    static constexpr std::size_t max_values_per_key = 64;
    static constexpr std::size_t max_name_bytes = 200;
    static constexpr std::size_t min_pattern_bytes = 4;
    static constexpr std::size_t max_errors_kept = 100;
    // What one file may store in all (its entries' texts), and in patterns and aliases, which become
    // states of the scanner's automaton.
    static constexpr std::size_t max_text_bytes = std::size_t{4} << 20;
    static constexpr std::size_t max_pattern_bytes = std::size_t{16} << 10;
};

struct team_file_result {
    std::vector<notebook_entry> entries;  // the entries without errors, in file order
    std::vector<std::string> errors;      // one line each, "FILE:LINE: ..." (at most max_errors_kept)
    std::size_t error_count = 0;          // all errors, also those not kept
    std::size_t entries_seen = 0;         // entry: lines, rejected ones included
};

class team_file_parser {
public:
    explicit team_file_parser(std::string file_name) : file_(std::move(file_name)) {}

    // One line without its end of line; `truncated` when the reader cut it at max_line_bytes.
    void line(std::string_view text, std::uint64_t number, bool truncated) {
        if (skipping_) return;  // a cap was reached: the rest of the file is ignored
        if (truncated) {
            error(number, "line longer than " + std::to_string(team_file_limits::max_line_bytes) + " bytes");
            return;
        }
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        const std::string_view trimmed = detail::trim(text);
        if (trimmed.empty() || trimmed.front() == '#') return;
        const std::size_t colon = trimmed.find(':');
        if (colon == std::string_view::npos) {
            error(number, "expected 'key: value' (keys: entry, alias, code, pattern, meaning, cause, fix, link, seen)");
            return;
        }
        const std::string_view key = detail::trim(trimmed.substr(0, colon));
        const std::string_view value = detail::trim(trimmed.substr(colon + 1));
        if (key == "entry") {
            start_entry(value, number);
            return;
        }
        if (!in_entry_) {
            if (known_key(key)) {
                error(number, "'" + printable(key) + ":' before the first 'entry:' line");
            } else {
                error(number, unknown_key_message(key));
            }
            return;
        }
        if (!known_key(key)) {
            error(number, unknown_key_message(key));
            return;
        }
        if (value.empty()) {
            error(number, "'" + std::string(key) + ":' has no value");
            return;
        }
        if (const std::size_t bad = first_control(value); bad != std::string_view::npos) {
            error(number, "a control character (byte " +
                              std::to_string(static_cast<unsigned>(static_cast<unsigned char>(value[bad]))) +
                              ") in the value of '" + std::string(key) + ":'");
            return;
        }
        stored_bytes_ += value.size();
        if (stored_bytes_ > team_file_limits::max_text_bytes) {
            error(number, "more than " + std::to_string(team_file_limits::max_text_bytes >> 20) +
                              " MiB of entry text in one file; the rest is ignored");
            skipping_ = true;
            in_entry_ = false;
            return;
        }
        if (key == "pattern" || key == "alias") {
            pattern_bytes_ += value.size();
            if (pattern_bytes_ > team_file_limits::max_pattern_bytes) {
                error(number, "more than " + std::to_string(team_file_limits::max_pattern_bytes >> 10) +
                                  " KiB of patterns and aliases in one file");
                return;
            }
        }
        if (key == "fix") {
            if (!cause_open_) {
                error(number, "'fix:' without a 'cause:' before it (each cause: is followed by its fix:)");
                return;
            }
            current_.causes.back().fix = std::string(value);
            cause_open_ = false;
            return;
        }
        if (cause_open_) {
            error(cause_line_, "'cause:' without its 'fix:' on a following line");
            cause_open_ = false;
        }
        if (key == "meaning") {
            if (!current_.meaning.empty()) {
                error(number, "a second 'meaning:' (give one meaning per entry)");
                return;
            }
            current_.meaning = std::string(value);
            return;
        }
        if (key == "code") {
            const long long code = analysis::detail::explain_impl::parse_code(value);
            if (code <= 0) {
                error(number, "code '" + printable(value) + "' is not a number from 1 to 2147483647 (decimal or 0x hex)");
                return;
            }
            if (!room(current_.codes.size(), number, key)) return;
            current_.codes.push_back(code);
            return;
        }
        std::vector<std::string>* list = nullptr;
        if (key == "alias") list = &current_.aliases;
        if (key == "pattern") list = &current_.patterns;
        if (key == "link") list = &current_.links;
        if (key == "seen") list = &current_.seen;
        if (key == "cause") {
            if (!room(current_.causes.size(), number, key)) return;
            current_.causes.push_back({std::string(value), std::string()});
            cause_open_ = true;
            cause_line_ = number;
            return;
        }
        if (key == "alias" && value.size() > team_file_limits::max_name_bytes) {
            error(number, "alias longer than " + std::to_string(team_file_limits::max_name_bytes) + " bytes");
            return;
        }
        if (key == "pattern" && value.size() < team_file_limits::min_pattern_bytes) {
            error(number, "pattern '" + printable(value) + "' is shorter than " +
                              std::to_string(team_file_limits::min_pattern_bytes) + " characters (it would match too much)");
            return;
        }
        if (list == nullptr) return;  // unreachable: every known key is handled above
        if (!room(list->size(), number, key)) return;
        list->emplace_back(value);
    }

    team_file_result finish() {
        end_entry();
        return std::move(result_);
    }

private:
    static bool known_key(std::string_view key) {
        for (const std::string_view k : {"entry", "alias", "code", "pattern", "meaning", "cause", "fix", "link", "seen"})
            if (key == k) return true;
        return false;
    }

    static std::string unknown_key_message(std::string_view key) {
        return "unknown key '" + printable(key) + "' (keys: entry, alias, code, pattern, meaning, cause, fix, link, seen)";
    }

    // Bytes below 0x20 (tab excepted) and DEL would break the one-line texts of every output.
    static std::size_t first_control(std::string_view v) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto c = static_cast<unsigned char>(v[i]);
            if ((c < 0x20 && c != '\t') || c == 0x7f) return i;
        }
        return std::string_view::npos;
    }

    // A key or value quoted in an error: at most 60 bytes, control bytes and non-ASCII as \xNN.
    static std::string printable(std::string_view s) {
        std::string out;
        for (std::size_t i = 0; i < s.size() && i < 60; ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x20 && c < 0x7f) {
                out += static_cast<char>(c);
            } else {
                out += "\\x";
                wavefit::detail::append_hex_byte(out, c);
            }
        }
        if (s.size() > 60) out += "...";
        return out;
    }

    bool room(std::size_t used, std::uint64_t number, std::string_view key) {
        if (used < team_file_limits::max_values_per_key) return true;
        error(number, "more than " + std::to_string(team_file_limits::max_values_per_key) + " '" + std::string(key) +
                          ":' lines in one entry");
        return false;
    }

    void start_entry(std::string_view name, std::uint64_t number) {
        end_entry();
        ++result_.entries_seen;
        if (result_.entries_seen > team_file_limits::max_entries) {
            if (result_.entries_seen == team_file_limits::max_entries + 1)
                error(number, "more than " + std::to_string(team_file_limits::max_entries) +
                                  " entries in one file; the rest are ignored");
            in_entry_ = false;
            skipping_ = true;
            return;
        }
        in_entry_ = true;
        entry_failed_ = false;
        current_ = notebook_entry{};
        entry_line_ = number;
        if (name.empty()) {
            error(number, "'entry:' needs a name");
        } else if (name.size() > team_file_limits::max_name_bytes) {
            error(number, "entry name longer than " + std::to_string(team_file_limits::max_name_bytes) + " bytes");
        } else if (first_control(name) != std::string_view::npos) {
            error(number, "a control character in the entry name");
        }
        current_.name = std::string(name);
        current_.origins.push_back(file_ + ":" + std::to_string(number));
    }

    void end_entry() {
        if (!in_entry_) return;
        if (cause_open_) {
            error(cause_line_, "'cause:' without its 'fix:' on a following line");
            cause_open_ = false;
        }
        if (!entry_failed_) result_.entries.push_back(std::move(current_));
        current_ = notebook_entry{};
        in_entry_ = false;
    }

    void error(std::uint64_t number, const std::string& what) {
        if (skipping_) return;
        entry_failed_ = true;
        ++result_.error_count;
        if (result_.errors.size() < team_file_limits::max_errors_kept)
            result_.errors.push_back(file_ + ":" + std::to_string(number) + ": " + what +
                                     (in_entry_ && !current_.name.empty() && number != entry_line_
                                          ? " (entry '" + printable(current_.name) + "', rejected)"
                                          : std::string(in_entry_ ? " (entry rejected)" : "")));
    }

    std::string file_;
    team_file_result result_;
    notebook_entry current_;
    bool in_entry_ = false;
    bool entry_failed_ = false;
    bool cause_open_ = false;
    bool skipping_ = false;
    std::uint64_t entry_line_ = 0;
    std::uint64_t cause_line_ = 0;
    std::size_t stored_bytes_ = 0;
    std::size_t pattern_bytes_ = 0;
};

// The whole of `text` as a team file (tests, the fuzz target); lines are capped as the CLI's reader caps them.
inline team_file_result parse_team_text(std::string_view text, const std::string& file_name) {
    team_file_parser parser(file_name);
    std::uint64_t number = 0;
    text_lines lines(text);
    for (std::string_view line; lines.next(line);) {
        const bool truncated = line.size() > team_file_limits::max_line_bytes;
        if (truncated) line = line.substr(0, team_file_limits::max_line_bytes);
        parser.line(line, ++number, truncated);
    }
    return parser.finish();
}

// Adds the entries of a parsed file to `book`; an entry the notebook refuses becomes one more error line.
inline void add_team_entries(notebook& book, team_file_result& parsed) {
    std::vector<notebook_entry> accepted;
    for (notebook_entry& e : parsed.entries) {
        const std::string origin = e.origins.empty() ? std::string() : e.origins.front();
        notebook_entry copy = e;
        if (const auto why = book.add(std::move(copy))) {
            ++parsed.error_count;
            if (parsed.errors.size() < team_file_limits::max_errors_kept)
                parsed.errors.push_back(origin + ": " + *why + " (entry rejected)");
        } else {
            accepted.push_back(std::move(e));
        }
    }
    parsed.entries = std::move(accepted);
}

}  // namespace wavefit::cli
