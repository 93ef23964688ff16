// SPDX-License-Identifier: MIT
// Two passes: first the raw flags are matched against the subcommand's spec (unknown, repeated or
// valueless flags fail here), then each request is built from typed values with range checks.
#include "arguments.hpp"

#include <algorithm>  // std::min
#include <cstddef>    // std::size_t, std::ptrdiff_t
#include <limits>   // field ranges
#include <utility>  // std::pair

#include "number_syntax.hpp"

namespace wavefit::cli {
namespace {

constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
// HIP and CUDA number devices with an int.
constexpr std::uint64_t device_index_max = static_cast<std::uint64_t>(std::numeric_limits<int>::max());

bool is_help_flag(std::string_view a) { return a == "--help" || a == "-h"; }

// "presets, info, check, plan, occupancy, inspect or explain", from the spec table.
std::string subcommand_names() {
    std::string names;
    const auto& specs = subcommand_specs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (i > 0) names += i + 1 == specs.size() ? " or " : ", ";
        names += specs[i].name;
    }
    return names;
}

std::string command_name(const subcommand_spec& spec) { return "`wavefit " + std::string(spec.name) + "`"; }

const flag_spec* find_flag(const subcommand_spec& spec, std::string_view name) {
    for (const flag_spec& f : spec.flags)
        if (f.name == name) return &f;
    return nullptr;
}

bool is_flag_of_another_subcommand(std::string_view name) {
    for (const subcommand_spec& s : subcommand_specs())
        if (find_flag(s, name) != nullptr) return true;
    return false;
}

// The flags of one command line, each checked against the subcommand's spec.
class given_flags {
public:
    given_flags(const subcommand_spec& spec, const std::vector<std::string_view>& args) : spec_(spec) {
        bool options_ended = false;
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string_view arg = args[i];
            if (!options_ended && arg == "--") {
                options_ended = true;
                positionals_before_end_ = positionals_.size();
                continue;
            }
            if (options_ended || arg.size() < 2 || arg[0] != '-') {
                positionals_.push_back(arg);
                continue;
            }
            std::string_view name = arg;
            std::string_view inline_value;
            bool has_inline_value = false;
            if (const std::size_t eq = arg.find('='); arg.substr(0, 2) == "--" && eq != std::string_view::npos) {
                name = arg.substr(0, eq);
                inline_value = arg.substr(eq + 1);
                has_inline_value = true;
            }

            const flag_spec* flag = find_flag(spec, name);
            if (flag == nullptr) {
                if (is_flag_of_another_subcommand(name))
                    throw usage_error(std::string(name) + " is not a flag of " + command_name(spec) + " (see `wavefit " +
                                      std::string(spec.name) + " --help`)");
                throw usage_error("unknown flag " + quoted(name) + " for " + command_name(spec) + " (see `wavefit " +
                                  std::string(spec.name) + " --help`)");
            }
            if (!flag->repeatable && has(flag->name)) throw usage_error(std::string(flag->name) + " is given twice");

            if (!flag->takes_value()) {
                if (has_inline_value)
                    throw usage_error(std::string(flag->name) + " takes no value (got " + quoted(inline_value) + ")");
                values_.emplace_back(flag->name, std::string_view{});
                continue;
            }
            if (!has_inline_value) {
                // A following flag is a forgotten value, not a value: "--regs --json" must not read "--json".
                if (i + 1 >= args.size() || args[i + 1].substr(0, 2) == "--")
                    throw usage_error(std::string(flag->name) + " needs a value (" + std::string(flag->value_name) + ")");
                inline_value = args[++i];
            }
            values_.emplace_back(flag->name, inline_value);
        }
    }

    bool has(std::string_view name) const { return find(name) != nullptr; }
    // The positionals before and after a `--` (lint: PATHs, then compiler flags); all are before without one.
    std::vector<std::string_view> positionals_before_end() const {
        return {positionals_.begin(), positionals_.begin() + static_cast<std::ptrdiff_t>(split())};
    }
    std::vector<std::string_view> positionals_after_end() const {
        return {positionals_.begin() + static_cast<std::ptrdiff_t>(split()), positionals_.end()};
    }
    const std::string_view* value(std::string_view name) const { return find(name); }
    const std::vector<std::string_view>& positionals() const { return positionals_; }
    // Every value of a repeatable flag, in command-line order.
    std::vector<std::string_view> all_values(std::string_view name) const {
        std::vector<std::string_view> all;
        for (const auto& [flag, text] : values_)
            if (flag == name) all.push_back(text);
        return all;
    }

