// SPDX-License-Identifier: MIT
// The few parts of an ELF64 little-endian file the code object reader needs: the header, section and
// program header tables, section names and notes. Written from the ELF specification rather than
// on <elf.h> (not available on every platform the CLI builds on), and every
// table, name and note is checked against the file before it is read.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // ELF's fixed-width fields
#include <string>       // messages
#include <string_view>  // section names and note owners, as views into the file
#include <vector>       // the section and program header tables

#include "byte_view.hpp"

namespace wavefit::analysis {
namespace detail {

inline constexpr std::string_view elf_magic{
    "\x7f"
    "ELF",
    4};
inline constexpr std::uint16_t elf_machine_amdgpu = 224;  // EM_AMDGPU
inline constexpr std::uint32_t elf_section_note = 7;      // SHT_NOTE
inline constexpr std::uint32_t elf_section_nobits = 8;    // SHT_NOBITS: occupies no file bytes
inline constexpr std::uint32_t elf_section_dynamic = 6;   // SHT_DYNAMIC
inline constexpr std::uint64_t elf_dynamic_null = 0;      // DT_NULL: the end of the dynamic array
inline constexpr std::uint64_t elf_dynamic_needed = 1;    // DT_NEEDED: a shared library the file links
inline constexpr std::uint32_t elf_segment_note = 4;      // PT_NOTE

struct elf_section {
    std::string_view name;  // empty when the file has no section name table
    std::uint32_t type = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t align = 0;
    std::uint32_t link = 0;  // sh_link: for SHT_DYNAMIC, the index of its string table
};

struct elf_segment {
    std::uint32_t type = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;  // p_filesz
    std::uint64_t align = 0;
};

struct elf_file {
    byte_view bytes;
    std::uint16_t machine = 0;
    std::uint32_t flags = 0;
    std::vector<elf_section> sections;
    std::vector<elf_segment> segments;

