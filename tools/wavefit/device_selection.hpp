// SPDX-License-Identifier: MIT
// The device a command plans against: the one factory that turns --preset NAME, --device N or a
// code object's GPU target into a selected_device.
#pragma once

#include <optional>     // a target no preset models
#include <string>       // labels
#include <string_view>  // targets

#include <wavefit/device_limits.hpp>
#include <wavefit/presets.hpp>

#include "arguments.hpp"
#include "device_catalog.hpp"

namespace wavefit::cli {

struct selected_device {
    device_limits limits;
    std::string label;   // "preset mi300x" or "device 0": how the user selected it
    std::string preset;  // the preset's key, "mi300x"; empty for --device
};

// The selected device. Throws usage_error for an unknown preset, a device index the catalog does
// not have, or --device in a build without a GPU backend. `choice` must be given().
selected_device select_device(const device_choice& choice, const device_catalog& catalog = visible_devices());

// select_device for commands that read AMD code objects: also a usage_error for an NVIDIA device.
selected_device select_amd_device(const device_choice& choice, const device_catalog& catalog = visible_devices());

// The preset that models code compiled for `target` ("gfx90a:xnack-" -> mi250x), if any.
std::optional<selected_device> device_for_target(std::string_view target);

// The preset names, comma-separated, for messages that list what --preset accepts.
std::string preset_names();
// The same for the AMD presets only.
std::string amd_preset_names();

}  // namespace wavefit::cli
