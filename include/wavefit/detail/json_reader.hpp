// SPDX-License-Identifier: MIT
// A JSON reader for untrusted input (profiler traces, the tuning database): a streaming pull tokenizer
// over a chunked byte source, so a 1 GiB document parses in bounded memory, and a small DOM on top of
// it for documents up to a size cap. RFC 8259, header-only, no dependency, and no exception for bad
// input: every malformed document is one error line naming its byte offset.
#pragma once

#include <algorithm>     // std::sort (duplicate keys), std::min
#include <cstddef>       // std::size_t
#include <cstdint>       // offsets, integer values
#include <cstring>       // std::memcpy
#include <functional>    // the byte source
#include <limits>        // integer ranges
#include <optional>      // typed accessors
#include <string>        // unescaped strings, messages
#include <string_view>   // token texts
#include <system_error>  // std::errc from std::from_chars
#include <utility>       // std::move
#include <vector>        // nesting stack, DOM children

#if defined(__has_include)
#if __has_include(<version>)
#include <version>  // __cpp_lib_to_chars
#endif
#endif
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
#include <charconv>  // std::from_chars for doubles: locale-independent, correctly rounded
#define WAVEFIT_JSON_HAS_FLOAT_FROM_CHARS 1
#else
#include <cmath>  // the fallback's std::pow
#define WAVEFIT_JSON_HAS_FLOAT_FROM_CHARS 0
#endif

#include "../config.hpp"
#include "ascii.hpp"
#include "enum_names.hpp"
#include "utf8.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// What a document may use. Every cap is checked as the bytes arrive, so a hostile document is refused
// after reading at most the cap, never after allocating what it asks for.
struct json_limits {
    std::size_t max_depth = 64;               // nested arrays and objects
    std::size_t max_string_bytes = 1u << 20;  // one string or key, after unescaping
    std::size_t max_number_chars = 512;       // one number as written
    std::uint64_t max_tokens = 1ull << 32;    // per document (a document of a JSON Lines file, say)
    // Several top-level values separated by whitespace (JSON Lines, JSON text sequences) instead of one.
    bool multiple_documents = false;
    // Invalid UTF-8 and lone \uD800-\uDFFF escapes in strings: refused (RFC 8259 strictness), or each
    // replaced by U+FFFD. Raw control characters (below 0x20) are never valid and always refused.
    bool replace_invalid_utf8 = false;
    // DOM only: an object with the same key twice is refused (otherwise find() returns the first).
    bool reject_duplicate_keys = true;
    // DOM only: the largest document parse_json accepts.
    std::size_t max_document_bytes = 1u << 20;
};

enum class json_token : std::uint8_t {
    begin_object,
    end_object,
    begin_array,
    end_array,
    key,     // text(): the member name, unescaped
    string,  // text(): the value, unescaped
    number,  // number(): the value; text(): as written
    true_value,
    false_value,
    null_value,
    end_of_input,  // after the (last) document
    error,         // error(): one line with the byte offset; the reader stays here
};

// A number as written and as values. Integers are exact: "18446744073709551615", "1e3" and "-0" are
// integers; "1.5" and "1e-3" are not; an integer beyond 64 bits sets integer_overflow.
struct json_number {
    bool integer = false;  // the value is a whole number (whatever its spelling)
    bool negative = false;
    bool integer_overflow = false;  // integer, but |value| > 2^64-1
    std::uint64_t magnitude = 0;    // |value| when integer and not integer_overflow
    double value = 0.0;             // nearest double; +-inf beyond the double range

    constexpr std::optional<std::uint64_t> as_uint64() const noexcept {
        if (!integer || integer_overflow || (negative && magnitude != 0)) return std::nullopt;
        return magnitude;
    }
    constexpr std::optional<std::int64_t> as_int64() const noexcept {
        if (!integer || integer_overflow) return std::nullopt;
        constexpr std::uint64_t max_positive = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (!negative) {
            if (magnitude > max_positive) return std::nullopt;
            return static_cast<std::int64_t>(magnitude);
        }
        if (magnitude > max_positive + 1) return std::nullopt;
        if (magnitude == max_positive + 1) return std::numeric_limits<std::int64_t>::min();
        return -static_cast<std::int64_t>(magnitude);
    }
};

