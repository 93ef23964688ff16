// SPDX-License-Identifier: MIT
// Kernels inside compiled AMD GPU code, read offline: an AMDGPU code object (.hsaco / .co), a clang
// offload bundle (`hipcc --cuda-device-only`), or a HIP object, executable or shared library whose
// .hip_fatbin section carries device code. Each kernel's resources come from the code object's
// AMDGPU metadata note (AMDGPUUsage "Code Object V3+ Metadata"), the same values the HIP runtime
// reads when it loads the kernel, so occupancy can be predicted for a GPU the machine does not have.
//
// The input is untrusted: the readers it uses (elf_reader, offload_bundle, msgpack_reader) are our own, small and
// bounded. Every offset and size is checked before use, container counts are checked against the
// bytes that could hold them, nesting is limited, and the work is linear in the file size; a
// malformed file gives a one-line code_object_error, never a crash or an unbounded loop.
#pragma once

#include <cstddef>  // std::size_t
#include <cstdint>  // the metadata's fixed-width values
#include <string>   // owned names in code_object_kernel
#include <vector>   // the kernels

#include <wavefit/kernel_resources.hpp>

#include "byte_view.hpp"  // code_object_error

namespace wavefit::analysis {

// One kernel compiled for one GPU target, as its code object's metadata describes it. A file built
// for several targets yields one entry per kernel per target; nothing is deduplicated.
struct code_object_kernel {
    std::string target;     // the ISA, "gfx90a": what presets::find takes
    std::string target_id;  // the full target id, "gfx90a:sramecc+:xnack-" (features as compiled)
    std::string name;       // .name: the kernel's (mangled) source name, "_Z3fooPf"
    std::string symbol;     // .symbol: its kernel descriptor symbol, "_Z3fooPf.kd"

    // .vgpr_count: vector registers per lane. On gfx90a/gfx940/gfx942 the unified VGPR+AGPR
    // total (architectural VGPRs rounded to 4, plus AGPRs) — what hipFuncGetAttributes reports as
    // numRegs and what the occupancy formula divides the register file by.
    std::uint32_t vgpr_count = 0;
    std::uint32_t agpr_count = 0;  // .agpr_count: the AGPR part of vgpr_count (0 when absent: pre-gfx908)
    // .sgpr_count: scalar registers per wave, including the ones reserved for VCC, FLAT_SCRATCH and
    // XNACK_MASK.
    std::uint32_t sgpr_count = 0;
    std::uint32_t vgpr_spill_count = 0;  // .vgpr_spill_count (0 when absent)
    std::uint32_t sgpr_spill_count = 0;  // .sgpr_spill_count (0 when absent)
    std::uint32_t wavefront_size = 0;    // .wavefront_size: 64 on gfx9, 32 by default on gfx10+
    // .max_flat_workgroup_size: the launch bound the kernel was compiled for (__launch_bounds__, else
    // the compiler default, 1024 since ROCm 4.1). It decided how many registers the kernel got.
    std::uint32_t max_flat_workgroup_size = 0;
    std::uint64_t group_segment_fixed_size = 0;    // static LDS per work-group in bytes (no dynamic LDS)
    std::uint64_t private_segment_fixed_size = 0;  // scratch per work-item in bytes: spills, local arrays
    bool uses_dynamic_stack = false;               // scratch beyond the fixed size (recursion, alloca)
    std::uint64_t code_object_offset = 0;          // file offset of the code object holding the kernel

    // What the planning core needs (occupancy, validate, plan).
    kernel_resources resources() const noexcept {
        kernel_resources r{};
        r.registers = vgpr_count;
        r.scalar_registers = sgpr_count;
        r.static_shared = group_segment_fixed_size;
        r.max_threads_per_block = max_flat_workgroup_size;
        r.local_bytes_per_thread = private_segment_fixed_size;
        return r;
    }

    // The compiler spilled registers to memory (usually: the launch bound left too few registers).
    bool spills() const noexcept { return vgpr_spill_count != 0 || sgpr_spill_count != 0; }
    // The kernel uses scratch memory at all (spills, private arrays, a dynamic stack).
    bool uses_scratch() const noexcept { return private_segment_fixed_size != 0 || uses_dynamic_stack; }
};

// Files above this size are refused before reading: no code object is remotely this large.
inline constexpr std::uint64_t max_code_object_file_size = std::uint64_t{2} << 30;  // 2 GiB

// Every kernel of every AMDGPU target in `data`: a code object, an offload bundle (or several
// concatenated, as in a dumped .hip_fatbin), or a host ELF with a .hip_fatbin section; the kind is
// detected from the contents. Throws code_object_error for anything malformed or unsupported, and
// when the input holds no kernels at all.
std::vector<code_object_kernel> read_kernels(const std::uint8_t* data, std::size_t size);

// read_kernels on a file's contents; errors (I/O included) name the file. Files above
// max_code_object_file_size are refused before reading.
std::vector<code_object_kernel> read_kernels_from_file(const std::string& path);

}  // namespace wavefit::analysis
