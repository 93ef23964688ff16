// SPDX-License-Identifier: MIT
// --help and --version. Help is rendered from command_line_spec.hpp, the same table the parser
// checks flags against, so it always lists exactly the flags that are accepted.
#include <wavefit/version.hpp>

#include "commands.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

std::string flag_usage(const flag_spec& f) {
    return f.takes_value() ? std::string(f.name) + " " + std::string(f.value_name) : std::string(f.name);
}

std::string overview() {
    std::string text = "wavefit " WAVEFIT_VERSION_STRING
                       " - validate and plan GPU kernel launches for AMD Instinct (HIP) and NVIDIA (CUDA)\n\n"
                       "usage: wavefit SUBCOMMAND [flags]\n"
                       "       wavefit SUBCOMMAND --help       (or: wavefit help SUBCOMMAND)\n"
                       "       wavefit --version\n\n"
                       "subcommands:\n";
    text_table table({align::left, align::left});
    for (const subcommand_spec& s : subcommand_specs()) table.add_row({"  " + std::string(s.name), std::string(s.summary)});
    text += table.render();
    text +=
        "\nExit status: 0 success or valid, 1 a negative verdict (invalid launch, unknown error code),\n"
        "2 a usage error (bad flag, unknown preset, malformed number).\n";
    return text;
}

// Whether a flag takes a size or count in the number syntax (2^33, 48Ki, 0x10000): the footer that
// explains the syntax goes only where such a flag is (not --device N, an index).
bool takes_number(const flag_spec& f) {
    if (f.name == flags::device.name) return false;
    return f.value_name == "N" || f.value_name == "BYTES" || f.value_name == "X[,Y[,Z]]";
}

std::string flag_table(const std::vector<flag_spec>& flags) {
    std::string text = "\nflags:\n";
    text_table table({align::left, align::left});
    for (const flag_spec& f : flags) table.add_row({"  " + flag_usage(f), std::string(f.description)});
    table.add_row({"  --help", "show this help"});
    text += table.render();
    for (const flag_spec& f : flags)
        if (f.name == flags::kernel_file.name && f.value_name == flags::kernel_file.value_name)
            text += "\n" + std::string(kernel_file_help);
    bool numbers = false;
    for (const flag_spec& f : flags) numbers = numbers || takes_number(f);
    if (numbers) text += "\n" + std::string(number_syntax_help);
    return text;
}

std::string subcommand_help(const subcommand_spec& spec) {
    std::string text = "usage: wavefit " + std::string(spec.name) + " " + std::string(spec.synopsis) + "\n\n";
    text += spec.details;
    return text + flag_table(spec.flags);
}

std::string action_help(const subcommand_spec& spec, const action_spec& action) {
    std::string text = "usage: wavefit " + std::string(spec.name) + " " + std::string(action.name) + " " +
                       std::string(action.synopsis) + "\n\n";
    text += action.details;
    return text + flag_table(action.flags);
}

}  // namespace

command_output run(const help_request& r) {
    if (!r.topic) return {overview(), {}, 0};
    const subcommand_spec& spec = spec_of(*r.topic);
    const action_spec* action = r.action.empty() ? nullptr : find_action(spec.id, r.action);
    return {action != nullptr ? action_help(spec, *action) : subcommand_help(spec), {}, 0};
}

command_output run(const version_request&) { return {"wavefit " WAVEFIT_VERSION_STRING "\n", {}, 0}; }

}  // namespace wavefit::cli
