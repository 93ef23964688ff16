// SPDX-License-Identifier: MIT
// Specifications of the JSON reader (include/wavefit/detail/json_reader.hpp): RFC 8259 documents read
// exactly (integers to the last digit, doubles correctly rounded, strings unescaped to UTF-8), the same
// tokens through any chunking of the input, and every malformed or oversized document refused with
// one line naming the byte offset.
#include <catch2/catch.hpp>

#include <clocale>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <wavefit/detail/json_reader.hpp>

namespace {

using wavefit::detail::json_limits;
using wavefit::detail::json_pull_reader;
using wavefit::detail::json_token;
using wavefit::detail::parse_json;

// Every token of `text` as "kind:text" lines, read through a source that hands out `step` bytes at a
// time (0: the whole text in place), ending with "end" or "error:<message>".
std::string tokens_of(const std::string& text, std::size_t step = 0, const json_limits& limits = {}) {
    std::unique_ptr<json_pull_reader> reader;
    auto at = std::make_shared<std::size_t>(0);
    if (step == 0) {
        reader = std::make_unique<json_pull_reader>(std::string_view(text), limits);
    } else {
        reader = std::make_unique<json_pull_reader>(
            [&text, step, at](char* out, std::size_t capacity) {
                const std::size_t n = std::min({capacity, step, text.size() - *at});
                text.copy(out, n, *at);
                *at += n;
                return n;
            },
            limits, step);
    }
    static const char* const names[] = {"{",      "}",    "[",     "]",    "key", "string",
                                        "number", "true", "false", "null", "end", "error"};
    std::string out;
    for (;;) {
        const json_token t = reader->next();
        out += names[static_cast<int>(t)];
        if (t == json_token::error) return out + ":" + reader->error();
        if (t == json_token::key || t == json_token::string || t == json_token::number)
            out += ":" + std::string(reader->text());
        out += "@" + std::to_string(reader->offset()) + " ";
        if (t == json_token::end_of_input) return out;
    }
}

std::string error_of(const std::string& text, const json_limits& limits = {}) {
    const auto r = parse_json(text, limits);
    return r.error;
}

// The single number in `text`.
wavefit::detail::json_number number_of(const std::string& text) {
    json_pull_reader r{std::string_view(text)};
    const json_token t = r.next();
    INFO(text << ": " << r.error());
    REQUIRE(t == json_token::number);
    return r.number();
}

std::string string_of(const std::string& json, const json_limits& limits = {}) {
    const auto r = parse_json(json, limits);
    INFO(json << ": " << r.error);
    REQUIRE(r.ok());
    REQUIRE(r.value.as_string().has_value());
    return std::string(*r.value.as_string());
}

const std::vector<std::string>& sample_documents() {
    static const std::vector<std::string> docs = {
        R"json({"traceEvents":[{"ph":"X","cat":"kernel","name":"void k<int, 2>(float*, int)","dur":3.776,"args":{"grid":[2048,1,1],"block":[128,1,1],"registers per thread":32,"est. achieved occupancy %":97}}],"deviceProperties":[{"id":0,"name":"NVIDIA H200","numSms":132}]})json",
        "[1, -2, 3.5e-3, 18446744073709551615, -9223372036854775808, true, false, null, \"\\u00e9\\ud83d\\ude00 \\\"q\\\" "
        "\\\\ \\/ \\b\\f\\n\\r\\t\"]",
        "  {\"a\" : {\"b\" : [ [ ], { } , [[[ 0 ]]] ] } }  ",
        "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"",
        "0",
        "-0.0e+0",
    };
    return docs;
}

}  // namespace

TEST_CASE("a nested document gives its tokens in order with their depth and byte offset") {
    json_pull_reader r{std::string_view(R"({"a": [1, {"b": null}], "c": "x"})")};
    struct expected {
        json_token token;
        std::string_view text;
        std::size_t depth;
        std::uint64_t offset;
    };
    const expected steps[] = {
        {json_token::begin_object, "", 1, 0},  {json_token::key, "a", 1, 1},          {json_token::begin_array, "", 2, 6},
        {json_token::number, "1", 2, 7},       {json_token::begin_object, "", 3, 10}, {json_token::key, "b", 3, 11},
        {json_token::null_value, "", 3, 16},   {json_token::end_object, "", 2, 20},   {json_token::end_array, "", 1, 21},
        {json_token::key, "c", 1, 24},         {json_token::string, "x", 1, 29},      {json_token::end_object, "", 0, 32},
        {json_token::end_of_input, "", 0, 33},
    };
    for (const expected& e : steps) {
        const json_token t = r.next();
        CAPTURE(static_cast<int>(e.token), e.text, r.error());
        CHECK(t == e.token);
        CHECK(r.text() == e.text);
        CHECK(r.depth() == e.depth);
        CHECK(r.offset() == e.offset);
    }
    CHECK(r.next() == json_token::end_of_input);  // the end is sticky
    CHECK(r.documents() == 1);
}

