// SPDX-License-Identifier: MIT
// Readable names for kernels read from untrusted files (`inspect`, `--kernel FILE:NAME`).
#pragma once

#include <string>  // names
#include <vector>  // one result per name

namespace wavefit::cli {

// The demangled form of each Itanium-mangled name ("_Z3fooPf" -> "foo(float*)"); a name that is not
// mangled, does not demangle, or does not finish within the time budget comes back unchanged.
//
// The demangler is the C++ runtime's (abi::__cxa_demangle), third-party code parsing bytes from the
// file. Its output can grow exponentially with the name's back-references (a 250-byte name can
// demangle to gigabytes) and such parsers have had crash bugs, so on POSIX systems it runs in a
// child process that is killed when the budget is spent: a hostile name costs at most the budget
// and falls back to its mangled form, and never crashes or hangs wavefit. Without <cxxabi.h> or
// fork(), names stay mangled.
std::vector<std::string> demangle_names(const std::vector<std::string>& mangled);

}  // namespace wavefit::cli
