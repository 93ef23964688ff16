// SPDX-License-Identifier: MIT
// The two ways to accept a lint finding, both read from untrusted text and fuzzed (fuzz/fuzz_lint_suppressions.cpp):
//   * a comment in the source, as clang-tidy spells it: `// NOLINT`, `// NOLINT(code, ...)`,
//     `// NOLINTNEXTLINE(...)`, and `// NOLINTBEGIN(...)` ... `// NOLINTEND(...)`. A code is a finding code,
//     `wavefit-CODE`, `wavefit` or `wavefit-*` (all of lint's codes), or `*`; other tools' names are ignored;
//     no list means every code, as in clang-tidy;
//   * a baseline file of accepted findings for legacy code, one per line: `CODE PATH FINGERPRINT`, where the
//     fingerprint hashes the code and the finding's line text (not its number, so it survives edits above it)
//     and PATH is relative to the baseline file. `wavefit lint --write-baseline FILE` writes one.
// Both parsers are bounded: a line is at most max_line_bytes, a file at most max_entries entries, and every
// error is one line "NAME:LINE: reason".
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // fingerprints, line numbers
#include <string>       // codes, errors
#include <string_view>  // input text
#include <vector>       // entries

#include <wavefit/detail/ascii.hpp>

#include "../text_lines.hpp"
#include "rules.hpp"

namespace wavefit::cli::lint {

// ---- NOLINT comments ---------------------------------------------------------------------------------

struct nolint_rule {
    std::uint32_t first_line = 0;  // 1-based, inclusive
    std::uint32_t last_line = 0;
    bool all_codes = false;
    std::vector<std::string> codes;  // lint codes (without "wavefit-"), when not all_codes
};

namespace nolint_detail {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

inline std::string_view trimmed(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// The codes of "(a, b, c)" after a NOLINT marker. `all` is set by an empty list, `*`, `wavefit` or
// `wavefit-*`; names of other tools are dropped. False when there is no list at all.
inline bool parse_list(std::string_view rest, bool& all, std::vector<std::string>& codes) {
    if (rest.empty() || rest.front() != '(') return false;
    const std::size_t close = rest.find(')');
    if (close == std::string_view::npos) return false;
    std::string_view list = rest.substr(1, close - 1);
    bool any = false;
    while (true) {
        const std::size_t comma = list.find(',');
        const std::string_view item = trimmed(list.substr(0, comma));
        if (!item.empty()) {
            any = true;
            std::string_view code = item;
            if (code == "*" || code == "wavefit" || code == "wavefit-*") all = true;
            if (code.substr(0, 8) == "wavefit-") code.remove_prefix(8);
            if (find_rule(code) != nullptr) codes.emplace_back(code);
        }
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    if (!any) all = true;
    return true;
}

}  // namespace nolint_detail

// The NOLINT rules of a source file. `text` may be anything: bytes that are no C++ only yield fewer rules.
inline std::vector<nolint_rule> scan_nolint(std::string_view text) {
    using namespace nolint_detail;
    std::vector<nolint_rule> found;
    struct open_block {
        std::uint32_t line;
        bool all;
        std::vector<std::string> codes;
    };
    std::vector<open_block> blocks;
    constexpr std::size_t max_rules = 1000000;
    std::uint32_t line = 1;
    std::size_t i = 0;
    const std::size_t n = text.size();
    const auto handle_comment = [&](std::string_view comment, std::uint32_t at_line) {
        std::size_t pos = 0;
        while ((pos = comment.find("NOLINT", pos)) != std::string_view::npos && found.size() < max_rules) {
            std::string_view rest = comment.substr(pos + 6);
            std::string kind;
            for (const char* k : {"NEXTLINE", "BEGIN", "END"})
                if (rest.substr(0, std::string_view(k).size()) == k) {
                    kind = k;
                    rest.remove_prefix(kind.size());
                    break;
                }
            pos += 6 + kind.size();
            bool all = false;
            std::vector<std::string> codes;
            if (!parse_list(rest, all, codes)) all = true;
            if (!all && codes.empty()) continue;  // a list for other tools only
            if (kind == "BEGIN") {
                if (blocks.size() < 1024) blocks.push_back({at_line, all, codes});
                continue;
            }
            if (kind == "END") {
                if (blocks.empty()) continue;
                const open_block b = blocks.back();
                blocks.pop_back();
                found.push_back({b.line, at_line, b.all, b.codes});
                continue;
            }
            const std::uint32_t target = kind == "NEXTLINE" ? at_line + 1 : at_line;
            found.push_back({target, target, all, std::move(codes)});
        }
    };
    while (i < n) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
            std::size_t end = text.find('\n', i);
            if (end == std::string_view::npos) end = n;
            handle_comment(text.substr(i + 2, end - i - 2), line);
            i = end;
        } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            std::size_t end = text.find("*/", i + 2);
            if (end == std::string_view::npos) end = n;
            const std::string_view body = text.substr(i + 2, end - i - 2);
            handle_comment(body, line);
            for (const char b : body) line += b == '\n' ? 1 : 0;
            i = end == n ? n : end + 2;
        } else if (c == '"' || c == '\'') {
            // A literal: skipped so that "// NOLINT" inside a string is no comment; ends at its quote or line.
            ++i;
            while (i < n && text[i] != c && text[i] != '\n') i += text[i] == '\\' && i + 1 < n && text[i + 1] != '\n' ? 2 : 1;
            if (i < n && text[i] == c) ++i;
        } else {
            ++i;
        }
    }
    // A NOLINTBEGIN without its END covers the rest of the file, as clang-tidy's does not: it reports it.
    // Here it is simply closed at the end, so that a forgotten END never hides less than was asked.
    for (const open_block& b : blocks) found.push_back({b.line, line, b.all, b.codes});
    return found;
}

