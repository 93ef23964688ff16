// SPDX-License-Identifier: MIT
// Built-in devices, so that plans and checks work on a machine without the GPU. Every value is the
// one the vendor's runtime reports (sources in shared/FACTS.md §1), because wavefit must predict
// what the runtime will accept, not what a datasheet says.
#pragma once

#include <array>        // the preset table
#include <cstddef>      // std::size_t
#include <stdexcept>    // unknown_preset
#include <string>       // error messages
#include <string_view>  // lookups

#include "device_attributes.hpp"
#include "device_limits.hpp"

namespace wavefit {

// Thrown by presets::by_name / by_arch for a name no preset has; the message lists the known ones.
class unknown_preset : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

namespace presets {

struct preset {
    std::string_view key;  // the CLI name: "mi300x"
    device_limits limits;
};

namespace detail {

constexpr std::uint64_t kib = 1024;

// AMD devices as HIP reports them: wave64 on CDNA, grid y/z maxima of 65536 (ROCm/clr
// hip_device.cpp; ROCm 7.14 lowers them to 65535), the HSA dispatch packet's cap of 2^32-1
// work-items per dimension (ROCR hsa.h), one LDS that a single block may use whole (no opt-in), and
// the ISA's residency and register model (apply_amd_isa_model, FACTS.md §3).
constexpr device_limits amd(std::string_view name, std::string_view arch, std::uint32_t wave_size, std::uint32_t cus,
                            std::uint64_t lds) {
    device_limits d{};
    d.name.assign(name);
    d.arch.assign(arch);
    d.vendor = vendor::amd;
    d.wave_size = wave_size;
    d.max_threads_per_block = 1024;
    d.max_block = dims{1024, 1024, 1024};
    d.max_grid = dims{2147483647, 65536, 65536};
    d.max_work_items_per_dimension = 4294967295u;
    d.compute_units = cus;
    d.shared_per_block = lds;
    d.shared_per_block_optin = lds;
    d.shared_per_cu = lds;
    d.shared_reserved_per_block = 0;
    d.shared_allocation_unit = 1;  // HIP's occupancy formula divides by the exact byte count
    d.max_blocks_per_cu = 0;
    apply_amd_isa_model(d, arch);
    return d;
}

// CDNA (gfx90a, gfx942, gfx950): wave64, 4 SIMDs x 8 waves, a unified VGPR+AGPR file of 512 per
// lane in granules of 8, 800 SGPRs per SIMD in granules of 16.
constexpr device_limits cdna(std::string_view name, std::string_view arch, std::uint32_t cus, std::uint64_t lds) {
    return amd(name, arch, 64, cus, lds);
}

// RDNA3 gfx1100 in its default wave32 / WGP mode. HIP reports multiProcessorCount as the WGP count
// (ROCm/hip#3198), and its occupancy formula then uses 4 SIMDs per "CU", 16 waves per SIMD, 1536
// VGPRs per lane in granules of 24, and no SGPR limit.
constexpr device_limits rdna3(std::string_view name, std::string_view arch, std::uint32_t wgps) {
    return amd(name, arch, 32, wgps, 64 * kib);
}

// NVIDIA sm_80 / sm_90: 2048 threads (64 warps) and 32 blocks per SM, 65536 registers per SM in 4
// sub-partitions, 256-register warp allocation, 255 registers per thread, 65536 per block, 1 KiB of
// shared memory reserved per block and 128-byte allocation (cuda_occupancy.h; measured on the H200).
constexpr device_limits ampere_hopper(std::string_view name, std::string_view arch, std::uint32_t sms,
                                      std::uint64_t smem_optin, std::uint64_t smem_per_sm) {
    device_limits d{};
    d.name.assign(name);
    d.arch.assign(arch);
    d.vendor = vendor::nvidia;
    d.wave_size = 32;
    d.max_threads_per_block = 1024;
    d.max_block = dims{1024, 1024, 64};
    d.max_grid = dims{2147483647, 65535, 65535};
    d.max_work_items_per_dimension = 0;
    d.compute_units = sms;
    d.shared_per_block = 48 * kib;
    d.shared_per_block_optin = smem_optin;
    d.shared_per_cu = smem_per_sm;
    d.shared_reserved_per_block = 1024;
    d.shared_allocation_unit = 128;
    d.simds_per_cu = 4;
    d.max_waves_per_simd = 16;
    d.max_blocks_per_cu = 32;
    d.registers_per_simd_lane = 512;
    d.register_granule = 8;
    d.max_registers_per_thread = 255;
    d.max_registers_per_block = 65536;
    d.scalar_registers_per_simd = 0;
    return d;
}

}  // namespace detail

// MI250X: one GCD is one HIP device, 110 CUs (rocminfo dumps in ROCm/aiter#179, openmm#3940).
inline constexpr device_limits mi250x = detail::cdna("MI250X", "gfx90a", 110, 64 * detail::kib);
// MI210: 104 CUs.
inline constexpr device_limits mi210 = detail::cdna("MI210", "gfx90a", 104, 64 * detail::kib);
// MI300X: 304 CUs (ROCm/rocm-examples#187, ROCm/Tensile#2071).
inline constexpr device_limits mi300x = detail::cdna("MI300X", "gfx942", 304, 64 * detail::kib);
// MI300A: 228 CUs (AMD gpu-arch-specs).
inline constexpr device_limits mi300a = detail::cdna("MI300A", "gfx942", 228, 64 * detail::kib);
// MI325X: the MI300X die with more HBM: 304 CUs.
inline constexpr device_limits mi325x = detail::cdna("MI325X", "gfx942", 304, 64 * detail::kib);
// MI355X: gfx950, 256 CUs, 160 KiB of LDS (lightseekorg/tokenspeed#119: 163840 bytes).
inline constexpr device_limits mi355x = detail::cdna("MI355X", "gfx950", 256, 160 * detail::kib);
// RX 7900 XTX: 48 WGPs reported (96 CUs), wave32 (ollama#3158, ROCm/hipBLASLt#831).
inline constexpr device_limits rx7900xtx = detail::rdna3("RX 7900 XTX", "gfx1100", 48);
// A100 SXM: 108 SMs, 163 KiB opt-in per block, 164 KiB per SM (NVIDIA Ampere tuning guide).
inline constexpr device_limits a100 =
    detail::ampere_hopper("NVIDIA A100", "sm_80", 108, 163 * detail::kib, 164 * detail::kib);
// H100 SXM: 132 SMs, 227 KiB opt-in per block, 228 KiB per SM (NVIDIA Hopper tuning guide).
inline constexpr device_limits h100 =
    detail::ampere_hopper("NVIDIA H100", "sm_90", 132, 227 * detail::kib, 228 * detail::kib);
// H200: measured on the test H200 (CUDA 13.0, driver 580): 132 SMs, 232448 B opt-in, 233472 B per SM.
inline constexpr device_limits h200 = detail::ampere_hopper("NVIDIA H200", "sm_90", 132, 232448, 233472);

inline constexpr std::array<preset, 10> all{{
    {"mi210", mi210},
    {"mi250x", mi250x},
    {"mi300a", mi300a},
    {"mi300x", mi300x},
    {"mi325x", mi325x},
    {"mi355x", mi355x},
    {"rx7900xtx", rx7900xtx},
    {"a100", a100},
    {"h100", h100},
    {"h200", h200},
}};

namespace detail {

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

// "gfx90a:sramecc+:xnack-" -> "gfx90a": target features do not change any launch limit.
constexpr std::string_view strip_target_features(std::string_view arch) noexcept {
    const std::size_t colon = arch.find(':');
    return colon == std::string_view::npos ? arch : arch.substr(0, colon);
}

inline std::string known_names() {
    std::string names;
    for (const preset& p : all) {
        if (!names.empty()) names += ", ";
        names += p.key;
    }
    return names;
}

}  // namespace detail

// The preset called `key` ("mi300x", case-insensitive), or nullptr.
constexpr const device_limits* find(std::string_view key) noexcept {
    for (const preset& p : all)
        if (detail::iequals(p.key, key)) return &p.limits;
    return nullptr;
}

// A representative device for an ISA name: gfx90a -> MI250X, gfx942 -> MI300X, sm_90 -> H100.
// gfx940/gfx941 (early MI300 ISAs; what Debian's hipcc can target) share gfx942's register and
// LDS model and map to MI300X. Target features after ':' are ignored. nullptr if unknown.
constexpr const device_limits* find_by_arch(std::string_view arch) noexcept {
    const std::string_view isa = detail::strip_target_features(arch);
    if (detail::iequals(isa, "gfx90a")) return &mi250x;
    if (detail::iequals(isa, "gfx940") || detail::iequals(isa, "gfx941") || detail::iequals(isa, "gfx942"))
        return &mi300x;
    if (detail::iequals(isa, "gfx950")) return &mi355x;
    if (detail::iequals(isa, "gfx1100")) return &rx7900xtx;
    if (detail::iequals(isa, "sm_80")) return &a100;
    if (detail::iequals(isa, "sm_90") || detail::iequals(isa, "sm_90a")) return &h100;
    return nullptr;
}

inline const device_limits& by_name(std::string_view key) {
    if (const device_limits* d = find(key)) return *d;
    throw unknown_preset("unknown preset '" + std::string(key) + "'; known presets: " + detail::known_names());
}

inline const device_limits& by_arch(std::string_view arch) {
    if (const device_limits* d = find_by_arch(arch)) return *d;
    throw unknown_preset("no preset for architecture '" + std::string(arch) +
                         "'; known: gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1100, sm_80, sm_90");
}

}  // namespace presets
}  // namespace wavefit
