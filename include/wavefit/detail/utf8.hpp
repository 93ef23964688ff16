// SPDX-License-Identifier: MIT
// The one definition of well-formed UTF-8 (RFC 3629) that wavefit's JSON reader and the CLI's JSON
// writer share: what a lead byte announces. No overlong forms, no surrogates, nothing above U+10FFFF.
#pragma once

#include "../config.hpp"

#include <cstddef>  // std::size_t

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

}  // namespace detail
WAVEFIT_END_NAMESPACE
