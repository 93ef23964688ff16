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

#include <wavefit/detail/json_text.hpp>  // append_json_string

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

    // Appends `text` as a JSON string literal to `out` (the library's one JSON string writer).
    static void append_string(std::string& out, std::string_view text) { wavefit::detail::append_json_string(out, text); }

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

    std::string out_;
    std::vector<level> levels_;
    bool after_key_ = false;
};

}  // namespace wavefit::cli