// The pull tokenizer. next() returns one token at a time; the texts stay valid until the next call.
// Memory: one chunk of input plus the longest string or number (both capped), whatever the document's
// size; time: linear in its length.
class json_pull_reader {
public:
    // Fills `buffer` with up to `capacity` bytes and returns how many; 0 means the end of the input.
    using byte_source = std::function<std::size_t(char* buffer, std::size_t capacity)>;

    static constexpr std::size_t default_chunk_bytes = std::size_t{64} * 1024;

    explicit json_pull_reader(byte_source source, const json_limits& limits = {},
                              std::size_t chunk_bytes = default_chunk_bytes)
        : limits_(limits), source_(std::move(source)), chunk_(chunk_bytes == 0 ? 1 : chunk_bytes) {}

    // Reads `text` in place (no copy). The text must outlive the reader.
    explicit json_pull_reader(std::string_view text, const json_limits& limits = {}) : limits_(limits) {
        data_ = text.data();
        size_ = text.size();
        exhausted_ = true;
    }

    json_pull_reader(const json_pull_reader&) = delete;
    json_pull_reader& operator=(const json_pull_reader&) = delete;
    json_pull_reader(json_pull_reader&&) = delete;
    json_pull_reader& operator=(json_pull_reader&&) = delete;
    ~json_pull_reader() = default;

    json_token next();

    json_token current() const noexcept { return token_; }
    // key and string: the unescaped UTF-8 text; number: as written; otherwise empty.
    std::string_view text() const noexcept { return text_; }
    const json_number& number() const noexcept { return number_; }
    // Open arrays and objects around the current token (a begin token counts its own container).
    std::size_t depth() const noexcept { return stack_.size(); }
    // Byte offset in the input of the current token's first byte.
    std::uint64_t offset() const noexcept { return token_offset_; }
    // Top-level documents completed so far.
    std::uint64_t documents() const noexcept { return documents_; }
    // "byte 1234: expected ':' after a key, got '}'" when current() is error; empty otherwise.
    const std::string& error() const noexcept { return error_; }

    // After begin_object or begin_array: reads up to and including the matching end token. After any
    // other token: does nothing. False if the document turned out malformed (current() is error).
    bool skip() {
        if (token_ != json_token::begin_object && token_ != json_token::begin_array) return token_ != json_token::error;
        const std::size_t target = stack_.size() - 1;
        for (;;) {
            const json_token t = next();
            if (t == json_token::error || t == json_token::end_of_input) return false;
            if ((t == json_token::end_object || t == json_token::end_array) && stack_.size() == target) return true;
        }
    }

private:
    enum class expect : std::uint8_t {
        value,               // a value is required: document start, after ':', after ',' in an array
        value_or_end_array,  // right after '['
        key_or_end_object,   // right after '{'
        key,                 // after ',' in an object
        colon,               // after a key
        comma_or_end,        // after a value inside a container
        document_end,        // after a top-level value
    };
    static constexpr int end_of_bytes = -1;

    // --- bytes ------------------------------------------------------------------------------
    bool refill() {
        if (exhausted_) return false;
        consumed_ += size_;
        pos_ = 0;
        size_ = 0;
        if (owned_.size() != chunk_) owned_.resize(chunk_);
        const std::size_t n = source_ ? source_(&owned_[0], owned_.size()) : 0;
        if (n == 0) {
            exhausted_ = true;
            return false;
        }
        data_ = owned_.data();
        size_ = n < owned_.size() ? n : owned_.size();  // a source that claims more than it may is clamped
        return true;
    }
    int peek() {
        if (pos_ == size_ && !refill()) return end_of_bytes;
        return static_cast<unsigned char>(data_[pos_]);
    }
    std::uint64_t position() const noexcept { return consumed_ + pos_; }

