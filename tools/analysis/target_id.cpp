// SPDX-License-Identifier: MIT
// AMD target ids and whether code built for one loads on a device (target_id.hpp).
#include "target_id.hpp"

#include <cstddef>  // positions in the text

#include <wavefit/detail/ascii.hpp>
#include <wavefit/device_attributes.hpp>

namespace wavefit::analysis {

bool parse_target_id(std::string_view text, target_id& out) noexcept {
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

std::string to_string(const target_id& t) {
    std::string text(t.processor);
    if (t.sramecc != feature_setting::any) text += t.sramecc == feature_setting::on ? ":sramecc+" : ":sramecc-";
    if (t.xnack != feature_setting::any) text += t.xnack == feature_setting::on ? ":xnack+" : ":xnack-";
    return text;
}

processor_features features_of(std::string_view processor) noexcept {
    using wavefit::detail::starts_with;
    // The CDNA2+ ISAs are the core's one list (those with the unified VGPR+AGPR file); Vega 20 and
    // CDNA1 have both features without it.
    const bool cdna_or_vega20 =
        processor == "gfx906" || processor == "gfx908" || wavefit::detail::has_unified_vector_registers(processor);
    if (cdna_or_vega20) return {true, true};
    if (starts_with(processor, "gfx9") || starts_with(processor, "gfx101")) return {false, true};
    return {};
}

target_id default_device_target_id(std::string_view processor) noexcept {
    const processor_features f = features_of(processor);
    return {processor, f.sramecc ? feature_setting::on : feature_setting::any,
            f.xnack ? feature_setting::off : feature_setting::any};
}

load_problem loads_on(const target_id& code, const target_id& device) noexcept {
    if (wavefit::detail::ifind(code.processor, "-generic") != wavefit::detail::text_npos) return load_problem::not_modelled;
    if (!wavefit::detail::iequals(code.processor, device.processor)) return load_problem::other_processor;
    const auto clash = [](feature_setting c, feature_setting d) {
        return c != feature_setting::any && d != feature_setting::any && c != d;
    };
    if (clash(code.xnack, device.xnack)) return load_problem::xnack_mismatch;
    if (clash(code.sramecc, device.sramecc)) return load_problem::sramecc_mismatch;
    return load_problem::none;
}

}  // namespace wavefit::analysis
