// SPDX-License-Identifier: MIT
// `wavefit lint`: the hazards of CUDA and HIP source on AMD, found with clang's parser (lint/). libclang is
// optional at build time: without it the CLI still builds and this subcommand says what is missing.
#include "commands.hpp"

#if defined(WAVEFIT_LINT_WITH_LIBCLANG)
#include "lint/lint_runner.hpp"
#endif

namespace wavefit::cli {

#if defined(WAVEFIT_LINT_WITH_LIBCLANG)
command_output run(const lint_request& r) { return lint::run_lint(r); }
#else
command_output run(const lint_request&) {
    throw usage_error(
        "lint needs libclang, and this wavefit was built without it (Debian: apt-get install libclang-15-dev, then "
        "rebuild; scripts/install-deps installs it)");
}
#endif

}  // namespace wavefit::cli
