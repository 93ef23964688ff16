// SPDX-License-Identifier: MIT
// Kernels from compiled AMD binaries (see kernel_file.hpp).
#include "kernel_file.hpp"

#include <cstddef>        // std::size_t
#include <filesystem>     // FILE:NAME splitting
#include <system_error>   // std::error_code
#include <unordered_set>  // distinct names: files may hold very many kernels
#include <utility>        // std::move

#include <wavefit/detail/text.hpp>
#include <wavefit/device_attributes.hpp>

#include "demangle.hpp"

namespace wavefit::cli {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// "void f<int>(float*, int)" -> "void f<int>": the text before the last balanced (...).
std::string_view without_parameters(std::string_view s) {
    if (s.empty() || s.back() != ')') return s;
    std::size_t depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')') {
            ++depth;
        } else if (s[i] == '(' && --depth == 0) {
            return s.substr(0, i);
        }
    }
    return s;
}

// "void ns::f<int>" -> "ns::f<int>": the demangler prints a template function's return type first.
std::string_view without_return_type(std::string_view s) {
    std::size_t depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        const char c = s[i];
        if (c == '>' || c == ')') {
            ++depth;
        } else if ((c == '<' || c == '(') && depth > 0) {
            --depth;
        } else if (c == ' ' && depth == 0) {
            return s.substr(i + 1);
        }
    }
    return s;
}

// "ns::f<int, g<2> >" -> "ns::f".
std::string_view without_template_arguments(std::string_view s) {
    if (s.empty() || s.back() != '>') return s;
    std::size_t depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == '>') {
            ++depth;
        } else if (s[i] == '<' && --depth == 0) {
            return s.substr(0, i);
        }
    }
    return s;
}

// "(anonymous namespace)::ns::f" -> "f".
std::string_view last_component(std::string_view s) {
    std::size_t depth = 0;
    for (std::size_t i = s.size(); i-- > 1;) {
        const char c = s[i];
        if (c == '>' || c == ')') {
            ++depth;
        } else if ((c == '<' || c == '(') && depth > 0) {
            --depth;
        } else if (c == ':' && s[i - 1] == ':' && depth == 0) {
            return s.substr(i + 1);
        }
    }
    return s;
}

constexpr int match_tiers = 5;

// Whether `name` is one of the kernel's names at `tier` (see kernels_named).
bool has_name(const named_kernel& k, int tier, std::string_view name) {
    const std::string_view demangled = k.demangled;
    const std::string_view signature = without_parameters(demangled);
    const std::string_view qualified = without_return_type(signature);
    switch (tier) {
        case 0: {
            const std::string_view symbol = k.kernel.symbol;
            const bool kd = symbol.size() > 3 && symbol.substr(symbol.size() - 3) == ".kd";
            return name == k.kernel.name || (kd && name == symbol.substr(0, symbol.size() - 3));
        }
        case 1: return name == demangled;
        case 2: return name == signature || name == qualified;
        case 3: return name == without_template_arguments(qualified);
        default: return name == last_component(without_template_arguments(qualified));
    }
}

std::string and_list(const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) text += i + 1 == items.size() ? " and " : ", ";
        text += items[i];
    }
    return text;
}

std::string amd_preset_names() {
    std::string names;
    for (const presets::preset& p : presets::all) {
        if (!p.limits.is_amd()) continue;
        if (!names.empty()) names += ", ";
        names += p.key;
    }
    return names;
}

struct file_and_name {
    std::string file;
    std::string name;
};

// FILE:NAME where demangled names hold "::" and paths may hold ':': the first prefix before a ':'
// that is an existing regular file is FILE.
file_and_name split_kernel_reference(std::string_view spec) {
    std::error_code ec;
    for (std::size_t colon = spec.find(':'); colon != npos; colon = spec.find(':', colon + 1)) {
        const std::string file(spec.substr(0, colon));
        if (!file.empty() && std::filesystem::is_regular_file(file, ec)) return {file, std::string(spec.substr(colon + 1))};
    }
    if (std::filesystem::is_regular_file(std::string(spec), ec)) return {std::string(spec), {}};
    const std::size_t colon = spec.find(':');
    if (colon == npos || colon == 0)
        throw usage_error("--kernel " + cli::quoted(spec) + ": expected FILE:NAME, e.g. build/app:my_kernel");
    const std::string first(spec.substr(0, colon));
    if (std::filesystem::exists(first, ec))
        throw usage_error("--kernel " + cli::quoted(spec) + ": " + cli::quoted(first) + " is not a regular file");
    throw usage_error("--kernel " + cli::quoted(spec) + ": no such file " + cli::quoted(first) + " (expected FILE:NAME)");
}

