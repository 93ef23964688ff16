// SPDX-License-Identifier: MIT
// A tiny JSON emitter for --json output. Scripts parse what wavefit prints, so every document must be
// valid whatever the input: strings are escaped (control characters included), invalid UTF-8 from a
// command line becomes U+FFFD, and doubles print round-trip exact and never as nan or inf.
#pragma once

#include <charconv>     // std::to_chars: shortest round-trip doubles, locale-independent
#include <cmath>        // std::isfinite
#include <cstddef>      // std::size_t
#include <cstdint>      // integer values
#include <optional>     // value_or_null
#include <string>       // the document
#include <string_view>  // keys and string values
#include <vector>       // nesting state

#include <wavefit/detail/ascii.hpp>
#include <wavefit/detail/utf8.hpp>

namespace wavefit::cli {

class json_writer {
public:
    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }

    // Inside an object: the next value belongs to `name`.
    json_writer& key(std::string_view name) {
        separate();
        write_string(name);
        out_ += ':';
        after_key_ = true;
        return *this;
    }

    json_writer& value(std::string_view text) {
        separate();
        write_string(text);
        return *this;
    }
    json_writer& value(const char* text) { return value(std::string_view(text)); }
    json_writer& value(const std::string& text) { return value(std::string_view(text)); }
    json_writer& value(bool b) { return literal(b ? "true" : "false"); }
    json_writer& value(std::uint64_t n) { return literal(std::to_string(n)); }
    json_writer& value(std::uint32_t n) { return value(std::uint64_t{n}); }
    json_writer& value(std::int64_t n) { return literal(std::to_string(n)); }
    json_writer& value(int n) { return value(std::int64_t{n}); }
    // JSON has no nan or inf; null is the one honest spelling of "no number".
    json_writer& value(double x) {
        if (!std::isfinite(x)) return null();
        char buffer[32];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
        const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
        literal(text);
        // "1" would read back as an integer in most JSON libraries; a ratio should stay a float.
        if (text.find_first_of(".eE") == std::string_view::npos) out_ += ".0";
        return *this;
    }
    json_writer& null() { return literal("null"); }
    // A field that may be missing is null, never "" or 0, so that scripts can tell "none" from a value.
    json_writer& text_or_null(std::string_view text) { return text.empty() ? null() : value(text); }
    template <class T> json_writer& value_or_null(const std::optional<T>& v) { return v ? value(*v) : null(); }

    // The document with a final newline; valid once every object and array is closed.
    std::string finish() const { return out_ + "\n"; }

    // Appends `text` as a JSON string literal to `out`.
    static void append_string(std::string& out, std::string_view text) {
        out += '"';
        std::size_t i = 0;
        while (i < text.size()) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += static_cast<char>(c);
            } else if (c == '\n') {
                out += "\\n";
            } else if (c == '\t') {
                out += "\\t";
            } else if (c == '\r') {
                out += "\\r";
            } else if (c < 0x20 || c == 0x7f) {
                out += "\\u00";
                wavefit::detail::append_hex_byte(out, c);
            } else if (c >= 0x80) {
                const std::size_t length = utf8_sequence_length(text, i);
                if (length == 0) {
                    out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
                    ++i;
                    continue;
                }
                out.append(text.data() + i, length);
                i += length;
                continue;
            } else {
                out += static_cast<char>(c);
            }
            ++i;
        }
        out += '"';
    }

private:
    struct level {
        bool has_items = false;
    };

    json_writer& open(char bracket) {
        separate();
        out_ += bracket;
        levels_.push_back({});
        return *this;
    }
    json_writer& close(char bracket) {
        out_ += bracket;
        if (!levels_.empty()) levels_.pop_back();
        return *this;
    }
    // A number, true, false or null: written as it is, unlike a string.
    json_writer& literal(std::string_view text) {
        separate();
        out_ += text;
        return *this;
    }
    // Commas go between items of the current array or object, never after a key.
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (levels_.empty()) return;
        if (levels_.back().has_items) out_ += ',';
        levels_.back().has_items = true;
    }
    void write_string(std::string_view text) { append_string(out_, text); }

    // Length of the well-formed UTF-8 sequence starting at text[i], or 0 if it is not one.
    static std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        const wavefit::detail::utf8_lead lead = wavefit::detail::utf8_lead_of(byte(i));
        if (lead.length == 0 || i + lead.length > text.size()) return 0;
        if (byte(i + 1) < lead.min_second || byte(i + 1) > lead.max_second) return 0;
        for (std::size_t k = 2; k < lead.length; ++k)
            if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
        return lead.length;
    }

    std::string out_;
    std::vector<level> levels_;
    bool after_key_ = false;
};

}  // namespace wavefit::cli
