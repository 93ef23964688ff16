// SPDX-License-Identifier: MIT
// `wavefit lint` with libclang: collect the sources, parse each on its own thread of clang, run the
// checks, apply NOLINT comments and the baseline, and render the report (lint_command.cpp calls this).
#pragma once

#include "../arguments.hpp"
#include "../commands.hpp"

namespace wavefit::cli::lint {

command_output run_lint(const lint_request& request);

}  // namespace wavefit::cli::lint
