// SPDX-License-Identifier: MIT
// The message helpers of the binary readers (byte_view.hpp).
#include "byte_view.hpp"

namespace wavefit::analysis::detail {

std::string hex(std::uint64_t v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    do {
        text.insert(text.begin(), digits[v & 0xf]);
        v >>= 4;
    } while (v != 0);
    return "0x" + text;
}

std::string printable(std::string_view s, std::size_t limit) {
    std::string text;
    for (std::size_t i = 0; i < s.size() && i < limit; ++i) text += (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s.size() > limit) text += "...";
    return text;
}

void fail(const std::string& message) { throw code_object_error(message); }

}  // namespace wavefit::analysis::detail
