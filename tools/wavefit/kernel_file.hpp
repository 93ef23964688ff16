// SPDX-License-Identifier: MIT
// Kernels read from compiled AMD binaries for `inspect` and `--kernel FILE:NAME`: reading with
// one-line errors, demangled names, lookup by name, the device a kernel is modelled on, and what
// deserves a warning (spills, a device the code object was not compiled for).
#pragma once

#include <optional>     // a kernel from a file, or none
#include <string>       // names and notes
#include <string_view>  // lookups
#include <vector>       // kernels, notes

#include <wavefit/code_object.hpp>
#include <wavefit/device_limits.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/presets.hpp>

#include "arguments.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"

namespace wavefit::cli {

// One kernel of one GPU target, with its readable name.
struct named_kernel {
    code_object_kernel kernel;
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

// `text` for a terminal: control characters, DEL and every non-ASCII byte escaped as \xNN, so that a
// name from a hostile file cannot move the cursor, recolour or rewrite the output.
std::string printable(std::string_view text);

// A remark about a kernel; warnings are what may need action.
struct kernel_note {
    bool warning = false;
    std::string text;
};

// Spills, scratch and dynamic stack of `k`, if any.
std::vector<kernel_note> resource_notes(const code_object_kernel& k);

// The warning for a kernel shown on a device its code object was not compiled for, if it is one.
std::optional<kernel_note> target_note(const device_limits& d, const code_object_kernel& k);

// An AMD preset for --preset NAME; a usage_error for an unknown or NVIDIA preset.
selected_device amd_device(const device_choice& choice);

// check, plan and occupancy: the device and the kernel's resources, from the resource flags or
// from --kernel FILE:NAME.
struct launch_subject {
    selected_device device;  // with --kernel: adjusted to the kernel's wave size (for_wave_size)
    kernel_resources resources;
    std::optional<named_kernel> kernel;  // with --kernel
    std::string file;                    // with --kernel
    std::vector<kernel_note> notes;      // with --kernel
};

// Reads, looks up and selects as docs/cli.md's --kernel FILE:NAME says; usage_error when the file,
// the name or the device does not work out.
launch_subject launch_subject_for(const device_choice& device, const kernel_choice& kernel);

// "kernel": {"file", "name", "demangled", "target", "preset", "notes"} when the subject came from --kernel.
void write_kernel_json(json_writer& json, const launch_subject& s);

// The kernel line and its notes for text output ("" without --kernel).
std::string kernel_text(const launch_subject& s);

// "warning: ..." / "note: ..." lines, indented by `indent`.
std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent);

}  // namespace wavefit::cli
