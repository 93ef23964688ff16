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

// The header, the section and program header tables and the section names of the ELF64 file in
// `bytes`; fails (code_object_error) on anything malformed or unsupported.
elf_file read_elf(byte_view bytes);

// The shared libraries the file links (the DT_NEEDED entries of its dynamic section, in order), at
// most `max_names` of them, each at most 256 characters. Only for a hint in a message, so it never
// fails: a missing, truncated or hostile dynamic section or string table gives fewer names. The
// first SHT_DYNAMIC section is read (ELF allows one), entry by entry up to DT_NULL or its end, so
// the work is linear in its size.
std::vector<std::string_view> elf_needed_libraries(const elf_file& f, std::size_t max_names);

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
