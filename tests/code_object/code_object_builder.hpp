// SPDX-License-Identifier: MIT
// Hand-built inputs for the code object reader's unit tests (tests/cpu/test_code_object_*.cpp): a
// msgpack writer, AMDGPU metadata, minimal ELF64 code objects and host ELFs, and offload bundles,
// written from the format descriptions so that the tests need no compiler and can make any field
// wrong on purpose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace code_object_builder {

using bytes = std::vector<std::uint8_t>;

inline void put_le(bytes& b, std::size_t offset, unsigned width, std::uint64_t value) {
    if (b.size() < offset + width) b.resize(offset + width);
    for (unsigned i = 0; i < width; ++i) b[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

inline std::uint64_t get_le(const bytes& b, std::size_t offset, unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = width; i-- > 0;) v = (v << 8) | b[offset + i];
    return v;
}

inline void append(bytes& b, std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
inline void append(bytes& b, const bytes& more) { b.insert(b.end(), more.begin(), more.end()); }
inline void pad_to(bytes& b, std::size_t align) {
    while (b.size() % align != 0) b.push_back(0);
}

// A msgpack writer choosing the smallest encoding, as LLVM's msgpack writer does; raw() writes
// anything else.
struct msgpack {
    bytes out;

    msgpack& raw(std::initializer_list<std::uint8_t> b) {
        out.insert(out.end(), b.begin(), b.end());
        return *this;
    }
    msgpack& big_endian(std::uint64_t v, unsigned width) {
        for (unsigned i = width; i-- > 0;) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        return *this;
    }
    msgpack& map(std::uint64_t n) {
        if (n < 16) return raw({static_cast<std::uint8_t>(0x80 | n)});
        if (n < 0x10000) return raw({0xde}).big_endian(n, 2);
        return raw({0xdf}).big_endian(n, 4);
    }
    msgpack& array(std::uint64_t n) {
        if (n < 16) return raw({static_cast<std::uint8_t>(0x90 | n)});
        if (n < 0x10000) return raw({0xdc}).big_endian(n, 2);
        return raw({0xdd}).big_endian(n, 4);
    }
    msgpack& str(std::string_view s) {
        if (s.size() < 32)
            raw({static_cast<std::uint8_t>(0xa0 | s.size())});
        else if (s.size() < 0x100)
            raw({0xd9}).big_endian(s.size(), 1);
        else if (s.size() < 0x10000)
            raw({0xda}).big_endian(s.size(), 2);
        else
            raw({0xdb}).big_endian(s.size(), 4);
        append(out, s);
        return *this;
    }
    msgpack& number(std::uint64_t v) {
        if (v < 0x80) return raw({static_cast<std::uint8_t>(v)});
        if (v < 0x100) return raw({0xcc}).big_endian(v, 1);
        if (v < 0x10000) return raw({0xcd}).big_endian(v, 2);
        if (v < 0x100000000) return raw({0xce}).big_endian(v, 4);
        return raw({0xcf}).big_endian(v, 8);
    }
    msgpack& boolean(bool v) { return raw({static_cast<std::uint8_t>(v ? 0xc3 : 0xc2)}); }
};

struct kernel_spec {
    std::string name = "_Z6kernelPf";
    std::uint64_t vgpr_count = 32;
    std::uint64_t agpr_count = 0;
    std::uint64_t sgpr_count = 16;
    std::uint64_t vgpr_spill_count = 0;
    std::uint64_t sgpr_spill_count = 0;
    std::uint64_t wavefront_size = 64;
    std::uint64_t max_flat_workgroup_size = 1024;
    std::uint64_t group_segment_fixed_size = 0;
    std::uint64_t private_segment_fixed_size = 0;
    std::vector<std::string> omit;  // keys to leave out

    // A kernel described the way its metadata reads, the unnamed fields at their defaults:
    // kernel_spec::named("_Z4mfmaPf").registers(276, 128, 9).bound(256).
    static kernel_spec named(std::string mangled) {
        kernel_spec k;
        k.name = std::move(mangled);
        return k;
    }
    kernel_spec& registers(std::uint64_t vgprs, std::uint64_t agprs, std::uint64_t sgprs) {
        return set(vgpr_count, vgprs).set(agpr_count, agprs).set(sgpr_count, sgprs);
    }
    kernel_spec& spills(std::uint64_t vgprs, std::uint64_t sgprs) {
        return set(vgpr_spill_count, vgprs).set(sgpr_spill_count, sgprs);
    }
    kernel_spec& bound(std::uint64_t max_threads) { return set(max_flat_workgroup_size, max_threads); }
    // Static LDS per work-group and scratch per work-item, in bytes.
    kernel_spec& memory(std::uint64_t lds_bytes, std::uint64_t scratch_bytes) {
        return set(group_segment_fixed_size, lds_bytes).set(private_segment_fixed_size, scratch_bytes);
    }

private:
    kernel_spec& set(std::uint64_t& field, std::uint64_t value) {
        field = value;
        return *this;
    }
};

// A kernel map as LLVM writes it (keys sorted, an .args array with one argument map).
inline void write_kernel(msgpack& m, const kernel_spec& k) {
    std::vector<std::pair<std::string, std::uint64_t>> numbers = {
        {".agpr_count", k.agpr_count},
        {".group_segment_fixed_size", k.group_segment_fixed_size},
        {".kernarg_segment_align", 8},
        {".kernarg_segment_size", 8},
        {".max_flat_workgroup_size", k.max_flat_workgroup_size},
        {".private_segment_fixed_size", k.private_segment_fixed_size},
        {".sgpr_count", k.sgpr_count},
        {".sgpr_spill_count", k.sgpr_spill_count},
        {".vgpr_count", k.vgpr_count},
        {".vgpr_spill_count", k.vgpr_spill_count},
        {".wavefront_size", k.wavefront_size},
    };
    const auto omitted = [&](std::string_view key) {
        for (const std::string& o : k.omit)
            if (o == key) return true;
        return false;
    };
    std::size_t count = 3;  // .args, .name, .symbol
    for (const auto& n : numbers) count += omitted(n.first) ? 0 : 1;
    for (const char* key : {".args", ".name", ".symbol"}) count -= omitted(key) ? 1 : 0;
    m.map(count);
    if (!omitted(".args")) {
        m.str(".args").array(1).map(4);
        m.str(".address_space").str("global").str(".offset").number(0).str(".size").number(8);
        m.str(".value_kind").str("global_buffer");
    }
    for (const auto& n : numbers)
        if (!omitted(n.first)) m.str(n.first).number(n.second);
    if (!omitted(".name")) m.str(".name").str(k.name);
    if (!omitted(".symbol")) m.str(".symbol").str(k.name + ".kd");
}

// The msgpack document of an NT_AMDGPU_METADATA note. An empty target leaves out amdhsa.target.
inline bytes metadata(const std::vector<kernel_spec>& kernels,
                      std::string_view target = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-") {
    msgpack m;
    m.map(target.empty() ? 2 : 3);
    m.str("amdhsa.kernels").array(kernels.size());
    for (const kernel_spec& k : kernels) write_kernel(m, k);
    if (!target.empty()) m.str("amdhsa.target").str(target);
    m.str("amdhsa.version").array(2).number(1).number(1);
    return m.out;
}

struct elf_options {
    std::uint16_t machine = 224;  // EM_AMDGPU
    bool section_headers = true;
    bool program_headers = true;
    unsigned note_align = 4;
    std::string owner = "AMDGPU";
    std::uint32_t note_type = 32;  // NT_AMDGPU_METADATA
};

// Layout: ELF header | PT_NOTE program header | note | .shstrtab | section headers (null, .note, .shstrtab).
struct code_object_layout {
    bytes file;
    std::size_t phoff = 0, note = 0, note_size = 0, desc = 0, shstrtab = 0, shoff = 0;
};

inline code_object_layout code_object_with_layout(const bytes& desc, const elf_options& o = {}) {
    code_object_layout l;
    bytes& f = l.file;
    f.assign(64, 0);
    f[0] = 0x7f, f[1] = 'E', f[2] = 'L', f[3] = 'F', f[4] = 2, f[5] = 1, f[6] = 1, f[7] = 64, f[8] = 2;
    put_le(f, 16, 2, 3);  // ET_DYN
    put_le(f, 18, 2, o.machine);
    put_le(f, 20, 4, 1);
    put_le(f, 48, 4, 0x53f);
    put_le(f, 52, 2, 64);
    if (o.program_headers) {
        l.phoff = f.size();
        f.resize(f.size() + 56);
    }
    pad_to(f, o.note_align);
    l.note = f.size();
    put_le(f, l.note, 4, o.owner.size() + 1);
    put_le(f, l.note + 4, 4, desc.size());
    put_le(f, l.note + 8, 4, o.note_type);
    append(f, o.owner);
    f.push_back(0);
    pad_to(f, o.note_align);
    l.desc = f.size();
    append(f, desc);
    pad_to(f, o.note_align);
    l.note_size = f.size() - l.note;
    l.shstrtab = f.size();
    append(f, std::string_view("\0.note\0.shstrtab\0", 17));
    pad_to(f, 8);
    if (o.program_headers) {
        put_le(f, 32, 8, l.phoff);
        put_le(f, 54, 2, 56);
        put_le(f, 56, 2, 1);
        put_le(f, l.phoff, 4, 4);  // PT_NOTE
        put_le(f, l.phoff + 8, 8, l.note);
        put_le(f, l.phoff + 32, 8, l.note_size);
        put_le(f, l.phoff + 48, 8, o.note_align);
    }
    if (o.section_headers) {
        l.shoff = f.size();
        f.resize(f.size() + 3 * 64);
        put_le(f, 40, 8, l.shoff);
        put_le(f, 58, 2, 64);
        put_le(f, 60, 2, 3);
        put_le(f, 62, 2, 2);
        const std::size_t note_header = l.shoff + 64, names_header = l.shoff + 128;
        put_le(f, note_header, 4, 1);      // ".note"
        put_le(f, note_header + 4, 4, 7);  // SHT_NOTE
        put_le(f, note_header + 24, 8, l.note);
        put_le(f, note_header + 32, 8, l.note_size);
        put_le(f, note_header + 48, 8, o.note_align);
        put_le(f, names_header, 4, 7);      // ".shstrtab"
        put_le(f, names_header + 4, 4, 3);  // SHT_STRTAB
        put_le(f, names_header + 24, 8, l.shstrtab);
        put_le(f, names_header + 32, 8, 17);
        put_le(f, names_header + 48, 8, 1);
    }
    return l;
}

inline bytes code_object(const bytes& desc, const elf_options& o = {}) { return code_object_with_layout(desc, o).file; }

// An x86-64 host ELF with the given PROGBITS sections (name, contents), each aligned to `align`.
inline bytes host_elf(const std::vector<std::pair<std::string, bytes>>& sections, std::size_t align = 16) {
    bytes f(64, 0);
    f[0] = 0x7f, f[1] = 'E', f[2] = 'L', f[3] = 'F', f[4] = 2, f[5] = 1, f[6] = 1;
    put_le(f, 16, 2, 1);   // ET_REL
    put_le(f, 18, 2, 62);  // EM_X86_64
    put_le(f, 20, 4, 1);
    put_le(f, 52, 2, 64);
    std::string names(1, '\0');
    std::vector<std::size_t> name_at, offsets;
    for (const auto& s : sections) {
        pad_to(f, align);
        offsets.push_back(f.size());
        append(f, s.second);
        name_at.push_back(names.size());
        names += s.first;
        names += '\0';
    }
    const std::size_t shstrtab_name = names.size();
    names += ".shstrtab";
    names += '\0';
    const std::size_t shstrtab = f.size();
    append(f, names);
    pad_to(f, 8);
    const std::size_t shoff = f.size();
    const std::size_t count = sections.size() + 2;
    f.resize(f.size() + count * 64);
    put_le(f, 40, 8, shoff);
    put_le(f, 58, 2, 64);
    put_le(f, 60, 2, count);
    put_le(f, 62, 2, count - 1);
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const std::size_t h = shoff + (i + 1) * 64;
        put_le(f, h, 4, name_at[i]);
        put_le(f, h + 4, 4, 1);  // SHT_PROGBITS
        put_le(f, h + 24, 8, offsets[i]);
        put_le(f, h + 32, 8, sections[i].second.size());
        put_le(f, h + 48, 8, align);
    }
    const std::size_t h = shoff + (count - 1) * 64;
    put_le(f, h, 4, shstrtab_name);
    put_le(f, h + 4, 4, 3);
    put_le(f, h + 24, 8, shstrtab);
    put_le(f, h + 32, 8, names.size());
    return f;
}

// host_elf plus the dynamic section of an executable or shared library that links `needed` (one
// DT_NEEDED entry each, then DT_NULL) and its string table.
inline bytes host_elf_linking(const std::vector<std::string>& needed,
                              std::vector<std::pair<std::string, bytes>> sections = {}) {
    bytes dynstr(1, 0);
    bytes dynamic;
    for (const std::string& lib : needed) {
        put_le(dynamic, dynamic.size(), 8, 1);  // DT_NEEDED
        put_le(dynamic, dynamic.size(), 8, dynstr.size());
        append(dynstr, lib);
        dynstr.push_back(0);
    }
    put_le(dynamic, dynamic.size(), 8, 0);  // DT_NULL
    put_le(dynamic, dynamic.size(), 8, 0);
    sections.emplace_back(".dynstr", dynstr);
    sections.emplace_back(".dynamic", dynamic);
    bytes f = host_elf(sections, 8);
    const std::size_t shoff = static_cast<std::size_t>(get_le(f, 40, 8));
    const std::size_t dynstr_index = sections.size() - 1;              // section 0 is the null section
    put_le(f, shoff + dynstr_index * 64 + 4, 4, 3);                    // SHT_STRTAB
    put_le(f, shoff + (dynstr_index + 1) * 64 + 4, 4, 6);              // SHT_DYNAMIC
    put_le(f, shoff + (dynstr_index + 1) * 64 + 40, 4, dynstr_index);  // sh_link
    return f;
}

// An offload bundle; entry contents are placed after the header, each aligned to `align`.
inline bytes bundle(const std::vector<std::pair<std::string, bytes>>& entries, std::size_t align = 8) {
    bytes b;
    append(b, "__CLANG_OFFLOAD_BUNDLE__");
    put_le(b, b.size(), 8, entries.size());
    std::vector<std::size_t> headers;
    for (const auto& e : entries) {
        headers.push_back(b.size());
        b.resize(b.size() + 24);
        put_le(b, headers.back() + 16, 8, e.first.size());
        append(b, e.first);
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        pad_to(b, align);
        put_le(b, headers[i], 8, entries[i].second.empty() ? 0 : b.size());
        put_le(b, headers[i] + 8, 8, entries[i].second.size());
        append(b, entries[i].second);
    }
    return b;
}

}  // namespace code_object_builder
