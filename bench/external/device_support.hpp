// SPDX-License-Identifier: MIT
// What the re-implemented external kernels need that HIP and CUDA spell differently: a 32-lane
// butterfly (the CUDA warp the kernels were written for; on a 64-wide AMD wave it reduces each half
// on its own, as `cg::tiled_partition<32>` does there) and the streaming load/store hints (`__ldcs`,
// `__stcs`) that llm.c uses to keep rows it will not read again out of the caches; and a loop over
// units taken by groups of threads for the grid-stride rewrites of the row-per-warp kernels.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes

namespace wavefit_bench::external {

__device__ inline float shuffle_xor_32(float v, int lane_mask) {
#if WAVEFIT_PLATFORM_HIP
    return __shfl_xor(v, lane_mask, 32);
#else
    return __shfl_xor_sync(0xffffffffu, v, lane_mask, 32);
#endif
}

// Every lane of the 32-thread group ends with the same value: the butterfly adds lane i and i ^ 16,
// then i ^ 8, ... (the order is fixed, so a row gives the same bits whichever block holds it).
__device__ inline float sum_32(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += shuffle_xor_32(v, offset);
    return v;
}

__device__ inline float max_32(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, shuffle_xor_32(v, offset));
    return v;
}

__device__ inline float load_streaming(const float* p) {
#if WAVEFIT_PLATFORM_HIP
    return __builtin_nontemporal_load(p);
#else
    return __ldcs(p);
#endif
}

__device__ inline void store_streaming(float* p, float v) {
#if WAVEFIT_PLATFORM_HIP
    __builtin_nontemporal_store(v, p);
#else
    __stcs(p, v);
#endif
}

// Every unit of [0, units) once across the grid, one unit per group of `group` threads (a 32-thread
// CUDA warp as written, on any wave size): for work::per_group(units, group, ...).kernel_loops().
// wavefit has grid_stride and block_stride; this is their per-group sibling.
__device__ inline wavefit::detail::grid_stride_range group_stride(std::uint64_t units, unsigned group) {
    const std::uint64_t groups_per_block = blockDim.x / group;
    return {std::uint64_t{blockIdx.x} * groups_per_block + threadIdx.x / group, units,
            std::uint64_t{gridDim.x} * groups_per_block};
}

}  // namespace wavefit_bench::external
