// SPDX-License-Identifier: MIT
// What the CLI reads as text (logs for `explain --scan`, profiler traces for `audit`, team knowledge
// files): a file or "-" for standard input, gzip-compressed or not (told from the first bytes, not
// the name), in bounded memory whatever the size. Lines end at \n (a \r before it is dropped) and are
// capped: a longer line is cut at the cap and reported as truncated, and the rest of it is skipped,
// so one hostile line cannot grow memory. Every failure is a usage_error with one line "NAME: reason".
#pragma once

#include <cstddef>      // sizes
#include <cstdint>      // counters
#include <cstdio>       // std::FILE
#include <memory>       // the decompressor
#include <string>       // names, the line buffer
#include <string_view>  // lines
#include <utility>      // std::move

namespace wavefit::analysis {
class gzip_stream;
}  // namespace wavefit::analysis

namespace wavefit::cli {

class text_input {
public:
    static constexpr std::size_t default_max_line_bytes = std::size_t{64} * 1024;

    // Opens `path` ("-": standard input). Throws usage_error if it cannot be opened or read.
    explicit text_input(const std::string& path, std::size_t max_line_bytes = default_max_line_bytes);
    ~text_input();
    text_input(const text_input&) = delete;
    text_input& operator=(const text_input&) = delete;

    // The next line without its end of line; false at the end of the input. The view stays valid
    // until the next call. A final line without \n is still a line.
    bool next_line(std::string_view& line);
    // For readers of a text format (team files, tuning files): from now on next_line throws a
    // usage_error "NAME: not a text file (byte 0xNN on line N), so not WHAT" when a line within the first
    // 4 KiB of the content holds a NUL byte or bytes that are not UTF-8, so that a binary file gives one
    // line instead of one error per line of garbage.
    void expect_text(std::string what) {
        expected_text_ = std::move(what);
        check_text_ = true;
    }
    // Whether the line last returned was longer than the cap (and is cut there).
    bool last_line_truncated() const noexcept { return truncated_; }
    // The 1-based number of the line last returned (0 before the first).
    std::uint64_t line_number() const noexcept { return line_number_; }

    // Up to `capacity` bytes of the (decompressed) content, for readers that tokenise it themselves
    // (JSON); 0 at the end. Do not mix with next_line on one input.
    std::size_t read(char* buffer, std::size_t capacity);

    // The input's name for messages: the path, or "standard input".
    const std::string& name() const noexcept { return name_; }
    bool compressed() const noexcept { return gzip_ != nullptr; }
    // Content bytes delivered so far (after decompression).
    std::uint64_t bytes_read() const noexcept { return delivered_; }

private:
    std::size_t fill();  // refills buffer_ from the source; 0 at the end
    std::size_t read_raw(unsigned char* out, std::size_t capacity);
    // The file's bytes as they are on disk (compressed or not), the peeked ones first.
    std::size_t read_file(unsigned char* out, std::size_t capacity);
    [[noreturn]] void fail(const std::string& why) const;
    void check_text(std::string_view line, std::uint64_t line_start);

    std::string name_;
    std::FILE* file_ = nullptr;
    bool owns_file_ = false;
    std::unique_ptr<analysis::gzip_stream> gzip_;
    std::size_t max_line_;
    std::string buffer_;  // content not yet handed out: [begin_, end_)
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    std::string line_;    // the line being assembled across refills
    std::string peeked_;  // raw bytes read to detect gzip, delivered first
    bool truncated_ = false;
    bool at_end_ = false;
    std::uint64_t line_number_ = 0;
    std::uint64_t delivered_ = 0;
    std::uint64_t line_start_ = 0;  // content offset of the next line's first byte
    bool check_text_ = false;
    std::string expected_text_;
};

}  // namespace wavefit::cli
