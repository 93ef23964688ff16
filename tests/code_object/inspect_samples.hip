// SPDX-License-Identifier: MIT
// Sample kernels for what `wavefit inspect` got wrong on real code (tests/code_object/test_inspect.py,
// tests/cli/test_cli.py): _Float16 kernels, whose mangled names (DF16_) the C++ runtime's
// demangler of GCC 12 cannot read, and kernels that spill SGPRs whatever their launch bound.
// Compiled at build time for gfx90a and gfx940 and never run.
#include <hip/hip_runtime.h>

// A _Float16 GEMM tile: _Z14sgemm_16x16x16PKDF16_S0_Pf, where S0_ refers back to the first
// parameter's type, so a demangler must not shift substitution indices.
__global__ void sgemm_16x16x16(const _Float16* a, const _Float16* b, float* c) {
    const unsigned i = threadIdx.x;
    float acc = 0.0f;
    for (unsigned k = 0; k < 16; ++k) acc += static_cast<float>(a[i / 16 * 16 + k]) * static_cast<float>(b[k * 16 + i % 16]);
    c[i] = acc;
}

// A template over a half type, as Composable-Kernel-style code has them.
template <typename T>
__global__ void scale_half(T* x, T s, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}
template __global__ void scale_half<_Float16>(_Float16*, _Float16, unsigned);

// 128 wave-uniform values (readfirstlane keeps them in scalar registers) live across a loop: more
// than the 102 SGPRs a gfx9 wave can address, whatever the launch bound. hipcc 5.2.3 reports the
// same .sgpr_count (104) and .sgpr_spill_count (104) under bounds of 1024 and 64.
template <int Bound>
__global__ __launch_bounds__(Bound) void sgpr_heavy(const int* __restrict__ in, float* out, int n) {
    int s[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) s[i] = __builtin_amdgcn_readfirstlane(in[i] * n + i);
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) {
#pragma unroll
        for (int i = 0; i < 128; ++i) acc += static_cast<float>(s[i] ^ (j + i));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template __global__ void sgpr_heavy<1024>(const int*, float*, int);
template __global__ void sgpr_heavy<64>(const int*, float*, int);
