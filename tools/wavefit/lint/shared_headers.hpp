// SPDX-License-Identifier: MIT
// Project headers that many sources include first (ggml's template instances all start with
// `#include "../mmq.cuh"`): the run precompiles such a header once and parses each of those sources on
// top of it, so the header costs its first parse only. Only what cannot change the headers' meaning
// qualifies: the quoted includes that open the source (nothing but comments and blank lines before
// them), each a guarded header (`#pragma once`, or `#ifndef X` followed by `#define X`) beside its
// includer, so that the source's own includes of them are then skipped; an unguarded one contributes the
// guarded headers that open it, and ends the list. A scan of the text's first directives, no more:
// anything it does not recognise makes the source or header simply not shared (fuzzed with the NOLINT
// scanner, fuzz/fuzz_lint_suppressions.cpp).
#pragma once

#include <cstddef>      // positions
#include <string>       // names
#include <string_view>  // source text
#include <vector>       // the leading includes

namespace wavefit::cli::lint {
namespace header_scan {

inline constexpr std::size_t none = std::string_view::npos;

inline bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// The position of the next character that is neither blank nor inside a comment; `none` when a comment
// is unterminated or a line comment is continued with a backslash (whose reach this scan does not model).
inline std::size_t skip_blank(std::string_view s, std::size_t i) {
    for (;;) {
        while (i < s.size() && blank(s[i])) ++i;
        if (s.compare(i, 2, "//") == 0) {
            const std::size_t end = s.find('\n', i);
            const std::size_t last = end == none ? s.size() : end;
            std::size_t back = last;
            while (back > i && (s[back - 1] == '\r' || s[back - 1] == ' ' || s[back - 1] == '\t')) --back;
            if (back > i && s[back - 1] == '\\') return none;
            i = last;
            continue;
        }
        if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            if (end == none) return none;
            i = end + 2;
            continue;
        }
        return i;
    }
}

struct directive {
    std::string_view name;
    std::string_view rest;  // the line after the name, without its line end
    std::size_t next = none;
};

// The directive at `i` (a '#'), or a directive with an empty name when the line is continued or has none.
inline directive read_directive(std::string_view s, std::size_t i) {
    directive d;
    const std::size_t end = s.find('\n', i);
    const std::size_t last = end == none ? s.size() : end;
    std::string_view line = s.substr(i + 1, last - i - 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') return d;
    std::size_t p = 0;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    const std::size_t name_start = p;
    while (p < line.size() && ((line[p] >= 'a' && line[p] <= 'z') || (line[p] >= 'A' && line[p] <= 'Z') || line[p] == '_' ||
                               (line[p] >= '0' && line[p] <= '9')))
        ++p;
    d.name = line.substr(name_start, p - name_start);
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    d.rest = line.substr(p);
    d.next = last;
    return d;
}

// `rest` is exactly `once`, possibly followed by a comment.
inline bool only(std::string_view rest, std::string_view word) {
    if (rest.compare(0, word.size(), word) != 0) return false;
    const std::size_t after = skip_blank(rest, word.size());
    return after == rest.size();
}

// The identifier that starts `rest`, when nothing but blanks or a comment follows it.
inline std::string_view sole_identifier(std::string_view rest) {
    std::size_t p = 0;
    while (p < rest.size() && ((rest[p] >= 'a' && rest[p] <= 'z') || (rest[p] >= 'A' && rest[p] <= 'Z') || rest[p] == '_' ||
                               (p > 0 && rest[p] >= '0' && rest[p] <= '9')))
        ++p;
    if (p == 0 || skip_blank(rest, p) != rest.size()) return {};
    return rest.substr(0, p);
}

}  // namespace header_scan

// The names of the quoted #include directives that open `source_text`, in order (after comments, blank
// lines and a `#pragma once`), up to the first other directive, angled include, code, continued line or
// unterminated comment.
inline std::vector<std::string> leading_quoted_includes(std::string_view text) {
    std::vector<std::string> names;
    std::size_t i = 0;
    for (;;) {
        i = header_scan::skip_blank(text, i);
        if (i == header_scan::none || i >= text.size() || text[i] != '#') return names;
        const header_scan::directive d = header_scan::read_directive(text, i);
        if (d.next == header_scan::none) return names;
        if (d.name == "pragma" && names.empty() && header_scan::only(d.rest, "once")) {
            i = d.next;
            continue;
        }
        if (d.name != "include" || d.rest.size() < 3 || d.rest.front() != '"') return names;
        const std::size_t close = d.rest.find('"', 1);
        if (close == header_scan::none || close == 1 || header_scan::skip_blank(d.rest, close + 1) != d.rest.size()) return names;
        const std::string_view name = d.rest.substr(1, close - 1);
        if (name.find_first_of("\\\r") != header_scan::none) return names;
        names.emplace_back(name);
        i = d.next;
    }
}

// Whether the header's first directive is `#pragma once`, or `#ifndef X` directly followed by `#define X`.
inline bool header_is_guarded(std::string_view text) {
    std::size_t i = header_scan::skip_blank(text, 0);
    if (i == header_scan::none || i >= text.size() || text[i] != '#') return false;
    const header_scan::directive first = header_scan::read_directive(text, i);
    if (first.next == header_scan::none) return false;
    if (first.name == "pragma") return header_scan::only(first.rest, "once");
    if (first.name != "ifndef") return false;
    const std::string_view guard = header_scan::sole_identifier(first.rest);
    if (guard.empty()) return false;
    i = header_scan::skip_blank(text, first.next);
    if (i == header_scan::none || i >= text.size() || text[i] != '#') return false;
    const header_scan::directive second = header_scan::read_directive(text, i);
    if (second.next == header_scan::none || second.name != "define") return false;
    // `#define X` or `#define X 1`: the guard macro is what is defined.
    std::size_t p = 0;
    while (p < second.rest.size() && second.rest[p] != ' ' && second.rest[p] != '\t' && second.rest[p] != '/') ++p;
    return second.rest.substr(0, p) == guard;
}

}  // namespace wavefit::cli::lint
