// SPDX-License-Identifier: MIT
// The ELF64 reader (elf_reader.hpp): headers, tables and names, every one checked against the file.
#include "elf_reader.hpp"

namespace wavefit::analysis::detail {
namespace {

// A section name: read up to its terminator, at most 256 characters (no name wavefit looks for is
// longer, and the bound keeps name lookups linear in the number of sections).
std::string_view elf_section_name(byte_view strtab, std::uint32_t offset) {
    constexpr std::uint64_t longest = 256;
    if (offset >= strtab.size)
        fail("section name offset " + hex(offset) + " is outside the name table at " + hex(strtab.base));
    const std::uint64_t room = strtab.size - offset;
    const std::uint64_t limit = room < longest ? room : longest;
    for (std::uint64_t i = 0; i < limit; ++i)
        if (strtab.data[static_cast<std::size_t>(offset + i)] == 0) return strtab.chars(offset, i, "section name");
    return {};  // unterminated or too long: not a name wavefit knows
}

}  // namespace

elf_file read_elf(byte_view bytes) {
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

std::vector<std::string_view> elf_needed_libraries(const elf_file& f, std::size_t max_names) {
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

}  // namespace wavefit::analysis::detail
