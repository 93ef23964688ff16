// SPDX-License-Identifier: MIT
// Device lookup and the messages that steer a user without a GPU (or with a typo) to a working
// command line.
#include "device_selection.hpp"

#include <string>  // messages

#include "analysis/target_id.hpp"

namespace wavefit::cli {

using analysis::default_device_target_id;
using analysis::feature_setting;
using analysis::features_of;
using analysis::parse_target_id;
using analysis::processor_features;
using analysis::target_id;

namespace {

// Every selected_device made from a preset is made here. `device` is the device's target id.
selected_device preset_device(const presets::detail::preset& p, const target_id& device) {
    selected_device s{p.limits, {}, std::string(p.key), {}};
    std::string spelled(p.key);
    if (p.limits.is_amd()) {
        s.target_id = to_string(device);
        // The label names the settings that differ from the driver defaults: "preset mi250x:xnack+".
        const target_id defaults = default_device_target_id(p.limits.arch.view());
        if (device.sramecc != defaults.sramecc)
            spelled += device.sramecc == feature_setting::on ? ":sramecc+" : ":sramecc-";
        if (device.xnack != defaults.xnack) spelled += device.xnack == feature_setting::on ? ":xnack+" : ":xnack-";
    }
    s.label = "preset " + spelled;
    return s;
}

// `device` with the settings `wanted` names (xnack+, sramecc-); those it leaves out stay.
void apply_settings(target_id& device, const target_id& wanted) {
    if (wanted.xnack != feature_setting::any) device.xnack = wanted.xnack;
    if (wanted.sramecc != feature_setting::any) device.sramecc = wanted.sramecc;
}

// --preset NAME:FEATURES: the features applied to the preset's default target id.
target_id device_target_id(const presets::detail::preset& p, std::string_view features, std::string_view typed) {
    target_id device = default_device_target_id(p.limits.arch.view());
    if (features.empty()) return device;
    const std::string prefix = "--preset " + quoted(typed) + ": ";
    if (!p.limits.is_amd()) throw usage_error(prefix + to_string(p.limits) + " has no target features (xnack, sramecc)");
    target_id given;
    const std::string text = std::string(p.limits.arch.view()) + ":" + std::string(features);
    if (!parse_target_id(text, given))
        throw usage_error(prefix +
                          "expected NAME or NAME:FEATURES with the features xnack+, xnack-, sramecc+ or sramecc-, "
                          "each at most once (e.g. " +
                          std::string(p.key) + ":xnack+)");
    const processor_features has = features_of(p.limits.arch.view());
    if ((given.xnack != feature_setting::any && !has.xnack) ||
        (given.sramecc != feature_setting::any && !has.sramecc))
        throw usage_error(prefix + to_string(p.limits) + " has no " +
                          (given.xnack != feature_setting::any && !has.xnack ? "xnack" : "sramecc") + " setting");
    apply_settings(device, given);
    return device;
}

std::string names_of(bool amd_only) {
    std::string names;
    for (const presets::detail::preset& p : presets::all) {
        if (amd_only && !p.limits.is_amd()) continue;
        if (!names.empty()) names += ", ";
        names += p.key;
    }
    return names;
}

}  // namespace

std::string preset_names() { return names_of(false); }
std::string amd_preset_names() { return names_of(true); }

selected_device select_device(const device_choice& choice, const device_catalog& catalog) {
    if (choice.preset) {
        const std::string_view typed = *choice.preset;
        const std::size_t colon = typed.find(':');
        const std::string_view name = typed.substr(0, colon);
        const std::string_view features = colon == std::string_view::npos ? std::string_view{} : typed.substr(colon + 1);
        if (const presets::detail::preset* p = presets::detail::find_preset(name))
            return preset_device(*p, device_target_id(*p, features, typed));
        throw usage_error("--preset " + quoted(typed) + ": unknown preset; known presets: " + preset_names());
    }
    const std::uint64_t index = choice.index.value_or(0);
    if (!catalog.has_backend())
        throw usage_error(
            "--device needs a wavefit built with a GPU backend (HIP or CUDA); use --preset NAME (see `wavefit presets`)");
    const int count = catalog.count();
    if (index >= static_cast<std::uint64_t>(count < 0 ? 0 : count)) {
        const std::string n = std::to_string(index);
        if (count <= 0)
            throw usage_error("--device " + n + ": no " + std::string(catalog.backend_name()) +
                              " GPU is visible; use --preset NAME (see `wavefit presets`)");
        throw usage_error("--device " + n + ": only " + std::to_string(count) + " GPU" + (count == 1 ? " is" : "s are") +
                          " visible (0 to " + std::to_string(count - 1) + ")");
    }
    const device_limits d = catalog.limits(static_cast<int>(index));
    return {d, "device " + std::to_string(index), {}, d.is_amd() ? std::string(d.arch.view()) : std::string()};
}

selected_device select_amd_device(const device_choice& choice, const device_catalog& catalog) {
    selected_device s = select_device(choice, catalog);
    if (!s.limits.is_amd())
        throw usage_error("--" + s.label + ": " + to_string(s.limits) +
                          " cannot run AMD code objects; choose an AMD preset (" + amd_preset_names() + ")");
    return s;
}

std::optional<selected_device> preset_running(const selected_device& device, std::string_view code_target_id) {
    const presets::detail::preset* p = presets::detail::find_preset(device.preset);
    target_id settings;
    if (p == nullptr || !parse_target_id(device.target_id, settings)) return std::nullopt;
    target_id code;
    if (parse_target_id(code_target_id, code)) apply_settings(settings, code);
    return preset_device(*p, settings);
}

std::optional<selected_device> device_for_target(std::string_view code_target_id) {
    const presets::detail::preset* p = presets::detail::preset_for_arch(code_target_id);
    if (p == nullptr) return std::nullopt;
    return preset_running(preset_device(*p, default_device_target_id(p->limits.arch.view())), code_target_id);
}

}  // namespace wavefit::cli
