// SPDX-License-Identifier: MIT
// `wavefit explain CODE`: what an error number, name, message or diagnostic code means, and the
// launch-configuration causes behind it, each with its fix.
#include <wavefit/explain.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "json_writer.hpp"

namespace wavefit::cli {
namespace {

// "hipErrorInvalidConfiguration (9, CUDA: cudaErrorInvalidConfiguration)".
std::string heading(const error_explanation& e) {
    std::string text(e.name);
    switch (e.kind) {
        case explanation_kind::runtime_error:
            text += " (" + (e.code == no_error_code ? std::string("no number") : std::to_string(e.code));
            if (!e.alias.empty()) text += ", formerly " + std::string(e.alias);
            if (!e.cuda_name.empty()) {
                text += ", CUDA: " + std::string(e.cuda_name);
                if (e.cuda_code != no_error_code && e.cuda_code != e.code) text += " " + std::to_string(e.cuda_code);
            }
            text += ")";
            break;
        case explanation_kind::log_line: text += " (a runtime log line without an error code)"; break;
        case explanation_kind::diagnostic: text += " (a wavefit diagnostic code, from `wavefit check`)"; break;
    }
    return text;
}

std::string explanation_text(const error_explanation& e) {
    std::string text = heading(e) + "\n";
    if (!e.message.empty()) text += "message: " + std::string(e.message) + "\n";
    if (!e.cuda_message.empty() && e.cuda_message != e.message) text += "CUDA message: " + std::string(e.cuda_message) + "\n";
    text += "\n" + std::string(e.meaning) + "\n";
    if (!e.on_amd.empty()) text += "\non AMD: " + std::string(e.on_amd) + "\n";
    if (!e.on_nvidia.empty()) text += "\non NVIDIA: " + std::string(e.on_nvidia) + "\n";
    text += "\ncauses:\n";
    for (std::size_t i = 0; i < e.cause_count; ++i) {
        text += std::to_string(i + 1) + ". " + std::string(e.cause(i)) + "\n";
        text += "   fix: " + std::string(e.fix(i)) + "\n";
    }
    return text;
}

std::string explanation_json(const error_explanation& e) {
    json_writer json;
    json.begin_object();
    json.key("name").value(e.name);
    json.key("code");
    if (e.code == no_error_code) {
        json.null();
    } else {
        json.value(e.code);
    }
    json.key("meaning").value(e.meaning);
    json.key("causes").begin_array();
    for (std::size_t i = 0; i < e.cause_count; ++i) json.value(e.cause(i));
    json.end_array();
    json.key("fixes").begin_array();
    for (std::size_t i = 0; i < e.cause_count; ++i) json.value(e.fix(i));
    json.end_array();
    json.end_object();
    return json.finish();
}

}  // namespace

command_output run(const explain_request& r) {
    if (const error_explanation* e = find_explanation(r.query))
        return {r.json ? explanation_json(*e) : explanation_text(*e), {}, 0};

    // Unknown is a verdict, not a usage error: exit 1, with the query echoed on one line.
    command_output unknown;
    unknown.exit_code = 1;
    unknown.err = "wavefit: unknown error code or name: " + escaped(r.query) +
                  " (try a number such as 9, a name such as hipErrorInvalidConfiguration, a message text, or a "
                  "diagnostic code)\n";
    if (r.json) {
        json_writer json;
        json.begin_object().key("error").value("unknown error code or name").key("query").value(r.query).end_object();
        unknown.out = json.finish();
    }
    return unknown;
}

}  // namespace wavefit::cli
