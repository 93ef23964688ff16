// SPDX-License-Identifier: MIT
// Built-in devices, so that plans and checks work on a machine without the GPU. Every value is the
// one the vendor's runtime reports (sources in docs/device-facts.md §1), because wavefit must predict
// what the runtime will accept, not what a datasheet says.
#pragma once

#include <array>        // the preset table
#include <cstddef>      // std::size_t
#include <cstdint>      // target_match
#include <stdexcept>    // by_name
#include <string>       // error messages
#include <string_view>  // lookups

#include "config.hpp"
#include "detail/ascii.hpp"
#include "device_attributes.hpp"
#include "device_limits.hpp"

WAVEFIT_BEGIN_NAMESPACE

namespace presets {
namespace detail {

// One built-in device: its name (what the CLI's --preset takes) and its limits.
struct preset {
    std::string_view key;  // the CLI name: "mi300x"
    device_limits limits;
};

constexpr std::uint64_t kib = 1024;

// AMD devices as HIP reports them: wave64 on CDNA, grid y/z maxima of 65536 (ROCm/clr
// hip_device.cpp; ROCm 7.14 lowers them to 65535), one LDS that a single block may use whole (no
// opt-in: HIP reads 0 for it, as for the other CUDA-only attributes). A preset is built from these
// reported values by the same mapping as a real device (device_limits_from_attributes), which adds
// what no runtime reports: the HSA dispatch packet's cap of 2^32-1 work-items per dimension and the
// ISA's residency and register model (apply_amd_isa_model, docs/device-facts.md §3).
constexpr device_limits amd(std::string_view name, std::string_view arch, std::uint32_t wave_size, std::uint32_t cus,
                            std::uint64_t lds) {
    using attribute = wavefit::detail::device_attribute;
    const auto reported = [=](attribute a) -> std::int64_t {
        switch (a) {
            case attribute::warp_size: return static_cast<std::int64_t>(wave_size);
            case attribute::max_threads_per_block:
            case attribute::max_block_dim_x:
            case attribute::max_block_dim_y:
            case attribute::max_block_dim_z: return 1024;
            case attribute::max_grid_dim_x: return 2147483647;
            case attribute::max_grid_dim_y:
            case attribute::max_grid_dim_z: return 65536;
            case attribute::multiprocessor_count: return static_cast<std::int64_t>(cus);
            case attribute::max_shared_memory_per_block:
            case attribute::max_shared_memory_per_multiprocessor: return static_cast<std::int64_t>(lds);
            default: return 0;
        }
    };
    return wavefit::detail::device_limits_from_attributes(device_limits::vendor_kind::amd, name, arch, reported);
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

// NVIDIA sm_80 / sm_90 as CUDA reports them: 2048 threads and 32 blocks per SM, 65536 registers per
// SM and per block, 48 KiB of shared memory per block without the opt-in and 1 KiB reserved per block.
// The same mapping as a real device's (device_limits_from_attributes) adds what CUDA does not report:
// 4 sub-partitions per SM, 256-register warp allocation, 255 registers per thread and 128-byte shared
// memory allocation (cuda_occupancy.h; measured on the H200).
constexpr device_limits ampere_hopper(std::string_view name, std::string_view arch, std::uint32_t sms,
                                      std::uint64_t smem_optin, std::uint64_t smem_per_sm) {
    using attribute = wavefit::detail::device_attribute;
    const auto reported = [=](attribute a) -> std::int64_t {
        switch (a) {
            case attribute::warp_size: return 32;
            case attribute::max_threads_per_block:
            case attribute::max_block_dim_x:
            case attribute::max_block_dim_y: return 1024;
            case attribute::max_block_dim_z: return 64;
            case attribute::max_grid_dim_x: return 2147483647;
            case attribute::max_grid_dim_y:
            case attribute::max_grid_dim_z: return 65535;
            case attribute::multiprocessor_count: return static_cast<std::int64_t>(sms);
            case attribute::max_shared_memory_per_block: return static_cast<std::int64_t>(48 * kib);
            case attribute::max_shared_memory_per_block_optin: return static_cast<std::int64_t>(smem_optin);
            case attribute::max_shared_memory_per_multiprocessor: return static_cast<std::int64_t>(smem_per_sm);
            case attribute::reserved_shared_memory_per_block: return 1024;
            case attribute::max_threads_per_multiprocessor: return 2048;
            case attribute::max_blocks_per_multiprocessor: return 32;
            case attribute::max_registers_per_block:
            case attribute::max_registers_per_multiprocessor: return 65536;
        }
        return 0;
    };
    return wavefit::detail::device_limits_from_attributes(device_limits::vendor_kind::nvidia, name, arch, reported);
}

}  // namespace detail

// The one table of built-in devices, for listing them: each entry has the preset's name (`key`,
// "mi300x") and its `limits`. Every lookup returns a pointer into it, so a preset found by name or by
// architecture is the same object.
inline constexpr std::array<detail::preset, 10> all{{
    // MI210: 104 CUs.
    {"mi210", detail::cdna("MI210", "gfx90a", 104, 64 * detail::kib)},
    // MI250X: one GCD is one HIP device, 110 CUs (rocminfo dumps in ROCm/aiter#179, openmm#3940).
    {"mi250x", detail::cdna("MI250X", "gfx90a", 110, 64 * detail::kib)},
    // MI300A: 228 CUs (AMD gpu-arch-specs).
    {"mi300a", detail::cdna("MI300A", "gfx942", 228, 64 * detail::kib)},
    // MI300X: 304 CUs (ROCm/rocm-examples#187, ROCm/Tensile#2071).
    {"mi300x", detail::cdna("MI300X", "gfx942", 304, 64 * detail::kib)},
    // MI325X: the MI300X die with more HBM: 304 CUs.
    {"mi325x", detail::cdna("MI325X", "gfx942", 304, 64 * detail::kib)},
    // MI355X: gfx950, 256 CUs, 160 KiB of LDS (lightseekorg/tokenspeed#119: 163840 bytes).
    {"mi355x", detail::cdna("MI355X", "gfx950", 256, 160 * detail::kib)},
    // RX 7900 XTX: 48 WGPs reported (96 CUs), wave32 (ollama#3158, ROCm/hipBLASLt#831).
    {"rx7900xtx", detail::rdna3("RX 7900 XTX", "gfx1100", 48)},
    // A100 SXM: 108 SMs, 163 KiB opt-in per block, 164 KiB per SM (NVIDIA Ampere tuning guide).
    {"a100", detail::ampere_hopper("NVIDIA A100", "sm_80", 108, 163 * detail::kib, 164 * detail::kib)},
    // H100 SXM: 132 SMs, 227 KiB opt-in per block, 228 KiB per SM (NVIDIA Hopper tuning guide).
    {"h100", detail::ampere_hopper("NVIDIA H100", "sm_90", 132, 227 * detail::kib, 228 * detail::kib)},
    // H200: measured on the test H200 (CUDA 13.0, driver 580): 132 SMs, 232448 B opt-in, 233472 B per SM.
    {"h200", detail::ampere_hopper("NVIDIA H200", "sm_90", 132, 232448, 233472)},
}};

namespace detail {

// The representative preset of each ISA a code object or a runtime may name. gfx940/gfx941 (early
// MI300 ISAs; what Debian's hipcc can target) share gfx942's register and LDS model.
struct arch_representative {
    std::string_view isa;
    std::string_view key;
};
inline constexpr arch_representative representatives[] = {
    {"gfx90a", "mi250x"},     {"gfx940", "mi300x"}, {"gfx941", "mi300x"}, {"gfx942", "mi300x"}, {"gfx950", "mi355x"},
    {"gfx1100", "rx7900xtx"}, {"sm_80", "a100"},    {"sm_90", "h100"},    {"sm_90a", "h100"},
};

// Lookups go through indices, not through pointers or range-for over the table: GCC cannot evaluate
// a range-for's reference binding or a pointer-to-null comparison at compile time under
// -fsanitize=null (part of -fsanitize=undefined), and the lookups must stay constant expressions.

// The index of `key` in `all` (case-insensitive); all.size() if absent.
constexpr std::size_t index_of(std::string_view key) noexcept {
    for (std::size_t i = 0; i < all.size(); ++i)
        if (wavefit::detail::iequals(all[i].key, key)) return i;
    return all.size();
}

// The index of the representative entry for an ISA name; all.size() if none.
constexpr std::size_t index_for_arch(std::string_view arch) noexcept {
    const std::string_view isa = wavefit::detail::isa_name(arch);
    for (std::size_t i = 0; i < sizeof(representatives) / sizeof(representatives[0]); ++i)
        if (wavefit::detail::iequals(representatives[i].isa, isa)) return index_of(representatives[i].key);
    return all.size();
}

// The table entry for a preset name, else for an ISA name; all.size() if neither.
constexpr std::size_t index_of_name_or_arch(std::string_view name_or_arch) noexcept {
    const std::size_t i = index_of(name_or_arch);
    return i < all.size() ? i : index_for_arch(name_or_arch);
}

// The table entry called `key` ("mi300x", case-insensitive), or nullptr: for the CLI, which shows the key.
constexpr const preset* find_preset(std::string_view key) noexcept {
    const std::size_t i = index_of(key);
    return i < all.size() ? &all[i] : nullptr;
}

// The representative entry for an ISA name ("gfx942:sramecc+:xnack-" -> mi300x), or nullptr.
// Target features after ':' are ignored.
constexpr const preset* preset_for_arch(std::string_view arch) noexcept {
    const std::size_t i = index_for_arch(arch);
    return i < all.size() ? &all[i] : nullptr;
}

// Named references into the table, for tests and benchmarks that mean one device (a key not in the
// table does not compile: all[all.size()] is no constant expression). Users say presets::by_name("mi300x").
inline constexpr const device_limits& mi210 = all[index_of("mi210")].limits;
inline constexpr const device_limits& mi250x = all[index_of("mi250x")].limits;
inline constexpr const device_limits& mi300a = all[index_of("mi300a")].limits;
inline constexpr const device_limits& mi300x = all[index_of("mi300x")].limits;
inline constexpr const device_limits& mi325x = all[index_of("mi325x")].limits;
inline constexpr const device_limits& mi355x = all[index_of("mi355x")].limits;
inline constexpr const device_limits& rx7900xtx = all[index_of("rx7900xtx")].limits;
inline constexpr const device_limits& a100 = all[index_of("a100")].limits;
inline constexpr const device_limits& h100 = all[index_of("h100")].limits;
inline constexpr const device_limits& h200 = all[index_of("h200")].limits;

// The table entry `d` is, or nullptr for a device that is not a preset (a real GPU, say).
constexpr const preset* preset_of(const device_limits& d) noexcept {
    for (std::size_t i = 0; i < all.size(); ++i)
        if (&all[i].limits == &d) return &all[i];
    return nullptr;
}

// How well code compiled for `target` ("gfx940", "gfx90a:xnack+") suits device `d`.
enum class target_match : std::uint8_t {
    other_device,  // another GPU: the runtime would not load it there (hipErrorNoBinaryForGpu)
    same_model,    // another ISA that the same preset models (gfx940 code shown on MI300X's gfx942)
    exact,         // compiled for d's ISA
};

constexpr target_match match_target(const device_limits& d, std::string_view target) noexcept {
    const std::string_view isa = wavefit::detail::isa_name(target);
    if (wavefit::detail::iequals(isa, d.arch.view())) return target_match::exact;
    const std::size_t i = index_for_arch(isa);
    return i < all.size() && all[i].limits.arch.view() == d.arch.view() ? target_match::same_model
                                                                        : target_match::other_device;
}

// "mi210, mi250x, ...; or an architecture: gfx90a, gfx940, ...": what by_name's error lists.
inline std::string known_names() {
    std::string names;
    for (const preset& p : all) {
        if (!names.empty()) names += ", ";
        names += p.key;
    }
    names += "; or an architecture: ";
    for (std::size_t i = 0; i < sizeof(representatives) / sizeof(representatives[0]); ++i) {
        if (i != 0) names += ", ";
        names += representatives[i].isa;
    }
    return names;
}

}  // namespace detail

// The built-in device called `name_or_arch`, case-insensitive: a preset name ("mi300x") or an
// architecture ("gfx942", target features after ':' ignored), which gives its representative device
// (gfx90a -> MI250X, gfx940/gfx942 -> MI300X, sm_90 -> H100); nullptr when neither is known.
constexpr const device_limits* find(std::string_view name_or_arch) noexcept {
    const std::size_t i = detail::index_of_name_or_arch(name_or_arch);
    return i < all.size() ? &all[i].limits : nullptr;
}

#if WAVEFIT_EXCEPTIONS
// find() for a device that must exist: throws std::invalid_argument naming the known presets and
// architectures when it does not.
inline const device_limits& by_name(std::string_view name_or_arch) {
    if (const device_limits* d = find(name_or_arch)) return *d;
    throw std::invalid_argument("unknown preset '" + std::string(name_or_arch) +
                                "'; known presets: " + detail::known_names());
}
#endif

}  // namespace presets
WAVEFIT_END_NAMESPACE
