// SPDX-License-Identifier: MIT
// Files, standard input and gzip behind one reader (see text_input.hpp).
#include "text_input.hpp"

#include <algorithm>  // std::min, std::copy
#include <cerrno>     // errno for messages
#include <cstring>    // std::strerror

#include <wavefit/detail/ascii.hpp>  // append_hex_byte
#include <wavefit/detail/utf8.hpp>

#include "analysis/gzip_stream.hpp"
#include "arguments.hpp"

namespace wavefit::cli {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{256} * 1024;
// How much of a text format's content expect_text() looks at: enough to tell a binary file (whose
// first kilobytes nearly always hold a NUL or a byte that is not UTF-8) without judging a long file
// by one stray byte far into it.
constexpr std::uint64_t text_sniff_bytes = 4096;

// The offset of the first byte of `bytes` that a text file does not hold: a NUL, or a byte that does
// not fit well-formed UTF-8 (a sequence cut at the end of `bytes` counts as fitting); npos if none.
std::size_t first_non_text_byte(std::string_view bytes) {
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == 0) return i;
        if (c < 0x80) {
            ++i;
            continue;
        }
        const detail::utf8_lead lead = detail::utf8_lead_of(c);
        if (lead.length == 0) return i;
        for (std::size_t k = 1; k < lead.length; ++k) {
            if (i + k >= bytes.size()) return std::string_view::npos;  // cut by the line cap
            const auto next = static_cast<unsigned char>(bytes[i + k]);
            const unsigned char low = k == 1 ? lead.min_second : 0x80;
            const unsigned char high = k == 1 ? lead.max_second : 0xBF;
            if (next < low || next > high) return i;
        }
        i += lead.length;
    }
    return std::string_view::npos;
}

std::string hex_byte(unsigned char c) {
    std::string text = "0x";
    detail::append_hex_byte(text, c);
    return text;
}

}  // namespace

text_input::text_input(const std::string& path, std::size_t max_line_bytes)
    : name_(path == "-" ? "standard input" : one_line(path)), max_line_(max_line_bytes == 0 ? 1 : max_line_bytes) {
    if (path.empty()) throw usage_error("an empty file name");
    if (path == "-") {
        file_ = stdin;
    } else {
        errno = 0;
        file_ = std::fopen(path.c_str(), "rb");
        if (file_ == nullptr) fail(errno != 0 ? std::strerror(errno) : "cannot open");
        owns_file_ = true;
    }
    // The first two bytes tell gzip (1f 8b) from text; they are delivered again either way.
    unsigned char magic[2];
    std::size_t got = 0;
    while (got < 2) {
        const std::size_t n = std::fread(magic + got, 1, 2 - got, file_);
        if (n == 0) break;
        got += n;
    }
    if (std::ferror(file_)) fail(std::strerror(errno));
    peeked_.assign(reinterpret_cast<const char*>(magic), got);
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
        gzip_ = std::make_unique<analysis::gzip_stream>(
            [this](unsigned char* out, std::size_t capacity) { return read_file(out, capacity); });
}

text_input::~text_input() {
    if (owns_file_ && file_ != nullptr) (void)std::fclose(file_);
}

void text_input::fail(const std::string& why) const { throw usage_error(name_ + ": " + one_line(why)); }

void text_input::check_text(std::string_view line, std::uint64_t line_start) {
    if (line_start >= text_sniff_bytes) {
        check_text_ = false;  // past the sniffed head: the format's own reader judges the rest
        return;
    }
    const std::size_t at = first_non_text_byte(line);
    if (at == std::string_view::npos) return;
    fail("not a text file (byte " + hex_byte(static_cast<unsigned char>(line[at])) + " on line " +
         std::to_string(line_number_) + "), so not " + expected_text_);
}

std::size_t text_input::read_raw(unsigned char* out, std::size_t capacity) {
    if (gzip_) {
        try {
            const std::size_t n = gzip_->read(out, capacity);
            delivered_ += n;
            return n;
        } catch (const analysis::gzip_error& e) {
            fail(e.what());
        }
    }
    const std::size_t n = read_file(out, capacity);
    delivered_ += n;
    return n;
}

std::size_t text_input::read_file(unsigned char* out, std::size_t capacity) {
    // The bytes read to tell gzip from text come first.
    std::size_t n = 0;
    while (!peeked_.empty() && n < capacity) {
        out[n++] = static_cast<unsigned char>(peeked_.front());
        peeked_.erase(0, 1);
    }
    if (n < capacity) {
        n += std::fread(out + n, 1, capacity - n, file_);
        if (std::ferror(file_)) fail(std::string("read error: ") + std::strerror(errno));
    }
    return n;
}

std::size_t text_input::read(char* buffer, std::size_t capacity) {
    // Bytes already buffered for lines come first, so that a caller may sniff lines, then read.
    std::size_t n = 0;
    if (begin_ < end_) {
        n = std::min(capacity, end_ - begin_);
        std::copy(buffer_.data() + begin_, buffer_.data() + begin_ + n, buffer);
        begin_ += n;
    }
    while (n < capacity) {
        const std::size_t got = read_raw(reinterpret_cast<unsigned char*>(buffer) + n, capacity - n);
        if (got == 0) break;
        n += got;
    }
    return n;
}

std::size_t text_input::fill() {
    if (at_end_) return 0;
    buffer_.resize(chunk_bytes);
    const std::size_t n = read_raw(reinterpret_cast<unsigned char*>(&buffer_[0]), chunk_bytes);
    begin_ = 0;
    end_ = n;
    if (n == 0) at_end_ = true;
    return n;
}

bool text_input::next_line(std::string_view& line) {
    line_.clear();
    truncated_ = false;
    bool any = false;
    for (;;) {
        if (begin_ == end_ && fill() == 0) break;
        any = true;
        const char* start = buffer_.data() + begin_;
        const std::size_t available = end_ - begin_;
        const void* nl = std::memchr(start, '\n', available);
        const std::size_t take = nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : available;
        if (!truncated_) {
            const std::size_t room = max_line_ - line_.size();
            if (take > room) {
                line_.append(start, room);
                truncated_ = true;
            } else {
                line_.append(start, take);
            }
        }
        begin_ += take;
        if (nl != nullptr) {
            ++begin_;  // the \n
            break;
        }
    }
    if (!any) return false;
    if (!truncated_ && !line_.empty() && line_.back() == '\r') line_.pop_back();
    ++line_number_;
    const std::uint64_t start = line_start_;
    line_start_ = delivered_ - (end_ - begin_);  // where the next line begins
    line = line_;
    if (check_text_) check_text(line, start);
    return true;
}

}  // namespace wavefit::cli
