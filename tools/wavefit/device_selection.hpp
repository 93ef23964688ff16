// SPDX-License-Identifier: MIT
// Turns --preset NAME / --device N into the device_limits every subcommand plans against.
#pragma once

#include <string>  // labels

#include <wavefit/device_limits.hpp>

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

// The preset names, comma-separated, for messages that list what --preset accepts.
std::string preset_names();

}  // namespace wavefit::cli
