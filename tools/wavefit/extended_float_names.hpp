// SPDX-License-Identifier: MIT
// Demangling names with the C23/C++23 floating-point types (_Float16 is DF16_, std::bfloat16_t is
// DF16b) with a demangler that does not know them: libstdc++ 12's __cxa_demangle fails on DF16_
// (status -2) and reads DF16b as a fixed-point type, so every _Float16 / half_t kernel stayed
// mangled. The Itanium ABI makes DF<N>_ a builtin type, and builtin types are never substitution
// candidates, so each such type can be replaced by another builtin the demangler knows ("Dh",
// printed "half") without moving any S<n>_ back-reference; the stand-in's spelling is then
// replaced back. (A vendor type such as u8_Float16 would be a candidate and shift every later
// substitution index.)
//
// Two things could go wrong: a "DF16_" inside an identifier (a source name) is not a type, and the
// stand-in's spelling may already be in the name. The first is caught by demangling twice, with two
// different stand-ins: an identifier would keep each stand-in's raw letters, so the two results
// differ. The second is avoided by using only stand-ins whose code and spelling the name does not
// contain. If either check fails the name is left to the caller (mangled).
#pragma once

#include <cstddef>      // std::size_t
#include <optional>     // a name that is not demangled this way
#include <string>       // names
#include <string_view>  // scanning
#include <utility>      // std::move
#include <vector>       // the types found

#include <wavefit/detail/ascii.hpp>

namespace wavefit::cli {

// One extended floating-point type in a mangled name.
struct extended_float_type {
    std::size_t at = 0;      // offset of "DF" in the mangled name
    std::size_t length = 0;  // "DF16_" is 5
    std::string spelling;    // "_Float16", "_Float32x", "std::bfloat16_t" (as c++filt and llvm-cxxfilt print them)
};

// Every DF<N>_, DF<N>x and DF16b in `mangled`, left to right. Occurrences inside identifiers are
// found too; the double demangling in demangle_extended_floats rules them out.
inline std::vector<extended_float_type> find_extended_float_types(std::string_view mangled) {
    std::vector<extended_float_type> found;
    for (std::size_t i = mangled.find("DF"); i != std::string_view::npos; i = mangled.find("DF", i + 1)) {
        std::size_t end = i + 2;
        while (end < mangled.size() && mangled[end] >= '0' && mangled[end] <= '9') ++end;
        const std::string_view bits = mangled.substr(i + 2, end - i - 2);
        if (bits.empty() || end >= mangled.size() || bits.size() > 4) continue;
        const char suffix = mangled[end];
        std::string spelling;
        if (suffix == '_')
            spelling = "_Float" + std::string(bits);
        else if (suffix == 'x')
            spelling = "_Float" + std::string(bits) + "x";
        else if (suffix == 'b' && bits == "16")
            spelling = "std::bfloat16_t";
        else
            continue;
        found.push_back({i, end + 1 - i, std::move(spelling)});
        i = end;
    }
    return found;
}

namespace extended_float_detail {

// Builtin types every Itanium demangler prints, none of them likely in a GPU kernel's name.
struct stand_in {
    std::string_view code;
    std::string_view spelling;
};
inline constexpr stand_in stand_ins[] = {
    {"Dh", "half"},    {"De", "decimal128"}, {"Dd", "decimal64"}, {"Df", "decimal32"},
    {"Du", "char8_t"}, {"Ds", "char16_t"},   {"Di", "char32_t"},
};

// `text` with every whole-word `word` replaced by `by`.
inline std::string replace_word(std::string_view text, std::string_view word, std::string_view by) {
    std::string out;
    std::size_t from = 0;
    for (std::size_t i = text.find(word); i != std::string_view::npos; i = text.find(word, i + 1)) {
        const bool starts = i == 0 || !wavefit::detail::is_identifier_char(text[i - 1]);
        const bool ends = i + word.size() == text.size() || !wavefit::detail::is_identifier_char(text[i + word.size()]);
        if (!starts || !ends) continue;
        out.append(text.substr(from, i - from));
        out.append(by);
        from = i + word.size();
        i = from - 1;
    }
    out.append(text.substr(from));
    return out;
}

}  // namespace extended_float_detail

// The demangled form of `mangled` through `demangle` (a callable std::string -> std::optional<
// std::string>, e.g. wrapping abi::__cxa_demangle), with its extended floating-point types spelled
// as c++filt spells them. std::nullopt when the name has none of those types, when too many
// distinct ones leave too few stand-ins, or when the two demanglings disagree.
template <class Demangle>
std::optional<std::string> demangle_extended_floats(const std::string& mangled, Demangle&& demangle) {
    namespace x = extended_float_detail;
    const std::vector<extended_float_type> types = find_extended_float_types(mangled);
    if (types.empty()) return std::nullopt;

    std::vector<std::string> spellings;  // distinct, in order of appearance
    for (const extended_float_type& t : types) {
        bool known = false;
        for (const std::string& s : spellings) known = known || s == t.spelling;
        if (!known) spellings.push_back(t.spelling);
    }
    std::vector<const x::stand_in*> usable;
    for (const x::stand_in& s : x::stand_ins)
        if (mangled.find(s.code) == std::string::npos && mangled.find(s.spelling) == std::string::npos) usable.push_back(&s);
    if (usable.size() < 2 * spellings.size()) return std::nullopt;

    std::optional<std::string> result;
    for (std::size_t variant = 0; variant < 2; ++variant) {
        // Spelling j uses stand-in 2j in the first demangling and 2j+1 in the second.
        const auto stand_in_of = [&](const std::string& spelling) -> const x::stand_in& {
            std::size_t j = 0;
            while (spellings[j] != spelling) ++j;
            return *usable[2 * j + variant];
        };
        std::string rewritten;
        std::size_t from = 0;
        for (const extended_float_type& t : types) {
            rewritten.append(mangled, from, t.at - from);
            rewritten.append(stand_in_of(t.spelling).code);
            from = t.at + t.length;
        }
        rewritten.append(mangled, from, std::string::npos);
        std::optional<std::string> text = demangle(rewritten);
        if (!text) return std::nullopt;
        for (const std::string& spelling : spellings)
            *text = x::replace_word(*text, stand_in_of(spelling).spelling, spelling);
        if (result && *result != *text) return std::nullopt;
        result = std::move(text);
    }
    return result;
}

}  // namespace wavefit::cli
