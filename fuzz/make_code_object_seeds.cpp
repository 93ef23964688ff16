// SPDX-License-Identifier: MIT
// Writes the seed corpus of fuzz_code_object: small hand-built AMDGPU code objects, offload bundles
// and host ELFs (tests/code_object/code_object_builder.hpp), valid ones and a few with one thing
// wrong, so that the fuzzer starts from every container kind and both note locations. No compiler
// output is committed. Usage: make_code_object_seeds OUTPUT_DIR  (fuzz/README.md).
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "code_object_builder.hpp"

namespace cob = code_object_builder;

namespace {

void write(const std::string& dir, const std::string& name, const cob::bytes& b) {
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    if (!out) std::fprintf(stderr, "cannot write %s/%s\n", dir.c_str(), name.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const cob::kernel_spec light = cob::kernel_spec::named("_Z5lightPf");
    const cob::kernel_spec heavy =
        cob::kernel_spec::named("_Z5heavyPfS_i").registers(256, 64, 102).spills(3, 0).bound(256).memory(32768, 48);

    const cob::bytes one = cob::code_object(cob::metadata({light}));
    write(dir, "code_object_v5", one);
    write(dir, "code_object_two_kernels", cob::code_object(cob::metadata({light, heavy}, "amdgcn-amd-amdhsa--gfx942")));
    cob::elf_options no_sections;
    no_sections.section_headers = false;
    write(dir, "code_object_notes_in_segment_only", cob::code_object(cob::metadata({heavy}), no_sections));
    cob::elf_options align8;
    align8.note_align = 8;
    write(dir, "code_object_note_align8", cob::code_object(cob::metadata({light}), align8));
    cob::elf_options v2;
    v2.owner = "AMD";
    v2.note_type = 10;
    write(dir, "code_object_v2_yaml_note", cob::code_object(cob::bytes{'-', '-', '-', '\n'}, v2));
    // Code object v3 metadata: no amdhsa.target, so the target comes from the bundle entry id.
    const cob::bytes v3 = cob::code_object(cob::metadata({light}, ""));
    write(dir, "code_object_v3_without_target", v3);
    cob::kernel_spec missing = light;
    missing.omit = {".vgpr_count"};
    write(dir, "code_object_kernel_missing_field", cob::code_object(cob::metadata({missing})));

    const cob::bytes bundle = cob::bundle({{"host-x86_64-unknown-linux", {}},
                                           {"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", one},
                                           {"hipv4-amdgcn-amd-amdhsa--gfx942", v3}});
    write(dir, "bundle_two_targets", bundle);
    write(dir, "bundle_bitcode_entry",
          cob::bundle({{"hip-amdgcn-amd-amdhsa-gfx90a", cob::bytes{'B', 'C', 0xc0, 0xde, 1, 2}}}));
    cob::bytes fatbin = bundle;
    cob::pad_to(fatbin, 64);
    cob::append(fatbin, cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", one}}));
    write(dir, "host_elf_hip_fatbin", cob::host_elf({{".text", cob::bytes(16, 0x90)}, {".hip_fatbin", fatbin}}));
    write(dir, "host_elf_rdc_bundle_section",
          cob::host_elf({{"__CLANG_OFFLOAD_BUNDLE__hip-amdgcn-amd-amdhsa-gfx90a", cob::bytes{'B', 'C', 0xc0, 0xde}}}));
    write(dir, "compressed_bundle", cob::bytes{'C', 'C', 'O', 'B', 1, 0, 0, 0});
    // An executable whose kernels are in the shared libraries it links (DT_NEEDED), and one that
    // also carries its own device code; xnack+ and xnack- builds of one kernel in one bundle.
    write(dir, "host_elf_linking_libraries",
          cob::host_elf_linking({"libkernels.so", "libamdhip64.so.6", "libc.so.6"}, {{".text", cob::bytes(16, 0x90)}}));
    write(dir, "host_elf_linking_with_fatbin",
          cob::host_elf_linking({"libkernels.so"},
                                {{".hip_fatbin", cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", one}})}}));
    write(dir, "bundle_xnack_builds",
          cob::bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+",
                        cob::code_object(cob::metadata({light}, "amdgcn-amd-amdhsa--gfx90a:xnack+"))},
                       {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-",
                        cob::code_object(cob::metadata({light}, "amdgcn-amd-amdhsa--gfx90a:xnack-"))}}));
    return 0;
}