    void expect_no_positionals() const {
        if (!positionals_.empty())
            throw usage_error("unexpected argument " + quoted(positionals_.front()) + " for " + command_name(spec_));
    }

private:
    const std::string_view* find(std::string_view name) const {
        for (const auto& [flag, text] : values_)
            if (flag == name) return &text;
        return nullptr;
    }

    std::size_t split() const { return std::min(positionals_before_end_, positionals_.size()); }

    const subcommand_spec& spec_;
    std::vector<std::pair<std::string_view, std::string_view>> values_;
    std::vector<std::string_view> positionals_;
    std::size_t positionals_before_end_ = static_cast<std::size_t>(-1);
};

std::uint64_t number_in_range(std::string_view flag, std::string_view text, std::uint64_t min, std::uint64_t max) {
    const number_result n = parse_number(text);
    const std::string prefix = std::string(flag) + " " + quoted(text) + ": ";
    if (!n.ok()) throw usage_error(prefix + std::string(n.error));
    if (n.value < min || n.value > max) {
        if (min == 1 && n.value == 0) throw usage_error(prefix + "must be positive (1 to " + std::to_string(max) + ")");
        throw usage_error(prefix + std::to_string(n.value) + " is out of range (" + std::to_string(min) + " to " +
                          std::to_string(max) + ")");
    }
    return n.value;
}

std::optional<std::uint64_t> optional_number(const given_flags& given, const flag_spec& flag, std::uint64_t min,
                                             std::uint64_t max) {
    const std::string_view* text = given.value(flag.name);
    if (text == nullptr) return std::nullopt;
    return number_in_range(flag.name, *text, min, max);
}

dims dims_value(std::string_view flag, std::string_view text) {
    const dims_result r = parse_dims(text);
    if (!r.ok())
        throw usage_error(std::string(flag) + " " + quoted(text) + ": " +
                          (r.failed_axis >= 0 ? std::string(detail::axis_name(r.failed_axis)) + ": " : std::string()) +
                          std::string(r.error));
    return r.value;
}

std::uint32_t as_u32(std::optional<std::uint64_t> v) { return static_cast<std::uint32_t>(v.value_or(0)); }

device_choice device_from(const given_flags& given) {
    device_choice choice;
    if (const std::string_view* name = given.value(flags::preset.name)) choice.preset = std::string(*name);
    choice.index = optional_number(given, flags::device, 0, device_index_max);
    if (choice.preset && choice.index) throw usage_error("--preset and --device both select the device; give only one");
    return choice;
}

// With --kernel FILE:NAME the device may be left out: it follows from the kernel's GPU target.
device_choice required_device_from(const given_flags& given, const subcommand_spec& spec) {
    device_choice choice = device_from(given);
    if (!choice.given() && !given.has(flags::kernel_file.name))
        throw usage_error(command_name(spec) +
                          " needs a device: --preset NAME (see `wavefit presets`), --device N, or --kernel FILE:NAME");
    return choice;
}

kernel_choice kernel_from(const given_flags& given) {
    kernel_choice k;
    if (const std::string_view* file_kernel = given.value(flags::kernel_file.name)) {
        for (const flag_spec* resource : {&flags::regs, &flags::sgprs, &flags::static_shared, &flags::kernel_max_threads})
            if (given.has(resource->name))
                throw usage_error(std::string(resource->name) +
                                  " cannot be combined with --kernel: the kernel's resources come "
                                  "from its code object (only --dynamic-shared can be added)");
        if (file_kernel->empty()) throw usage_error("--kernel needs FILE:NAME, e.g. build/app:my_kernel (got '')");
        k.file_kernel = std::string(*file_kernel);
    }
    k.resources.registers = as_u32(optional_number(given, flags::regs, 0, u32_max));
    k.resources.scalar_registers = as_u32(optional_number(given, flags::sgprs, 0, u32_max));
    k.resources.static_shared = optional_number(given, flags::static_shared, 0, u64_max).value_or(0);
    k.resources.max_threads_per_block = as_u32(optional_number(given, flags::kernel_max_threads, 1, u32_max));
    k.dynamic_shared = optional_number(given, flags::dynamic_shared, 0, u64_max).value_or(0);
    return k;
}

