// SPDX-License-Identifier: MIT
// libFuzzer target: the whole wavefit command line, as main() runs it but without printing. The
// input is argv[1..] separated by NUL bytes. Invariants:
//   * parsing either yields a request or throws usage_error with a non-empty one-line message;
//     nothing else escapes (main would report any other exception as an "internal error");
//   * running the request (presets only: this build has no GPU backend; commands naming a file
//     are only parsed) exits 0, 1 or 2 and never throws anything but usage_error;
//   * with --json, stdout is exactly one valid JSON document;
//   * every message is one line wherever the user's text is echoed (no raw control characters).
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"

namespace {

[[noreturn]] void finding(const char* what, std::string_view detail = {}) {
    __builtin_fprintf(stderr, "fuzz_command_line: invariant broken: %s: %.*s\n", what, static_cast<int>(detail.size()),
                      detail.data());
    std::abort();
}

// A strict JSON (RFC 8259) recogniser, enough to tell one valid document from anything else.
class json_checker {
public:
    explicit json_checker(std::string_view s) : s_(s) {}
    bool document() {
        space();
        if (!value(0)) return false;
        space();
        return i_ == s_.size();
    }

private:
    std::string_view s_;
    std::size_t i_ = 0;

    bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
    }
    bool literal(std::string_view w) {
        if (s_.substr(i_, w.size()) != w) return false;
        i_ += w.size();
        return true;
    }
    bool digits() {
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
        return i_ > start;
    }
    bool number() {
        if (at('-')) ++i_;
        if (at('0'))
            ++i_;
        else if (!digits())
            return false;
        if (at('.')) {
            ++i_;
            if (!digits()) return false;
        }
        if (at('e') || at('E')) {
            ++i_;
            if (at('+') || at('-')) ++i_;
            if (!digits()) return false;
        }
        return true;
    }
    bool string() {
        if (!at('"')) return false;
        ++i_;
        while (i_ < s_.size()) {
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') {
                ++i_;
                return true;
            }
            if (c < 0x20) return false;
            if (c == '\\') {
                ++i_;
                if (i_ >= s_.size()) return false;
                const char e = s_[i_];
                if (e == 'u') {
                    for (int k = 0; k < 4; ++k) {
                        ++i_;
                        if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) return false;
                    }
                } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
                    return false;
                }
            }
            ++i_;
        }
        return false;
    }
    bool value(int depth) {
        if (depth > 64) return false;
        space();
        if (at('{')) {
            ++i_;
            space();
            if (at('}')) return ++i_, true;
            for (;;) {
                space();
                if (!string()) return false;
                space();
                if (!at(':')) return false;
                ++i_;
                if (!value(depth + 1)) return false;
                space();
                if (at('}')) return ++i_, true;
                if (!at(',')) return false;
                ++i_;
            }
        }
        if (at('[')) {
            ++i_;
            space();
            if (at(']')) return ++i_, true;
            for (;;) {
                if (!value(depth + 1)) return false;
                space();
                if (at(']')) return ++i_, true;
                if (!at(',')) return false;
                ++i_;
            }
        }
        if (at('"')) return string();
        if (at('t')) return literal("true");
        if (at('f')) return literal("false");
        if (at('n')) return literal("null");
        return number();
    }
};

bool one_line(std::string_view s) {
    for (char c : s)
        if (c == '\n' || c == '\r' || c == '\0') return false;
    return true;
}

// Runs `step` (parsing the command line, or running its request), which may throw nothing but a usage_error with a
// non-empty one-line message; `who` names the step in a finding. False when the step threw that usage_error.
template <class Step>
bool succeeds_or_refuses_usage(const char* who, Step step) {
    try {
        step();
        return true;
    } catch (const wavefit::cli::usage_error& e) {
        const std::string_view m = e.what();
        if (m.empty() || !one_line(m))
            finding((std::string("a usage error from ") + who + " is empty or spans lines").c_str(), m);
        return false;
    } catch (const std::exception& e) {
        finding((std::string(who) + " threw something other than usage_error").c_str(), e.what());
    }
}

bool wants_json(const wavefit::cli::command_line& request) {
    return std::visit(
        [](const auto& r) {
            if constexpr (std::is_same_v<std::decay_t<decltype(r)>, wavefit::cli::help_request> ||
                          std::is_same_v<std::decay_t<decltype(r)>, wavefit::cli::version_request>)
                return false;
            else
                return r.json;
        },
        request);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // argv[1..]: NUL-separated words. Bound the count so one input stays cheap.
    std::vector<std::string> words;
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            words.push_back(current);
            current.clear();
            if (words.size() >= 24) break;
        } else {
            current += static_cast<char>(data[i]);
        }
    }
    if (words.size() < 24 && !current.empty()) words.push_back(current);
    const std::vector<std::string_view> args(words.begin(), words.end());

    wavefit::cli::command_line request;
    if (!succeeds_or_refuses_usage("parse_command_line", [&] { request = wavefit::cli::parse_command_line(args); }))
        return 0;

    // Commands that read a file (inspect FILE, --kernel FILE:NAME, explain --scan/--kb) are parsed but not run: the
    // fuzzer must not read arbitrary paths of the machine; fuzz_code_object covers the reading.
    bool names_a_file = !args.empty() && args.front() == "inspect";
    for (const std::string_view a : args) {
        names_a_file = names_a_file || a == "--kernel" || a.substr(0, 9) == "--kernel=";
        // explain --scan, --check-kb and --kb read files (or standard input, where the fuzzer would wait).
        for (const std::string_view reads : {"--scan", "--check-kb", "--kb"})
            names_a_file = names_a_file || a == reads ||
                           (a.size() > reads.size() && a.substr(0, reads.size()) == reads && a[reads.size()] == '=');
    }
    if (names_a_file) return 0;

    wavefit::cli::command_output out;
    if (!succeeds_or_refuses_usage("a command",
                                   [&] { out = std::visit([](const auto& r) { return wavefit::cli::run(r); }, request); }))
        return 0;
    if (out.exit_code < 0 || out.exit_code > 2) finding("exit code outside 0..2");
    if (wants_json(request)) {
        if (!json_checker(out.out).document()) finding("--json output is not one valid JSON document", out.out);
    }
    return 0;
}
