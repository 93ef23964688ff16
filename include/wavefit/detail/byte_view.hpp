// SPDX-License-Identifier: MIT
// A bounded window on untrusted bytes, shared by the ELF, offload-bundle and msgpack readers: every
// read names its offset and length and is checked against the window first, so a hostile file can
// produce an error but never an out-of-bounds read. Offsets in messages are file offsets.
#pragma once

#include "../config.hpp"

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width fields of the file formats
#include <stdexcept>    // std::runtime_error, the base of code_object_error
#include <string>       // messages
#include <string_view>  // names and ids inside the file, without copying

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// A file (or a part of one) that is not a readable AMDGPU code object, offload bundle or HIP binary:
// the message is one line saying what is wrong and at which file offset.
class code_object_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline std::string hex(std::uint64_t v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    do {
        text.insert(text.begin(), digits[v & 0xf]);
        v >>= 4;
    } while (v != 0);
    return "0x" + text;
}

// Text taken from the file, made safe for a one-line message: at most `limit` characters, anything
// but printable ASCII shown as '?'.
inline std::string printable(std::string_view s, std::size_t limit = 80) {
    std::string text;
    for (std::size_t i = 0; i < s.size() && i < limit; ++i) text += (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s.size() > limit) text += "...";
    return text;
}

[[noreturn]] inline void fail(const std::string& message) { throw code_object_error(message); }

struct byte_view {
    const std::uint8_t* data = nullptr;
    std::uint64_t size = 0;
    std::uint64_t base = 0;  // file offset of data[0]

    constexpr bool contains(std::uint64_t offset, std::uint64_t length) const noexcept {
        return offset <= size && length <= size - offset;
    }

    // Checks that [offset, offset + length) lies inside; `what` names the structure for the message.
    void require(std::uint64_t offset, std::uint64_t length, const char* what) const {
        if (!contains(offset, length))
            fail(std::string(what) + " at " + hex(base + offset) + " (" + std::to_string(length) +
                 " bytes) extends past the end of its container at " + hex(base + size));
    }

    byte_view sub(std::uint64_t offset, std::uint64_t length, const char* what) const {
        require(offset, length, what);
        return byte_view{data + static_cast<std::size_t>(offset), length, base + offset};
    }

    // Little-endian unsigned integer of `N` bytes (ELF64 LE and offload bundles are little-endian).
    template <std::size_t N>
    std::uint64_t le(std::uint64_t offset, const char* what) const {
        require(offset, N, what);
        std::uint64_t v = 0;
        for (std::size_t i = N; i-- > 0;) v = (v << 8) | data[static_cast<std::size_t>(offset) + i];
        return v;
    }
    std::uint16_t u16(std::uint64_t offset, const char* what) const {
        return static_cast<std::uint16_t>(le<2>(offset, what));
    }
    std::uint32_t u32(std::uint64_t offset, const char* what) const {
        return static_cast<std::uint32_t>(le<4>(offset, what));
    }
    std::uint64_t u64(std::uint64_t offset, const char* what) const { return le<8>(offset, what); }

    std::string_view chars(std::uint64_t offset, std::uint64_t length, const char* what) const {
        require(offset, length, what);
        return std::string_view(reinterpret_cast<const char*>(data) + static_cast<std::size_t>(offset),
                                static_cast<std::size_t>(length));
    }

    bool starts_with(std::string_view magic) const noexcept {
        if (!contains(0, magic.size())) return false;
        for (std::size_t i = 0; i < magic.size(); ++i)
            if (data[i] != static_cast<std::uint8_t>(magic[i])) return false;
        return true;
    }
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
