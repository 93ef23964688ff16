// SPDX-License-Identifier: MIT
// The parts of a demangled C++ name that --kernel NAME may give: "void ns::f<int>(float*)" ->
// "ns::f<int>" -> "ns::f" -> "f". Brackets nest ("f<g<(1>0)> >(h<int>)"), so each part is found by
// one scan that skips what is inside them.
#pragma once

#include <cstddef>      // std::size_t
#include <string_view>  // views into the name

namespace wavefit::cli {

// The largest i such that `at(i)` holds and s[i] is outside every pair of brackets counted here:
// `closers` and `openers` are matching lists ("<(" and ">)"). The scan runs from the end and an
// opener is outside once it closes its pair, so at(i) may be "s[i] == '('" to find the opener of a
// final ')'. Openers without a closer are ignored. npos if there is none; linear in s.size().
template <class Predicate>
constexpr std::size_t rfind_outside_brackets(std::string_view s, std::string_view openers, std::string_view closers,
                                             Predicate at) {
    std::size_t depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (closers.find(s[i]) != std::string_view::npos) {
            ++depth;
            continue;
        }
        if (openers.find(s[i]) != std::string_view::npos && depth > 0) --depth;
        if (depth == 0 && at(i)) return i;
    }
    return std::string_view::npos;
}

// "void f<int>(float*, int)" -> "void f<int>": the text before the final balanced (...).
constexpr std::string_view without_parameters(std::string_view s) {
    if (s.empty() || s.back() != ')') return s;
    const std::size_t open = rfind_outside_brackets(s, "(", ")", [&](std::size_t i) { return s[i] == '('; });
    return open == std::string_view::npos ? s : s.substr(0, open);
}

// "void ns::f<int>" -> "ns::f<int>": the demangler prints a template function's return type first.
constexpr std::string_view without_return_type(std::string_view s) {
    const std::size_t space = rfind_outside_brackets(s, "<(", ">)", [&](std::size_t i) { return s[i] == ' '; });
    return space == std::string_view::npos ? s : s.substr(space + 1);
}

// "ns::f<int, g<2> >" -> "ns::f".
constexpr std::string_view without_template_arguments(std::string_view s) {
    if (s.empty() || s.back() != '>') return s;
    const std::size_t open = rfind_outside_brackets(s, "<", ">", [&](std::size_t i) { return s[i] == '<'; });
    return open == std::string_view::npos ? s : s.substr(0, open);
}

// "(anonymous namespace)::ns::f" -> "f".
constexpr std::string_view last_component(std::string_view s) {
    const std::size_t colons =
        rfind_outside_brackets(s, "<(", ">)", [&](std::size_t i) { return i > 0 && s[i] == ':' && s[i - 1] == ':'; });
    return colons == std::string_view::npos ? s : s.substr(colons + 1);
}

}  // namespace wavefit::cli
