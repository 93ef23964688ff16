// SPDX-License-Identifier: MIT
// The one JSON string writer (detail/json_text.hpp) and the UTF-8 it writes (detail/utf8.hpp): what
// the tuning records and the CLI's --json output put between quotes, byte for byte, and that the
// library's own JSON reader takes every such string back.
#include <catch2/catch.hpp>

#include <wavefit/detail/json_reader.hpp>
#include <wavefit/detail/json_text.hpp>
#include <wavefit/detail/utf8.hpp>

#include <string>
#include <string_view>

namespace {

std::string written(std::string_view text) {
    std::string out;
    wavefit::detail::append_json_string(out, text);
    return out;
}

const std::string fffd = "\xEF\xBF\xBD";

}  // namespace

TEST_CASE("a JSON string escapes quotes, backslashes and control characters and keeps well-formed UTF-8", "[json][utf8]") {
    struct row {
        std::string text;
        std::string json;
    };
    const row rows[] = {
        {"", R"("")"},
        {"NVIDIA H200", R"("NVIDIA H200")"},
        {"say \"hi\"", R"("say \"hi\"")"},
        {"C:\\tmp", R"("C:\\tmp")"},
        {"a\nb\tc\rd", R"("a\nb\tc\rd")"},
        {std::string("nul\0x", 5), R"("nul\u0000x")"},
        {"\x01\x1f\x7f", R"("\u0001\u001f\u007f")"},
        {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\""},  // 2, 3, 4 bytes
    };
    for (const row& r : rows) {
        CAPTURE(r.text);
        CHECK(written(r.text) == r.json);
    }
}

TEST_CASE("a byte that starts no well-formed UTF-8 sequence is written as U+FFFD, one per byte", "[json][utf8]") {
    struct row {
        std::string text;
        std::string well_formed;
    };
    const row rows[] = {
        {"NVIDIA \xFF H200", "NVIDIA " + fffd + " H200"},  // never a UTF-8 byte
        {"\x80", fffd},                                    // a continuation byte without a lead
        {"\xC0\xAF", fffd + fffd},                         // an overlong '/'
        {"\xED\xA0\x80", fffd + fffd + fffd},              // a surrogate (U+D800)
        {"\xF4\x90\x80\x80", fffd + fffd + fffd + fffd},   // above U+10FFFF
        {"_Z4kern\xE2\x82", "_Z4kern" + fffd + fffd},      // cut by the end of the text
        {"\xE2\x82\x41", fffd + fffd + "A"},               // cut by an ASCII byte, which stays
    };
    for (const row& r : rows) {
        CAPTURE(r.text);
        CHECK(wavefit::detail::well_formed_utf8(r.text) == r.well_formed);
        CHECK(written(r.text) == "\"" + r.well_formed + "\"");
        // What is written, the library's reader takes back: as the well-formed text.
        const auto back = wavefit::detail::parse_json(written(r.text));
        REQUIRE(back.ok());
        REQUIRE(back.value.as_string());
        CHECK(*back.value.as_string() == r.well_formed);
    }
}

TEST_CASE("utf8_sequence_length: the length of a well-formed sequence at a byte, 0 for any other", "[utf8]") {
    using wavefit::detail::utf8_sequence_length;
    CHECK(utf8_sequence_length("\xC3\xA9", 0) == 2);
    CHECK(utf8_sequence_length("x\xE2\x82\xAC", 1) == 3);
    CHECK(utf8_sequence_length("\xF0\x9F\x98\x80", 0) == 4);
    CHECK(utf8_sequence_length("\xF0\x9F\x98", 0) == 0);  // cut
    CHECK(utf8_sequence_length("\xC3\xA9", 1) == 0);      // a continuation byte
    CHECK(utf8_sequence_length("\xE0\x80\x80", 0) == 0);  // overlong
    CHECK(utf8_sequence_length("\xC3\x41", 0) == 0);      // a lead byte followed by ASCII
}