TEST_CASE("integers are exact to 64 bits, and overflow is flagged instead of rounded") {
    CHECK(number_of("18446744073709551615").as_uint64() == std::numeric_limits<std::uint64_t>::max());
    CHECK(number_of("9223372036854775807").as_int64() == std::numeric_limits<std::int64_t>::max());
    CHECK(number_of("-9223372036854775808").as_int64() == std::numeric_limits<std::int64_t>::min());
    CHECK_FALSE(number_of("-9223372036854775809").as_int64().has_value());
    CHECK_FALSE(number_of("9223372036854775808").as_int64().has_value());
    CHECK(number_of("9223372036854775808").as_uint64() == 9223372036854775808ull);

    const auto big = number_of("18446744073709551616");
    CHECK(big.integer);
    CHECK(big.integer_overflow);
    CHECK_FALSE(big.as_uint64().has_value());
    CHECK(big.value == 18446744073709551616.0);

    // 2^53 + 1 is not a double, but it is an exact integer here.
    CHECK(number_of("9007199254740993").as_uint64() == 9007199254740993ull);
    CHECK_FALSE(number_of("-1").as_uint64().has_value());
    CHECK(number_of("-1").as_int64() == -1);
}

TEST_CASE("a number is an integer by its value, not its spelling") {
    CHECK(number_of("1e3").as_uint64() == 1000u);
    CHECK(number_of("1.0").as_uint64() == 1u);
    CHECK(number_of("25E-1").integer == false);
    CHECK(number_of("2500e-2").as_uint64() == 25u);
    CHECK(number_of("0.000").as_uint64() == 0u);
    CHECK(number_of("-0").as_uint64() == 0u);
    CHECK(number_of("-0").as_int64() == 0);
    CHECK_FALSE(number_of("1.5").as_uint64().has_value());
    CHECK_FALSE(number_of("1e-3").integer);
    CHECK(number_of("1e19").as_uint64() == 10000000000000000000ull);
    CHECK(number_of("1e20").integer_overflow);
    CHECK(number_of("1e999999999999999999999").integer_overflow);
}

TEST_CASE("doubles are the correctly rounded value, with infinity and zero beyond the double range") {
    CHECK(number_of("0.1").value == 0.1);
    CHECK(number_of("3.776").value == 3.776);
    CHECK(number_of("-2.5e-3").value == -2.5e-3);
    CHECK(number_of("2.2250738585072014e-308").value == 2.2250738585072014e-308);
    CHECK(number_of("1.7976931348623157e308").value == 1.7976931348623157e308);
    CHECK(number_of("1e400").value == std::numeric_limits<double>::infinity());
    CHECK(number_of("-1e400").value == -std::numeric_limits<double>::infinity());
    CHECK(number_of("1e-400").value == 0.0);
    CHECK(number_of("1e-400").integer == false);
}

TEST_CASE("numbers do not depend on the C locale") {
    // A locale with a decimal comma would make strtod read "3.776" as 3; from_chars ignores locales.
    const char* previous = std::setlocale(LC_NUMERIC, nullptr);
    const std::string saved = previous != nullptr ? previous : "C";
    // Where no such locale is installed the checks still run, in the C locale.
    for (const char* name : {"de_DE.UTF-8", "de_DE", "fr_FR.UTF-8"})
        if (std::setlocale(LC_NUMERIC, name) != nullptr) break;
    CHECK(number_of("3.776").value == 3.776);
    CHECK(number_of("1e-3").value == 0.001);
    std::setlocale(LC_NUMERIC, saved.c_str());
}

TEST_CASE("malformed numbers are refused with the byte offset") {
    CHECK(error_of("[01]") == "byte 2: a number with a leading zero");
    CHECK(error_of("-") == "byte 1: expected a digit in a number, got end of input");
    CHECK(error_of("1.") == "byte 2: expected a digit after the decimal point, got end of input");
    CHECK(error_of("1e+") == "byte 3: expected a digit in the exponent, got end of input");
    CHECK(error_of("+1") == "byte 0: expected a value, got '+'");
    CHECK(error_of(".5") == "byte 0: expected a value, got '.'");
    CHECK(error_of("1x") == "byte 1: unexpected 'x' after the end of the document");
    CHECK(error_of("NaN") == "byte 0: expected a value, got 'N'");
    CHECK(error_of("[Infinity]") == "byte 1: expected a value, got 'I'");
}

