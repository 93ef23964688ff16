// SPDX-License-Identifier: MIT
// Specifications of the demangling of _Float16 / std::bfloat16_t kernel names
// (tools/wavefit/extended_float_names.hpp) with the C++ runtime's demangler, which alone fails on
// them. The expected names are what GNU c++filt 2.40 prints for the same mangled names (llvm-cxxfilt
// 15 agrees on every DF16_ name; it does not know DF16b or DF32x).
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "../../tools/wavefit/extended_float_names.hpp"

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>

#include <cstdlib>

namespace {

std::optional<std::string> runtime_demangle(const std::string& name) {
    int status = -1;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::optional<std::string> readable;
    if (status == 0 && text != nullptr) readable = std::string(text);
    std::free(text);
    return readable;
}

std::string demangled(const std::string& name) {
    return wavefit::cli::demangle_extended_floats(name, runtime_demangle).value_or(name);
}

}  // namespace

TEST_CASE("_Float16 kernels demangle as c++filt prints them", "[demangle]") {
    const struct {
        const char* mangled;
        const char* readable;
    } cases[] = {
        {"_Z14sgemm_16x16x16PKDF16_S0_Pf", "sgemm_16x16x16(_Float16 const*, _Float16 const*, float*)"},
        {"_ZN2ck4gemmIDF16_fLi256EEEvPKT_PT0_", "void ck::gemm<_Float16, float, 256>(_Float16 const*, float*)"},
        {"_Z1fIDF16_EvT_", "void f<_Float16>(_Float16)"},
        {"_ZN12_GLOBAL__N_16kernelIDF16_EEvPT_S2_", "void (anonymous namespace)::kernel<_Float16>(_Float16*, _Float16*)"},
        {"_Z4bf16PKDF16bPS_", "bf16(std::bfloat16_t const*, std::bfloat16_t const*)"},
        {"_Z1fDF32x", "f(_Float32x)"},
        {"_Z3mixDF16_DF16bDF32_PKDF16_S_", "mix(_Float16, std::bfloat16_t, _Float32, _Float16 const*, _Float16 const)"},
        // The stand-ins' codes and spellings are in these names, so others are used.
        {"_Z4halfDF16_", "half(_Float16)"},
        {"_Z9Dh_and_DeDF16_Pe", "Dh_and_De(_Float16, long double*)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.mangled);
        REQUIRE(demangled(c.mangled) == c.readable);
    }
}

TEST_CASE("DF16_ inside an identifier is not a type: the name is left to the plain demangler", "[demangle]") {
    // A stand-in in an identifier shortens it: the demangling fails or keeps the stand-in's letters,
    // which differ between the two demanglings.
    REQUIRE_FALSE(wavefit::cli::demangle_extended_floats("_Z9DF16_gemmv", runtime_demangle).has_value());
    REQUIRE(runtime_demangle("_Z9DF16_gemmv") == std::optional<std::string>("DF16_gemm()"));
    REQUIRE_FALSE(wavefit::cli::demangle_extended_floats("_Z10gemm_DF16_v", runtime_demangle).has_value());
    REQUIRE(runtime_demangle("_Z10gemm_DF16_v") == std::optional<std::string>("gemm_DF16_()"));
}

#endif

TEST_CASE("names without extended floating-point types are not this demangler's business", "[demangle]") {
    const auto never = [](const std::string&) -> std::optional<std::string> { return std::string("called"); };
    for (const char* name : {"_Z3fooPf", "_Z1fDv4_f", "_Z2DFv", "_Z1fDFx", "_Z1fDF_", "_Z1fDF16", "_Z1fDF12345_", ""}) {
        CAPTURE(name);
        REQUIRE_FALSE(wavefit::cli::demangle_extended_floats(name, never).has_value());
    }
    REQUIRE(wavefit::cli::find_extended_float_types("_Z1fDF16_DF16bDF128_DF32x").size() == 4);
}

TEST_CASE("a demangler failure or two disagreeing results give no name", "[demangle]") {
    const auto fails = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    REQUIRE_FALSE(wavefit::cli::demangle_extended_floats("_Z1fDF16_", fails).has_value());
    // A "demangler" that echoes its input shows each stand-in raw: the two results differ.
    const auto echo = [](const std::string& s) -> std::optional<std::string> { return s; };
    REQUIRE_FALSE(wavefit::cli::demangle_extended_floats("_Z1fDF16_", echo).has_value());
}
