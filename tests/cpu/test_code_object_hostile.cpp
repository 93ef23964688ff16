// SPDX-License-Identifier: MIT
// Specification of wavefit::analysis::read_kernels on malformed, truncated and hostile input: every problem is
// a code_object_error with one line naming what is wrong, never a crash, an out-of-bounds read (each
// input below is its own allocation of exactly its size, for ASan), another exception type, or work
// that grows faster than the input.
#include <catch2/catch.hpp>

#include <cstdint>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "analysis/code_object.hpp"

#include "../code_object/code_object_builder.hpp"

namespace {

namespace cob = code_object_builder;
using cob::bytes;

// "" when `b` reads; the one-line message when it is refused; fails the test on anything else.
std::string error_of(const bytes& b) {
    const bytes exact(b);  // its own allocation of exactly b.size() bytes
    try {
        (void)wavefit::analysis::read_kernels(exact.data(), exact.size());
        return "";
    } catch (const wavefit::analysis::code_object_error& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK(!message.empty());
        CHECK(message.find('\n') == std::string::npos);
        return message.empty() ? "(empty message)" : message;
    } catch (const std::exception& e) {
        FAIL("not a code_object_error: " << e.what());
    }
    return "unreachable";
}

bytes small_code_object() { return cob::code_object(cob::metadata({cob::kernel_spec::named("_Z5lightPf")})); }

bytes small_bundle() {
    return cob::bundle({{"host-x86_64-unknown-linux", {}}, {"hipv4-amdgcn-amd-amdhsa--gfx90a", small_code_object()}});
}

bytes small_host_elf() { return cob::host_elf({{".text", bytes(32, 0x90)}, {".hip_fatbin", small_bundle()}}); }

// CPU seconds (not wall time, so that a loaded machine does not fail the test).
double seconds_to_read(const bytes& b) {
    const std::clock_t start = std::clock();
    (void)error_of(b);
    return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// A code object whose metadata is `megabytes` MiB large, one kernel: an unknown key holds an array of
// one-byte nils, so reading the note costs time in proportion to its size.
cob::code_object_layout big_code_object(std::size_t megabytes) {
    cob::msgpack m;
    m.map(3).str("padding").array(megabytes << 20);
    m.out.insert(m.out.end(), megabytes << 20, 0xc0);
    m.str("amdhsa.kernels").array(1);
    cob::write_kernel(m, cob::kernel_spec{});
    m.str("amdhsa.target").str("amdgcn-amd-amdhsa--gfx90a");
    return cob::code_object_with_layout(m.out);
}

}  // namespace

TEST_CASE("inputs that are no AMDGPU code object are refused with the reason", "[code_object][hostile]") {
    CHECK_THAT(error_of({}), Catch::Contains("empty input"));
    CHECK_THAT(error_of(bytes{'h', 'e', 'l', 'l', 'o'}),
               Catch::Contains("not an AMDGPU code object, clang offload bundle or ELF"));
    bytes archive;
    cob::append(archive, "!<arch>\nmember.o/       ");
    CHECK_THAT(error_of(archive), Catch::Contains("static archives are not supported"));
    CHECK_THAT(error_of(bytes{'B', 'C', 0xc0, 0xde, 1, 2}), Catch::Contains("LLVM bitcode"));
    CHECK_THAT(error_of(cob::host_elf({{".text", bytes(32, 0x90)}})), Catch::Contains("no .hip_fatbin section"));

    bytes elf32 = small_code_object();
    elf32[4] = 1;
    CHECK_THAT(error_of(elf32), Catch::Contains("not 64-bit"));
    bytes big_endian = small_code_object();
    big_endian[5] = 2;
    CHECK_THAT(error_of(big_endian), Catch::Contains("not little-endian"));
}

TEST_CASE("a binary without device code names the shared libraries its kernels may sit in", "[code_object][hostile]") {
    const std::string app =
        error_of(cob::host_elf_linking({"libkernels.so", "libamdhip64.so.6", "libstdc++.so.6", "libc.so.6"}));
    CAPTURE(app);
    CHECK_THAT(app, Catch::Contains("no .hip_fatbin section") &&
                        Catch::Contains("shared library it links: libkernels.so (") && !Catch::Contains("libc.so") &&
                        !Catch::Contains("libamdhip64"));
    CHECK_THAT(error_of(cob::host_elf_linking({"libamdhip64.so.6", "libc.so.6"})),
               Catch::Contains("links only the C, C++ and GPU runtimes"));
    std::vector<std::string> many;
    for (int i = 0; i < 100; ++i) many.push_back("libpart" + std::to_string(i) + ".so");
    CHECK_THAT(error_of(cob::host_elf_linking(many)), Catch::Contains("libpart7.so (and 56 more)"));
}

TEST_CASE("a damaged dynamic section costs the hint, never the message", "[code_object][hostile]") {
    const bytes good = cob::host_elf_linking({"libkernels.so"});
    const std::size_t shoff = static_cast<std::size_t>(cob::get_le(good, 40, 8));
    const std::size_t dynamic = shoff + 2 * 64;  // sections: null, .dynstr, .dynamic, .shstrtab
    const std::size_t dynstr = shoff + 1 * 64;
    const std::size_t entries = static_cast<std::size_t>(cob::get_le(good, dynamic + 24, 8));
    struct damage {
        const char* what;
        std::size_t at;
        unsigned width;
        std::uint64_t value;
    };
    const damage cases[] = {
        {"sh_link past the section table", dynamic + 40, 4, 0xffffffff},
        {"sh_link to itself", dynamic + 40, 4, 2},
        {"dynamic section past the end of the file", dynamic + 24, 8, 0xfffffffffff0},
        {"dynamic section of 2^64-1 bytes", dynamic + 32, 8, ~std::uint64_t{0}},
        {"string table past the end of the file", dynstr + 32, 8, 0x7fffffffffff},
        {"string table of SHT_NOBITS", dynstr + 4, 4, 8},
        {"DT_NEEDED offset past the string table", entries + 8, 8, 0xffffff},
        {"DT_NEEDED offset of 2^64-1", entries + 8, 8, ~std::uint64_t{0}},
        {"a name without its terminator", dynstr + 32, 8, 14},
        {"an odd-sized dynamic section", dynamic + 32, 8, 23},
    };
    for (const damage& d : cases) {
        bytes b = good;
        cob::put_le(b, d.at, d.width, d.value);
        const std::string message = error_of(b);
        CAPTURE(d.what, message);
        CHECK_THAT(message, Catch::Contains("no .hip_fatbin section") || Catch::Contains("extends past the end"));
        CHECK(message.find('\n') == std::string::npos);
    }
    // Without DT_NULL, the entries end with the section.
    bytes open_ended = good;
    cob::put_le(open_ended, dynamic + 32, 8, 16);
    CHECK_THAT(error_of(open_ended), Catch::Contains("libkernels.so"));
}

TEST_CASE("compressed offload bundles are refused as such, wherever they appear", "[code_object][hostile]") {
    bytes ccob;
    cob::append(ccob, "CCOB");
    cob::append(ccob, bytes(60, 0x11));
    CHECK_THAT(error_of(ccob), Catch::Contains("compressed offload bundles are not supported"));
    CHECK_THAT(error_of(cob::host_elf({{".hip_fatbin", ccob}})),
               Catch::Contains("compressed offload bundles are not supported"));
    CHECK_THAT(error_of(cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", ccob}})),
               Catch::Contains("compressed offload bundles are not supported"));
}

TEST_CASE("an -fgpu-rdc object (LLVM bitcode per target) is refused with a hint to read the linked binary",
          "[code_object][hostile]") {
    bytes bitcode{'B', 'C', 0xc0, 0xde};
    cob::append(bitcode, bytes(64, 0x35));
    const bytes rdc = cob::host_elf({{".text", bytes(32, 0x90)},
                                     {"__CLANG_OFFLOAD_BUNDLE__hip-amdgcn-amd-amdhsa-gfx90a", bitcode},
                                     {"__CLANG_OFFLOAD_BUNDLE__host-x86_64-pc-linux-gnu", bytes(1, 0)}});
    CHECK_THAT(error_of(rdc), Catch::Contains("-fgpu-rdc") && Catch::Contains("linked"));
    // The same sections holding code objects (clang-offload-bundler --type=o) do read.
    const bytes objects = cob::host_elf({{"__CLANG_OFFLOAD_BUNDLE__hipv4-amdgcn-amd-amdhsa--gfx90a", small_code_object()}});
    CHECK(error_of(objects).empty());
}

TEST_CASE("code object v2 metadata and missing metadata are named", "[code_object][hostile]") {
    cob::elf_options v2;
    v2.owner = "AMD";
    v2.note_type = 10;
    CHECK_THAT(error_of(cob::code_object(bytes(16, 0x20), v2)), Catch::Contains("code object v2"));
    cob::elf_options gnu;
    gnu.owner = "GNU";
    gnu.note_type = 3;
    CHECK_THAT(error_of(cob::code_object(bytes(20, 0x01), gnu)), Catch::Contains("no NT_AMDGPU_METADATA note"));
    CHECK_THAT(error_of(cob::code_object(cob::metadata({cob::kernel_spec{}}, "x86_64-pc-linux-gnu"))),
               Catch::Contains("names no AMDGPU target"));
    CHECK_THAT(error_of(cob::code_object(cob::metadata({cob::kernel_spec{}}, "amdgcn-amd-amdhsa--gfx90a\n; rm -rf"))),
               Catch::Contains("names no AMDGPU target"));
}

TEST_CASE("a kernel without a field the runtime needs is refused, naming the field and the kernel",
          "[code_object][hostile]") {
    for (const char* key : {".name", ".symbol", ".vgpr_count", ".sgpr_count", ".group_segment_fixed_size",
                            ".private_segment_fixed_size", ".max_flat_workgroup_size", ".wavefront_size"}) {
        cob::kernel_spec k = cob::kernel_spec::named("_Z8my_kernelv");
        k.omit = {key};
        const std::string message = error_of(cob::code_object(cob::metadata({k})));
        CHECK_THAT(message, Catch::EndsWith(std::string("has no ") + key));
        if (std::string(key) != ".name") CHECK_THAT(message, Catch::Contains("'_Z8my_kernelv'"));
    }
}

TEST_CASE("metadata values of the wrong type, negative or beyond 32 bits are refused", "[code_object][hostile]") {
    const auto with_vgpr = [](std::initializer_list<std::uint8_t> encoded) {
        cob::msgpack m;
        m.map(2).str("amdhsa.target").str("amdgcn-amd-amdhsa--gfx90a").str("amdhsa.kernels").array(1).map(8);
        m.str(".name").str("k").str(".symbol").str("k.kd").str(".sgpr_count").number(1);
        m.str(".group_segment_fixed_size").number(0).str(".private_segment_fixed_size").number(0);
        m.str(".max_flat_workgroup_size").number(64).str(".wavefront_size").number(64);
        m.str(".vgpr_count").raw(encoded);
        return cob::code_object(m.out);
    };
    CHECK(error_of(with_vgpr({0xcd, 0x01, 0x00})).empty());  // 256
    CHECK_THAT(error_of(with_vgpr({0xcf, 0, 0, 0, 1, 0, 0, 0, 0})),
               Catch::Contains(".vgpr_count") && Catch::Contains("beyond 32 bits"));
    CHECK_THAT(error_of(with_vgpr({0xff})), Catch::Contains("negative"));
    CHECK_THAT(error_of(with_vgpr({0xd2, 0x80, 0, 0, 0})), Catch::Contains("negative"));
    CHECK_THAT(error_of(with_vgpr({0xa2, 'x', 'y'})), Catch::Contains("is not an integer"));
    CHECK_THAT(error_of(with_vgpr({0xc1})), Catch::Contains("is not an integer"));
}

TEST_CASE("msgpack counts and lengths larger than the bytes that follow are refused before any loop",
          "[code_object][hostile]") {
    const auto metadata_with = [](std::initializer_list<std::uint8_t> value) {
        cob::msgpack m;
        m.map(2).str("amdhsa.target").str("amdgcn-amd-amdhsa--gfx90a").str("future").raw(value);
        return cob::code_object(m.out);
    };
    CHECK_THAT(error_of(metadata_with({0xdf, 0xff, 0xff, 0xff, 0xff})), Catch::Contains("claims 8589934590 elements"));
    CHECK_THAT(error_of(metadata_with({0xdd, 0xff, 0xff, 0xff, 0xff})), Catch::Contains("claims 4294967295 elements"));
    CHECK_THAT(error_of(metadata_with({0xdb, 0xff, 0xff, 0xff, 0xff})), Catch::Contains("extends past the end"));
    CHECK_THAT(error_of(metadata_with({0xc6, 0x7f, 0xff, 0xff, 0xff})), Catch::Contains("extends past the end"));
    CHECK_THAT(error_of(metadata_with({0xc9, 0xff, 0xff, 0xff, 0xff})), Catch::Contains("extends past the end"));

    cob::msgpack kernels;
    kernels.map(1).str("amdhsa.kernels").raw({0xdd, 0x10, 0, 0, 0});
    CHECK_THAT(error_of(cob::code_object(kernels.out)), Catch::Contains("amdhsa.kernels") && Catch::Contains("claims"));
}

TEST_CASE("msgpack nesting is limited: a nest of 20 is skipped, a nest of 100000 refused", "[code_object][hostile]") {
    const auto nested = [](std::size_t depth) {
        cob::msgpack m;
        m.map(3).str("deep");
        m.out.insert(m.out.end(), depth, 0x91);
        m.raw({0xc0});
        m.str("amdhsa.target").str("amdgcn-amd-amdhsa--gfx90a").str("amdhsa.kernels").array(1);
        cob::write_kernel(m, cob::kernel_spec{});
        return cob::code_object(m.out);
    };
    CHECK(error_of(nested(20)).empty());
    CHECK_THAT(error_of(nested(100000)), Catch::Contains("nesting deeper than 32"));
}

TEST_CASE("notes larger than their section are refused", "[code_object][hostile]") {
    const cob::code_object_layout l = cob::code_object_with_layout(cob::metadata({cob::kernel_spec{}}));
    for (const std::uint64_t descsz : {std::uint64_t{0xffffffff}, std::uint64_t{0x80000000}, std::uint64_t{l.note_size}}) {
        bytes b = l.file;
        cob::put_le(b, l.note + 4, 4, descsz);
        CHECK_THAT(error_of(b), Catch::Contains("ELF note descriptor") && Catch::Contains("extends past the end"));
    }
    bytes b = l.file;
    cob::put_le(b, l.note, 4, 0xffffffff);
    CHECK_THAT(error_of(b), Catch::Contains("ELF note name"));
}

TEST_CASE("section and program headers pointing outside the file, or overflowing, are refused", "[code_object][hostile]") {
    const cob::code_object_layout l = cob::code_object_with_layout(cob::metadata({cob::kernel_spec{}}));
    const std::uint64_t size = l.file.size();
    const std::size_t note_header = l.shoff + 64;
    struct damage {
        std::size_t offset;
        unsigned width;
        std::uint64_t value;
        const char* expect;
    };
    const damage cases[] = {
        {40, 8, size, "section header table"},                     // e_shoff at the end
        {40, 8, ~std::uint64_t{0} - 8, "section header table"},    // e_shoff overflowing
        {60, 2, 0xfffe, "section header table"},                   // e_shnum beyond the file
        {58, 2, 40, "section header size"},                        // e_shentsize
        {62, 2, 9, "section name table index"},                    // e_shstrndx >= e_shnum
        {note_header + 24, 8, size, "note section"},               // sh_offset at the end
        {note_header + 24, 8, ~std::uint64_t{0}, "note section"},  // sh_offset + sh_size overflows
        {note_header + 32, 8, ~std::uint64_t{0}, "note section"},  // sh_size huge
        {note_header, 4, 0xfffffff0, "section name offset"},       // sh_name outside .shstrtab
        {32, 8, size - 8, "program header table"},                 // e_phoff near the end
        {56, 2, 0xffff, "extended program header numbering"},      // PN_XNUM
    };
    for (const damage& d : cases) {
        bytes b = l.file;
        cob::put_le(b, d.offset, d.width, d.value);
        INFO("field at " << d.offset << " set to " << d.value);
        CHECK_THAT(error_of(b), Catch::Contains(d.expect));
    }
    // Without section headers the program header's note is used, and checked the same way.
    cob::elf_options no_sections;
    no_sections.section_headers = false;
    const cob::code_object_layout p = cob::code_object_with_layout(cob::metadata({cob::kernel_spec{}}), no_sections);
    bytes b = p.file;
    cob::put_le(b, p.phoff + 32, 8, ~std::uint64_t{0});
    CHECK_THAT(error_of(b), Catch::Contains("note segment"));
}

TEST_CASE("offload bundle counts, offsets, sizes and ids that do not fit are refused", "[code_object][hostile]") {
    const bytes good = small_bundle();
    const std::size_t host_entry = 32, gfx_entry = 32 + 24 + 25;
    struct damage {
        std::size_t offset;
        std::uint64_t value;
        const char* expect;
    };
    const damage cases[] = {
        {24, ~std::uint64_t{0}, "entries, more than"},
        {24, 1u << 20, "entries, more than"},
        {gfx_entry, ~std::uint64_t{0} - 8, "extends past the end"},  // offset + size overflows
        {gfx_entry + 8, ~std::uint64_t{0}, "extends past the end"},
        {gfx_entry + 8, good.size(), "extends past the end"},
        {gfx_entry + 16, ~std::uint64_t{0}, "entry id"},
        {host_entry + 16, 1u << 30, "entry id"},
        {gfx_entry, 0, "neither an AMDGPU code object nor LLVM bitcode"},  // points at the bundle header
    };
    for (const damage& d : cases) {
        bytes b = good;
        cob::put_le(b, d.offset, 8, d.value);
        INFO("field at " << d.offset << " set to " << d.value);
        CHECK_THAT(error_of(b), Catch::Contains(d.expect));
    }
    bytes junk = small_bundle();
    cob::pad_to(junk, 4096);
    cob::append(junk, "garbage!");
    CHECK_THAT(error_of(cob::host_elf({{".hip_fatbin", junk}})), Catch::Contains("expected an offload bundle"));
}

TEST_CASE("every truncation of a code object, a bundle and a host ELF is refused", "[code_object][hostile]") {
    for (const bytes& whole : {small_code_object(), small_bundle(), small_host_elf()}) {
        REQUIRE(error_of(whole).empty());
        for (std::size_t n = 0; n < whole.size(); ++n) {
            INFO("truncated to " << n << " of " << whole.size() << " bytes");
            CHECK_FALSE(error_of(bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n))).empty());
        }
    }
}

