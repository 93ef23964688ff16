// SPDX-License-Identifier: MIT
// Rendering of diagnostics for check and plan (see diagnostic_output.hpp).
#include "diagnostic_output.hpp"

namespace wavefit::cli {

void write_diagnostics(json_writer& json, const std::vector<diagnostic>& diagnostics) {
    json.key("diagnostics").begin_array();
    for (const diagnostic& dg : diagnostics) {
        json.begin_object();
        json.key("code").value(to_string(dg.code));
        json.key("severity").value(to_string(dg.severity));
        json.key("message").value(dg.message);
        json.key("fix").value(dg.fix);
        json.end_object();
    }
    json.end_array();
}

std::string diagnostics_text(const std::vector<diagnostic>& diagnostics) {
    std::string text;
    for (const diagnostic& dg : diagnostics) {
        text += std::string(to_string(dg.severity)) + " [" + std::string(to_string(dg.code)) + "] " + dg.message + "\n";
        text += "  fix: " + dg.fix + "\n";
    }
    return text;
}

}  // namespace wavefit::cli
