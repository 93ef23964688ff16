// SPDX-License-Identifier: MIT
// Specifications of the CLI's text handling: the one sanitizer (tools/wavefit/terminal_text.hpp)
// for arguments echoed in messages and for text from hostile files, and the one bracket scan
// (tools/wavefit/demangled_name.hpp) that takes demangled kernel names apart for --kernel NAME.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "../../tools/wavefit/demangled_name.hpp"
#include "../../tools/wavefit/terminal_text.hpp"

namespace cli = wavefit::cli;
using namespace std::string_literals;

TEST_CASE("an argument keeps UTF-8 and escapes control characters, quotes and backslashes", "[cli_text]") {
    REQUIRE(cli::quoted("mi300x") == "'mi300x'");
    REQUIRE(cli::quoted("it's") == "'it\\'s'");
    REQUIRE(cli::quoted("a\\b") == "'a\\\\b'");
    REQUIRE(cli::quoted("a\nb\tc") == "'a\\nb\\tc'");
    REQUIRE(cli::quoted("\x1b[2J\x7f"s) == "'\\x1b[2J\\x7f'");
    REQUIRE(cli::quoted("\0"s) == "'\\x00'");
    REQUIRE(cli::quoted("gr\xc3\xb6\xc3\x9f"
                        "e") ==
            "'gr\xc3\xb6\xc3\x9f"
            "e'");
    REQUIRE(cli::escaped("it's") == "it\\'s");
}

TEST_CASE("one_line escapes only control characters", "[cli_text]") {
    REQUIRE(cli::one_line("build/it's a\\path") == "build/it's a\\path");
    REQUIRE(cli::one_line("line1\nline2\r\x1b") == "line1\\nline2\\x0d\\x1b");
    REQUIRE(cli::one_line("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("text from a file shows every byte outside printable ASCII as \\xNN", "[cli_text]") {
    REQUIRE(cli::terminal_safe("void f<int>(float*)") == "void f<int>(float*)");
    REQUIRE(cli::terminal_safe("a'b\\c") == "a'b\\c");
    REQUIRE(cli::terminal_safe("k\n\x1b]0;owned\x07") == "k\\x0a\\x1b]0;owned\\x07");
    REQUIRE(cli::terminal_safe("caf\xc3\xa9\x7f") == "caf\\xc3\\xa9\\x7f");
    for (int c = 0; c < 256; ++c) {
        const std::string out = cli::terminal_safe(std::string(1, static_cast<char>(c)));
        CAPTURE(c, out);
        for (const char ch : out) REQUIRE((ch >= 0x20 && ch < 0x7f));
    }
}

TEST_CASE("the bracket scan finds the last match outside the brackets it counts", "[cli_text]") {
    const auto space = [](std::string_view s) {
        return cli::rfind_outside_brackets(s, "<(", ">)", [&](std::size_t i) { return s[i] == ' '; });
    };
    REQUIRE(space("void f<a b>(c d)") == 4);
    REQUIRE(space("f<a b>(c d)") == std::string_view::npos);
    REQUIRE(space("") == std::string_view::npos);
    // An opener without its closer is ignored; it does not hide what comes before it.
    REQUIRE(space("void f<") == 4);
    // Only the brackets named count: without "<>" the space inside them is found.
    const std::string_view s = "f<a b>(c)";
    REQUIRE(cli::rfind_outside_brackets(s, "(", ")", [&](std::size_t i) { return s[i] == ' '; }) == 3);
}

TEST_CASE("a demangled name comes apart into signature, qualified name, template and last component", "[cli_text]") {
    const std::string_view name =
        "void wavefit_samples::tiled_transform<double, 1024, wavefit_samples::ops::scaled_sum<double> >"
        "(double const*, double const*, double*, wavefit_samples::ops::scaled_sum<double>, unsigned long long)";
    const std::string_view signature = cli::without_parameters(name);
    REQUIRE(signature == "void wavefit_samples::tiled_transform<double, 1024, wavefit_samples::ops::scaled_sum<double> >");
    const std::string_view qualified = cli::without_return_type(signature);
    REQUIRE(qualified == "wavefit_samples::tiled_transform<double, 1024, wavefit_samples::ops::scaled_sum<double> >");
    REQUIRE(cli::without_template_arguments(qualified) == "wavefit_samples::tiled_transform");
    REQUIRE(cli::last_component(cli::without_template_arguments(qualified)) == "tiled_transform");

    REQUIRE(cli::without_parameters("heavy_256(float const*, float*, int)") == "heavy_256");
    REQUIRE(cli::without_return_type("heavy_256") == "heavy_256");
    REQUIRE(cli::last_component("(anonymous namespace)::ns::f") == "f");
    REQUIRE(cli::last_component("f<a::b>") == "f<a::b>");
    REQUIRE(cli::last_component("::f") == "f");
    REQUIRE(cli::without_parameters("void f(int (*)(char))") == "void f");
}

TEST_CASE("unbalanced or empty names come back unchanged", "[cli_text]") {
    for (const std::string_view s : {"", ")", "f)", "f(a))", ">", "f>", "f<a>>", ":"}) {
        CAPTURE(s);
        REQUIRE(cli::without_parameters(s) == s);
        REQUIRE(cli::without_template_arguments(s) == s);
        REQUIRE(cli::last_component(s) == s);
    }
    REQUIRE(cli::without_return_type("") == "");
}