TEST_CASE("strings are unescaped to UTF-8, surrogate pairs included") {
    CHECK(string_of(R"("a\"b\\c\/d\b\f\n\r\t")") == "a\"b\\c/d\b\f\n\r\t");
    CHECK(string_of(R"("\u0041\u00e9\u20ac")") == "A\xC3\xA9\xE2\x82\xAC");
    CHECK(string_of(R"("\ud83d\ude00")") == "\xF0\x9F\x98\x80");
    CHECK(string_of(R"("\uDBFF\uDFFF")") == "\xF4\x8F\xBF\xBF");  // U+10FFFF
    CHECK(string_of(R"("\u0000")") == std::string(1, '\0'));      // an escaped NUL is a valid character
    CHECK(string_of("\"caf\xC3\xA9\"") == "caf\xC3\xA9");
}

TEST_CASE("lone surrogates and invalid UTF-8 are refused, or each replaced by U+FFFD when asked") {
    json_limits replace;
    replace.replace_invalid_utf8 = true;
    const std::string fffd = "\xEF\xBF\xBD";
    struct bad {
        std::string json;
        std::string error;
        std::string replaced;
    };
    const bad cases[] = {
        {R"("\ud800")", "byte 1: a \\u escape with a high surrogate not followed by a low one", fffd},
        {R"("\udc00x")", "byte 1: a \\u escape with a lone low surrogate", fffd + "x"},
        {R"("\ud800\u0041")", "byte 1: a \\u escape with a high surrogate not followed by a low one", fffd + "A"},
        {R"("\ud800\ud83d\ude00")", "byte 1: a \\u escape with a high surrogate not followed by a low one",
         fffd + "\xF0\x9F\x98\x80"},
        {R"("\ud800\n")", "byte 1: a \\u escape with a high surrogate not followed by a low one", fffd + "\n"},
        {"\"\xC0\x80\"", "byte 1: invalid UTF-8 in a string (byte 0xc0)", fffd + fffd},  // overlong NUL
        {"\"\xED\xA0\x80\"", "byte 1: invalid UTF-8 in a string (a truncated or malformed sequence)",
         fffd + fffd + fffd},  // a surrogate
        {"\"\xF4\x90\x80\x80\"", "byte 1: invalid UTF-8 in a string (a truncated or malformed sequence)",
         fffd + fffd + fffd + fffd},
        {"\"a\xE2\x82\"", "byte 2: invalid UTF-8 in a string (a truncated or malformed sequence)", "a" + fffd},
        {"\"\xFF\"", "byte 1: invalid UTF-8 in a string (byte 0xff)", fffd},
    };
    for (const bad& c : cases) {
        CAPTURE(c.json);
        CHECK(error_of(c.json) == c.error);
        CHECK(string_of(c.json, replace) == c.replaced);
    }
}

TEST_CASE("raw control characters inside strings are refused in either mode") {
    json_limits replace;
    replace.replace_invalid_utf8 = true;
    CHECK(error_of("\"a\tb\"") == "byte 2: a raw control character (byte 0x09) inside a string; JSON needs it escaped");
    CHECK(error_of("\"a\nb\"", replace) ==
          "byte 2: a raw control character (byte 0x0a) inside a string; JSON needs it escaped");
    CHECK(error_of(R"("\x")") == "byte 1: invalid escape \\'x'");
    CHECK(error_of(R"("\u12G4")") == "byte 5: expected 4 hex digits after \\u, got 'G'");
}