dims required_dims(const given_flags& given, const subcommand_spec& spec, std::string_view flag) {
    const std::string_view* text = given.value(flag);
    if (text == nullptr) throw usage_error(command_name(spec) + " needs " + std::string(flag) + " X[,Y[,Z]]");
    return dims_value(flag, *text);
}

// The start of the request of check, plan or occupancy, the subcommands about one launch of one kernel: no
// positionals, and a device (or the --kernel FILE:NAME it follows from). Each adds its own flags after it.
template <class Request> Request launch_request(const given_flags& given, const subcommand_spec& spec, bool json) {
    given.expect_no_positionals();
    Request r;
    r.json = json;
    r.device = required_device_from(given, spec);
    return r;
}

// The one FILE that inspect and audit read; `kinds` says what FILE may be when it is missing.
std::string single_file(const given_flags& given, const subcommand_spec& spec, std::string_view kinds) {
    const std::vector<std::string_view>& files = given.positionals();
    if (files.empty()) throw usage_error(command_name(spec) + " needs FILE: " + std::string(kinds));
    if (files.size() > 1) throw usage_error(command_name(spec) + " reads one FILE; unexpected argument " + quoted(files[1]));
    if (files.front().empty()) throw usage_error(command_name(spec) + " needs FILE, got ''");
    return std::string(files.front());
}

// The FILE of an optional `flag FILE` (nothing when the flag is absent); an empty FILE is a usage error.
std::optional<std::string> optional_file(const given_flags& given, std::string_view flag) {
    const std::string_view* file = given.value(flag);
    if (file == nullptr) return std::nullopt;
    if (file->empty()) throw usage_error(std::string(flag) + " needs a FILE, got ''");
    return std::string(*file);
}

// --grid-policy cover | saturate[:ROUNDS] | coarsen[:ITEMS].
void apply_grid_policy_flag(wavefit::work& w, std::string_view text) {
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    const bool has_factor = colon != std::string_view::npos;
    const auto factor = [&](std::uint64_t fallback) {
        return has_factor ? static_cast<std::uint32_t>(number_in_range("--grid-policy", text.substr(colon + 1), 1, 1024))
                          : static_cast<std::uint32_t>(fallback);
    };
    if (name == "cover" && !has_factor) {
        w = w.grid_covering();
    } else if (name == "saturate") {
        w = w.grid_saturated(factor(4));
    } else if (name == "coarsen") {
        w = w.grid_coarsened(factor(4));
    } else {
        throw usage_error("--grid-policy " + quoted(text) + ": expected cover, saturate[:ROUNDS] or coarsen[:ITEMS]");
    }
}

// The work and the kernel's contract of `wavefit plan`.
wavefit::work work_from(const given_flags& given, const subcommand_spec& spec) {
    struct shape {
        const char* flag;
        const std::string_view* text;
    };
    const shape shapes[] = {{"--elements", given.value("--elements")},
                            {"--extent", given.value("--extent")},
                            {"--per-block", given.value("--per-block")},
                            {"--per-wave", given.value("--per-wave")}};
    const shape* chosen = nullptr;
    for (const shape& s : shapes) {
        if (s.text == nullptr) continue;
        if (chosen != nullptr)
            throw usage_error(std::string(chosen->flag) + " and " + s.flag + " both give the work; give only one");
        chosen = &s;
    }
    if (chosen == nullptr)
        throw usage_error(command_name(spec) + " needs the work: --elements N, --extent X[,Y[,Z]], --per-block UNITS or "
                                               "--per-wave UNITS");
    const std::string flag = chosen->flag;
    const std::optional<std::uint64_t> unit_size = optional_number(given, {"--unit-size", "N", ""}, 0, u64_max);
    const std::optional<std::uint64_t> group = optional_number(given, {"--group", "THREADS", ""}, 1, 1024);
    if (unit_size && flag != "--per-block" && flag != "--per-wave")
        throw usage_error("--unit-size is for --per-block or --per-wave work");
    if (group && flag != "--per-wave") throw usage_error("--group is for --per-wave work");
    wavefit::work w;
    if (flag == "--extent") {
        w = wavefit::work::over(dims_value("--extent", *chosen->text));
    } else {
        const std::uint64_t n = number_in_range(flag, *chosen->text, 0, u64_max);
        if (flag == "--elements") w = wavefit::work::elements(n);
        if (flag == "--per-block") w = wavefit::work::per_block(n, unit_size.value_or(0));
        if (flag == "--per-wave")
            w = group ? wavefit::work::per_group(n, static_cast<std::uint32_t>(*group), unit_size.value_or(0))
                      : wavefit::work::per_wave(n, unit_size.value_or(0));
    }
    if (given.has(flags::kernel_loops.name)) w = w.kernel_loops();
    if (given.has(flags::any_wave_multiple.name)) w = w.block_any_wave_multiple();
    if (const std::optional<std::uint64_t> at_most = optional_number(given, flags::block_at_most, 1, u32_max))
        w = w.block_at_most(static_cast<std::uint32_t>(*at_most));
    if (const std::string_view* fixed = given.value(flags::block_fixed.name)) {
        if (given.has(flags::block_at_most.name))
            throw usage_error("--block-fixed and --block-at-most both constrain the block; give only one");
        w = w.block_fixed(dims_value(flags::block_fixed.name, *fixed));
    }
    if (const std::string_view* policy = given.value("--grid-policy")) {
        if (flag == "--extent") throw usage_error("--grid-policy is for 1-D work (--elements, --per-block, --per-wave)");
        apply_grid_policy_flag(w, *policy);
    }
    if (const std::optional<std::uint64_t> per_thread =
            optional_number(given, {"--shared-per-thread", "BYTES", ""}, 0, u32_max))
        w = w.shared_bytes(0, *per_thread);
    return w;
}