TEST_CASE("any single damaged byte reads or is refused cleanly", "[code_object][hostile]") {
    for (const bytes& whole : {small_code_object(), small_bundle(), small_host_elf()}) {
        std::size_t refused = 0;
        for (std::size_t i = 0; i < whole.size(); ++i) {
            for (const std::uint8_t value : {std::uint8_t{0}, std::uint8_t{0xff}, static_cast<std::uint8_t>(whole[i] ^ 1),
                                             static_cast<std::uint8_t>(whole[i] ^ 0x80)}) {
                bytes b = whole;
                b[i] = value;
                refused += error_of(b).empty() ? 0 : 1;
            }
        }
        CHECK(refused > 0);
    }
}

TEST_CASE("overlapping regions cannot multiply the work: refusal stays linear in the file size", "[code_object][hostile]") {
    const cob::code_object_layout big = big_code_object(4);
    REQUIRE(error_of(big.file).empty());

    SECTION("65535 note sections over one 4 MiB note") {
        // Append a section header table of 65535 copies of the .note header.
        bytes b = big.file;
        const std::size_t shoff = b.size();
        for (std::size_t i = 0; i < 65535; ++i)
            b.insert(b.end(), big.file.begin() + static_cast<std::ptrdiff_t>(big.shoff + 64),
                     big.file.begin() + static_cast<std::ptrdiff_t>(big.shoff + 128));
        cob::put_le(b, 40, 8, shoff);
        cob::put_le(b, 60, 2, 65535);
        cob::put_le(b, 62, 2, 0);
        CHECK_THAT(error_of(b), Catch::Contains("add up to more than the file"));
        CHECK(seconds_to_read(b) < 2.0);
    }
    SECTION("100000 bundle entries over one 4 MiB code object") {
        std::vector<std::pair<std::string, bytes>> entries{{"hipv4-amdgcn-amd-amdhsa--gfx90a", big.file}};
        bytes b = cob::bundle(entries);
        const std::uint64_t offset = cob::get_le(b, 32, 8), size = cob::get_le(b, 40, 8);
        bytes header(b.begin(), b.begin() + 32);
        cob::put_le(header, 24, 8, 100000);
        const std::string id = "hipv4-amdgcn-amd-amdhsa--gfx90a";
        const std::uint64_t shift = 99999 * (24 + id.size());
        for (int i = 0; i < 100000; ++i) {
            const std::size_t at = header.size();
            cob::put_le(header, at, 8, offset + shift);
            cob::put_le(header, at + 8, 8, size);
            cob::put_le(header, at + 16, 8, id.size());
            cob::append(header, id);
        }
        header.insert(header.end(), b.begin() + static_cast<std::ptrdiff_t>(32 + 24 + id.size()), b.end());
        CHECK_THAT(error_of(header), Catch::Contains("add up to more than"));
        CHECK(seconds_to_read(header) < 2.0);
    }
    SECTION("1000 .hip_fatbin sections over one bundle") {
        const bytes fatbin = cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", big.file}});
        bytes elf = cob::host_elf({{".hip_fatbin", fatbin}});
        const std::uint64_t shoff = cob::get_le(elf, 40, 8);
        const std::size_t fatbin_header = static_cast<std::size_t>(shoff + 64);
        const bytes copy(elf.begin() + static_cast<std::ptrdiff_t>(fatbin_header),
                         elf.begin() + static_cast<std::ptrdiff_t>(fatbin_header + 64));
        const std::size_t names_header = static_cast<std::size_t>(shoff + 128);
        const bytes names(elf.begin() + static_cast<std::ptrdiff_t>(names_header),
                          elf.begin() + static_cast<std::ptrdiff_t>(names_header + 64));
        elf.resize(static_cast<std::size_t>(shoff) + 64);  // keep the null header
        for (int i = 0; i < 1000; ++i) cob::append(elf, copy);
        cob::append(elf, names);
        cob::put_le(elf, 60, 2, 1002);
        cob::put_le(elf, 62, 2, 1001);
        CHECK_THAT(error_of(elf), Catch::Contains("add up to more than the file"));
        CHECK(seconds_to_read(elf) < 2.0);
    }
}
