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
                       "       wavefit SUBCOMMAND --help\n"
                       "       wavefit --version\n\n"
                       "subcommands:\n";
    text_table table({align::left, align::left});
    for (const subcommand_spec& s : subcommand_specs()) table.add_row({"  " + std::string(s.name), std::string(s.summary)});
    text += table.render();
    text +=
        "\nExit status: 0 success or valid, 1 a negative verdict (invalid launch, unknown error code),\n"
        "2 a usage error (bad flag, unknown preset, malformed number).\n\n";
    text += number_syntax_help;
    return text;
}

std::string subcommand_help(const subcommand_spec& spec) {
    std::string text = "usage: wavefit " + std::string(spec.name) + " " + std::string(spec.synopsis) + "\n\n";
    text += spec.details;
    text += "\nflags:\n";
    text_table table({align::left, align::left});
    for (const flag_spec& f : spec.flags) table.add_row({"  " + flag_usage(f), std::string(f.description)});
    table.add_row({"  --help", "show this help"});
    text += table.render();
    for (const flag_spec& f : spec.flags)
        if (f.name == flags::kernel_file.name && f.value_name == flags::kernel_file.value_name)
            text += "\n" + std::string(kernel_file_help);
    bool takes_numbers = false;
    for (const flag_spec& f : spec.flags) takes_numbers = takes_numbers || f.value_name == "N" || f.value_name == "BYTES";
    if (takes_numbers) text += "\n" + std::string(number_syntax_help);
    return text;
}

}  // namespace

command_output run(const help_request& r) { return {r.topic ? subcommand_help(spec_of(*r.topic)) : overview(), {}, 0}; }

command_output run(const version_request&) { return {"wavefit " WAVEFIT_VERSION_STRING "\n", {}, 0}; }

}  // namespace wavefit::cli
