// SPDX-License-Identifier: MIT
// Specification of wavefit::analysis::read_kernels on well-formed input of every container kind: a code object
// (notes through section or program headers), an offload bundle, a host ELF whose .hip_fatbin holds
// padded bundles, and what the kernel metadata means for the planning core. Inputs are built byte by
// byte (tests/code_object/code_object_builder.hpp); real compiler output is tested in tests/code_object.
#include <catch2/catch.hpp>

#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "analysis/code_object.hpp"
#include "analysis/offload_bundle.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "../code_object/code_object_builder.hpp"

namespace analysis = wavefit::analysis;

namespace {

namespace cob = code_object_builder;
using cob::bytes;
using wavefit::analysis::code_object_error;
using wavefit::analysis::code_object_kernel;

std::vector<code_object_kernel> read(const bytes& b) { return analysis::read_kernels(b.data(), b.size()); }

cob::kernel_spec mfma_kernel() {
    return cob::kernel_spec::named("_Z15mfma_accumulatePKDv4_DF16_PDv16_fi").registers(276, 128, 9).bound(256);
}

cob::kernel_spec spilling_kernel() {
    return cob::kernel_spec::named("_Z17heavy_1024_spillsPKfPfi").registers(128, 0, 18).spills(62, 0).memory(4096, 252);
}

// Every metadata field of `read` is what `written` put into the code object (the defaults of kernel_spec
// included: wavefront 64, a bound of 1024, no LDS, no scratch).
void check_read_as_written(const code_object_kernel& read, const cob::kernel_spec& written) {
    CAPTURE(written.name);
    CHECK(read.name == written.name);
    CHECK(read.vgpr_count == written.vgpr_count);
    CHECK(read.agpr_count == written.agpr_count);
    CHECK(read.sgpr_count == written.sgpr_count);
    CHECK(read.vgpr_spill_count == written.vgpr_spill_count);
    CHECK(read.sgpr_spill_count == written.sgpr_spill_count);
    CHECK(read.wavefront_size == written.wavefront_size);
    CHECK(read.max_flat_workgroup_size == written.max_flat_workgroup_size);
    CHECK(read.group_segment_fixed_size == written.group_segment_fixed_size);
    CHECK(read.private_segment_fixed_size == written.private_segment_fixed_size);
}

}  // namespace

TEST_CASE("every metadata field of every kernel of a code object is read", "[code_object]") {
    const auto kernels = read(cob::code_object(cob::metadata({mfma_kernel(), spilling_kernel()})));
    REQUIRE(kernels.size() == 2);
    const code_object_kernel& m = kernels[0];
    check_read_as_written(m, mfma_kernel());
    CHECK(m.target == "gfx90a");
    CHECK(m.target_id == "gfx90a:sramecc+:xnack-");
    CHECK(m.symbol == "_Z15mfma_accumulatePKDv4_DF16_PDv16_fi.kd");
    CHECK_FALSE(m.spills());
    CHECK_FALSE(m.uses_scratch());
    CHECK(m.code_object_offset == 0);

    const code_object_kernel& s = kernels[1];
    check_read_as_written(s, spilling_kernel());
    CHECK(s.spills());
    CHECK(s.uses_scratch());
}

TEST_CASE("resources() hands the metadata to the planning core unchanged", "[code_object]") {
    const auto kernels = read(cob::code_object(cob::metadata({spilling_kernel()})));
    const wavefit::kernel_resources r = kernels.at(0).resources();
    CHECK(r.registers == 128);
    CHECK(r.scalar_registers == 18);
    CHECK(r.static_shared == 4096);
    CHECK(r.max_threads_per_block == 1024);
    CHECK(r.local_bytes_per_thread == 252);
}

TEST_CASE("a unified count of 276 VGPRs+AGPRs leaves one wave per SIMD on gfx90a: one 256-thread block per CU",
          "[code_object]") {
    const auto kernels = read(cob::code_object(cob::metadata({mfma_kernel()})));
    const wavefit::device_limits* d = wavefit::presets::find(kernels.at(0).target_id);
    REQUIRE(d != nullptr);
    const wavefit::occupancy_report r = wavefit::occupancy(*d, kernels[0].resources(), 256);
    CHECK(r.active_blocks_per_cu == 1);  // 512 / align8(276) = 1 wave per SIMD, 4 SIMDs, 4 waves per block
    CHECK(r.limited_by == wavefit::occupancy_report::limiter::registers);
    CHECK(wavefit::occupancy(*d, kernels[0].resources(), 320).limited_by == wavefit::occupancy_report::limiter::block_size);
}

