// SPDX-License-Identifier: MIT
// `wavefit presets`: the devices --preset accepts, with what tells them apart at a glance.
#include <wavefit/presets.hpp>

#include "commands.hpp"
#include "json_writer.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

// "64 KiB", or exact bytes when not a whole KiB.
std::string kib_text(std::uint64_t bytes) {
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " bytes";
}

std::string shared_text(const device_limits& d) {
    if (d.shared_per_block_optin > d.shared_per_block)
        return kib_text(d.shared_per_block) + " (" + kib_text(d.shared_per_block_optin) + " opt-in)";
    return kib_text(d.shared_per_block);
}

}  // namespace

command_output run(const presets_request& r) {
    if (r.json) {
        json_writer json;
        json.begin_object().key("presets").begin_array();
        for (const presets::detail::preset& p : presets::all) {
            json.begin_object();
            json.key("name").value(p.key);
            json.key("arch").value(p.limits.arch.view());
            json.key("wave_size").value(p.limits.wave_size);
            json.key("compute_units").value(p.limits.compute_units);
            json.end_object();
        }
        json.end_array().end_object();
        return {json.finish(), {}, 0};
    }

    text_table table({align::left, align::left, align::left, align::left, align::right, align::right, align::left});
    table.add_row({"preset", "device", "arch", "vendor", "wave size", "CUs/SMs", "LDS/shared per block"});
    for (const presets::detail::preset& p : presets::all) {
        const device_limits& d = p.limits;
        table.add_row({std::string(p.key), std::string(d.name.view()), std::string(d.arch.view()),
                       std::string(to_string(d.vendor)), std::to_string(d.wave_size), std::to_string(d.compute_units),
                       shared_text(d)});
    }
    return {table.render(), {}, 0};
}

}  // namespace wavefit::cli