    // --- errors -----------------------------------------------------------------------------
    static std::string describe_byte(int c) {
        if (c == end_of_bytes) return "end of input";
        if (c >= 0x21 && c < 0x7f && c != '\'') return std::string("'") + static_cast<char>(c) + "'";
        std::string byte = "byte 0x";
        append_hex_byte(byte, static_cast<unsigned char>(c));
        return byte;
    }
    json_token fail_at(std::uint64_t at, const std::string& what) {
        if (token_ != json_token::error) {
            error_ = "byte " + std::to_string(at) + ": " + what;
            token_ = json_token::error;
        }
        text_ = {};
        return json_token::error;
    }
    json_token fail(const std::string& what) { return fail_at(position(), what); }

    // --- tokens -----------------------------------------------------------------------------
    json_token emit(json_token t) {
        token_ = t;
        if (++tokens_ > limits_.max_tokens)
            return fail_at(token_offset_, "more than " + std::to_string(limits_.max_tokens) + " tokens in one document");
        return t;
    }
    void skip_whitespace() {
        for (;;) {
            while (pos_ < size_) {
                const char c = data_[pos_];
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                ++pos_;
            }
            if (!refill()) return;
        }
    }
    // A UTF-8 byte order mark before the first document is skipped (RFC 8259 section 8.1 allows it).
    void skip_byte_order_mark() {
        if (peek() != 0xEF) return;
        const std::uint64_t start = position();
        // Only three bytes: check them one by one (they may straddle chunks).
        static constexpr unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
        for (unsigned char expected : bom) {
            if (peek() != expected) {
                fail_at(start, "a byte 0xef that does not start a byte order mark");
                return;
            }
            ++pos_;
        }
    }

