// SPDX-License-Identifier: MIT
// Specifications of the CLI's number syntax (tools/wavefit/number_syntax.hpp): what users may type
// for counts, sizes and dimension lists, and the reason given for everything else.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

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

}  // namespace

// Usable in constant expressions: the parser has no hidden state or allocation.
static_assert(parse_number("4Ki").value == 4096);
static_assert(parse_number("2^33").value == (std::uint64_t{1} << 33));
static_assert(!parse_number("1.5k").ok());
static_assert(parse_dims("256,4").value.y == 4);

TEST_CASE("decimal numbers parse exactly, leading zeros included", "[number_syntax]") {
    CHECK(value_of("0") == 0);
    CHECK(value_of("1") == 1);
    CHECK(value_of("4096") == 4096);
    CHECK(value_of("007") == 7);
    CHECK(value_of("0000000000000000000000000000000042") == 42);
    CHECK(value_of("18446744073709551615") == u64_max);
}

TEST_CASE("hex numbers take 0x or 0X and digits of either case", "[number_syntax]") {
    CHECK(value_of("0x10") == 16);
    CHECK(value_of("0X10") == 16);
    CHECK(value_of("0xdeadBEEF") == 0xdeadbeefu);
    CHECK(value_of("0x0") == 0);
    CHECK(value_of("0x00000000000000000001") == 1);
    CHECK(value_of("0xFFFFFFFFFFFFFFFF") == u64_max);
}

TEST_CASE("k, K, M and G are powers of 1000; Ki, Mi and Gi powers of 1024", "[number_syntax]") {
    CHECK(value_of("4k") == 4000);
    CHECK(value_of("4K") == 4000);
    CHECK(value_of("3M") == 3000000);
    CHECK(value_of("2G") == 2000000000);
    CHECK(value_of("48Ki") == 49152);
    CHECK(value_of("1Mi") == 1048576);
    CHECK(value_of("16Gi") == (std::uint64_t{16} << 30));
    CHECK(value_of("0k") == 0);
    CHECK(value_of("18446744073G") == 18446744073000000000u);
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
    CHECK(error_of("+5").find("sign") != std::string::npos);
    CHECK(error_of("-5").find("sign") != std::string::npos);
    CHECK(error_of("-0").find("sign") != std::string::npos);
    CHECK(error_of(" 5").find("whitespace") != std::string::npos);
    CHECK(error_of("5 ").find("whitespace") != std::string::npos);
    CHECK(error_of("5\t").find("whitespace") != std::string::npos);
    CHECK(error_of("1 000").find("whitespace") != std::string::npos);
    CHECK(error_of("1.5k").find("fractions") != std::string::npos);
    CHECK(error_of("1.5").find("fractions") != std::string::npos);
    CHECK(error_of("0x1.8").find("fractions") != std::string::npos);
    CHECK(error_of("0x") == "'0x' without hex digits");
    CHECK(error_of("0X") == "'0x' without hex digits");
    CHECK(error_of("2^") == "'2^' without an exponent");
    CHECK(error_of("3^2").find("powers of two") != std::string::npos);
    CHECK(error_of("^5").find("not a number") != std::string::npos);
    CHECK(error_of("2^-1").find("exponent") != std::string::npos);
    CHECK(error_of("2^4k").find("exponent") != std::string::npos);
    CHECK(error_of("abc").find("not a number") != std::string::npos);
    CHECK(error_of("k").find("not a number") != std::string::npos);
    CHECK(error_of("5kk").find("suffixes") != std::string::npos);
    CHECK(error_of("5m").find("suffixes") != std::string::npos);
    CHECK(error_of("5KiB").find("suffixes") != std::string::npos);
    CHECK(error_of("1e6").find("suffixes") != std::string::npos);
    CHECK(error_of("0x1k").find("hex") != std::string::npos);
    CHECK(error_of("0xg").find("hex") != std::string::npos);
    CHECK(error_of("5,6").find("list") != std::string::npos);
    CHECK(error_of(std::string("5\0", 2)).find("suffixes") != std::string::npos);
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
                for (const std::string& t : {std::string{a}, std::string{a, b}, std::string{a, b, c}}) {
                    const auto n = parse_number(t);
                    const auto d = parse_dims(t);
                    CHECK((n.ok() || !n.error.empty()));
                    CHECK((d.ok() || !d.error.empty()));
                }
            }
    std::mt19937 random(7);
    for (int i = 0; i < 5000; ++i) {
        text.assign(random() % 24, '\0');
        for (char& ch : text) ch = static_cast<char>(random() % 256);
        const auto n = parse_number(text);
        const auto d = parse_dims(text);
        CHECK((n.ok() || !n.error.empty()));
        CHECK((d.ok() || !d.error.empty()));
    }
}

TEST_CASE("dimension lists take 1 to 3 numbers; missing dimensions are 1", "[number_syntax]") {
    const auto one = parse_dims("256");
    REQUIRE(one.ok());
    CHECK(one.count == 1);
    CHECK(one.value == wavefit::dims{256, 1, 1});

    const auto two = parse_dims("16,8");
    REQUIRE(two.ok());
    CHECK(two.count == 2);
    CHECK(two.value == wavefit::dims{16, 8, 1});

    const auto three = parse_dims("2^10,0x10,4k");
    REQUIRE(three.ok());
    CHECK(three.count == 3);
    CHECK(three.value == wavefit::dims{1024, 16, 4000});

    const auto biggest = parse_dims("18446744073709551615,18446744073709551615,2^63");
    REQUIRE(biggest.ok());
    CHECK(biggest.value == wavefit::dims{u64_max, u64_max, std::uint64_t{1} << 63});
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
