// SPDX-License-Identifier: MIT
// Specifications of the CLI's number syntax (tools/wavefit/number_syntax.hpp): what users may type
// for counts, sizes and dimension lists, and the reason given for everything else.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>

#include "../../tools/wavefit/number_syntax.hpp"

using wavefit::cli::parse_dims;
using wavefit::cli::parse_number;

namespace {

constexpr std::uint64_t u64_max = ~std::uint64_t{0};

// The value of `text`, failing the test with the parser's reason if it does not parse.
std::uint64_t value_of(const std::string& text) {
    const auto r = parse_number(text);
    INFO("text: '" << text << "', error: " << r.error);
    REQUIRE(r.ok());
    return r.value;
}

// The reason `text` is rejected, failing the test if it parses.
std::string error_of(const std::string& text) {
    const auto r = parse_number(text);
    INFO("text: '" << text << "' parsed as " << r.value);
    REQUIRE_FALSE(r.ok());
    return std::string(r.error);
}

// Each text parses to its value.
void check_values(std::initializer_list<std::pair<const char*, std::uint64_t>> texts_and_values) {
    for (const auto& [text, value] : texts_and_values) {
        CAPTURE(text);
        CHECK(value_of(text) == value);
    }
}

// Each text is rejected with a reason that mentions its problem.
void check_reasons(std::initializer_list<std::pair<std::string, const char*>> texts_and_problems) {
    for (const auto& [text, problem] : texts_and_problems) {
        CAPTURE(text, problem);
        CHECK(error_of(text).find(problem) != std::string::npos);
    }
}

// Every parse of `text`, as a number or as a dimension list, either succeeds or gives a reason.
void check_parsed_or_explained(const std::string& text) {
    const auto n = parse_number(text);
    const auto d = parse_dims(text);
    CHECK((n.ok() || !n.error.empty()));
    CHECK((d.ok() || !d.error.empty()));
}

}  // namespace

// Usable in constant expressions: the parser has no hidden state or allocation.
static_assert(parse_number("4Ki").value == 4096);
static_assert(parse_number("2^33").value == (std::uint64_t{1} << 33));
static_assert(!parse_number("1.5k").ok());
static_assert(parse_dims("256,4").value.y == 4);

TEST_CASE("decimal numbers parse exactly, leading zeros included", "[number_syntax]") {
    check_values({{"0", 0},
                  {"1", 1},
                  {"4096", 4096},
                  {"007", 7},
                  {"0000000000000000000000000000000042", 42},
                  {"18446744073709551615", u64_max}});
}

TEST_CASE("hex numbers take 0x or 0X and digits of either case", "[number_syntax]") {
    const std::pair<const char*, std::uint64_t> digits_and_values[] = {
        {"10", 16}, {"deadBEEF", 0xdeadbeefu}, {"0", 0}, {"00000000000000000001", 1}, {"FFFFFFFFFFFFFFFF", u64_max}};
    for (const auto& [digits, value] : digits_and_values)
        for (const std::string prefix : {"0x", "0X"}) {
            CAPTURE(prefix + digits);
            CHECK(value_of(prefix + digits) == value);
        }
}

TEST_CASE("k, K, M and G are powers of 1000; Ki, Mi and Gi powers of 1024", "[number_syntax]") {
    check_values({{"4k", 4 * 1000},
                  {"4K", 4 * 1000},
                  {"3M", 3 * 1000 * 1000},
                  {"2G", 2 * 1000 * 1000 * 1000},
                  {"48Ki", 48 * 1024},
                  {"1Mi", 1024 * 1024},
                  {"16Gi", std::uint64_t{16} << 30},
                  {"0k", 0},
                  {"18446744073G", 18446744073000000000u}});
}

TEST_CASE("2^N covers every power of two a uint64 holds", "[number_syntax]") {
    for (unsigned n = 0; n <= 63; ++n) {
        CAPTURE(n);
        CHECK(value_of("2^" + std::to_string(n)) == std::uint64_t{1} << n);
    }
    CHECK(value_of("2^007") == 128);
}

TEST_CASE("values above 2^64-1 are rejected as overflow, however they are written", "[number_syntax]") {
    for (const char* text :
         {"18446744073709551616", "99999999999999999999999999", "0x10000000000000000", "18446744073709552k", "18446744074G",
          "17179869184Gi", "2^64", "2^100", "2^99999999999999999999999999"}) {
        CAPTURE(text);
        CHECK(error_of(text) == "larger than 2^64-1");
    }
}