// "a, b, c (and 3 more)": the first of `items`, for a one-line message.
std::string list_text(const std::vector<std::string>& items) {
    constexpr std::size_t shown = 8;
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) text += (i > 0 ? ", " : "") + items[i];
    if (items.size() > shown) text += " (and " + std::to_string(items.size() - shown) + " more)";
    return text;
}

// The demangled names of the distinct kernels (by mangled name) among `kernels`.
std::string candidates_text(const std::vector<const named_kernel*>& kernels) {
    std::unordered_set<std::string_view> seen;
    std::vector<std::string> names;
    for (const named_kernel* k : kernels)
        if (seen.insert(k->kernel.name).second) names.push_back(printable(k->demangled));
    return list_text(names);
}

}  // namespace

std::vector<named_kernel> read_named_kernels(const std::string& path) {
    std::vector<code_object_kernel> kernels;
    try {
        kernels = read_kernels_from_file(path);
    } catch (const code_object_error& e) {
        throw usage_error(one_line(e.what()));
    }
    std::vector<std::string> mangled;
    mangled.reserve(kernels.size());
    for (const code_object_kernel& k : kernels) mangled.push_back(k.name);
    std::vector<std::string> demangled = demangle_names(mangled);
    std::vector<named_kernel> named;
    named.reserve(kernels.size());
    for (std::size_t i = 0; i < kernels.size(); ++i) named.push_back({std::move(kernels[i]), std::move(demangled[i])});
    return named;
}

std::vector<const named_kernel*> all_kernels(const std::vector<named_kernel>& kernels) {
    std::vector<const named_kernel*> all;
    all.reserve(kernels.size());
    for (const named_kernel& k : kernels) all.push_back(&k);
    return all;
}

std::vector<const named_kernel*> kernels_named(const std::vector<named_kernel>& kernels, std::string_view name) {
    std::vector<const named_kernel*> found;
    for (int tier = 0; tier < match_tiers && found.empty(); ++tier)
        for (const named_kernel& k : kernels)
            if (has_name(k, tier, name)) found.push_back(&k);
    return found;
}

std::string short_name(const named_kernel& k) {
    return std::string(without_return_type(without_parameters(k.demangled)));
}

std::string names_text(const std::vector<const named_kernel*>& kernels) {
    std::unordered_set<std::string> seen;
    std::vector<std::string> names;
    for (const named_kernel* k : kernels) {
        std::string name = printable(short_name(*k));
        if (seen.insert(name).second) names.push_back(std::move(name));
    }
    return list_text(names);
}

std::string printable(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f) {
            out += ch;
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    return out;
}

std::vector<kernel_note> resource_notes(const code_object_kernel& k) {
    std::vector<kernel_note> notes;
    const std::string scratch = detail::plural(k.private_segment_fixed_size, "byte") + " of scratch per thread";
    if (k.spills()) {
        std::vector<std::string> spilled;
        if (k.vgpr_spill_count != 0) spilled.push_back(detail::plural(k.vgpr_spill_count, "VGPR"));
        if (k.sgpr_spill_count != 0) spilled.push_back(detail::plural(k.sgpr_spill_count, "SGPR"));
        std::string text = "spills " + and_list(spilled);
        if (k.private_segment_fixed_size != 0) text += " / uses " + scratch;
        text += ": the launch bound (" + std::to_string(k.max_flat_workgroup_size) +
                ") may be forcing the compiler to spill";
        notes.push_back({true, text});
    } else if (k.private_segment_fixed_size != 0) {
        notes.push_back({true, "uses " + scratch + " (private arrays or a call stack; no register spills)"});
    }
    if (k.uses_dynamic_stack)
        notes.push_back({true, "uses a dynamic stack (recursion, alloca or indirect calls): scratch beyond the fixed " +
                                   detail::plural(k.private_segment_fixed_size, "byte") + " per thread is sized at launch"});
    return notes;
}

std::optional<kernel_note> target_note(const device_limits& d, const code_object_kernel& k) {
    const presets::target_match fit = presets::match_target(d, k.target);
    const std::string target = printable(k.target);
    if (fit == presets::target_match::exact) return std::nullopt;
    if (fit == presets::target_match::same_model)
        return kernel_note{false, target + " is modelled as " + device_text(d) + ", which has the same register and LDS "
                                      "model; a " + target + " code object does not load on a " +
                                      std::string(d.arch.view()) + " GPU"};
    return kernel_note{true, "compiled for " + target + ", not for " + device_text(d) +
                                 ": the HIP runtime would not load it there (hipErrorNoBinaryForGpu); the numbers "
                                 "apply this build's resources to " + device_text(d)};
}

selected_device amd_device(const device_choice& choice) {
    selected_device s = select_device(choice);
    if (!s.limits.is_amd())
        throw usage_error("--" + s.label + ": " + device_text(s.limits) +
                          " cannot run AMD code objects; choose an AMD preset (" + amd_preset_names() + ")");
    return s;
}

