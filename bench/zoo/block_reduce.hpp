// SPDX-License-Identifier: MIT
// Reductions across a wave and across a 1-D block, for any block that is a whole number of waves,
// on wave32 (NVIDIA) and wave64 (gfx9) alike: the zoo's kernels run under every block size the
// sweep tries, so nothing here assumes 256 threads.
#pragma once

#include <wavefit/wavefit.hpp>

#include "gpu_support/gpu_support.hpp"

namespace wavefit_bench::zoo {

struct sum_combine {
    template <class T>
    __device__ static T apply(T a, T b) {
        return a + b;
    }
};

struct max_combine {
    __device__ static float apply(float a, float b) { return fmaxf(a, b); }
    __device__ static double apply(double a, double b) { return fmax(a, b); }
};

// Every lane of the wave gets the combination of all lanes' values.
template <class Combine, class T>
__device__ T wave_allreduce(T v) {
#if WAVEFIT_PLATFORM_HIP
    for (unsigned mask = wavefit::wave_size() / 2; mask > 0; mask /= 2)
        v = Combine::apply(v, __shfl_xor(v, static_cast<int>(mask)));
#else
    for (unsigned mask = 16; mask > 0; mask /= 2)
        v = Combine::apply(v, __shfl_xor_sync(0xffffffffu, v, static_cast<int>(mask)));
#endif
    return v;
}

// Most waves a block can have: 1024 threads of wave32.
inline constexpr unsigned max_waves_per_block = 1024 / wavefit::detail::min_wave_size;

// Every thread of the block gets the combination of all threads' values. `scratch` holds
// max_waves_per_block values; it may be reused right after the call returns.
template <class Combine, class T>
__device__ T block_allreduce(T v, T* scratch) {
    const unsigned wave = wavefit::wave_size();
    const unsigned waves = (blockDim.x + wave - 1) / wave;
    v = wave_allreduce<Combine>(v);
    if (threadIdx.x % wave == 0) scratch[threadIdx.x / wave] = v;
    __syncthreads();
    T r = scratch[0];
    for (unsigned w = 1; w < waves; ++w) r = Combine::apply(r, scratch[w]);
    __syncthreads();
    return r;
}

}  // namespace wavefit_bench::zoo
