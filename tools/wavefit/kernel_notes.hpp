// SPDX-License-Identifier: MIT
// What deserves a remark about a kernel read from a binary: spills, scratch and a dynamic stack,
// and a device its code object was not compiled for.
#pragma once

#include <cstddef>      // counts
#include <optional>     // a note, or none
#include <string_view>  // target names
#include <string>       // texts
#include <vector>       // notes

#include <wavefit/code_object.hpp>

#include "device_selection.hpp"

namespace wavefit::cli {

// A remark about a kernel; warnings are what may need action.
struct kernel_note {
    bool warning = false;
    std::string text;
};

// Spills, scratch and dynamic stack of `k`, if any. A spill note says which registers spilled, and
// blames the launch bound only where a smaller bound would give more of them: VGPRs on a target
// whose register file the bound divides (the compiler's budget at the bound is below its budget at
// one wave), never SGPRs, whose per-wave limit is fixed (102 on gfx9, 106 on gfx10+). In a build
// that looks unoptimised (below) no spill is blamed on the bound: -O0 spills whatever the bound.
std::vector<kernel_note> resource_notes(const detail::code_object_kernel& k, bool unoptimised_build = false);

// Whether the kernels of one target of a binary look like a build without optimisation: every one
// uses scratch, and at least half of them both spill and use a dynamic stack (at -O0 clang keeps
// every value in scratch and calls the device library's functions instead of inlining them, so
// nearly every kernel does; an optimised build rarely has a single such kernel).
bool looks_unoptimised(const std::vector<const detail::code_object_kernel*>& kernels_of_one_target);

// The note that says so, for `count` kernels of `target`.
kernel_note unoptimised_note(std::string_view target, std::size_t count);

// The remark for a kernel shown on a device its code object does not load on (another processor,
// or an xnack/sramecc setting the device does not have), if any.
std::optional<kernel_note> target_note(const selected_device& device, const detail::code_object_kernel& k);

// Why code for `code_target_id` does not load on `device`, as a clause ("built for gfx90a:xnack+,
// which needs XNACK on; MI250X (gfx90a) as selected has it off ..."); empty when it loads or the
// processors differ (the caller names those).
std::string feature_mismatch_text(const selected_device& device, std::string_view code_target_id);

// How well one build of a kernel suits a device, best last: it loads there, or is for the device's
// processor with other xnack/sramecc settings, or for another ISA the same preset models, or not.
enum class build_fit { other_device, same_model, same_processor, loads };
build_fit suitability(const selected_device& device, const detail::code_object_kernel& k);

// "warning: ..." / "note: ..." lines, indented by `indent`.
std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent);

}  // namespace wavefit::cli