inline bool suppressed_by(const std::vector<nolint_rule>& comments, std::uint32_t line, std::string_view code) {
    for (const nolint_rule& r : comments) {
        if (line < r.first_line || line > r.last_line) continue;
        if (r.all_codes) return true;
        for (const std::string& c : r.codes)
            if (c == code) return true;
    }
    return false;
}

// ---- fingerprints ------------------------------------------------------------------------------------

// FNV-1a 64 over the code and the line's text with its whitespace collapsed, and the occurrence index
// among findings of the same code and text in the file (so that two equal lines stay distinct).
inline std::uint64_t fingerprint(std::string_view code, std::string_view line_text, std::uint32_t occurrence) {
    std::uint64_t h = 1469598103934665603ull;
    const auto add = [&](unsigned char b) {
        h ^= b;
        h *= 1099511628211ull;
    };
    for (const char c : code) add(static_cast<unsigned char>(c));
    add(0);
    bool space = false;
    bool started = false;
    for (const char c : line_text) {
        if (nolint_detail::is_space(c) || c == '\n') {
            space = started;
            continue;
        }
        if (space) add(' ');
        space = false;
        started = true;
        add(static_cast<unsigned char>(c));
    }
    add(0);
    for (int shift = 0; shift < 32; shift += 8) add(static_cast<unsigned char>((occurrence >> shift) & 0xff));
    return h;
}

inline std::string fingerprint_text(std::uint64_t f) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i) {
        s[static_cast<std::size_t>(i)] = hex[f & 0xf];
        f >>= 4;
    }
    return s;
}

// ---- the baseline file -------------------------------------------------------------------------------

struct baseline_entry {
    std::string code;
    std::string path;  // decoded: relative to the baseline file, '/'-separated
    std::string fingerprint;
    std::uint64_t line = 0;  // where it was read
};

struct baseline_file {
    std::vector<baseline_entry> entries;
    std::vector<std::string> errors;  // "NAME:LINE: reason", at most max_errors_kept
    std::uint64_t error_count = 0;
};

struct baseline_limits {
    static constexpr std::size_t max_entries = 1000000;
    static constexpr std::size_t max_line_bytes = 4096;
    static constexpr std::size_t max_errors_kept = 20;
};

inline bool is_fingerprint(std::string_view s) {
    if (s.size() != 16) return false;
    for (const char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

// Paths are written with ' ', '#', '%' and control characters percent-encoded, so that a path with a space
// stays one field and a '#' starts no comment.
inline std::string encode_path(std::string_view path) {
    std::string s;
    for (const char c : path) {
        const auto b = static_cast<unsigned char>(c);
        if (b <= 0x20 || b == 0x7f || c == '#' || c == '%') {
            s += '%';
            wavefit::detail::append_hex_byte(s, b, true);
        } else {
            s += c;
        }
    }
    return s;
}

// The inverse of encode_path; false for a malformed escape.
inline bool decode_path(std::string_view text, std::string& out) {
    out.clear();
    const auto digit = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        const int hi = i + 1 < text.size() ? digit(text[i + 1]) : -1;
        const int lo = i + 2 < text.size() ? digit(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) return false;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return true;
}

inline baseline_file parse_baseline(std::string_view text, std::string_view name) {
    baseline_file result;
    const auto error = [&](std::uint64_t line, const std::string& reason) {
        ++result.error_count;
        if (result.errors.size() < baseline_limits::max_errors_kept)
            result.errors.push_back(std::string(name) + ":" + std::to_string(line) + ": " + reason);
    };
    std::uint64_t line_number = 0;
    text_lines lines(text);
    for (std::string_view line; lines.next(line);) {
        ++line_number;
        if (line.size() > baseline_limits::max_line_bytes) {
            error(line_number, "line longer than " + std::to_string(baseline_limits::max_line_bytes) + " bytes");
            continue;
        }
        const std::size_t hash = line.find('#');
        line = nolint_detail::trimmed(line.substr(0, hash));
        if (line.empty()) continue;
        std::vector<std::string_view> fields;
        std::size_t i = 0;
        while (i < line.size() && fields.size() < 4) {
            while (i < line.size() && nolint_detail::is_space(line[i])) ++i;
            std::size_t j = i;
            while (j < line.size() && !nolint_detail::is_space(line[j])) ++j;
            if (j > i) fields.push_back(line.substr(i, j - i));
            i = j;
        }
        if (fields.size() != 3) {
            error(line_number, "expected CODE PATH FINGERPRINT, got " + std::to_string(fields.size()) + " field" +
                                   (fields.size() == 1 ? "" : "s"));
            continue;
        }
        if (find_rule(fields[0]) == nullptr) {
            error(line_number, "unknown finding code (see docs/lint.md)");
            continue;
        }
        std::string path;
        if (!decode_path(fields[1], path) || path.empty()) {
            error(line_number, "the path has a malformed %-escape");
            continue;
        }
        if (!is_fingerprint(fields[2])) {
            error(line_number, "the fingerprint is not 16 lower-case hex digits");
            continue;
        }
        if (result.entries.size() >= baseline_limits::max_entries) {
            error(line_number, "more than " + std::to_string(baseline_limits::max_entries) + " entries");
            break;
        }
        result.entries.push_back({std::string(fields[0]), std::move(path), std::string(fields[2]), line_number});
    }
    return result;
}

inline std::string baseline_line(std::string_view code, std::string_view path, std::string_view fingerprint) {
    return std::string(code) + " " + encode_path(path) + " " + std::string(fingerprint) + "\n";
}

}  // namespace wavefit::cli::lint
