// SPDX-License-Identifier: MIT
// `wavefit inspect`: what the compiler decided for each kernel of a compiled AMD binary (registers,
// LDS, scratch, launch bound) and what that means on a device: the recommended block and the
// occupancy of every block size, without a GPU, one group per target id. With --preset it also
// says whether the binary can run on that device at all (a negative verdict, exit 1, when no build
// of the kernels shown loads there), as docs/cli.md "wavefit inspect" describes.
#include <algorithm>      // std::max
#include <optional>       // the preset of a target, if any
#include <string>         // text
#include <unordered_map>  // kernels by target
#include <unordered_set>  // distinct target ids
#include <vector>         // groups, rows

#include <wavefit/detail/text.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/plan.hpp>

#include "analysis/occupancy_hint.hpp"

#include "commands.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "kernel_names.hpp"
#include "kernel_notes.hpp"
#include "list_text.hpp"
#include "occupancy_text.hpp"
#include "table.hpp"
#include "terminal_text.hpp"

namespace wavefit::cli {
namespace {

// The kernels of one GPU target and the device they are shown on.
struct target_group {
    std::string target;
    std::optional<selected_device> device;  // empty: no preset models the target and no --preset
    std::vector<const named_kernel*> kernels;
    std::optional<kernel_note> note;        // the device is not the target's own
    std::optional<kernel_note> build_note;  // the build looks unoptimised (-O0)
};

// One kernel on its group's device.
struct kernel_report {
    const named_kernel* kernel = nullptr;
    std::optional<device_limits> device;  // adjusted to the kernel's wave size
    std::uint64_t recommended_block = 0;  // 0: none can run (or no device)
    std::vector<occupancy_report> rows;
    std::vector<kernel_note> notes;  // the group's note first, then the kernel's own
};

// Groups by full target id: xnack+ and xnack- builds of one kernel differ (registers, scratch).
// Whether a build looks unoptimised is judged on all kernels of its target in the file, also those
// --kernel leaves out.
std::vector<target_group> group_by_target(const std::vector<const named_kernel*>& kernels,
                                          const std::vector<named_kernel>& all_in_file,
                                          const std::optional<selected_device>& preset) {
    std::vector<target_group> groups;
    std::unordered_map<std::string_view, std::size_t> index;  // target id -> group
    for (const named_kernel* k : kernels) {
        const auto [at, added] = index.emplace(k->kernel.target_id, groups.size());
        if (added) {
            target_group g;
            g.target = k->kernel.target_id;
            g.device = preset ? preset : device_for_target(g.target);
            if (g.device) {
                g.note = target_note(*g.device, k->kernel);
            } else {
                g.note = kernel_note{false, "no preset models " + terminal_safe(g.target) +
                                                ": pass --preset NAME to see the occupancy on a device"};
            }
            groups.push_back(std::move(g));
        }
        groups[at->second].kernels.push_back(k);
    }
    for (target_group& g : groups) {
        std::vector<const analysis::code_object_kernel*> built;
        for (const named_kernel& k : all_in_file)
            if (k.kernel.target_id == g.target) built.push_back(&k.kernel);
        if (looks_unoptimised(built)) g.build_note = unoptimised_note(g.target, built.size());
    }
    return groups;
}

// With --preset: why no shown build loads on the device (one line, without "wavefit: "), or
// nothing when one does. Generic targets ("gfx9-4-generic") are not judged.
std::optional<std::string> load_verdict(const std::vector<const named_kernel*>& shown, const selected_device& device,
                                        const std::string& subject) {
    std::vector<std::string> ids;
    std::unordered_set<std::string_view> seen;
    const named_kernel* same_processor = nullptr;
    for (const named_kernel* k : shown) {
        const build_fit fit = suitability(device, k->kernel);
        if (fit == build_fit::loads || detail::ifind(k->kernel.target, "-generic") != detail::text_npos) return std::nullopt;
        if (fit == build_fit::same_processor && same_processor == nullptr) same_processor = k;
        if (seen.insert(k->kernel.target_id).second) ids.push_back(terminal_safe(k->kernel.target_id));
    }
    const std::string where =
        subject + " cannot run on " + std::string(device.limits.name.view()) + " (" + device.label + "): ";
    const std::string why = same_processor != nullptr ? feature_mismatch_text(device, same_processor->kernel.target_id)
                                                      : "it holds code for " + and_list(ids) + ", none for " +
                                                            std::string(device.limits.arch.view());
    return where + why + "; the HIP runtime fails there with hipErrorNoBinaryForGpu (error 209)";
}

kernel_report report_of(const target_group& g, const named_kernel& k) {
    kernel_report r;
    r.kernel = &k;
    if (g.note) r.notes.push_back(*g.note);
    if (g.build_note) r.notes.push_back(*g.build_note);
    for (kernel_note& n : resource_notes(k.kernel, g.build_note.has_value())) r.notes.push_back(std::move(n));
    if (!g.device) return r;
    const device_limits d = detail::for_wave_size(g.device->limits, k.kernel.wavefront_size);
    const kernel_resources resources = k.kernel.resources();
    r.device = d;
    r.recommended_block = detail::choose_block(d, resources, work{}).threads;
    for (std::uint64_t b : occupancy_block_sizes(d, resources)) r.rows.push_back(occupancy(d, resources, b));
    if (r.recommended_block != 0) {
        // What would gain one more wave at the recommended block (the hint `occupancy` and `audit` give too).
        const analysis::occupancy_hint hint = analysis::hint_for_more_waves(d, resources, r.recommended_block);
        if (hint.found()) r.notes.push_back({false, "at block " + std::to_string(r.recommended_block) + ": " + hint.text});
    }
    if (r.recommended_block == 0 && !r.rows.empty())  // the smallest block is the likeliest to fit
        r.notes.push_back({true, "no block of this kernel can be resident on " + to_string(d) + " (limited by " +
                                     std::string(to_string(r.rows.front().limited_by)) + ")"});
    return r;
}

void write_kernel(json_writer& json, const target_group& g, const kernel_report& r) {
    const analysis::code_object_kernel& k = r.kernel->kernel;
    json.begin_object();
    json.key("target").value(k.target);
    json.key("target_id").value(k.target_id);
    json.key("name").value(k.name);
    json.key("demangled").value(r.kernel->demangled);
    json.key("symbol").value(k.symbol);
    json.key("vgpr_count").value(k.vgpr_count);
    json.key("agpr_count").value(k.agpr_count);
    json.key("sgpr_count").value(k.sgpr_count);
    json.key("vgpr_spill_count").value(k.vgpr_spill_count);
    json.key("sgpr_spill_count").value(k.sgpr_spill_count);
    json.key("static_shared").value(k.group_segment_fixed_size);
    json.key("scratch").value(k.private_segment_fixed_size);
    json.key("uses_dynamic_stack").value(k.uses_dynamic_stack);
    json.key("max_threads").value(k.max_flat_workgroup_size);
    json.key("wave_size").value(k.wavefront_size);
    json.key("preset");
    if (g.device)
        json.value(g.device->preset);
    else
        json.null();
    json.key("recommended_block");
    if (r.recommended_block != 0)
        json.value(r.recommended_block);
    else
        json.null();
    json.key("occupancy").begin_array();
    for (const occupancy_report& o : r.rows) write_occupancy_row(json, o);
    json.end_array();
    json.key("notes").begin_array();
    for (const kernel_note& n : r.notes) json.value(n.text);
    json.end_array();
    json.end_object();
}

std::string registers_text(const analysis::code_object_kernel& k) {
    const std::string vgprs =
        k.agpr_count != 0 ? " unified VGPRs (" + std::to_string(k.agpr_count) + " of them AGPRs)" : " VGPRs";
    return std::to_string(k.vgpr_count) + vgprs + ", " + std::to_string(k.sgpr_count) + " SGPRs";
}

std::string scratch_text(const analysis::code_object_kernel& k) {
    std::string text =
        k.private_segment_fixed_size == 0 ? "none" : detail::bytes_text(k.private_segment_fixed_size) + " per thread";
    if (k.vgpr_spill_count != 0) text += ", " + detail::plural(k.vgpr_spill_count, "VGPR") + " spilled";
    if (k.sgpr_spill_count != 0) text += ", " + detail::plural(k.sgpr_spill_count, "SGPR") + " spilled";
    if (k.uses_dynamic_stack) text += ", dynamic stack";
    return text;
}

std::string rows_text(const device_limits& d, const std::vector<occupancy_report>& rows) {
    std::uint32_t best_waves = 0;
    for (const occupancy_report& o : rows) best_waves = std::max(best_waves, o.active_waves_per_cu);
    const std::string cu(d.cu_word());
    const std::string wave(d.wave_word());
    text_table table({align::right, align::right, align::right, align::right, align::left, align::left});
    table.add_row({"    block", "blocks/" + cu, wave + "s/" + cu, "occupancy", "limiter", ""});
    for (const occupancy_report& o : rows)
        table.add_row({"    " + std::to_string(o.block_threads), std::to_string(o.active_blocks_per_cu),
                       std::to_string(o.active_waves_per_cu), percent_text(o.occupancy),
                       std::string(to_string(o.limited_by)),
                       best_waves > 0 && o.active_waves_per_cu == best_waves ? "*" : ""});
    return table.render();
}

std::string kernel_text(const kernel_report& r) {
    const analysis::code_object_kernel& k = r.kernel->kernel;
    std::string text = "\n" + terminal_safe(r.kernel->demangled) + "\n";
    text_table table({align::left, align::left});
    if (r.kernel->demangled != k.name) table.add_row({"    mangled", terminal_safe(k.name)});
    table.add_row({"    registers", registers_text(k)});
    table.add_row(
        {"    static LDS", k.group_segment_fixed_size == 0 ? "none" : detail::bytes_text(k.group_segment_fixed_size)});
    table.add_row({"    scratch", scratch_text(k)});
    table.add_row({"    launch bound",
                   std::to_string(k.max_flat_workgroup_size) + " threads, wave" + std::to_string(k.wavefront_size)});
    text += table.render();
    text += notes_text(r.notes, "    ");
    if (!r.device) return text;
    const device_limits& d = *r.device;
    if (r.recommended_block != 0)
        text += "    recommended block " + std::to_string(r.recommended_block) + ": " +
                occupancy_summary(d, occupancy(d, k.resources(), r.recommended_block)) + "\n";
    return text + rows_text(d, r.rows);
}

}  // namespace

command_output run(const inspect_request& r) {
    const std::vector<named_kernel> kernels = read_named_kernels(r.file);
    const std::vector<const named_kernel*> shown = r.kernel ? kernels_named(kernels, *r.kernel) : all_kernels(kernels);
    if (shown.empty())
        throw usage_error("--kernel: no kernel named " + cli::quoted(r.kernel.value_or("")) + " in " + one_line(r.file) +
                          "; its kernels: " + names_text(all_kernels(kernels)));
    std::optional<selected_device> preset;
    std::optional<std::string> verdict;
    if (r.preset) {
        preset = select_amd_device(device_choice{r.preset, std::nullopt});
        const std::string subject =
            r.kernel ? cli::quoted(*r.kernel) + " in " + terminal_safe(r.file) : terminal_safe(r.file);
        verdict = load_verdict(shown, *preset, subject);
    }
    command_output result;
    if (verdict) {
        result.err = "wavefit: " + *verdict + "\n";
        result.exit_code = 1;
    }

    const std::vector<target_group> groups = group_by_target(shown, kernels, preset);
    if (r.json) {
        json_writer json;
        json.begin_object().key("kernels").begin_array();
        for (const target_group& g : groups)
            for (const named_kernel* k : g.kernels) write_kernel(json, g, report_of(g, *k));
        json.end_array();
        if (preset) {
            json.key("device").begin_object();
            json.key("preset").value(preset->preset);
            json.key("target_id").value(preset->target_id);
            json.key("loads").value(!verdict);
            json.key("message").value_or_null(verdict);
            json.end_object();
        }
        result.out = json.end_object().finish();
        return result;
    }

    std::string text = terminal_safe(r.file) + ": " + detail::plural(shown.size(), "kernel");
    if (r.kernel) text += " named " + terminal_safe(*r.kernel) + " (of " + std::to_string(kernels.size()) + ")";
    for (std::size_t i = 0; i < groups.size(); ++i)
        text +=
            (i == 0 ? ": " : ", ") + std::to_string(groups[i].kernels.size()) + " for " + terminal_safe(groups[i].target);
    text += "\n";
    for (const target_group& g : groups) {
        text += "\n== " + terminal_safe(g.target);
        if (g.device) text += " on " + to_string(g.device->limits) + ", " + g.device->label;
        text += " ==\n";
        // The group's notes are shown once, above its kernels.
        const std::size_t group_notes = (g.note ? 1 : 0) + (g.build_note ? 1 : 0);
        if (g.note) text += notes_text({*g.note}, "");
        if (g.build_note) text += notes_text({*g.build_note}, "");
        for (const named_kernel* k : g.kernels) {
            kernel_report report = report_of(g, *k);
            report.notes.erase(report.notes.begin(), report.notes.begin() + static_cast<std::ptrdiff_t>(group_notes));
            text += kernel_text(report);
        }
    }
    result.out = text;
    return result;
}

}  // namespace wavefit::cli
