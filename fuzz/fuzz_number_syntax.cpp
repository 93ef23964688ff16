// SPDX-License-Identifier: MIT
// libFuzzer target: the CLI's number and dimension syntax (tools/wavefit/number_syntax.hpp).
// The input is one command-line value. Invariants, checked against a second, independent reading
// of the grammar written here with 128-bit arithmetic:
//   * parse_number accepts exactly the texts the grammar allows, with exactly the grammar's value
//     (no wrap: a value of 2^64 or more is refused, never reduced modulo 2^64);
//   * parse_dims accepts "X[,Y[,Z]]" exactly when every part is a number, fills missing
//     dimensions with 1, counts the parts, and names the failing axis;
//   * every error is a non-empty one-line text; an accepted value prints and re-parses to itself.
// Any mismatch aborts (a finding); the parser itself must never trap under ASan/UBSan.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "number_syntax.hpp"

namespace {

__extension__ typedef unsigned __int128 u128;  // exact sums and products of 64-bit sizes
constexpr u128 two_to_64 = u128{1} << 64;

[[noreturn]] void finding(const char* what) {
    // A distinct, greppable line; abort() so libFuzzer saves the input.
    __builtin_fprintf(stderr, "fuzz_number_syntax: invariant broken: %s\n", what);
    std::abort();
}

bool digit(char c) { return c >= '0' && c <= '9'; }
int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The grammar, restated: true and `value` when `t` is a number of the CLI's syntax.
bool reference_number(std::string_view t, std::uint64_t& value) {
    if (t.empty()) return false;
    if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        const std::string_view h = t.substr(2);
        if (h.empty()) return false;
        u128 v = 0;
        for (char c : h) {
            if (hex(c) < 0) return false;
            v = v * 16 + static_cast<unsigned>(hex(c));
            if (v >= two_to_64) return false;
        }
        value = static_cast<std::uint64_t>(v);
        return true;
    }
    std::size_t i = 0;
    u128 v = 0;
    bool big = false;
    while (i < t.size() && digit(t[i])) {
        v = v * 10 + static_cast<unsigned>(t[i] - '0');
        if (v >= two_to_64) big = true, v = two_to_64;  // keep it saturated
        ++i;
    }
    if (i == 0) return false;
    const std::string_view rest = t.substr(i);
    if (!rest.empty() && rest[0] == '^') {
        if (big || v != 2) return false;
        const std::string_view e = rest.substr(1);
        if (e.empty()) return false;
        u128 n = 0;
        for (char c : e) {
            if (!digit(c)) return false;
            n = n * 10 + static_cast<unsigned>(c - '0');
            if (n > 1000) n = 1000;
        }
        if (n > 63) return false;
        value = std::uint64_t{1} << static_cast<unsigned>(n);
        return true;
    }
    if (big) return false;
    u128 m = 0;
    if (rest.empty())
        m = 1;
    else if (rest == "k" || rest == "K")
        m = 1000;
    else if (rest == "M")
        m = 1000000;
    else if (rest == "G")
        m = 1000000000;
    else if (rest == "Ki")
        m = 1024;
    else if (rest == "Mi")
        m = u128{1} << 20;
    else if (rest == "Gi")
        m = u128{1} << 30;
    else
        return false;
    const u128 product = v * m;
    if (product >= two_to_64) return false;
    value = static_cast<std::uint64_t>(product);
    return true;
}

void check_error_text(std::string_view e) {
    if (e.empty()) finding("an error without a message");
    for (char c : e)
        if (c == '\n' || c == '\r' || c == '\0') finding("an error message that is not one line");
}

void check_number(std::string_view t) {
    const wavefit::cli::number_result r = wavefit::cli::parse_number(t);
    std::uint64_t expected = 0;
    const bool accepted = reference_number(t, expected);
    if (r.ok() != accepted) finding(accepted ? "a valid number was refused" : "an invalid number was accepted");
    if (!r.ok()) {
        check_error_text(r.error);
        if (r.value != 0) finding("a refused number carries a value");
        return;
    }
    if (r.value != expected) finding("a number parsed to the wrong value (wrapped?)");
    const std::string printed = std::to_string(r.value);
    const wavefit::cli::number_result again = wavefit::cli::parse_number(printed);
    if (!again.ok() || again.value != r.value) finding("a parsed value does not round-trip through its decimal text");
}

void check_dims(std::string_view t) {
    const wavefit::cli::dims_result r = wavefit::cli::parse_dims(t);
    // Restated: split on ',', 1 to 3 parts, each a number.
    std::size_t parts = 1;
    for (char c : t) parts += c == ',' ? 1 : 0;
    bool ok = !t.empty() && parts <= 3;
    std::uint64_t values[3] = {1, 1, 1};
    int failed = -1;
    if (ok) {
        std::size_t start = 0;
        for (std::size_t axis = 0; axis < parts; ++axis) {
            const std::size_t comma = t.find(',', start);
            const std::string_view part =
                t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
            if (!reference_number(part, values[axis])) {
                ok = false;
                failed = static_cast<int>(axis);
                break;
            }
            start = comma + 1;
        }
    }
    if (r.ok() != ok) finding(ok ? "a valid dimension list was refused" : "an invalid dimension list was accepted");
    if (!r.ok()) {
        check_error_text(r.error);
        if (r.failed_axis < -1 || r.failed_axis > 2) finding("failed_axis out of range");
        if (failed >= 0 && r.failed_axis != failed) finding("the error names the wrong axis");
        return;
    }
    if (r.count != static_cast<int>(parts)) finding("wrong dimension count");
    if (r.value.x != values[0] || r.value.y != values[1] || r.value.z != values[2]) finding("wrong dimension values");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_number(text);
    check_dims(text);
    return 0;
}