    json_token value_token(int c);
    json_token open_container(char bracket, json_token t);
    json_token close_container(char bracket);
    json_token after_value() {
        if (stack_.empty()) {
            ++documents_;
            state_ = expect::document_end;
        } else {
            state_ = expect::comma_or_end;
        }
        return token_;
    }
    json_token literal(std::string_view word, json_token t) {
        for (char expected : word) {
            const int c = peek();
            if (c != static_cast<unsigned char>(expected))
                return fail("invalid literal (expected '" + std::string(word) + "'), got " + describe_byte(c));
            ++pos_;
        }
        if (emit(t) == json_token::error) return token_;
        return after_value();
    }
    json_token read_number();
    bool read_string();  // into string_, past the closing quote; false on error
    bool append_checked(const char* bytes, std::size_t n) {
        if (n > limits_.max_string_bytes - string_.size()) {
            fail_at(token_offset_, "a string longer than " + std::to_string(limits_.max_string_bytes) + " bytes");
            return false;
        }
        string_.append(bytes, n);
        return true;
    }
    bool append_code_point(std::uint32_t cp) {
        char out[4];
        std::size_t n = 0;
        if (cp < 0x80) {
            out[n++] = static_cast<char>(cp);
        } else if (cp < 0x800) {
            out[n++] = static_cast<char>(0xC0 | (cp >> 6));
            out[n++] = static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[n++] = static_cast<char>(0xE0 | (cp >> 12));
            out[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out[n++] = static_cast<char>(0xF0 | (cp >> 18));
            out[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = static_cast<char>(0x80 | (cp & 0x3F));
        }
        return append_checked(out, n);
    }
    bool replacement_or_fail(std::uint64_t at, const std::string& what) {
        if (limits_.replace_invalid_utf8) return append_code_point(0xFFFD);
        fail_at(at, what);
        return false;
    }
    int read_hex4(std::uint32_t& value);  // 1 ok, 0 error (already reported)
    bool read_escape(std::uint64_t at);   // just after the backslash at `at`
    bool read_utf8_sequence();

    json_limits limits_;
    byte_source source_;
    std::size_t chunk_ = default_chunk_bytes;
    std::string owned_;           // the current chunk when reading from a source
    const char* data_ = nullptr;  // the bytes being read: owned_ or the caller's text
    std::size_t size_ = 0;
    std::size_t pos_ = 0;
    std::uint64_t consumed_ = 0;  // bytes before data_[0]
    bool exhausted_ = false;
    bool started_ = false;

    std::vector<char> stack_;  // '{' or '[' per open container
    expect state_ = expect::value;
    json_token token_ = json_token::end_of_input;
    std::uint64_t token_offset_ = 0;
    std::uint64_t tokens_ = 0;
    std::uint64_t documents_ = 0;
    std::string string_;       // the current string or key, unescaped
    std::string number_text_;  // the current number as written
    std::string_view text_;
    json_number number_;
    std::string error_;
};

inline json_token json_pull_reader::next() {
    if (token_ == json_token::error) return token_;
    text_ = {};
    if (!started_) {
        started_ = true;
        skip_byte_order_mark();
        if (token_ == json_token::error) return token_;
    }
    for (;;) {
        skip_whitespace();
        const int c = peek();
        token_offset_ = position();
        switch (state_) {
            case expect::document_end:
                if (c == end_of_bytes) {
                    token_ = json_token::end_of_input;
                    return token_;
                }
                if (!limits_.multiple_documents)
                    return fail("unexpected " + describe_byte(c) + " after the end of the document");
                tokens_ = 0;
                state_ = expect::value;
                return value_token(c);
            case expect::value:
                if (c == end_of_bytes) {
                    // Only the very start of the input is in this state at top level with nothing read.
                    if (stack_.empty() && limits_.multiple_documents) {
                        token_ = json_token::end_of_input;
                        return token_;
                    }
                    return fail(stack_.empty() ? "empty document, expected a value"
                                               : "unexpected end of input, expected a value");
                }
                return value_token(c);
            case expect::value_or_end_array:
                if (c == ']') return close_container(']');
                if (c == end_of_bytes) return fail("unexpected end of input inside an array");
                return value_token(c);
            case expect::key_or_end_object:
                if (c == '}') return close_container('}');
                [[fallthrough]];
            case expect::key:
                if (c != '"')
                    return fail(std::string(c == end_of_bytes ? "unexpected end of input" : "expected a key (a string)") +
                                " inside an object, got " + describe_byte(c));
                if (!read_string()) return token_;
                text_ = string_;
                state_ = expect::colon;
                return emit(json_token::key);
            case expect::colon:
                if (c != ':') return fail("expected ':' after a key, got " + describe_byte(c));
                ++pos_;
                state_ = expect::value;
                continue;
            case expect::comma_or_end: {
                const char open = stack_.back();
                const char close = open == '{' ? '}' : ']';
                if (c == close) return close_container(close);
                if (c != ',')
                    return fail(std::string("expected ',' or '") + close + "' after " +
                                (open == '{' ? "a member" : "an element") + ", got " + describe_byte(c));
                ++pos_;
                state_ = open == '{' ? expect::key : expect::value;
                continue;
            }
        }
    }
}

inline json_token json_pull_reader::value_token(int c) {
    switch (c) {
        case '{': return open_container('{', json_token::begin_object);
        case '[': return open_container('[', json_token::begin_array);
        case '"':
            if (!read_string()) return token_;
            text_ = string_;
            if (emit(json_token::string) == json_token::error) return token_;
            return after_value();
        case 't': return literal("true", json_token::true_value);
        case 'f': return literal("false", json_token::false_value);
        case 'n': return literal("null", json_token::null_value);
        default:
            if (c == '-' || (c >= '0' && c <= '9')) return read_number();
            if (c == ']' || c == '}') return fail("unexpected " + describe_byte(c) + ", expected a value");
            return fail("expected a value, got " + describe_byte(c));
    }
}

inline json_token json_pull_reader::open_container(char bracket, json_token t) {
    if (stack_.size() >= limits_.max_depth)
        return fail("nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    ++pos_;
    stack_.push_back(bracket);
    state_ = bracket == '{' ? expect::key_or_end_object : expect::value_or_end_array;
    return emit(t);
}

inline json_token json_pull_reader::close_container(char bracket) {
    ++pos_;
    stack_.pop_back();
    if (emit(bracket == '}' ? json_token::end_object : json_token::end_array) == json_token::error) return token_;
    return after_value();
}

inline json_token json_pull_reader::read_number() {
    number_text_.clear();
    number_ = json_number{};
    const auto take = [this]() {
        if (number_text_.size() >= limits_.max_number_chars) return false;
        number_text_ += data_[pos_];
        ++pos_;
        return true;
    };
    const auto too_long = [this]() {
        return fail_at(token_offset_, "a number longer than " + std::to_string(limits_.max_number_chars) + " characters");
    };
    bool negative = false;
    if (peek() == '-') {
        negative = true;
        if (!take()) return too_long();
    }
    // Significant digits (leading zeros dropped) and the power of ten they are scaled by.
    std::string digits;
    std::int64_t scale = 0;
    const int first = peek();
    if (first < '0' || first > '9') return fail("expected a digit in a number, got " + describe_byte(first));
    if (first == '0') {
        if (!take()) return too_long();
        const int after = peek();
        if (after >= '0' && after <= '9') return fail("a number with a leading zero");
    } else {
        while (peek() >= '0' && peek() <= '9') {
            digits += static_cast<char>(peek());
            if (!take()) return too_long();
        }
    }
    if (peek() == '.') {
        if (!take()) return too_long();
        const int d = peek();
        if (d < '0' || d > '9') return fail("expected a digit after the decimal point, got " + describe_byte(d));
        while (peek() >= '0' && peek() <= '9') {
            if (!digits.empty() || peek() != '0') digits += static_cast<char>(peek());
            --scale;
            if (!take()) return too_long();
        }
    }
    if (peek() == 'e' || peek() == 'E') {
        if (!take()) return too_long();
        bool exponent_negative = false;
        if (peek() == '+' || peek() == '-') {
            exponent_negative = peek() == '-';
            if (!take()) return too_long();
        }
        const int d = peek();
        if (d < '0' || d > '9') return fail("expected a digit in the exponent, got " + describe_byte(d));
        std::int64_t exponent = 0;
        while (peek() >= '0' && peek() <= '9') {
            // Saturates: the number of characters is capped, so the scale stays far from overflow.
            if (exponent < 1000000000) exponent = exponent * 10 + (peek() - '0');
            if (!take()) return too_long();
        }
        scale += exponent_negative ? -exponent : exponent;
    }
    // Digits dropped after the point above were leading zeros only ("0.001": digits "1", scale -3).
    while (!digits.empty() && digits.back() == '0') {
        digits.pop_back();
        ++scale;
    }

    json_number& n = number_;
    n.negative = negative;
    if (digits.empty()) {
        n.integer = true;
    } else if (scale >= 0) {
        n.integer = true;
        if (static_cast<std::uint64_t>(scale) + digits.size() > 20) {
            n.integer_overflow = true;
        } else {
            std::uint64_t v = 0;
            constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
            for (char d : digits) {
                const auto digit = static_cast<std::uint64_t>(d - '0');
                if (v > (max - digit) / 10) {
                    n.integer_overflow = true;
                    break;
                }
                v = v * 10 + digit;
            }
            for (std::int64_t i = 0; i < scale && !n.integer_overflow; ++i) {
                if (v > max / 10)
                    n.integer_overflow = true;
                else
                    v *= 10;
            }
            if (!n.integer_overflow) n.magnitude = v;
        }
    }
    // The decimal exponent of the leading digit decides overflow or underflow when the double range is left.
    const std::int64_t leading_exponent = digits.empty() ? 0 : scale + static_cast<std::int64_t>(digits.size()) - 1;
#if WAVEFIT_JSON_HAS_FLOAT_FROM_CHARS
    double value = 0.0;
    const char* begin = number_text_.data();
    const char* end = begin + number_text_.size();
    const auto result = std::from_chars(begin, end, value, std::chars_format::general);
    if (result.ec == std::errc::result_out_of_range) {
        value = leading_exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
        if (negative) value = -value;
    } else if (result.ec != std::errc() || result.ptr != end) {
        return fail_at(token_offset_, "a number the double parser refused");  // unreachable for valid JSON numbers
    }
    n.value = value;
#else
    // Without floating-point from_chars: integers exactly, other values closely but not always correctly rounded.
    if (leading_exponent > 308) {
        n.value = std::numeric_limits<double>::infinity();
    } else if (digits.empty() || leading_exponent < -324) {
        n.value = 0.0;
    } else {
        long double mantissa = 0;
        for (std::size_t i = 0; i < digits.size() && i < 19; ++i) mantissa = mantissa * 10 + (digits[i] - '0');
        const std::int64_t used = static_cast<std::int64_t>(digits.size() < 19 ? digits.size() : 19);
        n.value = static_cast<double>(
            mantissa * std::pow(10.0L, static_cast<long double>(scale + static_cast<std::int64_t>(digits.size()) - used)));
    }
    if (negative) n.value = -n.value;
#endif
    text_ = number_text_;
    if (emit(json_token::number) == json_token::error) return token_;
    return after_value();
}

inline int json_pull_reader::read_hex4(std::uint32_t& value) {
    value = 0;
    for (int i = 0; i < 4; ++i) {
        const int c = peek();
        int digit = -1;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        if (digit < 0) {
            fail("expected 4 hex digits after \\u, got " + describe_byte(c));
            return 0;
        }
        value = value * 16 + static_cast<std::uint32_t>(digit);
        ++pos_;
    }
    return 1;
}

inline bool json_pull_reader::read_escape(std::uint64_t at) {
    const int c = peek();
    char simple = 0;
    switch (c) {
        case '"': simple = '"'; break;
        case '\\': simple = '\\'; break;
        case '/': simple = '/'; break;
        case 'b': simple = '\b'; break;
        case 'f': simple = '\f'; break;
        case 'n': simple = '\n'; break;
        case 'r': simple = '\r'; break;
        case 't': simple = '\t'; break;
        case 'u': break;
        default:
            fail_at(at, "invalid escape \\" + (c == end_of_bytes ? std::string(" at the end of input") : describe_byte(c)));
            return false;
    }
    ++pos_;
    if (simple != 0) return append_checked(&simple, 1);
    std::uint32_t unit = 0;
    if (read_hex4(unit) == 0) return false;
    std::uint64_t unit_at = at;
    // UTF-16 in escapes: a high surrogate needs a low one right after it (\uD83D\uDE00). A unit that
    // breaks the pairing is an error, or U+FFFD, and the unit after it is read on its own.
    for (;;) {
        if (unit >= 0xDC00 && unit <= 0xDFFF) return replacement_or_fail(unit_at, "a \\u escape with a lone low surrogate");
        if (unit < 0xD800 || unit > 0xDBFF) return append_code_point(unit);
        static constexpr const char* unpaired = "a \\u escape with a high surrogate not followed by a low one";
        if (peek() != '\\') return replacement_or_fail(unit_at, unpaired);
        const std::uint64_t next_at = position();
        ++pos_;
        if (peek() != 'u') {
            if (!replacement_or_fail(unit_at, unpaired)) return false;
            return read_escape(next_at);  // not \u: no further recursion
        }
        ++pos_;
        std::uint32_t low = 0;
        if (read_hex4(low) == 0) return false;
        if (low >= 0xDC00 && low <= 0xDFFF) return append_code_point(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        if (!replacement_or_fail(unit_at, unpaired)) return false;
        unit = low;
        unit_at = next_at;
    }
}

inline bool json_pull_reader::read_utf8_sequence() {
    const std::uint64_t at = position();
    const auto lead = static_cast<unsigned char>(data_[pos_]);
    const utf8_lead announced = utf8_lead_of(lead);
    const std::size_t length = announced.length;
    const unsigned char min_second = announced.min_second;
    const unsigned char max_second = announced.max_second;
    if (length == 0) {
        ++pos_;
        return replacement_or_fail(at, "invalid UTF-8 in a string (" + describe_byte(lead) + ")");
    }
    char bytes[4] = {static_cast<char>(lead), 0, 0, 0};
    ++pos_;
    for (std::size_t i = 1; i < length; ++i) {
        const int c = peek();
        const int low = i == 1 ? min_second : 0x80;
        const int high = i == 1 ? max_second : 0xBF;
        if (c < low || c > high)  // end_of_bytes (-1) is below every bound
            return replacement_or_fail(at, "invalid UTF-8 in a string (a truncated or malformed sequence)");
        bytes[i] = static_cast<char>(c);
        ++pos_;
    }
    return append_checked(bytes, length);
}

inline bool json_pull_reader::read_string() {
    string_.clear();
    ++pos_;  // the opening quote
    for (;;) {
        if (pos_ == size_ && !refill()) {
            fail("unexpected end of input inside a string");
            return false;
        }
        // The common case: a run of plain ASCII inside the current chunk.
        std::size_t run = pos_;
        while (run < size_) {
            const auto c = static_cast<unsigned char>(data_[run]);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            ++run;
        }
        if (run > pos_) {
            if (!append_checked(data_ + pos_, run - pos_)) return false;
            pos_ = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(data_[pos_]);
        if (c == '"') {
            ++pos_;
            return true;
        }
        if (c == '\\') {
            const std::uint64_t at = position();
            ++pos_;
            if (!read_escape(at)) return false;
            continue;
        }
        if (c < 0x20) {
            fail("a raw control character (" + describe_byte(c) + ") inside a string; JSON needs it escaped");
            return false;
        }
        if (!read_utf8_sequence()) return false;
    }
}

// --- the DOM ------------------------------------------------------------------------------------

enum class json_type : std::uint8_t { null, boolean, number, string, array, object };

// "a string", "an object": for messages such as "expected a number, got a string".
constexpr std::string_view to_string(json_type t) noexcept {
    constexpr std::string_view names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return enum_name(names, t, "a value");
}

// One value of a parsed document. Every accessor is total: a wrong type gives an empty optional, a
// missing member or element gives a null value, so `doc["a"]["b"].as_uint64()` never throws.
class json_value {
public:
    json_type type() const noexcept { return type_; }
    bool is_null() const noexcept { return type_ == json_type::null; }
    bool is_object() const noexcept { return type_ == json_type::object; }
    bool is_array() const noexcept { return type_ == json_type::array; }

    std::optional<bool> as_bool() const noexcept {
        if (type_ != json_type::boolean) return std::nullopt;
        return boolean_;
    }
    std::optional<std::uint64_t> as_uint64() const noexcept {
        if (type_ != json_type::number) return std::nullopt;
        return number_.as_uint64();
    }
    std::optional<std::int64_t> as_int64() const noexcept {
        if (type_ != json_type::number) return std::nullopt;
        return number_.as_int64();
    }
    // Any number as the nearest double (+-inf beyond the double range).
    std::optional<double> as_double() const noexcept {
        if (type_ != json_type::number) return std::nullopt;
        return number_.value;
    }
    std::optional<std::string_view> as_string() const noexcept {
        if (type_ != json_type::string) return std::nullopt;
        return std::string_view(text_);
    }
    // The number in detail (exactness, overflow); a zero number for other types.
    const json_number& number() const noexcept { return number_; }

    // Elements of an array or members of an object; 0 otherwise.
    std::size_t size() const noexcept { return children_.size(); }
    // The index-th element of an array (or the value of the index-th member), or null.
    const json_value& operator[](std::size_t index) const noexcept {
        return index < children_.size() ? children_[index] : null_value();
    }
    // The member called `key` (the first, if a document allowed duplicates), or null.
    const json_value& operator[](std::string_view key) const noexcept {
        const json_value* v = find(key);
        return v != nullptr ? *v : null_value();
    }
    const json_value* find(std::string_view key) const noexcept {
        if (type_ != json_type::object) return nullptr;
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] == key) return &children_[i];
        return nullptr;
    }
    // The key of the index-th member of an object; empty otherwise.
    std::string_view key(std::size_t index) const noexcept {
        return index < keys_.size() ? std::string_view(keys_[index]) : std::string_view();
    }
    const std::vector<json_value>& items() const noexcept { return children_; }

    static const json_value& null_value() noexcept {
        static const json_value null;
        return null;
    }

private:
    friend class json_document_builder;

    json_type type_ = json_type::null;
    bool boolean_ = false;
    json_number number_;
    std::string text_;
    std::vector<json_value> children_;
    std::vector<std::string> keys_;  // objects: the key of each child
};

struct json_parse_result {
    json_value value;
    std::string error;  // empty on success; otherwise one line with the byte offset

    bool ok() const noexcept { return error.empty(); }
};

// Builds a json_value from a pull reader, without recursion (the depth is capped anyway, but the
// caller's stack is not ours to spend).
class json_document_builder {
public:
    static json_parse_result build(json_pull_reader& reader, const json_limits& limits) {
        struct frame {
            json_value value;
            std::string key;  // under which the container goes into its parent object
        };
        json_parse_result result;
        std::vector<frame> open;
        std::string key;
        for (;;) {
            const json_token t = reader.next();
            if (t == json_token::error) return failed(result, reader.error());
            if (t == json_token::end_of_input) return result;
            if (t == json_token::key) {
                key.assign(reader.text());
                continue;
            }
            if (t == json_token::begin_object || t == json_token::begin_array) {
                frame f;
                f.value.type_ = t == json_token::begin_object ? json_type::object : json_type::array;
                f.key = std::move(key);
                key.clear();
                open.push_back(std::move(f));
                continue;
            }
            json_value v;
            if (t == json_token::end_object || t == json_token::end_array) {
                v = std::move(open.back().value);
                key = std::move(open.back().key);
                open.pop_back();
                if (limits.reject_duplicate_keys && v.type_ == json_type::object) {
                    const std::string duplicate = duplicate_key(v);
                    if (!duplicate.empty())
                        return failed(result, "byte " + std::to_string(reader.offset()) +
                                                  ": the object that ends here has the key \"" + printable_key(duplicate) +
                                                  "\" twice");
                }
            } else if (t == json_token::string) {
                v.type_ = json_type::string;
                v.text_.assign(reader.text());
            } else if (t == json_token::number) {
                v.type_ = json_type::number;
                v.number_ = reader.number();
            } else if (t == json_token::true_value || t == json_token::false_value) {
                v.type_ = json_type::boolean;
                v.boolean_ = t == json_token::true_value;
            }
            if (open.empty()) {
                result.value = std::move(v);
                continue;
            }
            json_value& parent = open.back().value;
            if (parent.type_ == json_type::object) parent.keys_.push_back(std::move(key));
            key.clear();
            parent.children_.push_back(std::move(v));
        }
    }

private:
    static json_parse_result& failed(json_parse_result& r, std::string error) {
        r.value = json_value{};
        r.error = std::move(error);
        return r;
    }

    // A key that appears twice, or empty. O(n log n), so that a hostile object of many keys stays cheap.
    static std::string duplicate_key(const json_value& object) {
        if (object.keys_.size() < 2) return {};
        std::vector<const std::string*> sorted;
        sorted.reserve(object.keys_.size());
        for (const std::string& k : object.keys_) sorted.push_back(&k);
        std::sort(sorted.begin(), sorted.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
        for (std::size_t i = 1; i < sorted.size(); ++i)
            if (*sorted[i] == *sorted[i - 1]) return *sorted[i];
        return {};
    }

    static std::string printable_key(const std::string& k) {
        std::string out;
        for (std::size_t i = 0; i < k.size() && i < 60; ++i) {
            const auto c = static_cast<unsigned char>(k[i]);
            out += (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') ? static_cast<char>(c) : '?';
        }
        if (k.size() > 60) out += "...";
        return out;
    }
};

// Parses one whole document (up to limits.max_document_bytes) into a DOM. Never throws for bad input
// (only std::bad_alloc, and the caps bound what can be allocated).
inline json_parse_result parse_json(std::string_view text, const json_limits& limits = {}) {
    if (text.size() > limits.max_document_bytes) {
        json_parse_result r;
        r.error = "byte " + std::to_string(limits.max_document_bytes) + ": the document is " + std::to_string(text.size()) +
                  " bytes, more than the cap of " + std::to_string(limits.max_document_bytes);
        return r;
    }
    json_limits one = limits;
    one.multiple_documents = false;
    json_pull_reader reader(text, one);
    return json_document_builder::build(reader, one);
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
