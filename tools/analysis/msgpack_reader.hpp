// SPDX-License-Identifier: MIT
// A bounded pull reader for the msgpack subset of AMDGPU metadata (maps, arrays, strings, integers,
// booleans; nil, floats, binary and extension values are skipped). It never allocates: strings come
// back as views into the input. Container counts are checked against the bytes left (every element
// takes at least one byte), and nesting is limited, so hostile input can neither exhaust memory nor
// recurse deeply; every byte is visited once, so reading is linear in the input.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // msgpack's fixed-width encodings
#include <string>       // messages
#include <string_view>  // string values, as views into the input

#include "byte_view.hpp"

namespace wavefit::analysis {
namespace detail {

class msgpack_reader {
public:
    // Metadata nests five levels (root map, kernels array, kernel map, args array, arg map); 32
    // leaves room for additions without letting a crafted file recurse far.
    static constexpr unsigned max_depth = 32;

    explicit msgpack_reader(byte_view bytes) noexcept : bytes_(bytes) {}

    bool at_end() const noexcept { return pos_ >= bytes_.size; }
    std::uint64_t file_offset() const noexcept { return bytes_.base + pos_; }

    // The element count of a map (pairs) or an array at the cursor; throws for anything else.
    std::uint64_t read_map(const char* what) { return read_container(true, what); }
    std::uint64_t read_array(const char* what) { return read_container(false, what); }

    std::string_view read_string(const char* what);

    // A non-negative integer (any msgpack integer encoding).
    std::uint64_t read_uint(const char* what);

    bool read_bool(const char* what);

    // Skips one complete value, however nested (up to max_depth).
    void skip(unsigned depth = 0);

private:
    byte_view bytes_;
    std::uint64_t pos_ = 0;

    std::uint8_t next_byte(const char* what);

    // A big-endian (msgpack's byte order) unsigned integer of `n` bytes.
    std::uint64_t take(unsigned n, const char* what);

    static std::int64_t sign_extend(std::uint64_t v, unsigned bits) noexcept;

    std::uint64_t non_negative(std::uint64_t at, std::int64_t v, const char* what) const;

    // Every element takes at least one byte, so a count above the bytes left is a lie; refusing it
    // here keeps loops over counts bounded by the input size.
    std::uint64_t check_count(std::uint64_t count, std::uint64_t at, const char* what) const;

    std::uint64_t read_container(bool map, const char* what);

    [[noreturn]] void wrong_type(std::uint64_t at, std::uint8_t tag, const char* what, const char* expected) const;
};

}  // namespace detail
}  // namespace wavefit::analysis