command_line build_request(const subcommand_spec& spec, const given_flags& given) {
    const bool json = given.has(flags::json.name);
    switch (spec.id) {
        case subcommand::presets: given.expect_no_positionals(); return presets_request{json};
        case subcommand::info: given.expect_no_positionals(); return info_request{json, device_from(given)};
        case subcommand::check: {
            check_request r = launch_request<check_request>(given, spec, json);
            r.grid = required_dims(given, spec, "--grid");
            r.block = required_dims(given, spec, "--block");
            r.kernel = kernel_from(given);
            if (const std::string_view* shape = given.value("--work-shape")) {
                if (*shape == "per-block") {
                    r.work_shape = 1;
                } else if (shape->substr(0, 10) == "per-group:") {
                    r.work_shape = 2;
                    r.group_threads = number_in_range("--work-shape", shape->substr(10), 1, 1024);
                } else if (*shape != "per-thread") {
                    throw usage_error("--work-shape " + quoted(*shape) + ": expected per-thread, per-block or per-group:N");
                }
            }
            return r;
        }
        case subcommand::plan: {
            plan_request r = launch_request<plan_request>(given, spec, json);
            r.work = work_from(given, spec);
            r.kernel = kernel_from(given);
            return r;
        }
        case subcommand::occupancy: {
            occupancy_request r = launch_request<occupancy_request>(given, spec, json);
            if (const std::string_view* block = given.value("--block"))
                r.block = number_in_range("--block", *block, 1, u64_max);
            r.powers_of_two = given.has("--powers-of-two");
            r.at_most = optional_number(given, flags::block_at_most, 1, u32_max);
            r.kernel = kernel_from(given);
            return r;
        }
        case subcommand::inspect: {
            inspect_request r;
            r.json = json;
            r.file = single_file(given, spec, "a code object, offload bundle, or HIP object, executable or shared library");
            if (const std::string_view* preset = given.value("--preset")) r.preset = std::string(*preset);
            if (const std::string_view* kernel = given.value("--kernel")) {
                if (kernel->empty()) throw usage_error("--kernel needs a kernel NAME (got '')");
                r.kernel = std::string(*kernel);
            }
            return r;
        }
        case subcommand::audit: {
            audit_request r;
            r.json = json;
            r.markdown = given.has("--markdown");
            if (r.json && r.markdown) throw usage_error("--json and --markdown exclude each other");
            r.file = single_file(given, spec, "a rocprofv3, rocprof, omniperf, nsys or PyTorch profiler trace");
            if (const std::string_view* preset = given.value("--preset")) r.preset = std::string(*preset);
            if (const std::string_view* top = given.value("--top")) r.top = number_in_range("--top", *top, 0, u64_max);
            return r;
        }
        case subcommand::lint: {
            lint_request r;
            r.json = json;
            for (const std::string_view p : given.positionals_before_end()) {
                if (p.empty()) throw usage_error(command_name(spec) + " needs PATHs, got ''");
                r.paths.emplace_back(p);
            }
            for (const std::string_view f : given.positionals_after_end()) r.compiler_flags.emplace_back(f);
            if (const std::string_view* dir = given.value("-p")) {
                if (dir->empty()) throw usage_error("-p needs BUILD_DIR, the directory of compile_commands.json (got '')");
                r.build_directory = std::string(*dir);
            }
            if (r.paths.empty() && !r.build_directory)
                throw usage_error(command_name(spec) +
                                  " needs PATH... (files or directories of CUDA/HIP source) or -p BUILD_DIR");
            if (const std::string_view* target = given.value("--target")) r.target = std::string(*target);
            if (const std::string_view* format = given.value("--format")) {
                if (*format == "text") r.format = lint_request::output::text;
                else if (*format == "json") r.format = lint_request::output::json;
                else if (*format == "sarif") r.format = lint_request::output::sarif;
                else throw usage_error("--format " + quoted(*format) + ": expected text, json or sarif");
                if (json && r.format != lint_request::output::json)
                    throw usage_error("--json and --format " + std::string(*format) + " both choose the output; give only one");
            }
            if (json) r.format = lint_request::output::json;
            r.baseline = optional_file(given, "--baseline");
            r.write_baseline = optional_file(given, "--write-baseline");
            if (const std::string_view* jobs = given.value("--jobs")) r.jobs = number_in_range("--jobs", *jobs, 1, 256);
            return r;
        }
        case subcommand::explain: {
            explain_request r;
            r.json = json;
            r.markdown = given.has("--markdown");
            for (const std::string_view kb : given.all_values("--kb")) {
                if (kb.empty()) throw usage_error("--kb needs a FILE, got ''");
                r.kb_files.emplace_back(kb);
            }
            const std::string_view* scan = given.value("--scan");
            const std::string_view* check_kb = given.value("--check-kb");
            const std::string_view* export_format = given.value("--export");
            const int actions = (scan != nullptr) + (check_kb != nullptr) + (export_format != nullptr);
            if (actions > 1) throw usage_error("--scan, --check-kb and --export are separate actions; give only one");
            if (actions == 1 && !given.positionals().empty())
                throw usage_error("unexpected argument " + quoted(given.positionals().front()) + " for " +
                                  command_name(spec) + " with " +
                                  (scan != nullptr       ? "--scan"
                                   : check_kb != nullptr ? "--check-kb"
                                                         : "--export"));
            if (r.json && r.markdown) throw usage_error("--json and --markdown both choose the output; give only one");
            if (r.markdown && scan == nullptr)
                throw usage_error("--markdown is for --scan (--export markdown writes the notebook)");
            if (scan != nullptr) {
                if (scan->empty()) throw usage_error("--scan needs a FILE (or - for standard input), got ''");
                r.what = explain_request::action::scan;
                r.file = std::string(*scan);
                return r;
            }
            if (check_kb != nullptr) {
                if (check_kb->empty()) throw usage_error("--check-kb needs a FILE, got ''");
                if (!r.kb_files.empty()) throw usage_error("--check-kb validates one file on its own; leave out --kb");
                r.what = explain_request::action::check_kb;
                r.file = std::string(*check_kb);
                return r;
            }
            if (export_format != nullptr) {
                if (*export_format != "markdown")
                    throw usage_error("--export " + quoted(*export_format) + ": the one format is markdown");
                if (r.json) throw usage_error("--export markdown writes Markdown; leave out --json");
                r.what = explain_request::action::export_notebook;
                return r;
            }
            if (given.positionals().empty())
                throw usage_error(
                    command_name(spec) +
                    " needs CODE: an error number, a hipError*/cudaError* name, a message text or a diagnostic code");
            // Unquoted message texts arrive as several words; joined, they read as the user typed them.
            for (const std::string_view word : given.positionals()) {
                if (!r.query.empty()) r.query += ' ';
                r.query += word;
            }
            if (r.query.find_first_not_of(" \t\n\r\v\f") == std::string::npos)
                throw usage_error(command_name(spec) + " needs CODE, got " + quoted(r.query));
            return r;
        }
        case subcommand::tuning: {
            tuning_request r;
            r.json = json;
            const std::vector<std::string_view>& words = given.positionals();
            if (words.empty())
                throw usage_error(command_name(spec) + " needs an action: show FILE, check FILE or merge A B -o C");
            const std::string_view action = words.front();
            const std::size_t files = words.size() - 1;
            for (std::size_t i = 1; i < words.size(); ++i) {
                if (words[i].empty()) throw usage_error(command_name(spec) + " needs file names, got ''");
                r.files.emplace_back(words[i]);
            }
            const std::string_view* output = given.value("-o");
            if (action == "show" || action == "check") {
                r.what = action == "show" ? tuning_request::action::show : tuning_request::action::check;
                if (files != 1)
                    throw usage_error("`wavefit tuning " + std::string(action) + "` reads one FILE (got " +
                                      std::to_string(files) + ")");
                if (output != nullptr) throw usage_error("-o is for `wavefit tuning merge` only");
                r.device = device_from(given);
                if (r.what == tuning_request::action::check && !r.device.given())
                    throw usage_error(
                        "`wavefit tuning check` needs a device: --preset NAME (see `wavefit presets`) or --device N");
                if (r.what == tuning_request::action::show && r.device.given())
                    throw usage_error(
                        "`wavefit tuning show` takes no device; `wavefit tuning check FILE --preset NAME` validates");
            } else if (action == "merge") {
                r.what = tuning_request::action::merge;
                if (files != 2)
                    throw usage_error("`wavefit tuning merge` merges two files: A B -o C (got " + std::to_string(files) +
                                      ")");
                if (output == nullptr || output->empty())
                    throw usage_error("`wavefit tuning merge A B` needs -o C, the file to write");
                if (device_from(given).given()) throw usage_error("`wavefit tuning merge` takes no device");
                r.output = std::string(*output);
            } else {
                throw usage_error("unknown action " + quoted(action) + " for " + command_name(spec) +
                                  "; expected show, check or merge");
            }
            return r;
        }
    }
    throw usage_error("unhandled subcommand");  // unreachable: the switch covers every enumerator
}

