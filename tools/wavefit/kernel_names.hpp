// SPDX-License-Identifier: MIT
// The kernels of a compiled AMD binary under their readable names, and finding them by the name a
// user types (`inspect --kernel NAME`, `--kernel FILE:NAME`).
#pragma once

#include <string>       // names
#include <string_view>  // lookups
#include <vector>       // kernels

#include <wavefit/code_object.hpp>

namespace wavefit::cli {

// One kernel of one GPU target, with its readable name.
struct named_kernel {
    detail::code_object_kernel kernel;
    std::string demangled;  // the mangled name again when it does not demangle (extern "C" kernels)
};

// Every kernel of every target in `path`, in file order. A file that cannot be read (missing,
// malformed, truncated, hostile, no kernels) is a usage_error "PATH: reason" on one line.
std::vector<named_kernel> read_named_kernels(const std::string& path);

// Pointers to every kernel of `kernels`, in order.
std::vector<const named_kernel*> all_kernels(const std::vector<named_kernel>& kernels);

// The kernels `name` selects, by the first of these that matches any kernel: the mangled name or
// the descriptor symbol without ".kd"; the demangled name; the demangled name without its parameter
// list, with or without a template's return type ("lds_tile<4096>"); that without template
// arguments ("wavefit_samples::tiled_transform"); its last component ("tiled_transform").
std::vector<const named_kernel*> kernels_named(const std::vector<named_kernel>& kernels, std::string_view name);

// The readable short name: the demangled name without return type and parameters ("heavy_256").
std::string short_name(const named_kernel& k);

// "heavy_256, lds_tile<4096>, ... (and 12 more)": distinct short names for a one-line message.
std::string names_text(const std::vector<const named_kernel*>& kernels);

// The same with the full demangled names of the distinct kernels (by mangled name), to tell apart
// kernels that share a short name.
std::string demangled_names_text(const std::vector<const named_kernel*>& kernels);

}  // namespace wavefit::cli
