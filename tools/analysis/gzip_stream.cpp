// SPDX-License-Identifier: MIT
// gzip through zlib's streaming inflate (gzip_stream.hpp).
#include "gzip_stream.hpp"

#include <climits>      // UINT_MAX: zlib counts in uInt
#include <string>       // messages
#include <string_view>  // zlib's messages
#include <utility>      // std::move
#include <vector>       // the input buffer

#include <zlib.h>

namespace wavefit::analysis {
namespace {

constexpr std::size_t input_capacity = std::size_t{64} * 1024;

// zlib's message for each kind of damage, and what wavefit says instead (zlib's words name its own
// internals: "incorrect header check", "invalid distance too far back").
struct damage {
    std::string_view zlib_message;
    std::string_view text;
};
constexpr damage damages[] = {
    {"unknown compression method", "a compression method other than deflate"},
    {"unknown header flags set", "reserved header flags are set"},
    {"header crc mismatch", "the CRC-16 of the gzip header does not match it"},
    {"invalid block type", "a block of the reserved type 3"},
    {"invalid stored block lengths", "a stored block whose length and its complement disagree"},
    {"too many length or distance symbols", "too many literal/length or distance codes"},
    {"invalid code lengths set", "code length codes that do not form a prefix code"},
    {"invalid bit length repeat", "a repeated code length with nothing before it, or past the declared count"},
    {"invalid code -- missing end-of-block", "a block without an end-of-block code"},
    {"invalid literal/lengths set", "literal/length code lengths that do not form a prefix code"},
    {"invalid distances set", "distance code lengths that do not form a prefix code"},
    {"invalid literal/length code", "an invalid literal/length code"},
    {"invalid distance code", "an invalid distance code"},
    {"invalid distance too far back", "a back-reference before the start of the data"},
    {"incorrect data check", "the CRC-32 in the trailer does not match the data"},
    {"incorrect length check", "the length in the trailer does not match the data"},
};

}  // namespace

struct gzip_stream::state {
    z_stream z{};
    // Where zlib reports how far it has read the member's header (done: 1 once it is complete). The
    // name, comment and extra field are skipped, not stored: their pointers stay null.
    gz_header header{};
    source src;
    std::vector<unsigned char> input = std::vector<unsigned char>(input_capacity);
    std::uint64_t consumed = 0;  // compressed bytes zlib has consumed, over all members
    std::uint64_t members = 0;   // members decoded to their end
    bool in_member = false;      // zlib has been given bytes of a member that has not ended yet
    bool source_ended = false;
    bool done = false;
    std::string error;  // set once a read has failed

    explicit state(source s) : src(std::move(s)) {
        // 16 + MAX_WBITS: gzip only (no zlib or raw deflate), with the largest window.
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw gzip_error("cannot start zlib's inflate (out of memory)");
        watch_header();
    }
    ~state() { (void)inflateEnd(&z); }
    state(const state&) = delete;
    state& operator=(const state&) = delete;

    void watch_header() {
        header = gz_header{};
        (void)inflateGetHeader(&z, &header);
    }

    [[noreturn]] void fail(const std::string& why) {
        error = "corrupt gzip data at compressed byte " + std::to_string(consumed) + ": " + why;
        throw gzip_error(error);
    }

    // Why inflate returned `code`, in wavefit's words.
    std::string why(int code) const {
        const std::string_view message = z.msg != nullptr ? std::string_view(z.msg) : std::string_view();
        if (code == Z_DATA_ERROR && message == "incorrect header check")
            return members == 0 ? "not gzip data" : "data after the last gzip member";
        for (const damage& d : damages)
            if (message == d.zlib_message) return std::string(d.text);
        if (code == Z_MEM_ERROR) return "zlib ran out of memory";
        return "zlib error " + std::to_string(code) + (message.empty() ? "" : " (" + std::string(message) + ")");
    }

    std::size_t read(unsigned char* out, std::size_t capacity) {
        if (!error.empty()) throw gzip_error(error);
        if (done || capacity == 0) return 0;
        const auto room = static_cast<uInt>(capacity < UINT_MAX ? capacity : UINT_MAX);
        z.next_out = out;
        z.avail_out = room;
        while (z.avail_out > 0) {
            if (z.avail_in == 0 && !source_ended) {
                const std::size_t n = src(input.data(), input.size());
                if (n == 0) {
                    source_ended = true;
                } else {
                    z.next_in = input.data();
                    z.avail_in = static_cast<uInt>(n < input.size() ? n : input.size());
                }
            }
            if (z.avail_in == 0 && source_ended) {
                // Between members (or before the first of an empty input) the stream may end.
                if (!in_member) {
                    done = true;
                    break;
                }
                fail(header.done == 1 ? "the stream ends inside a gzip member's data or trailer"
                                      : "the stream ends inside the gzip header");
            }
            in_member = true;
            const uInt before = z.avail_in;
            const int code = inflate(&z, Z_NO_FLUSH);
            consumed += before - z.avail_in;
            if (code == Z_STREAM_END) {
                // One member checked to its trailer; what follows is the next member, or the end.
                ++members;
                in_member = false;
                if (inflateReset(&z) != Z_OK) fail("zlib could not start the next member");
                watch_header();
                continue;
            }
            // Z_BUF_ERROR: no progress without more input, which the next round reads (or ends). With
            // input and room left it cannot happen; if it did, failing beats spinning.
            if (code == Z_BUF_ERROR && z.avail_in > 0) fail("zlib made no progress");
            if (code != Z_OK && code != Z_BUF_ERROR) fail(why(code));
        }
        return room - z.avail_out;
    }
};

gzip_stream::gzip_stream(source src) : state_(std::make_unique<state>(std::move(src))) {}
gzip_stream::~gzip_stream() = default;

std::size_t gzip_stream::read(unsigned char* out, std::size_t capacity) { return state_->read(out, capacity); }

std::uint64_t gzip_stream::compressed_offset() const noexcept { return state_->consumed; }

}  // namespace wavefit::analysis