// The subcommand named `name`, or nullptr.
const subcommand_spec* find_subcommand(std::string_view name) {
    for (const subcommand_spec& s : subcommand_specs())
        if (s.name == name) return &s;
    return nullptr;
}

// `wavefit help [SUBCOMMAND [ACTION]]`, like git's and cargo's help subcommand.
help_request help_for(const std::vector<std::string_view>& words) {
    if (words.empty()) return help_request{};
    const subcommand_spec* spec = find_subcommand(words[0]);
    if (spec == nullptr)
        throw usage_error("no help for " + quoted(words[0]) + "; expected " + subcommand_names() +
                          " (see `wavefit --help`)");
    if (words.size() == 1) return help_request{spec->id, {}};
    const action_spec* action = find_action(spec->id, words[1]);
    if (action == nullptr || words.size() > 2) {
        std::string actions;
        for (const action_spec& a : action_specs())
            if (a.parent == spec->id) actions += (actions.empty() ? "" : ", ") + std::string(a.name);
        throw usage_error("`wavefit help " + std::string(spec->name) + "` takes " +
                          (actions.empty() ? std::string("nothing more") : "one action (" + actions + ")") + ", got " +
                          quoted(words[action == nullptr ? 1 : 2]));
    }
    return help_request{spec->id, action->name};
}

}  // namespace

