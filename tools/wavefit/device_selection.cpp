// SPDX-License-Identifier: MIT
// Device lookup and the messages that steer a user without a GPU (or with a typo) to a working
// command line.
#include "device_selection.hpp"

#include <string>  // messages

#include <wavefit/presets.hpp>

namespace wavefit::cli {

std::string preset_names() {
    std::string names;
    for (const presets::preset& p : presets::all) {
        if (!names.empty()) names += ", ";
        names += p.key;
    }
    return names;
}

selected_device select_device(const device_choice& choice, const device_catalog& catalog) {
    if (choice.preset) {
        if (const presets::preset* p = presets::find_preset(*choice.preset))
            return {p->limits, "preset " + std::string(p->key), std::string(p->key)};
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

}  // namespace wavefit::cli