TEST_CASE("the target comes from amdhsa.target, features kept in target_id", "[code_object]") {
    for (const auto& [target, isa, id] :
         {std::tuple<std::string, std::string, std::string>{"amdgcn-amd-amdhsa--gfx940", "gfx940", "gfx940"},
          {"amdgcn-amd-amdhsa--gfx940:xnack+", "gfx940", "gfx940:xnack+"},
          {"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942", "gfx942:sramecc+:xnack-"},
          {"amdgcn-amd-amdhsa--gfx1100", "gfx1100", "gfx1100"}}) {
        const auto kernels = read(cob::code_object(cob::metadata({cob::kernel_spec{}}, target)));
        CHECK(kernels.at(0).target == isa);
        CHECK(kernels.at(0).target_id == id);
    }
}

TEST_CASE("optional metadata fields default to zero; unknown keys and every msgpack type are skipped", "[code_object]") {
    cob::msgpack m;
    m.map(4);
    m.str("amdhsa.printf").array(1).str("1:1:4:%d\\n");
    m.str("amdhsa.kernels").array(1);
    m.map(12);
    m.str(".name").str("_Z1kv").str(".symbol").str("_Z1kv.kd");
    m.str(".vgpr_count").raw({0xcf, 0, 0, 0, 0, 0, 0, 0, 40});   // uint64 encoding
    m.str(".sgpr_count").raw({0xd0, 20});                        // int8 encoding of a positive value
    m.str(".group_segment_fixed_size").raw({0xce, 0, 1, 0, 0});  // uint32: 65536
    m.str(".private_segment_fixed_size").number(0);
    m.str(".max_flat_workgroup_size").raw({0xd1, 0x01, 0x00});  // int16: 256
    m.str(".wavefront_size").number(64);
    m.str(".uses_dynamic_stack").boolean(true);
    m.str(".future_float").raw({0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18});
    // nil, float32, bin8, fixext1, a negative fixint, a negative int64
    m.str(".future_things").array(6).raw({0xc0, 0xca, 0, 0, 0, 0, 0xc4, 2, 1, 2, 0xd4, 1, 7, 0xff});
    m.raw({0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe});
    // a str8-encoded key, a nested map with a negative integer key
    m.raw({0xd9, 5, '.', 'k', 'e', 'y', 's'}).map(1).str("nested").map(1).raw({0xe0}).array(0);
    m.str("amdhsa.target").str("amdgcn-amd-amdhsa--gfx90a");
    m.str("amdhsa.version").array(2).number(1).number(2);
    const auto kernels = read(cob::code_object(m.out));
    REQUIRE(kernels.size() == 1);
    const code_object_kernel& k = kernels[0];
    CHECK(k.vgpr_count == 40);
    CHECK(k.sgpr_count == 20);
    CHECK(k.agpr_count == 0);
    CHECK(k.vgpr_spill_count == 0);
    CHECK(k.group_segment_fixed_size == 65536);
    CHECK(k.max_flat_workgroup_size == 256);
    CHECK(k.uses_dynamic_stack);
    CHECK(k.uses_scratch());
}

TEST_CASE("notes are found through program headers when a code object has no section headers", "[code_object]") {
    cob::elf_options o;
    o.section_headers = false;
    CHECK(read(cob::code_object(cob::metadata({mfma_kernel()}), o)).at(0).vgpr_count == 276);
}

TEST_CASE("a note is read once even though both a section and a segment describe it", "[code_object]") {
    CHECK(read(cob::code_object(cob::metadata({mfma_kernel()}))).size() == 1);
}

TEST_CASE("notes in an 8-byte aligned note section are read with 8-byte padding", "[code_object]") {
    cob::elf_options o;
    o.note_align = 8;
    o.owner = "AMDGPU";  // 7 bytes with the terminator: padded to 8, not 4
    const bytes file = cob::code_object(cob::metadata({spilling_kernel()}), o);
    CHECK(read(file).at(0).private_segment_fixed_size == 252);
}

TEST_CASE("a code object without kernels is refused with a message saying so", "[code_object]") {
    CHECK_THROWS_WITH(read(cob::code_object(cob::metadata({}))), Catch::Contains("none defines a kernel"));
}

TEST_CASE("an offload bundle yields one entry per kernel per target and skips the host entry", "[code_object]") {
    const bytes gfx90a = cob::code_object(cob::metadata({mfma_kernel(), spilling_kernel()}, "amdgcn-amd-amdhsa--gfx90a"));
    const bytes gfx940 = cob::code_object(cob::metadata({mfma_kernel(), spilling_kernel()}, "amdgcn-amd-amdhsa--gfx940"));
    const bytes b = cob::bundle({{"host-x86_64-unknown-linux", {}},
                                 {"hipv4-amdgcn-amd-amdhsa--gfx90a", gfx90a},
                                 {"hipv4-amdgcn-amd-amdhsa--gfx940", gfx940}},
                                4096);
    const auto kernels = read(b);
    REQUIRE(kernels.size() == 4);
    CHECK(kernels[0].target == "gfx90a");
    CHECK(kernels[1].target == "gfx90a");
    CHECK(kernels[2].target == "gfx940");
    CHECK(kernels[3].name == "_Z17heavy_1024_spillsPKfPfi");
    CHECK(kernels[0].code_object_offset == 4096);
    CHECK(kernels[2].code_object_offset > kernels[0].code_object_offset);
}