TEST_CASE("malformed numbers are rejected with a reason naming the problem", "[number_syntax]") {
    CHECK(error_of("") == "empty value");
    CHECK(error_of("0x") == "'0x' without hex digits");
    CHECK(error_of("0X") == "'0x' without hex digits");
    CHECK(error_of("2^") == "'2^' without an exponent");
    check_reasons(
        {{"+5", "sign"},       {"-5", "sign"},         {"-0", "sign"},           {" 5", "whitespace"},
         {"5 ", "whitespace"}, {"5\t", "whitespace"},  {"1 000", "whitespace"},  {"1.5k", "fractions"},
         {"1.5", "fractions"}, {"0x1.8", "fractions"}, {"3^2", "powers of two"}, {"^5", "not a number"},
         {"2^-1", "exponent"}, {"2^4k", "exponent"},   {"abc", "not a number"},  {"k", "not a number"},
         {"5kk", "suffixes"},  {"5m", "suffixes"},     {"5KiB", "suffixes"},     {"1e6", "suffixes"},
         {"0x1k", "hex"},      {"0xg", "hex"},         {"5,6", "list"},          {std::string("5\0", 2), "suffixes"}});
}

TEST_CASE("every decimal and hex rendering of a uint64 parses back to itself", "[number_syntax]") {
    std::mt19937_64 random(20240601);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t v = random() >> (random() % 64);
        CAPTURE(v);
        CHECK(value_of(std::to_string(v)) == v);
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(v));
        CHECK(value_of(hex) == v);
    }
}

TEST_CASE("arbitrary bytes never crash the parser and every rejection has a reason", "[number_syntax]") {
    // Short strings over the syntax's own alphabet reach every branch; random bytes the rest.
    const std::string alphabet = "0129xX^kKMGi,. +-\xff";
    std::string text;
    for (char a : alphabet)
        for (char b : alphabet)
            for (char c : alphabet) {
                for (const std::string& t : {std::string{a}, std::string{a, b}, std::string{a, b, c}})
                    check_parsed_or_explained(t);
            }
    std::mt19937 random(7);
    for (int i = 0; i < 5000; ++i) {
        text.assign(random() % 24, '\0');
        for (char& ch : text) ch = static_cast<char>(random() % 256);
        check_parsed_or_explained(text);
    }
}

TEST_CASE("dimension lists take 1 to 3 numbers; missing dimensions are 1", "[number_syntax]") {
    struct dims_case {
        const char* text;
        int count;
        wavefit::dims value;
    };
    for (const dims_case& x : {dims_case{"256", 1, wavefit::dims{256, 1, 1}}, dims_case{"16,8", 2, wavefit::dims{16, 8, 1}},
                               dims_case{"2^10,0x10,4k", 3, wavefit::dims{1024, 16, 4000}},
                               dims_case{"18446744073709551615,18446744073709551615,2^63", 3,
                                         wavefit::dims{u64_max, u64_max, std::uint64_t{1} << 63}}}) {
        const auto r = parse_dims(x.text);
        CAPTURE(x.text, r.error);
        REQUIRE(r.ok());
        CHECK(r.count == x.count);
        CHECK(r.value == x.value);
    }
}

TEST_CASE("zeros in a dimension list parse: validation, not the parser, rejects them", "[number_syntax]") {
    const auto r = parse_dims("0,0,0");
    REQUIRE(r.ok());
    CHECK(r.value == wavefit::dims{0, 0, 0});
}

TEST_CASE("malformed dimension lists name the dimension at fault", "[number_syntax]") {
    struct bad_list {
        const char* text;
        int failed_axis;
        const char* reason_contains;
    };
    const bad_list cases[] = {
        {"", -1, "empty"},
        {"1,2,3,4", -1, "more than 3"},
        {"1,2,3,", -1, "more than 3"},
        {",,,", -1, "more than 3"},
        {",", 0, "empty dimension"},
        {",1", 0, "empty dimension"},
        {"1,,2", 1, "empty dimension"},
        {"1,", 1, "empty dimension"},
        {"1,2,", 2, "empty dimension"},
        {"1,1.5k", 1, "fractions"},
        {"1,2, 3", 2, "whitespace"},
        {"2^64,1", 0, "larger than 2^64-1"},
        {"1,2,-3", 2, "sign"},
        {"1;2", 0, "suffixes"},
    };
    for (const bad_list& c : cases) {
        const auto r = parse_dims(c.text);
        CAPTURE(c.text, r.error, r.failed_axis);
        REQUIRE_FALSE(r.ok());
        CHECK(r.failed_axis == c.failed_axis);
        CHECK(std::string(r.error).find(c.reason_contains) != std::string::npos);
    }
}
