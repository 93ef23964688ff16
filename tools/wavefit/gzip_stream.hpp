// SPDX-License-Identifier: MIT
// A streaming gzip (RFC 1952) decoder over deflate (RFC 1951), written for wavefit so that the CLI
// reads `.gz` logs and traces with nothing but a C++17 compiler (no zlib to find or link). It pulls
// compressed bytes from a source as it needs them, keeps only the 32 KiB window and the symbol being
// copied, and checks everything a hostile file can get wrong: header flags, code lengths that do not
// form a prefix code, back-references before the start, stored-block lengths, the CRC-32 and the
// length in each member's trailer. Concatenated members decode as one stream, as gunzip does.
// Decoding follows the canonical-code walk of zlib's puff.c reference decoder (written anew here).
#pragma once

#include <array>       // tables
#include <cstddef>     // std::size_t
#include <cstdint>     // bit buffers, CRC
#include <functional>  // the byte source
#include <stdexcept>   // gzip_error
#include <string>      // messages
#include <utility>     // std::move
#include <vector>      // the input buffer

namespace wavefit::cli {

// A malformed or truncated gzip stream; the message is one line.
class gzip_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class gzip_stream {
public:
    // Fills up to `capacity` bytes of compressed input; returns how many, 0 at the end of the input.
    using source = std::function<std::size_t(unsigned char*, std::size_t)>;

    explicit gzip_stream(source src) : source_(std::move(src)), input_(input_capacity) {}

    // Up to `capacity` decompressed bytes; 0 once the last member has ended. Throws gzip_error.
    std::size_t read(unsigned char* out, std::size_t capacity) {
        std::size_t produced = 0;
        while (produced < capacity) {
            // Bytes of a match that did not fit the caller's buffer last time come first.
            while (pending_copy_ > 0 && produced < capacity) {
                out[produced++] = emit(window_[(window_pos_ - pending_distance_) & window_mask]);
                --pending_copy_;
            }
            if (produced == capacity) break;
            if (!step(out, produced, capacity)) break;
        }
        return produced;
    }

    // Compressed bytes consumed so far (for messages).
    std::uint64_t compressed_offset() const noexcept { return consumed_; }

private:
    static constexpr std::size_t input_capacity = 64 * 1024;
    static constexpr std::size_t window_size = 32768;
    static constexpr std::size_t window_mask = window_size - 1;
    static constexpr int max_bits = 15;

    struct huffman {
        std::array<std::uint16_t, max_bits + 1> count{};  // codes of each length
        std::array<std::uint16_t, 288> symbol{};          // symbols ordered by code
    };

    enum class state { member_header, block_header, stored, compressed, member_trailer, done };

    [[noreturn]] void fail(const std::string& why) const {
        throw gzip_error("corrupt gzip data at compressed byte " + std::to_string(consumed_) + ": " + why);
    }

    int next_byte() {
        if (in_pos_ == in_end_) {
            in_end_ = source_(input_.data(), input_.size());
            in_pos_ = 0;
            if (in_end_ == 0) return -1;
        }
        ++consumed_;
        return input_[in_pos_++];
    }

    int require_byte(const char* what) {
        const int b = next_byte();
        if (b < 0) fail(std::string("the stream ends inside ") + what);
        return b;
    }

    std::uint32_t bits(int n) {
        while (bit_count_ < n) {
            bit_buffer_ |= static_cast<std::uint64_t>(require_byte("a deflate block")) << bit_count_;
            bit_count_ += 8;
        }
        const std::uint32_t v = static_cast<std::uint32_t>(bit_buffer_ & ((std::uint64_t{1} << n) - 1));
        bit_buffer_ >>= n;
        bit_count_ -= n;
        return v;
    }

    void align_to_byte() {
        bit_buffer_ >>= bit_count_ % 8;
        bit_count_ -= bit_count_ % 8;
    }

    // A whole byte after align_to_byte(): from the bit buffer first, then the input.
    int aligned_byte(const char* what) {
        if (bit_count_ >= 8) return static_cast<int>(bits(8));
        return require_byte(what);
    }

    unsigned char emit(unsigned char c) {
        window_[window_pos_ & window_mask] = c;
        ++window_pos_;
        if (window_filled_ < window_size) ++window_filled_;
        crc_ = crc_table()[(crc_ ^ c) & 0xff] ^ (crc_ >> 8);
        ++member_size_;
        return c;
    }

    static const std::array<std::uint32_t, 256>& crc_table() {
        static const std::array<std::uint32_t, 256> table = [] {
            std::array<std::uint32_t, 256> t{};
            for (std::uint32_t n = 0; n < 256; ++n) {
                std::uint32_t c = n;
                for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
                t[n] = c;
            }
            return t;
        }();
        return table;
    }

