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

namespace wavefit::analysis {

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
bool parse_target_id(std::string_view text, target_id& out) noexcept;

// "gfx90a:sramecc+:xnack-", in the order target ids are written.
std::string to_string(const target_id& t);

// Which target features a processor has (LLVM AMDGPUUsage, processor table): xnack and sramecc on
// gfx906, gfx908 and the CDNA2+ ISAs (gfx90a, gfx940-942, gfx950: the core's
// detail::has_unified_vector_registers); xnack alone on other gfx9 and gfx101x; neither on gfx103x
// and later.
struct processor_features {
    bool sramecc = false;
    bool xnack = false;
};
processor_features features_of(std::string_view processor) noexcept;

// The target id a device of `processor` reports with the driver's defaults: SRAM ECC on (Instinct
// GPUs ship with ECC enabled) and XNACK off, as rocminfo shows unless the process sets HSA_XNACK=1
// ("gfx90a:sramecc+:xnack-" on MI250X, "gfx942:sramecc+:xnack-" on MI300A/MI300X).
target_id default_device_target_id(std::string_view processor) noexcept;

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
load_problem loads_on(const target_id& code, const target_id& device) noexcept;

}  // namespace wavefit::analysis
