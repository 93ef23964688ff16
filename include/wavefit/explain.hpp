// SPDX-License-Identifier: MIT
// Looking up wavefit's knowledge base (detail/explanation_table.hpp) the way people type or paste
// an error: a number, a name, a message, a log line or a diagnostic code. The library quotes the
// entries in exception messages, `wavefit explain CODE` prints them, and the tests check them.
// Pure C++17 and constexpr throughout: no GPU header, no allocation.
#pragma once

#include <cstddef>      // std::size_t: indices
#include <cstdint>      // std::uint64_t: overflow-checked parsing of numeric error codes
#include <string_view>  // queries

#include "config.hpp"
#include "detail/ascii.hpp"
#include "detail/explanation_table.hpp"
#include "diagnostic.hpp"
#include "explanation.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

namespace explain_impl {

// Longest query looked at; longer input is judged by its first 64 KiB (a pasted log excerpt fits easily).
inline constexpr std::size_t max_query_length = std::size_t{64} * 1024;

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

using wavefit::detail::hex_digit_value;
using wavefit::detail::iequals;
using wavefit::detail::ifind;
using wavefit::detail::is_digit;
using wavefit::detail::is_identifier_char;
using wavefit::detail::is_space;
using wavefit::detail::trim;

inline constexpr long long not_a_number = -1;
inline constexpr long long too_large = -2;

// `s` whole as a decimal or 0x-hex number: its value, not_a_number, or too_large (over INT32_MAX).
constexpr long long parse_code(std::string_view s) noexcept {
    constexpr std::uint64_t cap = 0x7fffffffu;
    std::uint64_t base = 10;
    std::size_t i = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i >= s.size()) return not_a_number;
    std::uint64_t v = 0;
    bool big = false;
    for (; i < s.size(); ++i) {
        const int d = base == 16 ? hex_digit_value(s[i]) : (is_digit(s[i]) ? s[i] - '0' : -1);
        if (d < 0) return not_a_number;
        if (!big) {
            v = v * base + static_cast<std::uint64_t>(d);
            if (v > cap) big = true;
        }
    }
    return big ? too_large : static_cast<long long>(v);
}

// The lookups below work on table indices (npos for none) and turn an index into a pointer only at the
// end: GCC cannot constant-evaluate pointer null checks under -fsanitize=undefined, indices it can.

constexpr std::size_t index_by_code(long long code) noexcept {
    if (code < 0) return npos;
    for (std::size_t i = 0; i < table_size; ++i)
        if (table[i].kind == explanation_kind::runtime_error && table[i].code == code) return i;
    return npos;
}

// Exact (case-insensitive) match on name, alias or CUDA name.
constexpr std::size_t index_by_name(std::string_view s) noexcept {
    if (s.empty()) return npos;
    for (std::size_t i = 0; i < table_size; ++i)
        if (iequals(s, table[i].name) || iequals(s, table[i].alias) || iequals(s, table[i].cuda_name)) return i;
    return npos;
}

// Where the next identifier of `text` at or after `from` starts and ends; first == text.size() when
// there is none.
struct identifier_span {
    std::size_t first = 0;
    std::size_t end = 0;
};

constexpr identifier_span next_identifier(std::string_view text, std::size_t from) noexcept {
    std::size_t first = from;
    while (first < text.size() && !is_identifier_char(text[first])) ++first;
    std::size_t end = first;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    return {first, end};
}

// The first identifier in `text` that names an entry.
constexpr std::size_t index_by_token(std::string_view text) noexcept {
    for (identifier_span w = next_identifier(text, 0); w.first < text.size(); w = next_identifier(text, w.end)) {
        const std::size_t found = index_by_name(text.substr(w.first, w.end - w.first));
        if (found != npos) return found;
    }
    return npos;
}

// The entry whose runtime message is the longest one contained in `text`.
constexpr std::size_t index_by_embedded_message(std::string_view text) noexcept {
    std::size_t best = npos;
    std::size_t best_length = 0;
    for (std::size_t i = 0; i < table_size; ++i) {
        if (table[i].kind == explanation_kind::log_line) continue;  // printf formats, matched by phrase instead
        const std::string_view messages[2] = {table[i].message, table[i].cuda_message};
        for (std::string_view m : messages)
            if (m.size() > best_length && ifind(text, m) != npos) {
                best = i;
                best_length = m.size();
            }
    }
    return best;
}

struct phrase {
    std::string_view text;
    std::string_view entry;
};

// Fragments of runtime log lines that identify an entry; checked before names (they are more specific).
inline constexpr phrase strong_phrases[] = {
    {"larger than launch bounds", launch_bounds_line},
    {"HSA_STATUS_ERROR_INVALID_ISA", "HSA_STATUS_ERROR_INVALID_ISA"},
    {"instruction set architecture is invalid", "HSA_STATUS_ERROR_INVALID_ISA"},
    {"Out of VGPRs", "HSA_STATUS_ERROR_INVALID_ISA"},
    {"HSA_STATUS_ERROR_OUT_OF_RESOURCES", "HSA_STATUS_ERROR_OUT_OF_RESOURCES"},
    {"Unable to find code object", "hipErrorNoBinaryForGpu"},
};

