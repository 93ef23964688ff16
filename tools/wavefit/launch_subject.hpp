// SPDX-License-Identifier: MIT
// What check, plan and occupancy talk about: a device and a kernel's resources, given by the
// resource flags or read from a compiled binary with --kernel FILE:NAME.
#pragma once

#include <optional>  // a kernel from a file, or none
#include <string>    // the file
#include <vector>    // notes

#include <wavefit/kernel_resources.hpp>

#include "arguments.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "kernel_names.hpp"
#include "kernel_notes.hpp"

namespace wavefit::cli {

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

// "kernel": {"file", "name", "demangled", "target", "target_id", "preset", "notes"} when the subject came from --kernel.
void write_kernel_json(json_writer& json, const launch_subject& s);

// The kernel line and its notes for text output ("" without --kernel).
std::string kernel_text(const launch_subject& s);

}  // namespace wavefit::cli
