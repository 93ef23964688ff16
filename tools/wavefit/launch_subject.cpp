// SPDX-License-Identifier: MIT
// Resolving --kernel FILE:NAME and the device it runs on (see launch_subject.hpp).
#include "launch_subject.hpp"

#include <cstddef>        // std::size_t
#include <filesystem>     // FILE:NAME splitting
#include <system_error>   // std::error_code
#include <unordered_set>  // distinct names: files may hold very many kernels
#include <utility>        // std::move

#include <wavefit/detail/text.hpp>
#include <wavefit/device_attributes.hpp>
#include <wavefit/presets.hpp>

#include "analysis/target_id.hpp"

#include "list_text.hpp"
#include "terminal_text.hpp"

namespace wavefit::cli {
namespace {

constexpr std::size_t npos = std::string_view::npos;

struct file_and_name {
    std::string file;
    std::string name;
};

// FILE:NAME where demangled names hold "::" and paths may hold ':': the first prefix before a ':'
// that is an existing regular file is FILE.
file_and_name split_kernel_reference(std::string_view spec) {
    std::error_code ec;
    for (std::size_t colon = spec.find(':'); colon != npos; colon = spec.find(':', colon + 1)) {
        const std::string file(spec.substr(0, colon));
        if (!file.empty() && std::filesystem::is_regular_file(file, ec)) return {file, std::string(spec.substr(colon + 1))};
    }
    if (std::filesystem::is_regular_file(std::string(spec), ec)) return {std::string(spec), {}};
    const std::size_t colon = spec.find(':');
    if (colon == npos || colon == 0)
        throw usage_error("--kernel " + cli::quoted(spec) + ": expected FILE:NAME, e.g. build/app:my_kernel");
    const std::string first(spec.substr(0, colon));
    if (std::filesystem::exists(first, ec))
        throw usage_error("--kernel " + cli::quoted(spec) + ": " + cli::quoted(first) + " is not a regular file");
    throw usage_error("--kernel " + cli::quoted(spec) + ": no such file " + cli::quoted(first) + " (expected FILE:NAME)");
}

// The first build that suits `device` best.
const named_kernel* best_build(const std::vector<const named_kernel*>& builds, const selected_device& device) {
    const named_kernel* best = builds.front();
    for (const named_kernel* b : builds)
        if (suitability(device, b->kernel) > suitability(device, best->kernel)) best = b;
    return best;
}

// Which build was used and why, when the kernel has several target ids and the choice was not the
// user's: no device given, the device loads none of them, several load, or builds for its
// processor differ in xnack/sramecc and the device kept its default settings.
std::optional<std::string> build_note(const std::vector<const named_kernel*>& builds, const named_kernel& pick,
                                      const selected_device& device, bool device_given) {
    std::vector<std::string> ids;
    std::unordered_set<std::string_view> seen;
    std::size_t loading = 0;
    std::vector<std::string> alternatives;  // "--preset mi250x:xnack+ selects the gfx90a:xnack+ build"
    for (const named_kernel* b : builds) {
        if (!seen.insert(b->kernel.target_id).second) continue;
        ids.push_back(terminal_safe(b->kernel.target_id));
        if (suitability(device, b->kernel) == build_fit::loads) ++loading;
        if (b->kernel.target_id == pick.kernel.target_id || b->kernel.target != pick.kernel.target) continue;
        if (const std::optional<selected_device> other = preset_running(device, b->kernel.target_id))
            if (other->label != device.label)
                alternatives.push_back("--" + other->label + " selects the " + terminal_safe(b->kernel.target_id) +
                                       " build");
    }
    if (ids.size() < 2) return std::nullopt;
    std::string text = "compiled for " + and_list(ids) + ": using the " + terminal_safe(pick.kernel.target_id) + " build";
    const bool user_settings = device.label.find(':') != std::string::npos;
    if (!alternatives.empty() && !user_settings)
        return text + ", the one " + to_string(device.limits) + " loads with its default settings (" + device.target_id +
               "); " + and_list(alternatives);
    if (!device_given) return text + " (--preset chooses the device and with it the build)";
    if (suitability(device, pick.kernel) == build_fit::other_device) return text;
    if (loading > 1)
        return text + ", the first in the file that loads on " + to_string(device.limits) + ", as the HIP runtime takes";
    return std::nullopt;
}

}  // namespace

launch_subject launch_subject_for(const device_choice& device, const kernel_choice& kernel) {
    if (!kernel.file_kernel) return {select_device(device), kernel.resources, std::nullopt, {}, {}};

    const std::string& spec = *kernel.file_kernel;
    const file_and_name ref = split_kernel_reference(spec);
    const std::vector<named_kernel> kernels = read_named_kernels(ref.file);
    const std::string file = one_line(ref.file);
    if (ref.name.empty())
        throw usage_error("--kernel " + cli::quoted(spec) + ": expected FILE:NAME; kernels in " + file + ": " +
                          names_text(all_kernels(kernels)));
    const std::vector<const named_kernel*> matches = kernels_named(kernels, ref.name);
    if (matches.empty())
        throw usage_error("--kernel: no kernel named " + cli::quoted(ref.name) + " in " + file +
                          "; its kernels: " + names_text(all_kernels(kernels)));
    for (const named_kernel* m : matches)
        if (m->kernel.name != matches.front()->kernel.name)
            throw usage_error("--kernel: " + cli::quoted(ref.name) + " names several kernels in " + file + ": " +
                              demangled_names_text(matches) + "; give the mangled or the full demangled name");

    // One kernel, maybe built for several targets: the build the device loads (the first, as the
    // HIP runtime takes the first code object that loads), else the closest.
    const named_kernel* pick = nullptr;
    std::optional<selected_device> chosen;
    if (device.given()) {
        chosen = select_amd_device(device);
        pick = best_build(matches, *chosen);
    } else {
        // The device follows from the first build's processor with the driver's default settings;
        // if no build loads there (xnack+ builds only), the settings follow from the build.
        chosen = device_for_target(detail::isa_name(matches.front()->kernel.target_id));
        if (chosen) {
            pick = best_build(matches, *chosen);
            if (suitability(*chosen, pick->kernel) != build_fit::loads)
                chosen = preset_running(*chosen, pick->kernel.target_id);
        }
    }
    if (!chosen)
        throw usage_error("--kernel: " + terminal_safe(short_name(*matches.front())) + " in " + file + " is compiled for " +
                          terminal_safe(matches.front()->kernel.target) +
                          ", which no preset models; choose the device with --preset NAME (" + amd_preset_names() + ")");

    launch_subject s;
    s.file = ref.file;
    s.kernel = *pick;
    if (std::optional<std::string> n = build_note(matches, *pick, *chosen, device.given())) s.notes.push_back({false, *n});
    if (const std::optional<kernel_note> n = target_note(*chosen, pick->kernel)) s.notes.push_back(*n);
    // Whether the build looks unoptimised is judged on every kernel of the picked build's target.
    std::vector<const analysis::code_object_kernel*> same_build;
    for (const named_kernel& k : kernels)
        if (k.kernel.target_id == pick->kernel.target_id) same_build.push_back(&k.kernel);
    const bool unoptimised = looks_unoptimised(same_build);
    if (unoptimised) s.notes.push_back(unoptimised_note(pick->kernel.target_id, same_build.size()));
    for (kernel_note& n : resource_notes(pick->kernel, unoptimised)) s.notes.push_back(std::move(n));
    s.device = *chosen;
    s.device.limits = detail::for_wave_size(chosen->limits, pick->kernel.wavefront_size);
    s.resources = pick->kernel.resources();
    return s;
}

void write_kernel_json(json_writer& json, const launch_subject& s) {
    if (!s.kernel) return;
    const analysis::code_object_kernel& k = s.kernel->kernel;
    json.key("kernel").begin_object();
    json.key("file").value(s.file);
    json.key("name").value(k.name);
    json.key("demangled").value(s.kernel->demangled);
    json.key("target").value(k.target);
    json.key("target_id").value(k.target_id);
    json.key("preset").text_or_null(s.device.preset);
    json.key("notes").begin_array();
    for (const kernel_note& n : s.notes) json.value(n.text);
    json.end_array();
    json.end_object();
}

std::string kernel_text(const launch_subject& s) {
    if (!s.kernel) return {};
    const analysis::code_object_kernel& k = s.kernel->kernel;
    std::string text = "kernel " + terminal_safe(s.kernel->demangled) + " [" + terminal_safe(k.target_id) + "] from " +
                       terminal_safe(s.file) + "\n";
    const std::string lds = k.group_segment_fixed_size == 0
                                ? "no static LDS"
                                : detail::bytes_text(k.group_segment_fixed_size) + " of static LDS";
    text += "  " + std::to_string(k.vgpr_count) + " VGPRs, " + std::to_string(k.sgpr_count) + " SGPRs, " + lds +
            ", launch bound " + std::to_string(k.max_flat_workgroup_size) + ", wave" + std::to_string(k.wavefront_size) +
            "\n";
    return text + notes_text(s.notes, "");
}

}  // namespace wavefit::cli
