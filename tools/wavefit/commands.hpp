// SPDX-License-Identifier: MIT
// The subcommands. Each takes its checked request and returns everything it would print, so that
// nothing reaches stdout before the command has succeeded (a usage error leaves stdout empty).
#pragma once

#include <string>  // output text

#include "arguments.hpp"

namespace wavefit::cli {

struct command_output {
    std::string out;  // for stdout: text, or exactly one JSON document with --json
    std::string err;  // for stderr (a negative verdict's one-line message)
    int exit_code = 0;
};

command_output run(const help_request& r);
command_output run(const version_request& r);
command_output run(const presets_request& r);
command_output run(const info_request& r);
command_output run(const check_request& r);
command_output run(const plan_request& r);
command_output run(const occupancy_request& r);
command_output run(const inspect_request& r);
command_output run(const explain_request& r);
command_output run(const tuning_request& r);
command_output run(const audit_request& r);
command_output run(const lint_request& r);

}  // namespace wavefit::cli
