// SPDX-License-Identifier: MIT
// The bounded msgpack pull reader of AMDGPU metadata (msgpack_reader.hpp).
#include "msgpack_reader.hpp"

namespace wavefit::analysis::detail {

std::string_view msgpack_reader::read_string(const char* what) {
    const std::uint64_t at = pos_;
    const std::uint8_t tag = next_byte(what);
    std::uint64_t length = 0;
    if (tag >= 0xa0 && tag <= 0xbf)
        length = tag & 0x1fu;
    else if (tag == 0xd9)
        length = take(1, what);
    else if (tag == 0xda)
        length = take(2, what);
    else if (tag == 0xdb)
        length = take(4, what);
    else
        wrong_type(at, tag, what, "a string");
    const std::string_view s = bytes_.chars(pos_, length, what);
    pos_ += length;
    return s;
}

std::uint64_t msgpack_reader::read_uint(const char* what) {
    const std::uint64_t at = pos_;
    const std::uint8_t tag = next_byte(what);
    if (tag <= 0x7f) return tag;
    switch (tag) {
        case 0xcc: return take(1, what);
        case 0xcd: return take(2, what);
        case 0xce: return take(4, what);
        case 0xcf: return take(8, what);
        case 0xd0: return non_negative(at, sign_extend(take(1, what), 8), what);
        case 0xd1: return non_negative(at, sign_extend(take(2, what), 16), what);
        case 0xd2: return non_negative(at, sign_extend(take(4, what), 32), what);
        case 0xd3: return non_negative(at, sign_extend(take(8, what), 64), what);
        default: break;
    }
    if (tag >= 0xe0) fail(std::string(what) + " at " + hex(bytes_.base + at) + " is negative");
    wrong_type(at, tag, what, "an integer");
}

bool msgpack_reader::read_bool(const char* what) {
    const std::uint64_t at = pos_;
    const std::uint8_t tag = next_byte(what);
    if (tag == 0xc2) return false;
    if (tag == 0xc3) return true;
    wrong_type(at, tag, what, "a boolean");
}

void msgpack_reader::skip(unsigned depth) {
    if (depth > max_depth)
        fail("msgpack nesting deeper than " + std::to_string(max_depth) + " levels at " + hex(file_offset()));
    const std::uint64_t at = pos_;
    const std::uint8_t tag = next_byte("msgpack value");
    std::uint64_t payload = 0;   // bytes after the header
    std::uint64_t children = 0;  // values after the header
    if (tag <= 0x7f || tag >= 0xe0 || tag == 0xc0 || tag == 0xc2 || tag == 0xc3) {
        payload = 0;  // fixint, nil, booleans
    } else if (tag >= 0x80 && tag <= 0x8f) {
        children = check_count(std::uint64_t{tag & 0x0fu} * 2, at, "msgpack map");
    } else if (tag >= 0x90 && tag <= 0x9f) {
        children = check_count(tag & 0x0fu, at, "msgpack array");
    } else if (tag >= 0xa0 && tag <= 0xbf) {
        payload = tag & 0x1fu;
    } else {
        switch (tag) {
            case 0xc4:
            case 0xd9: payload = take(1, "msgpack length"); break;  // bin8, str8
            case 0xc5:
            case 0xda: payload = take(2, "msgpack length"); break;  // bin16, str16
            case 0xc6:
            case 0xdb: payload = take(4, "msgpack length"); break;      // bin32, str32
            case 0xc7: payload = take(1, "msgpack length") + 1; break;  // ext8 (+ type byte)
            case 0xc8: payload = take(2, "msgpack length") + 1; break;  // ext16
            case 0xc9: payload = take(4, "msgpack length") + 1; break;  // ext32
            case 0xca: payload = 4; break;                              // float32
            case 0xcb: payload = 8; break;                              // float64
            case 0xcc:
            case 0xd0: payload = 1; break;
            case 0xcd:
            case 0xd1: payload = 2; break;
            case 0xce:
            case 0xd2: payload = 4; break;
            case 0xcf:
            case 0xd3: payload = 8; break;
            case 0xd4: payload = 2; break;  // fixext1
            case 0xd5: payload = 3; break;
            case 0xd6: payload = 5; break;
            case 0xd7: payload = 9; break;
            case 0xd8: payload = 17; break;
            case 0xdc: children = check_count(take(2, "msgpack array length"), at, "msgpack array"); break;
            case 0xdd: children = check_count(take(4, "msgpack array length"), at, "msgpack array"); break;
            case 0xde: children = check_count(take(2, "msgpack map length") * 2, at, "msgpack map"); break;
            case 0xdf: children = check_count(take(4, "msgpack map length") * 2, at, "msgpack map"); break;
            default: fail("invalid msgpack type byte " + hex(tag) + " at " + hex(bytes_.base + at));  // 0xc1
        }
    }
    bytes_.require(pos_, payload, "msgpack value");
    pos_ += payload;
    for (std::uint64_t i = 0; i < children; ++i) skip(depth + 1);
}

std::uint8_t msgpack_reader::next_byte(const char* what) {
    bytes_.require(pos_, 1, what);
    return bytes_.data[static_cast<std::size_t>(pos_++)];
}

std::uint64_t msgpack_reader::take(unsigned n, const char* what) {
    bytes_.require(pos_, n, what);
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v = (v << 8) | bytes_.data[static_cast<std::size_t>(pos_ + i)];
    pos_ += n;
    return v;
}

std::int64_t msgpack_reader::sign_extend(std::uint64_t v, unsigned bits) noexcept {
    if (bits < 64 && (v >> (bits - 1)) != 0) v |= ~std::uint64_t{0} << bits;
    return static_cast<std::int64_t>(v);
}

std::uint64_t msgpack_reader::non_negative(std::uint64_t at, std::int64_t v, const char* what) const {
    if (v < 0) fail(std::string(what) + " at " + hex(bytes_.base + at) + " is negative");
    return static_cast<std::uint64_t>(v);
}

std::uint64_t msgpack_reader::check_count(std::uint64_t count, std::uint64_t at, const char* what) const {
    if (count > bytes_.size - pos_)
        fail(std::string(what) + " at " + hex(bytes_.base + at) + " claims " + std::to_string(count) +
             " elements but only " + std::to_string(bytes_.size - pos_) + " bytes follow");
    return count;
}

std::uint64_t msgpack_reader::read_container(bool map, const char* what) {
    const std::uint64_t at = pos_;
    const std::uint8_t tag = next_byte(what);
    std::uint64_t count = 0;
    if (map ? (tag >= 0x80 && tag <= 0x8f) : (tag >= 0x90 && tag <= 0x9f))
        count = tag & 0x0fu;  // fixmap / fixarray
    else if (tag == (map ? 0xde : 0xdc))
        count = take(2, what);
    else if (tag == (map ? 0xdf : 0xdd))
        count = take(4, what);
    else
        wrong_type(at, tag, what, map ? "a map" : "an array");
    check_count(map ? count * 2 : count, at, what);
    return count;
}

void msgpack_reader::wrong_type(std::uint64_t at, std::uint8_t tag, const char* what, const char* expected) const {
    fail(std::string(what) + " at " + hex(bytes_.base + at) + " is not " + expected + " (msgpack type byte " + hex(tag) +
         ")");
}

}  // namespace wavefit::analysis::detail
