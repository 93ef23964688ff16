// SPDX-License-Identifier: MIT
// Reading kernels out of AMDGPU code objects, offload bundles and host ELF files (code_object.hpp).
#include "code_object.hpp"

#include <cstddef>       // std::size_t of the field tables
#include <filesystem>    // read_kernels_from_file: refuse what is not a regular file before reading it
#include <fstream>       // read_kernels_from_file
#include <ios>           // std::streamsize, open modes
#include <limits>        // range checks of metadata integers
#include <string_view>   // keys and names while reading
#include <system_error>  // std::error_code from <filesystem> queries
#include <utility>       // std::move of the result

#include <wavefit/detail/ascii.hpp>  // isa_name

#include "elf_reader.hpp"
#include "msgpack_reader.hpp"
#include "offload_bundle.hpp"

namespace wavefit::analysis {
namespace {

using namespace detail;  // the binary readers

constexpr std::uint32_t note_amdgpu_metadata = 32;   // NT_AMDGPU_METADATA, owner "AMDGPU"
constexpr std::uint32_t note_amd_hsa_metadata = 10;  // code object v2 YAML metadata, owner "AMD"
constexpr std::string_view bitcode_magic{"BC\xc0\xde", 4};
constexpr std::string_view bitcode_wrapper_magic{"\xde\xc0\x17\x0b", 4};
constexpr std::string_view archive_magic = "!<arch>\n";

struct kernel_collection {
    std::vector<code_object_kernel> kernels;
    std::uint64_t code_objects = 0;
    std::uint64_t bitcode_entries = 0;
};

std::uint32_t read_u32_field(msgpack_reader& r, const char* key) {
    const std::uint64_t at = r.file_offset();
    const std::uint64_t v = r.read_uint(key);
    if (v > std::numeric_limits<std::uint32_t>::max())
        fail(std::string(key) + " at " + hex(at) + " is " + std::to_string(v) + ", beyond 32 bits");
    return static_cast<std::uint32_t>(v);
}

// A number of the kernel metadata read into its member of code_object_kernel; `bit` marks a required
// field as seen (0: optional).
template <typename T>
struct number_field {
    const char* key;
    T code_object_kernel::*member;
    unsigned bit;
};

// The field of `fields` named `key`, or nullptr.
template <typename T, std::size_t N>
const number_field<T>* field_named(const number_field<T> (&fields)[N], std::string_view key) {
    for (const number_field<T>& f : fields)
        if (key == f.key) return &f;
    return nullptr;
}

// One entry of amdhsa.kernels. The fields the runtime needs to launch are required (AMDGPUUsage
// lists them as required); the rest default to 0.
code_object_kernel read_kernel_metadata(msgpack_reader& r, std::uint64_t index) {
    enum : unsigned {
        f_name = 1,
        f_symbol = 2,
        f_vgpr = 4,
        f_sgpr = 8,
        f_group = 16,
        f_private = 32,
        f_max_flat = 64,
        f_wave = 128
    };
    struct required_field {
        unsigned bit;
        const char* key;
    };
    static constexpr required_field required[] = {
        {f_name, ".name"},
        {f_symbol, ".symbol"},
        {f_vgpr, ".vgpr_count"},
        {f_sgpr, ".sgpr_count"},
        {f_group, ".group_segment_fixed_size"},
        {f_private, ".private_segment_fixed_size"},
        {f_max_flat, ".max_flat_workgroup_size"},
        {f_wave, ".wavefront_size"},
    };
    // The 32-bit counts and the 64-bit sizes.
    static constexpr number_field<std::uint32_t> u32_fields[] = {
        {".vgpr_count", &code_object_kernel::vgpr_count, f_vgpr},
        {".agpr_count", &code_object_kernel::agpr_count, 0},
        {".sgpr_count", &code_object_kernel::sgpr_count, f_sgpr},
        {".vgpr_spill_count", &code_object_kernel::vgpr_spill_count, 0},
        {".sgpr_spill_count", &code_object_kernel::sgpr_spill_count, 0},
        {".wavefront_size", &code_object_kernel::wavefront_size, f_wave},
        {".max_flat_workgroup_size", &code_object_kernel::max_flat_workgroup_size, f_max_flat},
    };
    static constexpr number_field<std::uint64_t> u64_fields[] = {
        {".group_segment_fixed_size", &code_object_kernel::group_segment_fixed_size, f_group},
        {".private_segment_fixed_size", &code_object_kernel::private_segment_fixed_size, f_private},
    };
    const std::uint64_t at = r.file_offset();
    code_object_kernel k;
    unsigned seen = 0;
    const std::uint64_t fields = r.read_map("kernel metadata");
    for (std::uint64_t i = 0; i < fields; ++i) {
        const std::string_view key = r.read_string("kernel metadata key");
        if (const number_field<std::uint32_t>* count = field_named(u32_fields, key)) {
            k.*(count->member) = read_u32_field(r, count->key);
            seen |= count->bit;
        } else if (const number_field<std::uint64_t>* size = field_named(u64_fields, key)) {
            k.*(size->member) = r.read_uint(size->key);
            seen |= size->bit;
        } else if (key == ".name") {
            k.name = r.read_string(".name");
            seen |= f_name;
        } else if (key == ".symbol") {
            k.symbol = r.read_string(".symbol");
            seen |= f_symbol;
        } else if (key == ".uses_dynamic_stack") {
            k.uses_dynamic_stack = r.read_bool(".uses_dynamic_stack");
        } else {
            r.skip(3);
        }
    }
    for (const required_field& f : required)
        if ((seen & f.bit) == 0)
            fail("kernel " + std::to_string(index) + (k.name.empty() ? std::string() : " ('" + printable(k.name) + "')") +
                 " in the metadata at " + hex(at) + " has no " + f.key);
    return k;
}

// A target id of an AMDGPU processor, fit for messages and JSON: "gfx90a:sramecc+:xnack-".
bool plausible_target_id(std::string_view id) noexcept {
    if (id.size() < 4 || id.size() > 64 || id.substr(0, 3) != "gfx") return false;
    for (const char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '+' ||
              c == '-' || c == '_' || c == '.'))
            return false;
    return true;
}

// The msgpack document of one NT_AMDGPU_METADATA note. `fallback_target_id` (from the bundle entry)
// is used when the metadata has no amdhsa.target (code object v3).
void read_amdgpu_metadata(byte_view desc, std::string_view fallback_target_id, std::uint64_t code_object_offset,
                          kernel_collection& out) {
    msgpack_reader r(desc);
    const std::size_t first = out.kernels.size();
    std::string_view target_string;
    bool have_target = false;
    const std::uint64_t entries = r.read_map("AMDGPU metadata");
    for (std::uint64_t i = 0; i < entries; ++i) {
        const std::string_view key = r.read_string("AMDGPU metadata key");
        if (key == "amdhsa.target") {
            target_string = r.read_string("amdhsa.target");
            have_target = true;
        } else if (key == "amdhsa.kernels") {
            const std::uint64_t count = r.read_array("amdhsa.kernels");
            for (std::uint64_t k = 0; k < count; ++k) {
                out.kernels.push_back(read_kernel_metadata(r, k));
                out.kernels.back().code_object_offset = code_object_offset;
            }
        } else {
            r.skip(1);
        }
    }
    std::string_view target_id = have_target ? offload_target_id(target_string) : fallback_target_id;
    if (!plausible_target_id(target_id)) {
        if (have_target)
            fail("amdhsa.target '" + printable(target_string) + "' in the metadata at " + hex(desc.base) +
                 " names no AMDGPU target");
        fail("the metadata at " + hex(desc.base) +
             " has no amdhsa.target (code object v3 or older) and no bundle entry names the target");
    }
    const std::string_view isa = wavefit::detail::isa_name(target_id);
    for (std::size_t i = first; i < out.kernels.size(); ++i) {
        out.kernels[i].target_id.assign(target_id);
        out.kernels[i].target.assign(isa);
    }
}

void read_code_object(byte_view bytes, std::string_view fallback_target_id, kernel_collection& out) {
    const elf_file f = read_elf(bytes);
    if (f.machine != elf_machine_amdgpu)
        fail("ELF file at " + hex(bytes.base) + " is not an AMDGPU code object (e_machine " + std::to_string(f.machine) +
             ")");
    bool metadata = false;
    bool v2_metadata = false;
    for_each_note(f, [&](const elf_note& n) {
        if (n.owner == "AMDGPU" && n.type == note_amdgpu_metadata) {
            metadata = true;
            read_amdgpu_metadata(n.desc, fallback_target_id, bytes.base, out);
        } else if (n.owner == "AMD" && n.type == note_amd_hsa_metadata) {
            v2_metadata = true;
        }
    });
    if (!metadata) {
        if (v2_metadata)
            fail("AMDGPU code object at " + hex(bytes.base) + " is code object v2 (YAML metadata), which is not supported");
        fail("AMDGPU code object at " + hex(bytes.base) + " has no NT_AMDGPU_METADATA note");
    }
    ++out.code_objects;
}

// One bundle entry: AMDGPU code objects are read, host entries and other vendors' device code skipped,
// LLVM bitcode (objects compiled with -fgpu-rdc) counted so the final message can say why no
// kernels were found.
void read_bundle_entry(std::string_view id, byte_view contents, kernel_collection& out) {
    if (offload_kind(id) == "host" || contents.size == 0) return;
    if (offload_triple_arch(id) != "amdgcn") return;
    if (contents.starts_with(compressed_bundle_magic)) fail_compressed_bundle(contents.base);
    if (contents.starts_with(bitcode_magic) || contents.starts_with(bitcode_wrapper_magic)) {
        ++out.bitcode_entries;
        return;
    }
    if (!contents.starts_with(elf_magic))
        fail("offload bundle entry '" + printable(id) + "' at " + hex(contents.base) +
             " is neither an AMDGPU code object nor LLVM bitcode");
    read_code_object(contents, offload_target_id(id), out);
}

void read_bundles(byte_view region, const char* what, kernel_collection& out) {
    for_each_offload_bundle(region, what, [&](const offload_bundle& b) {
        for (const offload_bundle_entry& e : b.entries) read_bundle_entry(e.id, e.contents, out);
    });
}

// Why a host ELF without device code may still launch kernels: the shared libraries it links
// (DT_NEEDED), less the C, C++ and GPU runtimes, which hold no application kernels.
std::string linked_libraries_hint(const elf_file& f) {
    constexpr std::string_view runtimes[] = {
        "libc.so",    "libm.so",        "libstdc++.so",        "libgcc_s.so",     "libpthread.so", "libdl.so",
        "librt.so",   "ld-linux",       "libc++.so",           "libc++abi.so",    "libunwind.so",  "libatomic.so",
        "libgomp.so", "libamdhip64.so", "libhsa-runtime64.so", "libamd_comgr.so", "libcudart.so",  "libcuda.so"};
    constexpr std::size_t shown = 8;
    const std::vector<std::string_view> needed = elf_needed_libraries(f, 64);
    std::string listed;
    std::size_t count = 0;
    for (const std::string_view lib : needed) {
        bool runtime = false;
        for (const std::string_view r : runtimes) runtime = runtime || lib.substr(0, r.size()) == r;
        if (runtime) continue;
        if (count++ < shown) listed += (listed.empty() ? "" : ", ") + printable(lib);
    }
    if (count > shown) listed += " (and " + std::to_string(count - shown) + " more)";
    if (!listed.empty())
        return "; its device code may sit in a shared library it links: " + listed + " (read that library instead)";
    if (!needed.empty())
        return " (not a HIP binary, or no kernels were compiled into it; it links only the C, C++ and GPU runtimes)";
    return " (not a HIP binary, or no kernels were compiled into it)";
}

// A host ELF (object, executable, shared library): device code is in .hip_fatbin (offload bundles,
// one per translation unit) or, in objects compiled with -fgpu-rdc, in one section per target named
// "__CLANG_OFFLOAD_BUNDLE__<entry id>".
void read_host_elf(const elf_file& f, kernel_collection& out) {
    std::uint64_t total = 0;
    bool any = false;
    for (const elf_section& s : f.sections) {
        const bool fatbin = s.name == ".hip_fatbin";
        const bool bundle_section = s.name.substr(0, offload_bundle_magic.size()) == offload_bundle_magic;
        if (!fatbin && !bundle_section) continue;
        any = true;
        if (s.type == elf_section_nobits) continue;
        total += s.size > f.bytes.size ? f.bytes.size + 1 : s.size;
        if (total > f.bytes.size)
            fail("device code sections of the ELF file at " + hex(f.bytes.base) + " add up to more than the file (" +
                 std::to_string(f.bytes.size) + " bytes)");
        if (fatbin)
            read_bundles(f.contents(s, ".hip_fatbin section"), ".hip_fatbin", out);
        else
            read_bundle_entry(s.name.substr(offload_bundle_magic.size()), f.contents(s, "offload bundle section"), out);
    }
    if (!any) fail("no device code: the ELF file has no .hip_fatbin section" + linked_libraries_hint(f));
}

}  // namespace

