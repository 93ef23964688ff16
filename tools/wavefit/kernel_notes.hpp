// SPDX-License-Identifier: MIT
// What deserves a remark about a kernel read from a binary: spills, scratch and a dynamic stack,
// and a device its code object was not compiled for.
#pragma once

#include <optional>  // a note, or none
#include <string>    // texts
#include <vector>    // notes

#include <wavefit/code_object.hpp>
#include <wavefit/device_limits.hpp>

namespace wavefit::cli {

// A remark about a kernel; warnings are what may need action.
struct kernel_note {
    bool warning = false;
    std::string text;
};

// Spills, scratch and dynamic stack of `k`, if any.
std::vector<kernel_note> resource_notes(const code_object_kernel& k);

// The warning for a kernel shown on a device its code object was not compiled for, if it is one.
std::optional<kernel_note> target_note(const device_limits& d, const code_object_kernel& k);

// "warning: ..." / "note: ..." lines, indented by `indent`.
std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent);

}  // namespace wavefit::cli