TEST_CASE("every cap is enforced with a one-line error at the offset where it was crossed") {
    json_limits lim;
    lim.max_depth = 3;
    CHECK(parse_json("[[[1]]]", lim).ok());
    CHECK(error_of("[[[[1]]]]", lim) == "byte 3: nesting deeper than 3 levels");

    lim = {};
    lim.max_string_bytes = 4;
    CHECK(parse_json(R"(["abcd"])", lim).ok());
    CHECK(error_of(R"(["abcde"])", lim) == "byte 1: a string longer than 4 bytes");
    CHECK(error_of(R"({"abcde": 1})", lim) == "byte 1: a string longer than 4 bytes");
    CHECK(error_of(R"(["\u00e9\u00e9\u00e9"])", lim) == "byte 1: a string longer than 4 bytes");  // counted unescaped

    lim = {};
    lim.max_number_chars = 5;
    CHECK(parse_json("[12345]", lim).ok());
    CHECK(error_of("[123456]", lim) == "byte 1: a number longer than 5 characters");

    lim = {};
    lim.max_tokens = 4;
    CHECK(parse_json("[1,2]", lim).ok());                                             // [ 1 2 ]
    CHECK(error_of("[1,2,3]", lim) == "byte 6: more than 4 tokens in one document");  // the fifth: ']'

    lim = {};
    lim.max_document_bytes = 8;
    CHECK(parse_json("[1,2,3]", lim).ok());
    CHECK(error_of("[1,2,3,4]", lim) == "byte 8: the document is 9 bytes, more than the cap of 8");
}

TEST_CASE("deep nesting is refused before it can exhaust the stack") {
    const std::string deep(100000, '[');
    CHECK(error_of(deep) == "byte 64: nesting deeper than 64 levels");
    CHECK(tokens_of(deep, 7).find("error:byte 64: nesting deeper than 64 levels") != std::string::npos);
}

TEST_CASE("the same tokens come out whatever the chunk size of the source") {
    for (const std::string& doc : sample_documents()) {
        const std::string whole = tokens_of(doc);
        CAPTURE(doc, whole);
        CHECK(whole.find("error") == std::string::npos);
        for (std::size_t step = 1; step <= 17; ++step) {
            CAPTURE(step);
            CHECK(tokens_of(doc, step) == whole);
        }
    }
}

TEST_CASE("every truncation of a valid document is refused with one line, never accepted") {
    for (const std::string& doc : sample_documents()) {
        // A lone number stays valid when cut ("12" of "123"); containers and strings do not.
        if (doc.front() != '{' && doc.front() != '[' && doc.front() != '"' && doc.front() != ' ') continue;
        const std::size_t last = doc.find_last_not_of(' ');  // the closing character
        for (std::size_t cut = 0; cut <= last; ++cut) {
            const std::string prefix = doc.substr(0, cut);
            const auto r = parse_json(prefix);
            CAPTURE(prefix);
            CHECK_FALSE(r.ok());
            CHECK(r.error.find('\n') == std::string::npos);
            CHECK(r.error.rfind("byte ", 0) == 0);
            CHECK(tokens_of(prefix, 3).find("error:") != std::string::npos);
        }
    }
}

TEST_CASE("structural mistakes name what was expected and what was found") {
    CHECK(error_of("") == "byte 0: empty document, expected a value");
    CHECK(error_of("  \n ") == "byte 4: empty document, expected a value");
    CHECK(error_of("[1,]") == "byte 3: unexpected ']', expected a value");
    CHECK(error_of("[1 2]") == "byte 3: expected ',' or ']' after an element, got '2'");
    CHECK(error_of(R"({"a" 1})") == "byte 5: expected ':' after a key, got '1'");
    CHECK(error_of(R"({"a":1,})") == "byte 7: expected a key (a string) inside an object, got '}'");
    CHECK(error_of(R"({1:2})") == "byte 1: expected a key (a string) inside an object, got '1'");
    CHECK(error_of(R"({"a":1)") == "byte 6: expected ',' or '}' after a member, got end of input");
    CHECK(error_of("[tru]") == "byte 4: invalid literal (expected 'true'), got ']'");
    CHECK(error_of("\"abc") == "byte 4: unexpected end of input inside a string");
    CHECK(error_of("[1] [2]") == "byte 4: unexpected '[' after the end of the document");
    CHECK(error_of("\x01") == "byte 0: expected a value, got byte 0x01");
}

TEST_CASE("a byte order mark before the document is skipped; a broken one is refused") {
    CHECK(parse_json("\xEF\xBB\xBF{\"a\":1}").value["a"].as_uint64() == 1u);
    CHECK(error_of("\xEF\xBB{}") == "byte 0: a byte 0xef that does not start a byte order mark");
    CHECK(tokens_of("\xEF\xBB\xBF[1]", 1) == "[@3 number:1@4 ]@5 end@6 ");
}

