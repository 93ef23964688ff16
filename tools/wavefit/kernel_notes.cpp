// SPDX-License-Identifier: MIT
// Remarks about kernels read from binaries (see kernel_notes.hpp).
#include "kernel_notes.hpp"

#include <wavefit/detail/text.hpp>
#include <wavefit/presets.hpp>

#include "list_text.hpp"
#include "terminal_text.hpp"

namespace wavefit::cli {

std::vector<kernel_note> resource_notes(const code_object_kernel& k) {
    std::vector<kernel_note> notes;
    const std::string scratch = detail::plural(k.private_segment_fixed_size, "byte") + " of scratch per thread";
    if (k.spills()) {
        std::vector<std::string> spilled;
        if (k.vgpr_spill_count != 0) spilled.push_back(detail::plural(k.vgpr_spill_count, "VGPR"));
        if (k.sgpr_spill_count != 0) spilled.push_back(detail::plural(k.sgpr_spill_count, "SGPR"));
        std::string text = "spills " + and_list(spilled);
        if (k.private_segment_fixed_size != 0) text += " / uses " + scratch;
        text += ": the launch bound (" + std::to_string(k.max_flat_workgroup_size) +
                ") may be forcing the compiler to spill";
        notes.push_back({true, text});
    } else if (k.private_segment_fixed_size != 0) {
        notes.push_back({true, "uses " + scratch + " (private arrays or a call stack; no register spills)"});
    }
    if (k.uses_dynamic_stack)
        notes.push_back({true, "uses a dynamic stack (recursion, alloca or indirect calls): scratch beyond the fixed " +
                                   detail::plural(k.private_segment_fixed_size, "byte") + " per thread is sized at launch"});
    return notes;
}

std::optional<kernel_note> target_note(const device_limits& d, const code_object_kernel& k) {
    const presets::target_match fit = presets::match_target(d, k.target);
    const std::string target = terminal_safe(k.target);
    if (fit == presets::target_match::exact) return std::nullopt;
    if (fit == presets::target_match::same_model)
        return kernel_note{false, target + " is modelled as " + device_text(d) + ", which has the same register and LDS "
                                      "model; a " + target + " code object does not load on a " +
                                      std::string(d.arch.view()) + " GPU"};
    return kernel_note{true, "compiled for " + target + ", not for " + device_text(d) +
                                 ": the HIP runtime would not load it there (hipErrorNoBinaryForGpu); the numbers "
                                 "apply this build's resources to " + device_text(d)};
}

std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent) {
    std::string text;
    for (const kernel_note& n : notes) text += indent + (n.warning ? "warning: " : "note: ") + n.text + "\n";
    return text;
}

}  // namespace wavefit::cli
