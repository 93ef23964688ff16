// SPDX-License-Identifier: MIT
// The device a command plans against: the one factory that turns --preset NAME[:FEATURES],
// --device N or a code object's GPU target into a selected_device.
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
    std::string label;   // "preset mi300x", "preset mi250x:xnack+" or "device 0": how it was selected
    std::string preset;  // the preset's key, "mi300x"; empty for --device
    // The device's target id: an AMD preset's processor with its xnack and sramecc settings, the
    // driver defaults (sramecc+, xnack-) unless --preset NAME:xnack+ etc. says otherwise; for
    // --device the ISA alone (its settings are not read); empty for NVIDIA.
    std::string target_id;
};

// The selected device. --preset takes NAME or NAME:FEATURES ("mi300x:xnack+", "mi250x:sramecc-:xnack+")
// for an AMD device whose processor has those features. Throws usage_error for an unknown preset or
// feature, a device index the catalog does not have, or --device in a build without a GPU backend.
// `choice` must be given().
selected_device select_device(const device_choice& choice, const device_catalog& catalog = visible_devices());

// select_device for commands that read AMD code objects: also a usage_error for an NVIDIA device.
selected_device select_amd_device(const device_choice& choice, const device_catalog& catalog = visible_devices());

// The preset that models code compiled for `target_id` ("gfx90a:xnack+" -> mi250x with XNACK on),
// set to run that code: the settings the code requires, else the defaults. Empty if no preset models it.
std::optional<selected_device> device_for_target(std::string_view target_id);

// The preset of `device` set to run code for `code_target_id` ("mi210" and "gfx90a:xnack+" ->
// mi210:xnack+). Empty for a device that is no preset (--device).
std::optional<selected_device> preset_running(const selected_device& device, std::string_view code_target_id);

// The preset names, comma-separated, for messages that list what --preset accepts.
std::string preset_names();
// The same for the AMD presets only.
std::string amd_preset_names();

}  // namespace wavefit::cli