command_line parse_command_line(const std::vector<std::string_view>& args) {
    if (args.empty()) throw usage_error("missing subcommand: " + subcommand_names() + " (see `wavefit --help`)");
    const std::string_view first = args.front();
    if (is_help_flag(first)) return help_request{};
    if (first == "help") return help_for(std::vector<std::string_view>(args.begin() + 1, args.end()));
    if (first == "--version") {
        if (args.size() > 1) throw usage_error("--version takes no arguments (got " + quoted(args[1]) + ")");
        return version_request{};
    }

    const subcommand_spec* spec = find_subcommand(first);
    if (spec == nullptr) {
        if (!first.empty() && first[0] == '-')
            throw usage_error("expected a subcommand before " + quoted(first) + " (see `wavefit --help`)");
        throw usage_error("unknown subcommand " + quoted(first) + "; expected " + subcommand_names() +
                          " (see `wavefit --help`)");
    }

    const std::vector<std::string_view> rest(args.begin() + 1, args.end());
    // --help wins over everything else on the line, so that a half-typed command can still ask for help.
    // An action's own help where the first word names one (`wavefit tuning show --help`).
    for (const std::string_view arg : rest) {
        if (arg == "--") break;
        if (is_help_flag(arg)) {
            const action_spec* action = rest.empty() ? nullptr : find_action(spec->id, rest.front());
            return help_request{spec->id, action != nullptr ? action->name : std::string_view{}};
        }
    }
    return build_request(*spec, given_flags(*spec, rest));
}

}  // namespace wavefit::cli
