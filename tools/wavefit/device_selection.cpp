// SPDX-License-Identifier: MIT
// Device lookup and the messages that steer a user without a GPU (or with a typo) to a working
// command line.
#include "device_selection.hpp"

#include <string>  // messages

namespace wavefit::cli {
namespace {

// Every selected_device made from a preset is made here.
selected_device preset_device(const presets::preset& p) {
    return {p.limits, "preset " + std::string(p.key), std::string(p.key)};
}

std::string names_of(bool amd_only) {
    std::string names;
    for (const presets::preset& p : presets::all) {
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
        if (const presets::preset* p = presets::find_preset(*choice.preset)) return preset_device(*p);
        throw usage_error("--preset " + quoted(*choice.preset) + ": unknown preset; known presets: " + preset_names());
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
    return {catalog.limits(static_cast<int>(index)), "device " + std::to_string(index), {}};
}

selected_device select_amd_device(const device_choice& choice, const device_catalog& catalog) {
    selected_device s = select_device(choice, catalog);
    if (!s.limits.is_amd())
        throw usage_error("--" + s.label + ": " + device_text(s.limits) +
                          " cannot run AMD code objects; choose an AMD preset (" + amd_preset_names() + ")");
    return s;
}

std::optional<selected_device> device_for_target(std::string_view target) {
    if (const presets::preset* p = presets::preset_for_arch(target)) return preset_device(*p);
    return std::nullopt;
}

}  // namespace wavefit::cli
