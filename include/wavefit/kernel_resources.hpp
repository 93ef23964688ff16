// SPDX-License-Identifier: MIT
// What one compiled kernel needs per thread and per block, as the runtime (hipFuncGetAttributes /
// cudaFuncGetAttributes) or the code object's metadata reports it. Zero means "unknown / does not
// limit", so a default-constructed value describes a kernel that only the launch shape constrains.
#pragma once

#include "config.hpp"

#include <cstdint>  // fixed-width fields

WAVEFIT_BEGIN_NAMESPACE

struct kernel_resources {
    // Vector registers per thread (numRegs; on gfx90a/gfx942 the unified VGPR+AGPR count, i.e. the
    // code object's .vgpr_count).
    std::uint32_t registers = 0;
    // Scalar registers per wave (AMD gfx9 SGPRs; ignored where the device has no SGPR budget).
    std::uint32_t scalar_registers = 0;
    // Shared memory / LDS the kernel declares statically, per block, in bytes.
    std::uint64_t static_shared = 0;
    // The kernel's own maximum threads per block: __launch_bounds__ or the compiled default
    // (1024 for hip-clang since ROCm 4.1). 0 = the device maximum.
    std::uint32_t max_threads_per_block = 0;
    // Private / local memory per thread (scratch, spills). Does not limit residency; reported
    // because a non-zero value on AMD usually means the launch bound forced spills.
    std::uint64_t local_bytes_per_thread = 0;
};

WAVEFIT_END_NAMESPACE
