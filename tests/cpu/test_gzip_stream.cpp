// SPDX-License-Identifier: MIT
// Specifications of the CLI's gzip reader (tools/analysis/gzip_stream.hpp, zlib's inflate): what
// Python's zlib writes decodes byte for byte, through any read size, and every kind of damage is a
// one-line gzip_error naming it, never a crash, a hang or a wrong result. The vectors
// (gzip_vectors.hpp) were made with zlib.compressobj(level, DEFLATED, -15) wrapped in a gzip header
// and CRC-32/ISIZE trailer.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/gzip_stream.hpp"
#include "gzip_vectors.hpp"

namespace {

using wavefit::analysis::gzip_error;
using wavefit::analysis::gzip_stream;
using bytes = std::vector<unsigned char>;

// A source that hands out `data` at most `step` bytes per call, so that every boundary is crossed.
gzip_stream::source from(const bytes& data, std::size_t step) {
    auto at = std::make_shared<std::size_t>(0);
    return [&data, step, at](unsigned char* out, std::size_t capacity) {
        std::size_t n = std::min({capacity, step, data.size() - *at});
        for (std::size_t i = 0; i < n; ++i) out[i] = data[*at + i];
        *at += n;
        return n;
    };
}

bytes decode(const bytes& compressed, std::size_t source_step = 1 << 20, std::size_t read_size = 4096) {
    gzip_stream z(from(compressed, source_step));
    bytes out;
    std::vector<unsigned char> buffer(read_size);
    for (std::size_t n; (n = z.read(buffer.data(), buffer.size())) > 0;)
        out.insert(out.end(), buffer.begin(), buffer.begin() + n);
    return out;
}

std::string error_of(const bytes& compressed) {
    try {
        (void)decode(compressed);
    } catch (const gzip_error& e) {
        return e.what();
    }
    return "";
}

bytes far_match_plain() {
    std::uint64_t state = 42;
    bytes head;
    for (int i = 0; i < 300; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        head.push_back(static_cast<unsigned char>(state >> 56));
    }
    bytes plain = head;
    plain.insert(plain.end(), 31000, 'x');
    plain.insert(plain.end(), head.begin(), head.end());
    return plain;
}

// CRC-32 (IEEE, reflected), bit by bit: the trailer of a member built here, independent of zlib.
std::uint32_t crc32_of(const bytes& data) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : data) {
        crc ^= byte;
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void put_le(bytes& out, std::uint32_t value, int count) {
    for (int i = 0; i < count; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

// A gzip member of `plain` (one stored block) whose header carries an extra field of `extra_bytes`
// and a file name of `name_bytes` (NUL-terminated unless `name_ends` is false, which ends the input
// inside the name).
bytes member_with_header_fields(const bytes& plain, std::uint32_t extra_bytes, std::size_t name_bytes,
                                bool name_ends = true) {
    bytes out{0x1f, 0x8b, 0x08, 0x04 | 0x08, 0, 0, 0, 0, 0, 3};  // FEXTRA | FNAME
    put_le(out, extra_bytes, 2);
    out.insert(out.end(), extra_bytes, 'e');
    out.insert(out.end(), name_bytes, 'n');
    if (!name_ends) return out;
    out.push_back(0);
    out.push_back(0x01);  // BFINAL=1, BTYPE=00: stored
    put_le(out, static_cast<std::uint32_t>(plain.size()), 2);
    put_le(out, static_cast<std::uint32_t>(~plain.size()) & 0xFFFFu, 2);
    out.insert(out.end(), plain.begin(), plain.end());
    put_le(out, crc32_of(plain), 4);
    put_le(out, static_cast<std::uint32_t>(plain.size()), 4);
    return out;
}

}  // namespace

TEST_CASE("a header with the largest extra field and a 4 MiB file name decodes; a name cut off is one error line",
          "[gzip]") {
    const bytes plain{'w', 'a', 'v', 'e', 'f', 'i', 't', '\n'};
    const bytes member = member_with_header_fields(plain, 0xFFFF, std::size_t{4} << 20);
    CAPTURE(member.size());
    CHECK(decode(member) == plain);
    CHECK(decode(member, 1000, 3) == plain);  // every boundary of the header crossed
    const std::string cut = error_of(member_with_header_fields(plain, 0xFFFF, std::size_t{1} << 20, false));
    CAPTURE(cut);
    CHECK(cut.find("ends inside") != std::string::npos);
    CHECK(cut.find('\n') == std::string::npos);
}

TEST_CASE("zlib's fixed, dynamic and stored blocks, header fields and concatenated members decode exactly", "[gzip]") {
    using namespace gzip_vectors;
    struct sample {
        const char* name;
        const bytes& compressed;
        bytes plain;
    };
    const sample samples[] = {{"fixed", fixed_compressed, fixed_plain},
                              {"dynamic", dynamic_compressed, dynamic_plain},
                              {"stored", stored_compressed, stored_plain},
                              {"header fields", header_fields_compressed, header_fields_plain},
                              {"two members", two_members_compressed, two_members_plain},
                              {"empty", empty_compressed, empty_plain},
                              {"a match 31300 bytes back", far_match_compressed, far_match_plain()}};
    for (const sample& s : samples) {
        INFO(s.name << ": " << s.compressed.size() << " compressed bytes, " << s.plain.size() << " expected");
        CHECK(decode(s.compressed) == s.plain);
        // One byte in, one byte out at a time: every state boundary of the decoder is crossed.
        CHECK(decode(s.compressed, 1, 1) == s.plain);
        CHECK(decode(s.compressed, 7, 300) == s.plain);
    }
}

TEST_CASE("damaged gzip is a one-line error naming what is wrong", "[gzip]") {
    const bytes good = gzip_vectors::dynamic_compressed;
    struct damage {
        const char* what;
        bytes data;
        const char* expected;
    };
    std::vector<damage> cases;
    cases.push_back({"not gzip", bytes{'h', 'e', 'l', 'l', 'o'}, "not gzip data"});
    bytes method = good;
    method[2] = 7;
    cases.push_back({"another method", method, "compression method"});
    bytes reserved = good;
    reserved[3] = 0x20;
    cases.push_back({"reserved flags", reserved, "reserved header flags"});
    for (std::size_t cut : {std::size_t{5}, std::size_t{12}, good.size() / 2, good.size() - 3}) {
        bytes truncated(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
        cases.push_back({"truncated", truncated, "ends inside"});
    }
    bytes crc = good;
    crc[crc.size() - 8] = static_cast<unsigned char>(crc[crc.size() - 8] ^ 0x01);
    cases.push_back({"CRC", crc, "CRC-32"});
    bytes size = good;
    size[size.size() - 1] = static_cast<unsigned char>(size[size.size() - 1] ^ 0x01);
    cases.push_back({"ISIZE", size, "length in the trailer"});
    bytes garbage = good;
    garbage.push_back('x');
    garbage.push_back('y');
    cases.push_back({"trailing data", garbage, "after the last gzip member"});
    // A stored block whose length complement is wrong: 1f 8b 08 00 ... then BFINAL=1 BTYPE=00.
    bytes stored{0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 0x01, 0x05, 0x00, 0x00, 0x00};
    cases.push_back({"stored length", stored, "complement"});
    bytes type3{0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 0x07};
    cases.push_back({"block type 3", type3, "reserved type 3"});
    // Fixed block whose first symbol is a length code with distance 1 and nothing before it.
    // BFINAL=1, BTYPE=01, then length symbol 257 (0000001), distance code 0 (00000).
    bytes backref{0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 0x03, 0x02, 0x00, 0x00};
    cases.push_back({"back-reference before the start", backref, "before the start"});

    for (const damage& d : cases) {
        INFO(d.what);
        const std::string message = error_of(d.data);
        CAPTURE(message);
        CHECK(message.find(d.expected) != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
    }
}

TEST_CASE("every single-byte corruption of a real stream decodes or fails cleanly", "[gzip]") {
    const bytes good = gzip_vectors::fixed_compressed;
    const bytes plain = gzip_vectors::fixed_plain;
    std::vector<std::string> accepted;
    for (std::size_t i = 0; i < good.size(); ++i)
        for (const unsigned flip : {0x01u, 0x80u, 0xffu}) {
            bytes bad = good;
            bad[i] = static_cast<unsigned char>(bad[i] ^ flip);
            bytes decoded;
            try {
                decoded = decode(bad);
            } catch (const gzip_error&) {
                continue;
            }
            // Whatever decodes must decode to the content: the CRC-32 guards the rest.
            CHECK(decoded == plain);
            accepted.push_back(std::to_string(i) + "^" + std::to_string(flip));
        }
    // Only bytes no decoder checks may change: MTIME, XFL and OS (bytes 4-9), the FTEXT flag (byte 3,
    // bit 0), and padding bits after the final block that deflate never reads.
    std::size_t unchecked = 0;
    for (const std::string& a : accepted) {
        const std::size_t at = std::stoul(a.substr(0, a.find('^')));
        if ((at >= 4 && at <= 9) || a == "3^1") ++unchecked;
    }
    CAPTURE(accepted);
    CHECK(unchecked == 19);
    CHECK(accepted.size() <= unchecked + 2);
}

TEST_CASE("an empty input is an empty stream, and a failed stream fails again with the same line", "[gzip]") {
    CHECK(decode(bytes{}).empty());

    const bytes good = gzip_vectors::dynamic_compressed;
    const bytes header_only(good.begin(), good.begin() + 5);
    CAPTURE(error_of(header_only));
    CHECK(error_of(header_only).find("ends inside the gzip header") != std::string::npos);
    const bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
    CAPTURE(error_of(cut));
    CHECK(error_of(cut).find("ends inside a gzip member's data or trailer") != std::string::npos);

    gzip_stream z(from(cut, 1 << 20));
    std::vector<unsigned char> buffer(1 << 20);
    std::string first;
    try {
        while (z.read(buffer.data(), buffer.size()) > 0) {}
    } catch (const gzip_error& e) {
        first = e.what();
    }
    std::string again;
    try {
        (void)z.read(buffer.data(), buffer.size());
    } catch (const gzip_error& e) {
        again = e.what();
    }
    CAPTURE(first, again);
    CHECK(!first.empty());
    CHECK(again == first);
}