std::vector<code_object_kernel> read_kernels(const std::uint8_t* data, std::size_t size) {
    if (data == nullptr || size == 0) fail("empty input: no code object to read");
    const byte_view bytes{data, size, 0};
    kernel_collection out;
    if (bytes.starts_with(offload_bundle_magic)) {
        read_bundles(bytes, "the offload bundle file", out);
    } else if (bytes.starts_with(compressed_bundle_magic)) {
        fail_compressed_bundle(0);
    } else if (bytes.starts_with(elf_magic)) {
        const elf_file f = read_elf(bytes);
        if (f.machine == elf_machine_amdgpu)
            read_code_object(bytes, {}, out);
        else
            read_host_elf(f, out);
    } else if (bytes.starts_with(archive_magic)) {
        fail("static archives are not supported: extract the objects (ar x) and read them one by one");
    } else if (bytes.starts_with(bitcode_magic) || bytes.starts_with(bitcode_wrapper_magic)) {
        fail("LLVM bitcode, not a code object: compile without -emit-llvm / -fgpu-rdc, or read the linked binary");
    } else {
        fail("not an AMDGPU code object, clang offload bundle or ELF file (no known magic at offset 0)");
    }
    if (out.kernels.empty()) {
        if (out.bitcode_entries != 0)
            fail(
                "no kernels: the device code is LLVM bitcode (an object compiled with -fgpu-rdc); read the linked "
                "executable or shared library instead");
        if (out.code_objects != 0)
            fail("no kernels: " + std::to_string(out.code_objects) + " AMDGPU code object" +
                 (out.code_objects == 1 ? "" : "s") + " read, none defines a kernel");
        fail("no AMDGPU code objects found");
    }
    return std::move(out.kernels);
}

std::vector<code_object_kernel> read_kernels_from_file(const std::string& path) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) throw code_object_error(path + ": no such file");
    if (!std::filesystem::is_regular_file(status)) throw code_object_error(path + ": not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw code_object_error(path + ": cannot read the file size (" + ec.message() + ")");
    if (size > max_code_object_file_size)
        throw code_object_error(path + ": " + std::to_string(size) + " bytes is more than the " +
                                std::to_string(max_code_object_file_size) + " bytes a code object may have");
    std::vector<std::uint8_t> data(static_cast<std::size_t>(size));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw code_object_error(path + ": cannot open the file");
    if (!data.empty()) in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (!in || static_cast<std::uintmax_t>(in.gcount()) != size) throw code_object_error(path + ": cannot read the file");
    try {
        return read_kernels(data.data(), data.size());
    } catch (const code_object_error& e) {
        throw code_object_error(path + ": " + e.what());
    }
}

}  // namespace wavefit::analysis
