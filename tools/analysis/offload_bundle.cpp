// SPDX-License-Identifier: MIT
// clang's offload bundles (offload_bundle.hpp): one bundle's header and entries, checked against the bytes.
#include "offload_bundle.hpp"

namespace wavefit::analysis::detail {

void fail_compressed_bundle(std::uint64_t at) {
    fail("compressed offload bundle (CCOB) at " + hex(at) +
         ": compressed offload bundles are not supported (build without --offload-compress, or unbundle with "
         "clang-offload-bundler first)");
}

offload_bundle read_offload_bundle(byte_view bytes) {
    offload_bundle b;
    if (!bytes.starts_with(offload_bundle_magic)) fail("no offload bundle magic at " + hex(bytes.base));
    const std::uint64_t count = bytes.u64(24, "offload bundle entry count");
    std::uint64_t pos = 32;
    // Each entry header takes at least 24 bytes: a larger count cannot be true.
    if (count > (bytes.size - pos) / 24)
        fail("offload bundle at " + hex(bytes.base) + " claims " + std::to_string(count) + " entries, more than its " +
             std::to_string(bytes.size) + " bytes can hold");
    b.entries.reserve(static_cast<std::size_t>(count));
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t offset = bytes.u64(pos, "offload bundle entry offset");
        const std::uint64_t size = bytes.u64(pos + 8, "offload bundle entry size");
        const std::uint64_t id_length = bytes.u64(pos + 16, "offload bundle entry id length");
        offload_bundle_entry e;
        e.id = bytes.chars(pos + 24, id_length, "offload bundle entry id");
        pos += 24 + id_length;
        if (!bytes.contains(offset, size))
            fail("offload bundle at " + hex(bytes.base) + ": entry " + std::to_string(i) + " ('" + printable(e.id) +
                 "') at offset " + hex(offset) + " with size " + hex(size) + " extends past the end at " +
                 hex(bytes.base + bytes.size));
        // Entries never share bytes in bundles clang writes; bounding their sum by the bundle keeps
        // the work linear even when a crafted bundle points many entries at the same bytes.
        total += size;
        if (total > bytes.size)
            fail("offload bundle at " + hex(bytes.base) + ": entries up to " + std::to_string(i) + " ('" + printable(e.id) +
                 "') add up to more than the " + std::to_string(bytes.size) + " bytes available");
        e.contents = bytes.sub(offset, size, "offload bundle entry");
        if (offset + size > b.extent) b.extent = offset + size;
        b.entries.push_back(e);
    }
    if (pos > b.extent) b.extent = pos;
    return b;
}

}  // namespace wavefit::analysis::detail
