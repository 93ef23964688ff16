// SPDX-License-Identifier: MIT
// clang's offload bundles (clang/lib/Driver/OffloadBundler.cpp, binary format): the container that
// `hipcc --cuda-device-only` writes and that a HIP object, executable or shared library carries in
// its .hip_fatbin section, one bundle per translation unit. Layout, little-endian:
//   "__CLANG_OFFLOAD_BUNDLE__"  u64 entry count
//   per entry: u64 offset (from the bundle's start), u64 size, u64 id length, id characters
// Entry ids read "<kind>-<triple>-<target id>", e.g. "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" or
// "host-x86_64-unknown-linux" (the host entry, empty in HIP bundles).
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // the format's u64 fields
#include <string>       // messages
#include <string_view>  // entry ids, as views into the file
#include <vector>       // the entries of one bundle

#include "byte_view.hpp"

namespace wavefit::analysis {
namespace detail {

inline constexpr std::string_view offload_bundle_magic = "__CLANG_OFFLOAD_BUNDLE__";
// clang --offload-compress (ROCm 6.2+): zstd/zlib-compressed bundles, which wavefit does not unpack.
inline constexpr std::string_view compressed_bundle_magic = "CCOB";

struct offload_bundle_entry {
    std::string_view id;
    byte_view contents;
};

struct offload_bundle {
    std::vector<offload_bundle_entry> entries;
    std::uint64_t extent = 0;  // bytes from the bundle's start to the end of its header or last entry
};

// Fails with the message that compressed bundles (at file offset `at`) are not supported.
[[noreturn]] void fail_compressed_bundle(std::uint64_t at);

// The bundle at the start of `bytes`; entries may lie anywhere in `bytes` after the header.
offload_bundle read_offload_bundle(byte_view bytes);

// Calls visit(const offload_bundle&) for each bundle in `region`: a .hip_fatbin section or a file
// holding one bundle. The linker concatenates one bundle per object, each padded with zeros to the
// section alignment (4096 for hipcc 5.2), so zeros between bundles are skipped; anything else that
// is not a bundle is an error.
template <class Visit>
void for_each_offload_bundle(byte_view region, const char* what, Visit&& visit) {
    std::uint64_t pos = 0;
    for (;;) {
        while (pos < region.size && region.data[static_cast<std::size_t>(pos)] == 0) ++pos;
        if (pos >= region.size) return;
        const byte_view rest = region.sub(pos, region.size - pos, what);
        if (rest.starts_with(compressed_bundle_magic)) fail_compressed_bundle(rest.base);
        if (!rest.starts_with(offload_bundle_magic))
            fail(std::string("unexpected bytes at ") + hex(rest.base) + " in " + what + ": expected an offload bundle");
        const offload_bundle b = read_offload_bundle(rest);
        visit(static_cast<const offload_bundle&>(b));
        pos += b.extent;
    }
}

// "hipv4" of "hipv4-amdgcn-amd-amdhsa--gfx90a".
constexpr std::string_view offload_kind(std::string_view id) noexcept { return id.substr(0, id.find('-')); }

// "amdgcn" of "hipv4-amdgcn-amd-amdhsa--gfx90a": the architecture of the entry's triple.
constexpr std::string_view offload_triple_arch(std::string_view id) noexcept {
    const std::size_t dash = id.find('-');
    if (dash == std::string_view::npos) return {};
    const std::string_view rest = id.substr(dash + 1);
    return rest.substr(0, rest.find('-'));
}

// "gfx90a:xnack-" of "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" (empty environment field) or of
// "hip-amdgcn-amd-amdhsa-gfx90a:xnack-" (no environment field); empty if the id names no AMDGPU target.
constexpr std::string_view offload_target_id(std::string_view id) noexcept {
    constexpr std::string_view triple = "amdgcn-amd-amdhsa-";
    const std::size_t at = id.find(triple);
    if (at == std::string_view::npos) return {};
    std::string_view rest = id.substr(at + triple.size());
    // Target features ("xnack-") may contain '-', but only after the first ':'; before it, a '-'
    // ends the triple's environment field.
    const std::size_t dash = rest.substr(0, rest.find(':')).rfind('-');
    if (dash != std::string_view::npos) rest = rest.substr(dash + 1);
    return rest;
}

}  // namespace detail
}  // namespace wavefit::analysis