launch_subject launch_subject_for(const device_choice& device, const kernel_choice& kernel) {
    if (!kernel.file_kernel) return {select_device(device), kernel.resources, std::nullopt, {}, {}};

    const std::string& spec = *kernel.file_kernel;
    const file_and_name ref = split_kernel_reference(spec);
    const std::vector<named_kernel> kernels = read_named_kernels(ref.file);
    const std::string file = one_line(ref.file);
    if (ref.name.empty())
        throw usage_error("--kernel " + cli::quoted(spec) + ": expected FILE:NAME; kernels in " + file + ": " +
                          names_text(all_kernels(kernels)));
    const std::vector<const named_kernel*> matches = kernels_named(kernels, ref.name);
    if (matches.empty())
        throw usage_error("--kernel: no kernel named " + cli::quoted(ref.name) + " in " + file + "; its kernels: " +
                          names_text(all_kernels(kernels)));
    for (const named_kernel* m : matches)
        if (m->kernel.name != matches.front()->kernel.name)
            throw usage_error("--kernel: " + cli::quoted(ref.name) + " names several kernels in " + file + ": " +
                              candidates_text(matches) + "; give the mangled or the full demangled name");

    // One kernel, maybe built for several targets: the build the device runs, else the first.
    std::optional<selected_device> chosen;
    if (device.given()) chosen = amd_device(device);
    const named_kernel* pick = matches.front();
    if (chosen)
        for (const named_kernel* m : matches)
            if (presets::match_target(chosen->limits, m->kernel.target) > presets::match_target(chosen->limits, pick->kernel.target)) pick = m;
    if (!chosen) {
        const presets::preset* p = presets::preset_for_arch(pick->kernel.target);
        if (p == nullptr)
            throw usage_error("--kernel: " + printable(short_name(*pick)) + " in " + file + " is compiled for " +
                              printable(pick->kernel.target) + ", which no preset models; choose the device with --preset NAME (" +
                              amd_preset_names() + ")");
        chosen = selected_device{p->limits, "preset " + std::string(p->key), std::string(p->key)};
    }

    launch_subject s;
    s.file = ref.file;
    s.kernel = *pick;
    std::vector<std::string> targets;
    std::unordered_set<std::string_view> seen;
    for (const named_kernel* m : matches)
        if (seen.insert(m->kernel.target).second) targets.push_back(printable(m->kernel.target));
    const presets::target_match fit = presets::match_target(chosen->limits, pick->kernel.target);
    if (targets.size() > 1 && (!device.given() || fit == presets::target_match::other_device))
        s.notes.push_back({false, "compiled for " + and_list(targets) + ": using the " + printable(pick->kernel.target) +
                                      " build" + (device.given() ? "" : " (--preset chooses the device and with it the build)")});
    if (const std::optional<kernel_note> n = target_note(chosen->limits, pick->kernel)) s.notes.push_back(*n);
    for (kernel_note& n : resource_notes(pick->kernel)) s.notes.push_back(std::move(n));
    s.device = *chosen;
    s.device.limits = for_wave_size(chosen->limits, pick->kernel.wavefront_size);
    s.resources = pick->kernel.resources();
    return s;
}

void write_kernel_json(json_writer& json, const launch_subject& s) {
    if (!s.kernel) return;
    const code_object_kernel& k = s.kernel->kernel;
    json.key("kernel").begin_object();
    json.key("file").value(s.file);
    json.key("name").value(k.name);
    json.key("demangled").value(s.kernel->demangled);
    json.key("target").value(k.target);
    json.key("preset");
    if (s.device.preset.empty()) json.null();
    else json.value(s.device.preset);
    json.key("notes").begin_array();
    for (const kernel_note& n : s.notes) json.value(n.text);
    json.end_array();
    json.end_object();
}

std::string notes_text(const std::vector<kernel_note>& notes, const std::string& indent) {
    std::string text;
    for (const kernel_note& n : notes) text += indent + (n.warning ? "warning: " : "note: ") + n.text + "\n";
    return text;
}

std::string kernel_text(const launch_subject& s) {
    if (!s.kernel) return {};
    const code_object_kernel& k = s.kernel->kernel;
    std::string text = "kernel " + printable(s.kernel->demangled) + " [" + printable(k.target) + "] from " +
                       printable(s.file) + "\n";
    const std::string lds = k.group_segment_fixed_size == 0 ? "no static LDS"
                                                            : detail::bytes_text(k.group_segment_fixed_size) + " of static LDS";
    text += "  " + std::to_string(k.vgpr_count) + " VGPRs, " + std::to_string(k.sgpr_count) + " SGPRs, " + lds +
            ", launch bound " + std::to_string(k.max_flat_workgroup_size) + ", wave" + std::to_string(k.wavefront_size) +
            "\n";
    return text + notes_text(s.notes, "");
}

}  // namespace wavefit::cli
