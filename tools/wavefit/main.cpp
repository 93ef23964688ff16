// SPDX-License-Identifier: MIT
// The wavefit command-line tool: parse, run one subcommand, print, exit 0/1/2 (docs/cli.md).
// Output is written only after the command finished, so a failure leaves stdout empty, and nothing
// escapes main: any exception becomes a one-line usage error with exit status 2.
#include <cstdio>       // std::fwrite: unformatted output
#include <exception>    // std::exception
#include <new>          // std::bad_alloc
#include <string>       // messages
#include <string_view>  // arguments
#include <variant>      // std::visit
#include <vector>       // arguments

#include "arguments.hpp"
#include "commands.hpp"

namespace {

constexpr int usage_exit_code = 2;

void write(std::FILE* stream, const std::string& text) {
    // A short write shows in ferror(), which main checks once after all output (clang-tidy cert-err33-c).
    if (!text.empty()) (void)std::fwrite(text.data(), 1, text.size(), stream);
}

int fail(const std::string& message) {
    write(stderr, "wavefit: error: " + message + "\n");
    return usage_exit_code;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::string_view> args;
        for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
        const wavefit::cli::command_line request = wavefit::cli::parse_command_line(args);
        const wavefit::cli::command_output result = std::visit([](const auto& r) { return wavefit::cli::run(r); }, request);
        write(stdout, result.out);
        write(stderr, result.err);
        // A failed write (a closed pipe, a full disk) must not pass for success.
        if (std::fflush(stdout) != 0 || std::ferror(stdout)) return fail("could not write the output");
        return result.exit_code;
    } catch (const wavefit::cli::usage_error& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail("out of memory");
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    } catch (...) {
        return fail("internal error");
    }
}