// Fragments that only describe a consequence; checked after names and messages.
inline constexpr phrase weak_phrases[] = {
    {"Memory access fault by GPU", "hipErrorIllegalAddress"},
    {"Device-side assertion `", "hipErrorAssert"},
};

template <std::size_t N>
constexpr std::size_t index_by_phrase(std::string_view text, const phrase (&phrases)[N]) noexcept {
    for (const phrase& p : phrases)
        if (ifind(text, p.text) != npos) return index_by_name(p.entry);
    return npos;
}

// A HIP number after a word such as error/code/status: 'HIP error 209', 'error code 9', 'code=0x1'.
constexpr std::size_t index_by_keyword_number(std::string_view text) noexcept {
    constexpr std::string_view keywords[] = {"error", "err", "code", "status", "returned", "errno"};
    for (identifier_span w = next_identifier(text, 0); w.first < text.size(); w = next_identifier(text, w.end)) {
        const std::string_view word = text.substr(w.first, w.end - w.first);
        const std::size_t end = w.end;
        bool keyword = false;
        for (std::string_view k : keywords) keyword = keyword || iequals(word, k);
        if (!keyword) continue;
        std::size_t p = end;
        std::size_t skipped = 0;
        while (p < text.size() && skipped < 4 &&
               (is_space(text[p]) || text[p] == ':' || text[p] == '=' || text[p] == '#' || text[p] == '(' ||
                text[p] == '[' || text[p] == '\'' || text[p] == '"')) {
            ++p;
            ++skipped;
        }
        if (p >= text.size() || !is_digit(text[p])) continue;
        std::size_t q = p;
        while (q < text.size() && is_identifier_char(text[q])) ++q;
        const std::size_t found = index_by_code(parse_code(text.substr(p, q - p)));
        if (found != npos) return found;
    }
    return npos;
}

// The whole lookup of find_explanation, as an index.
constexpr std::size_t index_of(std::string_view query) noexcept {
    if (query.size() > max_query_length) query = query.substr(0, max_query_length);
    query = trim(query);
    if (query.empty()) return npos;
    const long long number = parse_code(query);
    if (number != not_a_number) return index_by_code(number);  // a bare number is a HIP code or nothing
    std::size_t i = index_by_name(query);
    if (i == npos) i = index_by_phrase(query, strong_phrases);
    if (i == npos) i = index_by_token(query);
    if (i == npos) i = index_by_embedded_message(query);
    if (i == npos) i = index_by_phrase(query, weak_phrases);
    if (i == npos) i = index_by_keyword_number(query);
    return i;
}

constexpr const error_explanation* entry_at(std::size_t i) noexcept { return i < table_size ? &table[i] : nullptr; }

// The entry of a HIP error number (what the library has in hand after a failed launch), or nullptr.
constexpr const error_explanation* explanation_by_code(long long code) noexcept { return entry_at(index_by_code(code)); }

// Every diagnostic code has its entry: adding a code to WAVEFIT_DIAGNOSTIC_CODES without one stops here.
constexpr bool every_diagnostic_explained() noexcept {
    for (const auto& info : wavefit::detail::code_table) {
        const std::size_t i = index_by_name(info.name);
        if (i == npos || table[i].kind != explanation_kind::diagnostic) return false;
    }
    return true;
}
static_assert(every_diagnostic_explained(), "wavefit: a diagnostic code has no entry in detail/explanation_table.hpp");

}  // namespace explain_impl

// Every entry: runtime errors in HIP number order, then log lines, then the diagnostic codes.
constexpr explanation_list all_error_explanations() noexcept {
    return explanation_list(detail::explain_impl::table, detail::explain_impl::table_size);
}

// Looks up a query the way a user types or pastes it:
//  - a HIP error number, decimal or 0x-hex ('209', '0xd1'), which must be the whole query;
//  - a hipError*, cudaError* or deprecated HIP name, or a wavefit diagnostic code (case-insensitive);
//  - a runtime message such as 'invalid configuration argument', alone or inside a longer log line;
//  - a log line: 'HIP error 209', 'error code 9', 'hipErrorNoBinaryForGpu: Unable to find code object ...',
//    'Launch params (1024, 1, 1) are larger than launch bounds (256) for kernel ...',
//    'HSA_STATUS_ERROR_INVALID_ISA: ...', 'Memory access fault by GPU ...'.
// Precedence: a bare number; an exact name; a log-line phrase; the first error name in the text; the longest
// runtime message in the text; a fault or assert line; a number after error/code/status.
// Returns nullptr when nothing matches. Never throws and never reads outside `query`; only the first
// 64 KiB of a longer query is looked at.
constexpr const error_explanation* find_explanation(std::string_view query) noexcept {
    return detail::explain_impl::entry_at(detail::explain_impl::index_of(query));
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
