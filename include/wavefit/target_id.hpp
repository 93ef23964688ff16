// SPDX-License-Identifier: MIT
// AMD target ids ("gfx90a:sramecc+:xnack-") and whether code built for one loads on a device. A
// code object names its processor and, optionally, the xnack and sramecc settings it requires
// (LLVM AMDGPUUsage, "Target ID"); the HIP runtime loads it only on the same processor, and only
// where each setting it names matches the device's (ROCm/clr hip_comgr_helper.cpp,
// isCodeObjectCompatibleWithDevice). A setting the code leaves out ("any") matches both.
// Pure C++17, no GPU header.
#pragma once

#include <cstdint>      // setting
#include <string>       // text of a target id
#include <string_view>  // parsing

#include "config.hpp"
#include "detail/ascii.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

enum class feature_setting : std::uint8_t {
    any,  // code: runs either way; device: unknown (a real GPU whose features were not read)
    on,   // "xnack+"
    off,  // "xnack-"
};

struct target_id {
    std::string_view processor;  // "gfx90a"
    feature_setting sramecc = feature_setting::any;
    feature_setting xnack = feature_setting::any;
};

// "gfx90a:sramecc+:xnack-" -> {gfx90a, on, off}; false when a feature is neither sramecc nor xnack
// with + or -, or is given twice (what the HIP runtime also refuses to load).
constexpr bool parse_target_id(std::string_view text, target_id& out) noexcept {
    const std::size_t colon = text.find(':');
    out = target_id{text.substr(0, colon), feature_setting::any, feature_setting::any};
    if (out.processor.empty()) return false;
    if (colon == std::string_view::npos) return true;
    std::string_view rest = text.substr(colon + 1);
    for (bool more = true; more;) {
        const std::size_t next = rest.find(':');
        const std::string_view feature = rest.substr(0, next);
        more = next != std::string_view::npos;
        if (more) rest = rest.substr(next + 1);
        if (feature.size() < 2) return false;
        const char sign = feature.back();
        if (sign != '+' && sign != '-') return false;
        const std::string_view name = feature.substr(0, feature.size() - 1);
        feature_setting* slot = name == "sramecc" ? &out.sramecc : name == "xnack" ? &out.xnack : nullptr;
        if (slot == nullptr || *slot != feature_setting::any) return false;
        *slot = sign == '+' ? feature_setting::on : feature_setting::off;
    }
    return true;
}

// "gfx90a:sramecc+:xnack-", in the order target ids are written.
inline std::string to_string(const target_id& t) {
    std::string text(t.processor);
    if (t.sramecc != feature_setting::any) text += t.sramecc == feature_setting::on ? ":sramecc+" : ":sramecc-";
    if (t.xnack != feature_setting::any) text += t.xnack == feature_setting::on ? ":xnack+" : ":xnack-";
    return text;
}

// Which target features a processor has (LLVM AMDGPUUsage, processor table): xnack and sramecc on
// gfx906, gfx908, gfx90a, gfx940-942 and gfx950; xnack alone on other gfx9 and gfx101x; neither on
// gfx103x and later.
struct processor_features {
    bool sramecc = false;
    bool xnack = false;
};
constexpr processor_features features_of(std::string_view processor) noexcept {
    using detail::starts_with;
    const bool cdna_or_vega20 = processor == "gfx906" || processor == "gfx908" || processor == "gfx90a" ||
                                processor == "gfx940" || processor == "gfx941" || processor == "gfx942" ||
                                processor == "gfx950";
    if (cdna_or_vega20) return {true, true};
    if (starts_with(processor, "gfx9") || starts_with(processor, "gfx101")) return {false, true};
    return {};
}

// The target id a device of `processor` reports with the driver's defaults: SRAM ECC on (Instinct
// GPUs ship with ECC enabled) and XNACK off, as rocminfo shows unless the process sets HSA_XNACK=1
// ("gfx90a:sramecc+:xnack-" on MI250X, "gfx942:sramecc+:xnack-" on MI300A/MI300X).
constexpr target_id default_device_target_id(std::string_view processor) noexcept {
    const processor_features f = features_of(processor);
    return {processor, f.sramecc ? feature_setting::on : feature_setting::any,
            f.xnack ? feature_setting::off : feature_setting::any};
}

// Why code built for one target id does not load on a device, if it does not.
enum class load_problem : std::uint8_t {
    none,              // it loads
    other_processor,   // another ISA: hipErrorNoBinaryForGpu
    xnack_mismatch,    // the code requires the other XNACK setting
    sramecc_mismatch,  // the code requires the other SRAM ECC setting
    not_modelled,      // a generic processor ("gfx9-4-generic"), which loads on a family not listed here
};

// Whether code for `code` loads on a device whose target id is `device` (a device setting of `any`
// counts as unknown: it does not rule the code out).
constexpr load_problem loads_on(const target_id& code, const target_id& device) noexcept {
    if (detail::ifind(code.processor, "-generic") != detail::text_npos) return load_problem::not_modelled;
    if (!detail::iequals(code.processor, device.processor)) return load_problem::other_processor;
    const auto clash = [](feature_setting c, feature_setting d) {
        return c != feature_setting::any && d != feature_setting::any && c != d;
    };
    if (clash(code.xnack, device.xnack)) return load_problem::xnack_mismatch;
    if (clash(code.sramecc, device.sramecc)) return load_problem::sramecc_mismatch;
    return load_problem::none;
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