TEST_CASE("with multiple_documents, whitespace-separated documents (JSON Lines) are read one after another") {
    json_limits lines;
    lines.multiple_documents = true;
    lines.max_tokens = 4;  // per document: the objects below have 4 each
    const std::string text = "{\"a\":1}\n{\"a\":2}\r\n\n[7]\n";
    CHECK(tokens_of(text, 0, lines) ==
          "{@0 key:a@1 number:1@5 }@6 {@8 key:a@9 number:2@13 }@14 [@18 number:7@19 ]@20 end@22 ");
    json_pull_reader r{std::string_view(text), lines};
    while (r.next() != json_token::end_of_input) REQUIRE(r.current() != json_token::error);
    CHECK(r.documents() == 3);
    CHECK(tokens_of("", 0, lines) == "end@0 ");
    CHECK(tokens_of("1 2", 0) == "number:1@0 error:byte 2: unexpected '2' after the end of the document");
}

TEST_CASE("skip() passes over a whole value, however nested, and reports a malformed one") {
    json_pull_reader r{std::string_view(R"({"skip": {"x": [1, [2, {"y": 3}]]}, "keep": 4})")};
    REQUIRE(r.next() == json_token::begin_object);
    REQUIRE(r.next() == json_token::key);
    REQUIRE(r.next() == json_token::begin_object);
    CHECK(r.skip());
    CHECK(r.current() == json_token::end_object);
    CHECK(r.next() == json_token::key);
    CHECK(r.text() == "keep");
    CHECK(r.next() == json_token::number);
    CHECK(r.skip());  // a scalar: nothing to skip
    CHECK(r.current() == json_token::number);

    json_pull_reader bad{std::string_view(R"([{"a": [1, 2}])")};
    REQUIRE(bad.next() == json_token::begin_array);
    REQUIRE(bad.next() == json_token::begin_object);
    CHECK_FALSE(bad.skip());
    CHECK(bad.error() == "byte 12: expected ',' or ']' after an element, got '}'");
}

TEST_CASE("the DOM's accessors never throw: wrong types are empty, missing members are null") {
    const auto r = parse_json(R"({"name": "k", "grid": [2048, 1, 1], "ratio": 0.5, "on": true, "none": null, "neg": -3})");
    REQUIRE(r.ok());
    const wavefit::detail::json_value& doc = r.value;
    CHECK(doc.type() == wavefit::detail::json_type::object);
    CHECK(doc.size() == 6);
    CHECK(doc.key(1) == "grid");
    CHECK(doc["name"].as_string() == std::string_view("k"));
    CHECK(doc["grid"][0].as_uint64() == 2048u);
    CHECK(doc["grid"].size() == 3);
    CHECK(doc["grid"][3].is_null());
    CHECK(doc["ratio"].as_double() == 0.5);
    CHECK_FALSE(doc["ratio"].as_uint64().has_value());
    CHECK(doc["on"].as_bool() == true);
    CHECK(doc["none"].is_null());
    CHECK(doc["neg"].as_int64() == -3);
    CHECK_FALSE(doc["neg"].as_uint64().has_value());
    // Wrong types and missing members, chained.
    CHECK_FALSE(doc["name"].as_uint64().has_value());
    CHECK_FALSE(doc["grid"].as_string().has_value());
    CHECK(doc["missing"]["deeper"][7].is_null());
    CHECK(doc["name"]["x"].is_null());
    CHECK(doc.find("missing") == nullptr);
    CHECK(doc[0].as_string() == std::string_view("k"));  // members by position too
    CHECK(wavefit::detail::to_string(doc["grid"].type()) == "an array");
}

TEST_CASE("duplicate keys are refused by default, or the first one wins when allowed") {
    CHECK(error_of(R"({"a": 1, "b": {"c": 2, "c": 3}})") == "byte 29: the object that ends here has the key \"c\" twice");
    json_limits allow;
    allow.reject_duplicate_keys = false;
    const auto r = parse_json(R"({"a": 1, "a": 2})", allow);
    REQUIRE(r.ok());
    CHECK(r.value["a"].as_uint64() == 1u);
    CHECK(r.value.size() == 2);
}

TEST_CASE("an object with many keys is checked for duplicates in n log n") {
    std::string doc = "{";
    for (int i = 0; i < 50000; ++i) doc += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
    doc += "}";
    json_limits lim;
    lim.max_document_bytes = doc.size();
    const auto r = parse_json(doc, lim);
    REQUIRE(r.ok());
    CHECK(r.value.size() == 50000);
    CHECK(r.value["49999"].as_uint64() == 0u);
}

TEST_CASE("a document the builder rejects leaves a null value, not a half-built one") {
    const auto r = parse_json(R"({"a": [1, 2, 3], "b": )");
    CHECK_FALSE(r.ok());
    CHECK(r.value.is_null());
    CHECK(r.value.size() == 0);
}
