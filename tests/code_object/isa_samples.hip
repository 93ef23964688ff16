// SPDX-License-Identifier: MIT
// Sample kernels for targets beyond the CDNA samples (samples.hip): RDNA3 gfx1100 in wave32 and
// wave64 (-mwavefrontsize64), and gfx906, which no wavefit preset models. Debian's ROCm 5.2 ships no
// device library for gfx1100, so these kernels call no library function (work-item ids and barriers
// are compiler builtins) and are compiled with -nogpulib. Also a kernel with a long mangled name:
// the CLI tests overwrite it in place with hostile names of the same length.
#include <hip/hip_runtime.h>

namespace {

__device__ unsigned lane_id() { return __builtin_amdgcn_workitem_id_x(); }
__device__ unsigned block_id() { return __builtin_amdgcn_workgroup_id_x(); }

// K accumulators live across the loop, as in samples.hip: register demand grows with K.
template <int K>
__device__ void many_accumulators(const float* __restrict__ in, float* __restrict__ out, int iters) {
    const unsigned t = lane_id();
    float acc[K];
#pragma unroll
    for (int i = 0; i < K; ++i) acc[i] = in[t + i * 256];
    for (int it = 0; it < iters; ++it) {
        const float x = in[(it + K) * 256 + t];
#pragma unroll
        for (int i = 0; i < K; ++i) acc[i] = acc[i] * x + acc[(i + 1) % K];
    }
#pragma unroll
    for (int i = 0; i < K; ++i) out[t + i * 256] = acc[i];
}

}  // namespace

__global__ void isa_light(float a, const float* x, float* y, unsigned n) {
    const unsigned i = block_id() * 256 + lane_id();
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ __launch_bounds__(256) void isa_moderate_256(const float* in, float* out, int iters) {
    many_accumulators<40>(in, out, iters);
}

__global__ __launch_bounds__(1024) void isa_heavy_1024(const float* in, float* out, int iters) {
    many_accumulators<96>(in, out, iters);
}

__global__ __launch_bounds__(512) void isa_lds_512(float* data) {
    __shared__ float tile[5000];
    for (unsigned i = lane_id(); i < 5000; i += 512) tile[i] = data[i];
    __builtin_amdgcn_s_barrier();
    for (unsigned i = lane_id(); i < 5000; i += 512) data[i] = tile[4999 - i];
}

// A mangled name of several hundred characters: a type list of 48 distinct tags.
namespace wavefit_samples::long_names {
template <int N>
struct tag {};
template <typename... Ts>
struct type_list {};
template <typename List>
__global__ __launch_bounds__(128) void long_named(float* data) {
    data[lane_id()] = 1.0f;
}
template __global__ void long_named<type_list<
    tag<1>, tag<2>, tag<3>, tag<4>, tag<5>, tag<6>, tag<7>, tag<8>, tag<9>, tag<10>, tag<11>, tag<12>, tag<13>,
    tag<14>, tag<15>, tag<16>, tag<17>, tag<18>, tag<19>, tag<20>, tag<21>, tag<22>, tag<23>, tag<24>, tag<25>,
    tag<26>, tag<27>, tag<28>, tag<29>, tag<30>, tag<31>, tag<32>, tag<33>, tag<34>, tag<35>, tag<36>, tag<37>,
    tag<38>, tag<39>, tag<40>, tag<41>, tag<42>, tag<43>, tag<44>, tag<45>, tag<46>, tag<47>, tag<48>>>(float*);
}  // namespace wavefit_samples::long_names