    // Builds a canonical code from code lengths. Over-subscribed sets are corrupt; incomplete ones are
    // allowed only where deflate allows them (a single distance code), which decode() then catches.
    void build(huffman& h, const std::uint16_t* lengths, int n, const char* what) {
        h.count.fill(0);
        for (int s = 0; s < n; ++s) ++h.count[lengths[s]];
        if (h.count[0] == n) return;  // no codes: decoding any symbol fails
        int left = 1;
        for (int len = 1; len <= max_bits; ++len) {
            left <<= 1;
            left -= h.count[len];
            if (left < 0) fail(std::string("over-subscribed ") + what + " code lengths");
        }
        std::array<std::uint16_t, max_bits + 1> offsets{};
        for (int len = 1; len < max_bits; ++len) offsets[len + 1] = static_cast<std::uint16_t>(offsets[len] + h.count[len]);
        for (int s = 0; s < n; ++s)
            if (lengths[s] != 0) h.symbol[offsets[lengths[s]]++] = static_cast<std::uint16_t>(s);
    }

    int decode(const huffman& h) {
        int code = 0, first = 0, index = 0;
        for (int len = 1; len <= max_bits; ++len) {
            code |= static_cast<int>(bits(1));
            const int count = h.count[len];
            if (code - count < first) return h.symbol[index + (code - first)];
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        fail("a code that is not in the block's Huffman table");
    }

    void fixed_tables() {
        std::uint16_t lengths[288];
        for (int s = 0; s < 144; ++s) lengths[s] = 8;
        for (int s = 144; s < 256; ++s) lengths[s] = 9;
        for (int s = 256; s < 280; ++s) lengths[s] = 7;
        for (int s = 280; s < 288; ++s) lengths[s] = 8;
        build(lengths_code_, lengths, 288, "literal/length");
        for (int s = 0; s < 30; ++s) lengths[s] = 5;
        build(distance_code_, lengths, 30, "distance");
    }

    void dynamic_tables() {
        const int literal_count = static_cast<int>(bits(5)) + 257;
        const int distance_count = static_cast<int>(bits(5)) + 1;
        const int length_code_count = static_cast<int>(bits(4)) + 4;
        if (literal_count > 286 || distance_count > 30) fail("too many literal/length or distance codes");
        static constexpr int order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        std::uint16_t lengths[320] = {};
        for (int i = 0; i < length_code_count; ++i) lengths[order[i]] = static_cast<std::uint16_t>(bits(3));
        huffman length_code;
        build(length_code, lengths, 19, "code-length");
        int at = 0;
        while (at < literal_count + distance_count) {
            const int symbol = decode(length_code);
            if (symbol < 16) {
                lengths[at++] = static_cast<std::uint16_t>(symbol);
                continue;
            }
            std::uint16_t repeated = 0;
            int times = 0;
            if (symbol == 16) {
                if (at == 0) fail("a repeated code length with nothing before it");
                repeated = lengths[at - 1];
                times = 3 + static_cast<int>(bits(2));
            } else if (symbol == 17) {
                times = 3 + static_cast<int>(bits(3));
            } else {
                times = 11 + static_cast<int>(bits(7));
            }
            if (at + times > literal_count + distance_count) fail("code lengths run past the declared count");
            while (times-- > 0) lengths[at++] = repeated;
        }
        if (lengths[256] == 0) fail("a block without an end-of-block code");
        build(lengths_code_, lengths, literal_count, "literal/length");
        build(distance_code_, lengths + literal_count, distance_count, "distance");
    }

    void read_member_header() {
        const int id1 = next_byte();
        if (id1 < 0) {
            state_ = state::done;
            return;
        }
        const int id2 = require_byte("the gzip header");
        if (id1 != 0x1f || id2 != 0x8b) fail(members_ == 0 ? "not gzip data" : "data after the last gzip member");
        if (require_byte("the gzip header") != 8) fail("a compression method other than deflate");
        const int flags = require_byte("the gzip header");
        if ((flags & 0xe0) != 0) fail("reserved header flags are set");
        for (int i = 0; i < 6; ++i) require_byte("the gzip header");  // mtime, extra flags, OS
        if (flags & 0x04) {                                           // FEXTRA
            const int lo = require_byte("the gzip header");
            const int length = lo | (require_byte("the gzip header") << 8);
            for (int i = 0; i < length; ++i) require_byte("the gzip header's extra field");
        }
        for (const int name_flag : {0x08, 0x10})  // FNAME, FCOMMENT: zero-terminated
            if (flags & name_flag)
                while (require_byte("the gzip header's file name or comment") != 0) {}
        if (flags & 0x02) {  // FHCRC
            require_byte("the gzip header");
            require_byte("the gzip header");
        }
        ++members_;
        crc_ = 0xffffffffu;
        member_size_ = 0;
        last_block_ = false;
        state_ = state::block_header;
    }

    void read_member_trailer() {
        align_to_byte();
        std::uint32_t crc = 0, size = 0;
        for (int i = 0; i < 4; ++i) crc |= static_cast<std::uint32_t>(aligned_byte("the gzip trailer")) << (8 * i);
        for (int i = 0; i < 4; ++i) size |= static_cast<std::uint32_t>(aligned_byte("the gzip trailer")) << (8 * i);
        if (crc != (crc_ ^ 0xffffffffu)) fail("the CRC-32 in the trailer does not match the data");
        if (size != static_cast<std::uint32_t>(member_size_)) fail("the length in the trailer does not match the data");
        // Bytes left in the bit buffer belong to the next member; deflate ends byte-aligned here.
        if (bit_count_ != 0) fail("bits left over after a gzip trailer");
        state_ = state::member_header;
    }

    // Advances the decoder by one unit (a header, a block header, a stored byte, a symbol); false at
    // the end of the stream.
    bool step(unsigned char* out, std::size_t& produced, std::size_t capacity) {
        switch (state_) {
            case state::member_header: read_member_header(); return state_ != state::done;
            case state::member_trailer: read_member_trailer(); return true;
            case state::done: return false;
            case state::block_header: {
                if (last_block_) {
                    state_ = state::member_trailer;
                    return true;
                }
                last_block_ = bits(1) == 1;
                const std::uint32_t type = bits(2);
                if (type == 0) {
                    align_to_byte();
                    const int l0 = aligned_byte("a stored block");
                    const int l1 = aligned_byte("a stored block");
                    const int n0 = aligned_byte("a stored block");
                    const int n1 = aligned_byte("a stored block");
                    stored_left_ = static_cast<std::uint32_t>(l0 | (l1 << 8));
                    if ((stored_left_ ^ 0xffffu) != static_cast<std::uint32_t>(n0 | (n1 << 8)))
                        fail("a stored block whose length and its complement disagree");
                    state_ = state::stored;
                } else if (type == 1) {
                    fixed_tables();
                    state_ = state::compressed;
                } else if (type == 2) {
                    dynamic_tables();
                    state_ = state::compressed;
                } else {
                    fail("a block of the reserved type 3");
                }
                return true;
            }
            case state::stored:
                while (stored_left_ > 0 && produced < capacity) {
                    out[produced++] = emit(static_cast<unsigned char>(aligned_byte("a stored block")));
                    --stored_left_;
                }
                if (stored_left_ == 0) state_ = state::block_header;
                return true;
            case state::compressed: {
                const int symbol = decode(lengths_code_);
                if (symbol < 256) {
                    out[produced++] = emit(static_cast<unsigned char>(symbol));
                    return true;
                }
                if (symbol == 256) {
                    state_ = state::block_header;
                    return true;
                }
                static constexpr std::uint16_t length_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                                  15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                                  67, 83, 99, 115, 131, 163, 195, 227, 258};
                static constexpr std::uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
                static constexpr std::uint16_t distance_base[30] = {
                    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
                static constexpr std::uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
                const int li = symbol - 257;
                if (li >= 29) fail("an invalid length code");
                const std::uint32_t length = length_base[li] + bits(length_extra[li]);
                const int di = decode(distance_code_);
                if (di >= 30) fail("an invalid distance code");
                const std::uint32_t distance = distance_base[di] + bits(distance_extra[di]);
                if (distance > window_filled_) fail("a back-reference before the start of the data");
                pending_distance_ = distance;
                pending_copy_ = length;
                while (pending_copy_ > 0 && produced < capacity) {
                    out[produced++] = emit(window_[(window_pos_ - pending_distance_) & window_mask]);
                    --pending_copy_;
                }
                return true;
            }
        }
        return false;
    }

    source source_;
    std::vector<unsigned char> input_;
    std::size_t in_pos_ = 0;
    std::size_t in_end_ = 0;
    std::uint64_t consumed_ = 0;
    std::uint64_t bit_buffer_ = 0;
    int bit_count_ = 0;

    state state_ = state::member_header;
    bool last_block_ = false;
    std::uint32_t stored_left_ = 0;
    huffman lengths_code_;
    huffman distance_code_;
    std::uint32_t pending_copy_ = 0;
    std::uint32_t pending_distance_ = 0;

    std::array<unsigned char, window_size> window_{};
    std::size_t window_pos_ = 0;
    std::size_t window_filled_ = 0;
    std::uint32_t crc_ = 0xffffffffu;
    std::uint64_t member_size_ = 0;
    std::uint64_t members_ = 0;
};

}  // namespace wavefit::cli
