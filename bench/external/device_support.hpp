// SPDX-License-Identifier: MIT
// What the re-implemented external kernels need that HIP and CUDA spell differently: a 32-lane
// butterfly (the CUDA warp the kernels were written for; on a 64-wide AMD wave it reduces each half
// on its own, as `cg::tiled_partition<32>` does there) and the streaming load/store hints (`__ldcs`,
// `__stcs`) that llm.c uses to keep rows it will not read again out of the caches.
#pragma once

#include <wavefit/wavefit.hpp>

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

}  // namespace wavefit_bench::external
