// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON reader (include/wavefit/detail/json_reader.hpp). The first byte picks the
// options (chunk size of the source, U+FFFD replacement, JSON Lines), the rest is the document.
// Invariants:
//   * the pull reader gives the same tokens, texts and error through a fuzzed chunk size as in place;
//   * an error is one line starting "byte N: " with N inside the input (or at its end);
//   * parse_json accepts exactly what the pull reader reads without error (single documents);
//   * with replacement on, every string that comes out is valid UTF-8;
//   * an accepted document, written back out, parses again, and the writing reaches a fixed point;
//   * any bytes written as one JSON string (append_json_string) read back as well_formed_utf8 of them;
//   * no out-of-bounds read, no UB, no unbounded work or memory (ASan, UBSan, -timeout, -rss_limit_mb).
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <wavefit/detail/json_reader.hpp>
#include <wavefit/detail/json_text.hpp>  // append_json_string, the library's string writer
#include <wavefit/detail/utf8.hpp>       // well_formed_utf8

namespace {

using wavefit::detail::json_limits;
using wavefit::detail::json_pull_reader;
using wavefit::detail::json_token;
using wavefit::detail::json_type;
using wavefit::detail::json_value;

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_json: invariant broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (c < 0x80)
            n = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            n = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else
            return false;
        if (i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return false;
        }
        i += n;
    }
    return true;
}

// Every token as text, so that two readings can be compared.
std::string transcript(json_pull_reader& r, bool check_utf8) {
    std::string out;
    for (int guard = 0;; ++guard) {
        const json_token t = r.next();
        out += std::to_string(static_cast<int>(t));
        if (t == json_token::key || t == json_token::string || t == json_token::number) {
            if (check_utf8 && t != json_token::number && !valid_utf8(r.text()))
                finding("invalid UTF-8 with replacement on", std::string(r.text()));
            out += ':';
            out += r.text();
        }
        out += '@' + std::to_string(r.offset()) + ' ';
        if (t == json_token::error) return out + r.error();
        if (t == json_token::end_of_input) return out;
        if (guard > 10000000) finding("no end", out.substr(0, 200));
    }
}

// Strings are written as the tuning records and the CLI write theirs.
void write_string(std::string& out, std::string_view s) { wavefit::detail::append_json_string(out, s); }

// The input's bytes as one string: the writer turns any bytes into a document the reader accepts,
// and the reader gives back the same text, its ill-formed bytes as U+FFFD.
void check_string_round_trip(const std::string& bytes) {
    std::string written;
    wavefit::detail::append_json_string(written, bytes);
    json_limits limits;
    limits.max_string_bytes = 3 * bytes.size() + 1;  // one U+FFFD (3 bytes) for each byte at most
    limits.max_document_bytes = written.size() + 1;
    const auto back = wavefit::detail::parse_json(written, limits);
    if (!back.ok()) finding("a written string does not parse", back.error + " | " + written.substr(0, 300));
    if (!back.value.as_string() || *back.value.as_string() != wavefit::detail::well_formed_utf8(bytes))
        finding("a written string reads back changed", written.substr(0, 300));
}

void write(std::string& out, const json_value& v);

// An array's or an object's members between `open` and `close`, comma-separated, each behind its key in an object.
void write_members(std::string& out, const json_value& v, char open, char close) {
    out += open;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ',';
        if (v.type() == json_type::object) {
            write_string(out, v.key(i));
            out += ':';
        }
        write(out, v[i]);
    }
    out += close;
}

