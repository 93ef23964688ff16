// SPDX-License-Identifier: MIT
// libFuzzer target: the CLI's gzip reader (tools/analysis/gzip_stream.hpp, over zlib's inflate) on
// arbitrary bytes, fed through a source that hands them out in fuzzed chunk sizes and read back in
// fuzzed read sizes. Invariants: it returns or throws gzip_error (one line); it never reads past its
// input, never traps under ASan/UBSan, and never returns more than it was asked for; output is capped
// at 8 MiB so a small bomb cannot stall the run. zlib itself is the system library, built without
// the sanitizers: what this target checks is wavefit's use of it (members, truncation, errors).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/gzip_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    // The first byte picks the chunk sizes, the rest is the stream.
    const std::size_t source_step = 1 + (data[0] & 0x0f) * 97;
    const std::size_t read_size = 1 + (data[0] >> 4) * 613;
    const std::uint8_t* stream = data + 1;
    const std::size_t stream_size = size - 1;
    std::size_t at = 0;
    wavefit::analysis::gzip_stream z([&](unsigned char* out, std::size_t capacity) {
        std::size_t n = capacity < source_step ? capacity : source_step;
        if (n > stream_size - at) n = stream_size - at;
        for (std::size_t i = 0; i < n; ++i) out[i] = stream[at + i];
        at += n;
        return n;
    });
    std::vector<unsigned char> buffer(read_size);
    std::uint64_t total = 0;
    try {
        for (std::size_t n; (n = z.read(buffer.data(), buffer.size())) > 0;) {
            if (n > buffer.size()) std::abort();
            total += n;
            if (total > (std::uint64_t{8} << 20)) break;
        }
    } catch (const wavefit::analysis::gzip_error& e) {
        const std::string message = e.what();
        if (message.empty() || message.find('\n') != std::string::npos) {
            std::fprintf(stderr, "gzip_error is not one line: %s\n", message.c_str());
            std::abort();
        }
    }
    return 0;
}