    // The bytes of a section or segment, checked against the file.
    byte_view contents(const elf_section& s, const char* what) const { return bytes.sub(s.offset, s.size, what); }
    byte_view contents(const elf_segment& s, const char* what) const { return bytes.sub(s.offset, s.size, what); }
};

// A section name: read up to its terminator, at most 256 characters (no name wavefit looks for is
// longer, and the bound keeps name lookups linear in the number of sections).
inline std::string_view elf_section_name(byte_view strtab, std::uint32_t offset) {
    constexpr std::uint64_t longest = 256;
    if (offset >= strtab.size)
        fail("section name offset " + hex(offset) + " is outside the name table at " + hex(strtab.base));
    const std::uint64_t room = strtab.size - offset;
    const std::uint64_t limit = room < longest ? room : longest;
    for (std::uint64_t i = 0; i < limit; ++i)
        if (strtab.data[static_cast<std::size_t>(offset + i)] == 0) return strtab.chars(offset, i, "section name");
    return {};  // unterminated or too long: not a name wavefit knows
}

inline elf_file read_elf(byte_view bytes) {
    elf_file f;
    f.bytes = bytes;
    bytes.require(0, 64, "ELF header");
    if (!bytes.starts_with(elf_magic)) fail("no ELF magic at " + hex(bytes.base));
    if (bytes.data[4] != 2)
        fail("ELF file at " + hex(bytes.base) + " is not 64-bit (ELFCLASS " + std::to_string(bytes.data[4]) +
             "); only ELF64 is supported");
    if (bytes.data[5] != 1)
        fail("ELF file at " + hex(bytes.base) + " is not little-endian (ELFDATA " + std::to_string(bytes.data[5]) +
             "); only little-endian is supported");
    f.machine = bytes.u16(18, "e_machine");
    f.flags = bytes.u32(48, "e_flags");
    const std::uint64_t phoff = bytes.u64(32, "e_phoff");
    const std::uint64_t shoff = bytes.u64(40, "e_shoff");
    const std::uint16_t phentsize = bytes.u16(54, "e_phentsize");
    const std::uint16_t phnum = bytes.u16(56, "e_phnum");
    const std::uint16_t shentsize = bytes.u16(58, "e_shentsize");
    std::uint64_t shnum = bytes.u16(60, "e_shnum");
    const std::uint16_t shstrndx = bytes.u16(62, "e_shstrndx");

    if (phnum != 0) {
        if (phnum == 0xffff)
            fail("ELF file at " + hex(bytes.base) + " uses extended program header numbering, which is not supported");
        if (phentsize != 56)
            fail("ELF program header size " + std::to_string(phentsize) + " at " + hex(bytes.base + 54) + " is not 56");
        const byte_view table = bytes.sub(phoff, std::uint64_t{phnum} * 56, "ELF program header table");
        f.segments.reserve(phnum);
        for (std::uint64_t i = 0; i < phnum; ++i) {
            const std::uint64_t at = i * 56;
            f.segments.push_back(elf_segment{table.u32(at, "p_type"), table.u64(at + 8, "p_offset"),
                                             table.u64(at + 32, "p_filesz"), table.u64(at + 48, "p_align")});
        }
    }

    if (shoff != 0 || shnum != 0) {
        if (shentsize != 64)
            fail("ELF section header size " + std::to_string(shentsize) + " at " + hex(bytes.base + 58) + " is not 64");
        if (shnum == 0) {
            // Extended numbering keeps the real count in section 0's sh_size (more than 65279 sections).
            if (bytes.sub(shoff, 64, "ELF section header 0").u64(32, "sh_size") != 0)
                fail("ELF file at " + hex(bytes.base) + " uses extended section numbering, which is not supported");
        }
        const byte_view table = bytes.sub(shoff, shnum * 64, "ELF section header table");
        f.sections.reserve(static_cast<std::size_t>(shnum));
        std::vector<std::uint32_t> name_offsets;
        name_offsets.reserve(static_cast<std::size_t>(shnum));
        for (std::uint64_t i = 0; i < shnum; ++i) {
            const std::uint64_t at = i * 64;
            name_offsets.push_back(table.u32(at, "sh_name"));
            f.sections.push_back(elf_section{{},
                                             table.u32(at + 4, "sh_type"),
                                             table.u64(at + 24, "sh_offset"),
                                             table.u64(at + 32, "sh_size"),
                                             table.u64(at + 48, "sh_addralign"),
                                             table.u32(at + 40, "sh_link")});
        }
        if (shstrndx == 0xffff)
            fail("ELF file at " + hex(bytes.base) + " uses an extended section name table index, which is not supported");
        if (shstrndx != 0 && shnum != 0) {
            if (shstrndx >= shnum)
                fail("ELF section name table index " + std::to_string(shstrndx) + " at " + hex(bytes.base + 62) +
                     " is not below the section count " + std::to_string(shnum));
            const elf_section& names = f.sections[shstrndx];
            if (names.type == elf_section_nobits)
                fail("ELF section name table at " + hex(bytes.base + shoff + std::uint64_t{shstrndx} * 64) +
                     " has no file contents");
            const byte_view strtab = f.contents(names, "ELF section name table");
            for (std::size_t i = 0; i < f.sections.size(); ++i)
                f.sections[i].name = elf_section_name(strtab, name_offsets[i]);
        }
    }
    return f;
}

// The shared libraries the file links (the DT_NEEDED entries of its dynamic section, in order), at
// most `max_names` of them, each at most 256 characters. Only for a hint in a message, so it never
// fails: a missing, truncated or hostile dynamic section or string table gives fewer names. The
// first SHT_DYNAMIC section is read (ELF allows one), entry by entry up to DT_NULL or its end, so
// the work is linear in its size.
inline std::vector<std::string_view> elf_needed_libraries(const elf_file& f, std::size_t max_names) {
    constexpr std::uint64_t longest = 256;
    constexpr std::uint64_t entry_size = 16;  // Elf64_Dyn: d_tag, d_val
    std::vector<std::string_view> names;
    for (const elf_section& dynamic : f.sections) {
        if (dynamic.type != elf_section_dynamic) continue;
        if (dynamic.link >= f.sections.size() || !f.bytes.contains(dynamic.offset, dynamic.size)) return names;
        const elf_section& strtab = f.sections[dynamic.link];
        if (strtab.type == elf_section_nobits || !f.bytes.contains(strtab.offset, strtab.size)) return names;
        const byte_view entries = f.bytes.sub(dynamic.offset, dynamic.size, "dynamic section");
        const byte_view strings = f.bytes.sub(strtab.offset, strtab.size, "dynamic string table");
        for (std::uint64_t at = 0; at + entry_size <= entries.size && names.size() < max_names; at += entry_size) {
            const std::uint64_t tag = entries.u64(at, "d_tag");
            if (tag == elf_dynamic_null) break;
            if (tag != elf_dynamic_needed) continue;
            const std::uint64_t offset = entries.u64(at + 8, "d_val");
            if (offset >= strings.size) continue;
            const std::uint64_t room = strings.size - offset;
            const std::uint64_t limit = room < longest ? room : longest;
            for (std::uint64_t i = 0; i < limit; ++i) {
                if (strings.data[static_cast<std::size_t>(offset + i)] != 0) continue;
                if (i > 0) names.push_back(strings.chars(offset, i, "DT_NEEDED name"));
                break;
            }
        }
        return names;
    }
    return names;
}

struct elf_note {
    std::string_view owner;  // without the terminating NUL
    std::uint32_t type = 0;
    byte_view desc;
};

// Calls visit(const elf_note&) for each note in one note section or segment. Notes are 4-byte
// aligned in AMDGPU code objects; a section or segment aligned to 8 uses 8 (as GNU property notes do).
template <class Visit>
void for_each_note_in(byte_view region, std::uint64_t align, Visit&& visit) {
    const std::uint64_t a = align == 8 ? 8 : 4;
    const auto align_up = [a](std::uint64_t v) { return (v + a - 1) / a * a; };
    std::uint64_t pos = 0;
    while (pos < region.size) {
        region.require(pos, 12, "ELF note header");
        const std::uint32_t namesz = region.u32(pos, "note namesz");
        const std::uint32_t descsz = region.u32(pos + 4, "note descsz");
        elf_note note;
        note.type = region.u32(pos + 8, "note type");
        std::string_view owner = region.chars(pos + 12, namesz, "ELF note name");
        while (!owner.empty() && owner.back() == '\0') owner.remove_suffix(1);
        note.owner = owner;
        const std::uint64_t desc_at = align_up(pos + 12 + namesz);
        note.desc = region.sub(desc_at, descsz, "ELF note descriptor");
        visit(static_cast<const elf_note&>(note));
        pos = align_up(desc_at + descsz);
    }
}

// Every note of the file: from the SHT_NOTE sections when there are any, else from the PT_NOTE
// segments (a file stripped of section headers), never both, so no note is seen twice. The regions
// together may not exceed the file, which keeps the work linear even if they overlap.
template <class Visit>
void for_each_note(const elf_file& f, Visit&& visit) {
    std::uint64_t total = 0;
    const auto account = [&](std::uint64_t size, const char* what) {
        total += size > f.bytes.size ? f.bytes.size + 1 : size;
        if (total > f.bytes.size)
            fail(std::string(what) + " of the ELF file at " + hex(f.bytes.base) + " add up to more than the file (" +
                 std::to_string(f.bytes.size) + " bytes)");
    };
    bool any_section = false;
    for (const elf_section& s : f.sections) {
        if (s.type != elf_section_note) continue;
        any_section = true;
        account(s.size, "note sections");
        for_each_note_in(f.contents(s, "ELF note section"), s.align, visit);
    }
    if (any_section) return;
    for (const elf_segment& s : f.segments) {
        if (s.type != elf_segment_note) continue;
        account(s.size, "note segments");
        for_each_note_in(f.contents(s, "ELF note segment"), s.align, visit);
    }
}

}  // namespace detail
}  // namespace wavefit::analysis
