// SPDX-License-Identifier: MIT
// --target: from a gfx name or a preset to the limits (presets.hpp) and the parser's device flags.
#include "lint_target.hpp"

#include <algorithm>  // std::min

#include <wavefit/detail/ascii.hpp>
#include <wavefit/presets.hpp>

#include "../arguments.hpp"  // usage_error, quoted

namespace wavefit::cli::lint {
namespace {

// The ISAs the lint knows how to parse for. Debian's clang 15 has no gfx942 or gfx950, so those parse
// as gfx940 (the same wave64 GFX9 family) with the real ISA's macro defined instead of gfx940's.
struct parse_arch {
    std::string_view isa;
    std::string_view clang_arch;
};
constexpr parse_arch parse_archs[] = {
    {"gfx90a", "gfx90a"},
    {"gfx942", "gfx940"},
    {"gfx950", "gfx940"},
    {"gfx1100", "gfx1100"},
};

std::string accepted_targets() {
    std::string names = "gfx90a, gfx942, gfx950, gfx1100 or an AMD preset (";
    bool first = true;
    for (const auto& p : presets::all) {
        if (!p.limits.is_amd()) continue;
        if (!first) names += ", ";
        names += p.key;
        first = false;
    }
    return names + ")";
}

}  // namespace

lint_target resolve_lint_target(std::string_view name) {
    const device_limits* device = presets::find(name);  // a preset's name or an architecture
    if (device == nullptr || !device->is_amd())
        throw usage_error("--target " + cli::quoted(name) + ": lint checks code for AMD GPUs; expected " +
                          accepted_targets());
    // gfx940 and gfx941 (early MI300 ISAs) have gfx942's preset, so they are checked as gfx942.
    const parse_arch* arch = nullptr;
    for (const parse_arch& a : parse_archs)
        if (wavefit::detail::iequals(a.isa, device->arch.view())) arch = &a;
    if (arch == nullptr)
        throw usage_error("--target " + cli::quoted(name) + ": no parser setting for " + std::string(device->arch.view()) +
                          "; expected " + accepted_targets());

    lint_target t;
    t.arch = std::string(device->arch.view());
    t.device_name = std::string(device->name.view()) + " (" + t.arch + ")";
    t.wave_size = device->wave_size;
    t.lds_per_block = device->shared_per_block_optin;
    t.max_threads_per_block = device->max_threads_per_block;
    t.max_grid_y = std::min<std::uint64_t>(device->max_grid.y, 65535);
    t.max_work_items_per_dimension = device->max_work_items_per_dimension;
    t.compute_units = device->compute_units;
    t.parser_flags.push_back("--offload-arch=" + std::string(arch->clang_arch));
    const std::string wave = std::to_string(t.wave_size);
    t.predefined = {{"__AMDGCN_WAVEFRONT_SIZE", wave}, {"__AMDGCN_WAVEFRONT_SIZE__", wave}, {"__AMDGCN__", "1"},
                    {"__HIP_DEVICE_COMPILE__", "1"}, {"__" + t.arch + "__", "1"},
                    {t.wave_size == 64 ? "__GFX9__" : "__GFX11__", "1"}};
    if (arch->clang_arch != arch->isa) {
        t.parser_flags.push_back("-U__" + std::string(arch->clang_arch) + "__");
        t.parser_flags.push_back("-D__" + t.arch + "__=1");
    }
    return t;
}

}  // namespace wavefit::cli::lint
