// SPDX-License-Identifier: MIT
// Remarks about kernels read from binaries (see kernel_notes.hpp).
#include "kernel_notes.hpp"

#include <wavefit/detail/text.hpp>
#include <wavefit/device_attributes.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "analysis/target_id.hpp"

#include "terminal_text.hpp"

namespace wavefit::cli {

using analysis::code_object_kernel;
using analysis::feature_setting;
using analysis::load_problem;
using analysis::loads_on;
using analysis::parse_target_id;
using analysis::target_id;

namespace {

// The register model of the target a kernel was compiled for (not of the device it is shown on):
// the compiler divided that target's register file.
device_limits compile_target_model(const code_object_kernel& k) {
    device_limits d{};
    d.vendor = device_limits::vendor_kind::amd;
    d.arch.assign(k.target);
    d.wave_size = k.wavefront_size;
    detail::apply_amd_isa_model(d, d.arch.view());
    return d;
}

// SGPRs one wave can address, besides VCC, FLAT_SCRATCH and XNACK_MASK (LLVM AMDGPUBaseInfo
// getAddressableNumSGPRs: 102 on GFX8 and GFX9, 106 on GFX10+), whatever the launch bound.
std::uint32_t addressable_sgprs(std::string_view isa) { return detail::starts_with(isa, "gfx9") ? 102 : 106; }

std::string vgpr_spill_text(const code_object_kernel& k, const std::string& scratch) {
    std::string text = "spills " + detail::plural(k.vgpr_spill_count, "VGPR");
    if (k.private_segment_fixed_size != 0) text += " / uses " + scratch;
    const device_limits model = compile_target_model(k);
    const std::uint32_t at_bound = detail::vgpr_budget_for_bound(model, k.max_flat_workgroup_size);
    const std::uint32_t at_one_wave = detail::vgpr_budget_for_bound(model, model.wave_size);
    // Without a register model for the target (0), the bound stays the likeliest cause.
    if (at_one_wave == 0 || at_bound < at_one_wave)
        return text + ": the launch bound (" + std::to_string(k.max_flat_workgroup_size) +
               ") may be forcing the compiler to spill";
    return text + ": the launch bound (" + std::to_string(k.max_flat_workgroup_size) + ") already gives a wave the most " +
           "VGPRs it can have (" + std::to_string(at_bound) + "), so a smaller bound would not help: keep fewer values live";
}

std::string sgpr_spill_text(const code_object_kernel& k, bool mention_scratch, const std::string& scratch) {
    std::string text = "spills " + detail::plural(k.sgpr_spill_count, "SGPR");
    if (mention_scratch) text += " / uses " + scratch;
    return text + ": a wave can address at most " + std::to_string(addressable_sgprs(detail::isa_name(k.target))) +
           " SGPRs (plus VCC, FLAT_SCRATCH and XNACK_MASK) whatever the launch bound, so a smaller bound would not help: "
           "keep fewer uniform values live (kernel arguments, loop-invariant addresses and counters)";
}

const char* setting_text(feature_setting s) { return s == feature_setting::on ? "on" : "off"; }

}  // namespace

std::vector<kernel_note> resource_notes(const code_object_kernel& k, bool unoptimised_build) {
    std::vector<kernel_note> notes;
    const std::string scratch = detail::plural(k.private_segment_fixed_size, "byte") + " of scratch per thread";
    if (k.vgpr_spill_count != 0 && unoptimised_build) {
        notes.push_back({true, "spills " + detail::plural(k.vgpr_spill_count, "VGPR") +
                                   (k.private_segment_fixed_size != 0 ? " / uses " + scratch : std::string()) +
                                   ": an unoptimised build spills whatever its launch bound; judge the spills of an "
                                   "optimised build"});
    } else if (k.vgpr_spill_count != 0) {
        notes.push_back({true, vgpr_spill_text(k, scratch)});
    }
    if (k.sgpr_spill_count != 0)
        notes.push_back({true, sgpr_spill_text(k, k.vgpr_spill_count == 0 && k.private_segment_fixed_size != 0, scratch)});
    if (!k.spills() && k.private_segment_fixed_size != 0)
        notes.push_back({true, "uses " + scratch + " (private arrays or a call stack; no register spills)"});
    if (k.uses_dynamic_stack)
        notes.push_back({true, "uses a dynamic stack (recursion, alloca or indirect calls): scratch beyond the fixed " +
                                   detail::plural(k.private_segment_fixed_size, "byte") + " per thread is sized at launch"});
    return notes;
}

bool looks_unoptimised(const std::vector<const code_object_kernel*>& kernels) {
    if (kernels.empty()) return false;
    std::size_t spill_and_stack = 0;
    for (const code_object_kernel* k : kernels) {
        if (k->private_segment_fixed_size == 0) return false;
        if (k->spills() && k->uses_dynamic_stack) ++spill_and_stack;
    }
    return spill_and_stack * 2 >= kernels.size();
}

kernel_note unoptimised_note(std::string_view target, std::size_t count) {
    const std::string which = count == 1 ? "the one kernel for " + terminal_safe(target) + " spills and uses"
                                         : "all " + std::to_string(count) + " kernels for " + terminal_safe(target) +
                                               " use scratch, and most spill and use";
    return {true, which +
                      " a dynamic stack: this looks like a build without optimisation (-O0; e.g. CMake's HIP "
                      "language without CMAKE_BUILD_TYPE passes no -O flag), where every kernel spills whatever its "
                      "launch bound. Rebuild with -O2 or -O3 (CMAKE_BUILD_TYPE=Release or RelWithDebInfo) before "
                      "reading registers, spills and occupancy"};
}

std::string feature_mismatch_text(const selected_device& device, std::string_view code_target_id) {
    target_id code;
    target_id dev;
    if (!parse_target_id(code_target_id, code) || !parse_target_id(device.target_id, dev)) return {};
    const load_problem problem = loads_on(code, dev);
    if (problem != load_problem::xnack_mismatch && problem != load_problem::sramecc_mismatch) return {};
    const bool xnack = problem == load_problem::xnack_mismatch;
    const feature_setting needed = xnack ? code.xnack : code.sramecc;
    const std::string feature = xnack ? "XNACK" : "SRAM ECC";
    std::string text =
        "built for " + terminal_safe(code_target_id) + ", which loads only with " + feature + " " + setting_text(needed) +
        "; " + std::string(device.limits.name.view()) + " as selected (" + device.target_id + ") has it " +
        setting_text(needed == feature_setting::on ? feature_setting::off : feature_setting::on);
    if (!device.preset.empty()) {
        const std::string spelled =
            device.preset + ":" + (xnack ? "xnack" : "sramecc") + (needed == feature_setting::on ? "+" : "-");
        text += xnack && needed == feature_setting::on
                    ? " (XNACK is off unless the process sets HSA_XNACK=1; --preset " + spelled + " models that)"
                    : " (--preset " + spelled + " models a device with it " + setting_text(needed) + ")";
    }
    return text;
}

std::optional<kernel_note> target_note(const selected_device& device, const code_object_kernel& k) {
    const device_limits& d = device.limits;
    const presets::detail::target_match fit = presets::detail::match_target(d, k.target);
    const std::string target = terminal_safe(k.target);
    if (fit == presets::detail::target_match::exact) {
        const std::string mismatch = feature_mismatch_text(device, k.target_id);
        if (mismatch.empty()) return std::nullopt;
        return kernel_note{true, mismatch +
                                     ": the HIP runtime would not load it (hipErrorNoBinaryForGpu); the numbers "
                                     "apply this build's resources to " +
                                     to_string(d)};
    }
    if (detail::ifind(k.target, "-generic") != detail::text_npos)
        return kernel_note{false, target + " is a generic target, which loads on a family of processors; whether " +
                                      to_string(d) + " is one of them is not checked"};
    if (fit == presets::detail::target_match::same_model)
        return kernel_note{false, target + " is modelled as " + to_string(d) +
                                      ", which has the same register and LDS "
                                      "model; a " +
                                      target + " code object does not load on a " + std::string(d.arch.view()) + " GPU"};
    return kernel_note{true, "compiled for " + target + ", not for " + to_string(d) +
                                 ": the HIP runtime would not load it there (hipErrorNoBinaryForGpu); the numbers "
                                 "apply this build's resources to " +
                                 to_string(d)};
}

build_fit suitability(const selected_device& device, const code_object_kernel& k) {
    const presets::detail::target_match m = presets::detail::match_target(device.limits, k.target);
    if (m == presets::detail::target_match::other_device) return build_fit::other_device;
    if (m == presets::detail::target_match::same_model) return build_fit::same_model;
    target_id code;
    target_id dev;
    // A target id the runtime could not parse either is not ruled out here: the reader accepted it.
    if (!parse_target_id(k.target_id, code) || !parse_target_id(device.target_id, dev))
        return build_fit::loads;
    const load_problem p = loads_on(code, dev);
    return p == load_problem::none || p == load_problem::not_modelled ? build_fit::loads
                                                                                      : build_fit::same_processor;
}

std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent) {
    std::string text;
    for (const kernel_note& n : notes) text += indent + (n.warning ? "warning: " : "note: ") + n.text + "\n";
    return text;
}

}  // namespace wavefit::cli
