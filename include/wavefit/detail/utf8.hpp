// SPDX-License-Identifier: MIT
// The one definition of well-formed UTF-8 (RFC 3629) that wavefit's JSON reader and JSON writers
// share: what a lead byte announces. No overlong forms, no surrogates, nothing above U+10FFFF.
#pragma once

#include "../config.hpp"

#include <cstddef>      // std::size_t
#include <string>       // well_formed_utf8
#include <string_view>  // the text

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

struct utf8_lead {
    std::size_t length = 0;           // bytes in the sequence; 0: not a lead byte (ASCII is not asked here)
    unsigned char min_second = 0x80;  // the range the second byte must be in; later bytes are 80..BF
    unsigned char max_second = 0xBF;
};

constexpr utf8_lead utf8_lead_of(unsigned char lead) noexcept {
    if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
    if (lead >= 0xE0 && lead <= 0xEF) {
        return {3, static_cast<unsigned char>(lead == 0xE0 ? 0xA0 : 0x80),  // no overlong forms
                static_cast<unsigned char>(lead == 0xED ? 0x9F : 0xBF)};    // no surrogates
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        return {4, static_cast<unsigned char>(lead == 0xF0 ? 0x90 : 0x80),
                static_cast<unsigned char>(lead == 0xF4 ? 0x8F : 0xBF)};  // nothing above U+10FFFF
    }
    return {};
}

// U+FFFD REPLACEMENT CHARACTER: what a writer puts where a byte starts no well-formed sequence.
inline constexpr std::string_view utf8_replacement = "\xEF\xBF\xBD";

// The length of the well-formed sequence of two to four bytes that starts at text[i] (a byte of 0x80
// or above), or 0 where none does: a stray byte, or a sequence malformed or cut by the text's end.
constexpr std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const utf8_lead lead = utf8_lead_of(byte(i));
    if (lead.length == 0 || lead.length > text.size() - i) return 0;
    if (byte(i + 1) < lead.min_second || byte(i + 1) > lead.max_second) return 0;
    for (std::size_t k = 2; k < lead.length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return lead.length;
}

// Calls text_run(first, length) for each run of well-formed UTF-8 in `text` and bad_byte() for each
// byte that starts no well-formed sequence, in order: what a writer of JSON (which holds only
// well-formed text) does with bytes from outside, such as a device's name.
template <class TextRun, class BadByte>
void for_each_utf8_run(std::string_view text, TextRun&& text_run, BadByte&& bad_byte) {
    std::size_t start = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = utf8_sequence_length(text, i);
        if (length != 0) {
            i += length;
            continue;
        }
        if (i != start) text_run(start, i - start);
        bad_byte();
        start = ++i;
    }
    if (i != start) text_run(start, i - start);
}

// `text` with every byte that starts no well-formed sequence replaced by U+FFFD, as a JSON writer
// writes it: a tuning key made of runtime text compares equal to the record that holds it.
inline std::string well_formed_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for_each_utf8_run(
        text, [&](std::size_t first, std::size_t length) { out.append(text, first, length); },
        [&] { out += utf8_replacement; });
    return out;
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
