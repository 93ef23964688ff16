// SPDX-License-Identifier: MIT
// A streaming gzip (RFC 1952) reader over zlib's inflate, for the `.gz` logs and traces the CLI reads.
// It pulls compressed bytes from a source as it needs them and keeps only zlib's 32 KiB window and a
// 64 KiB input buffer, whatever the size of the file. Concatenated members decode as one stream, as
// gunzip does. Everything a hostile file can get wrong (header, Huffman codes, back-references,
// stored-block lengths, the CRC-32 and length of each member's trailer, truncation, bytes after the
// last member) is a gzip_error with one line saying what. zlib stays out of this header.
#pragma once

#include <cstddef>     // std::size_t
#include <cstdint>     // offsets
#include <functional>  // the byte source
#include <memory>      // the zlib state
#include <stdexcept>   // gzip_error

namespace wavefit::analysis {

// A malformed or truncated gzip stream; the message is one line.
class gzip_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class gzip_stream {
public:
    // Fills up to `capacity` bytes of compressed input; returns how many, 0 at the end of the input.
    using source = std::function<std::size_t(unsigned char*, std::size_t)>;

    explicit gzip_stream(source src);
    ~gzip_stream();
    gzip_stream(const gzip_stream&) = delete;
    gzip_stream& operator=(const gzip_stream&) = delete;

    // Up to `capacity` decompressed bytes; 0 once the last member has ended. Throws gzip_error, and
    // throws the same error again on every later call.
    std::size_t read(unsigned char* out, std::size_t capacity);

    // Compressed bytes zlib has consumed so far (for messages).
    std::uint64_t compressed_offset() const noexcept;

private:
    struct state;
    std::unique_ptr<state> state_;
};

}  // namespace wavefit::analysis
