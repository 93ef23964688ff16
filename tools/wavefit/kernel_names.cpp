// SPDX-License-Identifier: MIT
// Reading kernels with their names, and matching names (see kernel_names.hpp).
#include "kernel_names.hpp"

#include <cstddef>        // std::size_t
#include <unordered_set>  // distinct names: files may hold very many kernels
#include <utility>        // std::move

#include "arguments.hpp"
#include "demangle.hpp"
#include "demangled_name.hpp"
#include "list_text.hpp"
#include "terminal_text.hpp"

namespace wavefit::cli {
namespace {

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

}  // namespace

std::vector<named_kernel> read_named_kernels(const std::string& path) {
    std::vector<detail::code_object_kernel> kernels;
    try {
        kernels = detail::read_kernels_from_file(path);
    } catch (const detail::code_object_error& e) {
        throw usage_error(one_line(e.what()));
    }
    std::vector<std::string> mangled;
    mangled.reserve(kernels.size());
    for (const detail::code_object_kernel& k : kernels) mangled.push_back(k.name);
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

std::string short_name(const named_kernel& k) { return std::string(without_return_type(without_parameters(k.demangled))); }

std::string names_text(const std::vector<const named_kernel*>& kernels) {
    std::unordered_set<std::string> seen;
    std::vector<std::string> names;
    for (const named_kernel* k : kernels) {
        std::string name = terminal_safe(short_name(*k));
        if (seen.insert(name).second) names.push_back(std::move(name));
    }
    return first_items(names);
}

std::string demangled_names_text(const std::vector<const named_kernel*>& kernels) {
    std::unordered_set<std::string_view> seen;
    std::vector<std::string> names;
    for (const named_kernel* k : kernels)
        if (seen.insert(k->kernel.name).second) names.push_back(terminal_safe(k->demangled));
    return first_items(names);
}

}  // namespace wavefit::cli