void write(std::string& out, const json_value& v) {
    switch (v.type()) {
        case json_type::null: out += "null"; return;
        case json_type::boolean: out += *v.as_bool() ? "true" : "false"; return;
        case json_type::string: write_string(out, *v.as_string()); return;
        case json_type::number: {
            const auto& n = v.number();
            if (n.integer && !n.integer_overflow) {
                if (n.negative) out += '-';
                out += std::to_string(n.magnitude);
            } else if (std::isinf(n.value)) {
                out += n.value < 0 ? "-1e400" : "1e400";
            } else {
                char buffer[64];
                const auto r = std::to_chars(buffer, buffer + sizeof buffer, n.value);
                out.append(buffer, r.ptr);
                if (std::string_view(buffer, static_cast<std::size_t>(r.ptr - buffer)).find_first_of(".e") ==
                    std::string_view::npos)
                    out += ".0";
            }
            return;
        }
        case json_type::array: write_members(out, v, '[', ']'); return;
        case json_type::object: write_members(out, v, '{', '}'); return;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t options = data[0];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    check_string_round_trip(text);
    json_limits limits;
    limits.max_depth = 48;
    limits.max_string_bytes = 4096;
    limits.max_number_chars = 64;
    limits.max_tokens = 100000;
    limits.replace_invalid_utf8 = (options & 0x10) != 0;
    limits.multiple_documents = (options & 0x20) != 0;
    limits.reject_duplicate_keys = (options & 0x40) == 0;
    limits.max_document_bytes = 1u << 20;
    const std::size_t step = 1 + (options & 0x0f) * 3;

    json_pull_reader in_place{std::string_view(text), limits};
    const std::string whole = transcript(in_place, limits.replace_invalid_utf8);

    std::size_t at = 0;
    json_pull_reader chunked(
        [&](char* out, std::size_t capacity) {
            std::size_t n = capacity < step ? capacity : step;
            if (n > text.size() - at) n = text.size() - at;
            text.copy(out, n, at);
            at += n;
            return n;
        },
        limits, step);
    const std::string pieces = transcript(chunked, limits.replace_invalid_utf8);
    if (pieces != whole) finding("chunked reading differs", whole.substr(0, 300) + " | " + pieces.substr(0, 300));

    const bool failed = in_place.current() == json_token::error;
    if (failed) {
        const std::string& e = in_place.error();
        if (e.rfind("byte ", 0) != 0 || e.find('\n') != std::string::npos) finding("error not one line with an offset", e);
        const std::uint64_t offset = std::strtoull(e.c_str() + 5, nullptr, 10);
        if (offset > text.size()) finding("error offset beyond the input", e);
    }
    if (limits.multiple_documents) return 0;

    const auto dom = wavefit::detail::parse_json(text, limits);
    if (limits.reject_duplicate_keys) {
        // Duplicate keys are the one thing the DOM refuses beyond the tokenizer.
        if (!failed && !dom.ok() && dom.error.find("twice") == std::string::npos)
            finding("DOM refused a valid document", dom.error);
        if (failed && dom.ok()) finding("DOM accepted what the tokenizer refused", in_place.error());
    } else if (dom.ok() == failed) {
        finding("DOM and tokenizer disagree", dom.error + " | " + in_place.error());
    }
    if (!dom.ok()) {
        if (!dom.value.is_null()) finding("a refused document left a value", dom.error);
        return 0;
    }
    // Writing is a fixed point from the second round on ("0.0", a rounded 1e-400, reads back as the
    // integer 0 and is then written "0").
    json_limits relaxed = limits;
    relaxed.max_number_chars = 400;                          // a written double is at most 24 characters
    relaxed.max_string_bytes = limits.max_string_bytes * 6;  // \u00XX escapes of control characters
    std::string written;
    write(written, dom.value);
    std::string previous;
    for (int round = 0; round < 2; ++round) {
        relaxed.max_document_bytes = written.size() + 1;
        const auto again = wavefit::detail::parse_json(written, relaxed);
        if (!again.ok()) finding("written document does not parse", again.error + " | " + written.substr(0, 300));
        previous = written;
        written.clear();
        write(written, again.value);
    }
    if (written != previous)
        finding("writing is not a fixed point", previous.substr(0, 300) + " | " + written.substr(0, 300));
    return 0;
}
