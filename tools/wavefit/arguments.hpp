// SPDX-License-Identifier: MIT
// The command line turned into one typed request per subcommand. Commands receive checked values
// only; every malformed input is a usage_error here (exit 2), before anything is printed.
#pragma once

#include <cstdint>      // flag values
#include <optional>     // optional flags
#include <stdexcept>    // usage_error
#include <string>       // preset names, queries
#include <string_view>  // arguments
#include <variant>      // command_line
#include <vector>       // arguments

#include <wavefit/dims.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/work.hpp>

#include "command_line_spec.hpp"
#include "terminal_text.hpp"  // quoted(): how every usage_error message echoes an argument

namespace wavefit::cli {

// A malformed command line; the message names the flag and the bad value and fits on one line.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// --preset NAME or --device N, as typed; resolving them is device_selection's job.
struct device_choice {
    std::optional<std::string> preset;
    std::optional<std::uint64_t> index;

    bool given() const noexcept { return preset.has_value() || index.has_value(); }
};

// The resource flags check, plan and occupancy share.
struct kernel_choice {
    kernel_resources resources;
    std::uint64_t dynamic_shared = 0;
    // --kernel FILE:NAME as typed: the resources come from that binary instead (launch_subject.hpp).
    std::optional<std::string> file_kernel;
};

struct help_request {
    std::optional<subcommand> topic;  // empty: the overview
    std::string_view action;          // an action of topic (`tuning show`); empty: the whole subcommand
};
struct version_request {};

struct presets_request {
    bool json = false;
};
struct info_request {
    bool json = false;
    device_choice device;  // may be empty: every visible GPU
};
struct check_request {
    bool json = false;
    device_choice device;
    kernel_choice kernel;
    dims grid;
    dims block;
    // --work-shape: per-thread (0), per-block (1) or per-group:N (2, with group_threads N).
    int work_shape = 0;
    std::uint64_t group_threads = 0;
};
struct plan_request {
    bool json = false;
    device_choice device;
    kernel_choice kernel;
    // The work and the kernel's contract, as the flags give them (the kernel's --dynamic-shared is
    // added by the command: it belongs to kernel_choice).
    wavefit::work work;
};
struct occupancy_request {
    bool json = false;
    device_choice device;
    kernel_choice kernel;
    std::optional<std::uint64_t> block;
    bool powers_of_two = false;              // --powers-of-two: only such rows
    std::optional<std::uint64_t> at_most;    // --block-at-most N: only rows up to N threads
};
struct inspect_request {
    bool json = false;
    std::string file;
    std::optional<std::string> preset;  // --preset: one device for every kernel
    std::optional<std::string> kernel;  // --kernel NAME: only the kernels it names
};
struct explain_request {
    enum class action { lookup, scan, check_kb, export_notebook } what = action::lookup;
    bool json = false;
    bool markdown = false;              // --scan only
    std::string query;                  // lookup: CODE
    std::string file;                   // --scan FILE (- for standard input), --check-kb FILE
    std::vector<std::string> kb_files;  // --kb FILE..., in command-line order
};

struct tuning_request {
    enum class action { show, check, merge } what = action::show;
    bool json = false;
    std::vector<std::string> files;  // show/check: one; merge: A and B
    device_choice device;            // check
    std::string output;              // merge: -o
};

struct audit_request {
    bool json = false;
    bool markdown = false;
    std::string file;
    std::optional<std::string> preset;
    std::uint64_t top = 10;  // 0: every kernel
};

// wavefit lint PATH... [-- compiler flags] | -p BUILD_DIR (lint/lint_runner.hpp).
struct lint_request {
    enum class output { text, json, sarif } format = output::text;
    bool json = false;                        // --json (the same as --format json)
    std::vector<std::string> paths;           // files and directories
    std::vector<std::string> compiler_flags;  // after --, for every file
    std::optional<std::string> build_directory;  // -p: its compile_commands.json
    std::string target = "gfx942";
    std::optional<std::string> baseline;        // --baseline FILE
    std::optional<std::string> write_baseline;  // --write-baseline FILE
    std::uint64_t jobs = 0;                     // --jobs N; 0: one per hardware thread
};

using command_line = std::variant<help_request, version_request, presets_request, info_request, check_request, plan_request,
                                  occupancy_request, inspect_request, explain_request, tuning_request, audit_request,
                                  lint_request>;

// Parses argv[1..]. Throws usage_error for anything malformed.
command_line parse_command_line(const std::vector<std::string_view>& args);

}  // namespace wavefit::cli