TEST_CASE("without amdhsa.target (code object v3) the target comes from the bundle entry id", "[code_object]") {
    const bytes co = cob::code_object(cob::metadata({cob::kernel_spec{}}, ""));
    CHECK(read(cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", co}})).at(0).target_id == "gfx90a:xnack-");
    CHECK(read(cob::bundle({{"hip-amdgcn-amd-amdhsa-gfx908", co}})).at(0).target == "gfx908");
    CHECK_THROWS_WITH(read(co), Catch::Contains("no amdhsa.target"));
}

TEST_CASE("bundle entries of other offload kinds and vendors are skipped", "[code_object]") {
    const bytes co = cob::code_object(cob::metadata({cob::kernel_spec{}}));
    const bytes b = cob::bundle({{"openmp-nvptx64-nvidia-cuda-sm_70", bytes(64, 0x42)},
                                 {"host-x86_64-unknown-linux-gnu", bytes(16, 0x42)},
                                 {"hipv4-amdgcn-amd-amdhsa--gfx90a", co}});
    CHECK(read(b).size() == 1);
}

TEST_CASE("a host ELF's .hip_fatbin with two zero-padded bundles yields the kernels of both", "[code_object]") {
    const cob::kernel_spec second = cob::kernel_spec::named("_Z15second_tu_scalePddj");
    const bytes first_bundle = cob::bundle(
        {{"host-x86_64-unknown-linux", {}},
         {"hipv4-amdgcn-amd-amdhsa--gfx90a", cob::code_object(cob::metadata({mfma_kernel(), spilling_kernel()}))}},
        4096);
    const bytes second_bundle = cob::bundle(
        {{"host-x86_64-unknown-linux", {}}, {"hipv4-amdgcn-amd-amdhsa--gfx90a", cob::code_object(cob::metadata({second}))}},
        4096);
    bytes fatbin = first_bundle;
    cob::pad_to(fatbin, 4096);
    cob::append(fatbin, second_bundle);
    const bytes elf = cob::host_elf({{".text", bytes(100, 0x90)}, {".hip_fatbin", fatbin}, {".data", bytes(8, 1)}}, 4096);
    const auto kernels = read(elf);
    REQUIRE(kernels.size() == 3);
    CHECK(kernels[2].name == "_Z15second_tu_scalePddj");
    // A dumped .hip_fatbin (llvm-objcopy --dump-section) reads the same.
    CHECK(read(fatbin).size() == 3);
}

TEST_CASE("read_kernels_from_file reads a file and names it in errors", "[code_object]") {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::filesystem::path good = dir / "wavefit_test_code_object.co";
    const std::filesystem::path bad = dir / "wavefit_test_code_object.txt";
    {
        const bytes co = cob::code_object(cob::metadata({mfma_kernel()}));
        std::ofstream(good, std::ios::binary)
            .write(reinterpret_cast<const char*>(co.data()), static_cast<std::streamsize>(co.size()));
        std::ofstream(bad) << "not a code object\n";
    }
    CHECK(analysis::read_kernels_from_file(good.string()).at(0).vgpr_count == 276);
    CHECK_THROWS_WITH(analysis::read_kernels_from_file(bad.string()),
                      Catch::StartsWith(bad.string() + ": not an AMDGPU code object"));
    CHECK_THROWS_WITH(analysis::read_kernels_from_file((dir / "wavefit_no_such_file.co").string()),
                      Catch::EndsWith(": no such file"));
    CHECK_THROWS_WITH(analysis::read_kernels_from_file(dir.string()), Catch::EndsWith(": not a regular file"));
    std::filesystem::remove(good);
    std::filesystem::remove(bad);
}

TEST_CASE("offload entry ids split into kind, triple architecture and target id", "[code_object]") {
    using namespace analysis::detail;
    CHECK(offload_kind("hipv4-amdgcn-amd-amdhsa--gfx90a") == "hipv4");
    CHECK(offload_kind("host-x86_64-unknown-linux") == "host");
    CHECK(offload_triple_arch("hipv4-amdgcn-amd-amdhsa--gfx90a") == "amdgcn");
    CHECK(offload_triple_arch("host-x86_64-unknown-linux") == "x86_64");
    CHECK(offload_triple_arch("nodash").empty());
    CHECK(offload_target_id("hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-") == "gfx90a:sramecc+:xnack-");
    CHECK(offload_target_id("hip-amdgcn-amd-amdhsa-gfx940:xnack-") == "gfx940:xnack-");
    CHECK(offload_target_id("amdgcn-amd-amdhsa--gfx942") == "gfx942");
    CHECK(offload_target_id("host-x86_64-unknown-linux").empty());
}
