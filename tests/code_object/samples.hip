// SPDX-License-Identifier: MIT
// Sample kernels for the code object reader's tests: each one pins down a resource the reader must
// report (registers, AGPRs, scratch, LDS, launch bound). They are compiled at build time with
// Debian's hipcc for gfx90a and gfx940 and never run; the values quoted in the comments are what
// hipcc 5.2.3 (clang 15) -O3 produced on gfx90a, for orientation only (the tests compare with
// llvm-readobj, not with these numbers).
#include <hip/hip_runtime.h>

namespace {

// K accumulators that all stay live across the loop: register demand grows with K, and the launch
// bound decides whether it fits (bound 256 allows 512 unified registers per lane on gfx90a/gfx940,
// 512 allows 256, 1024 allows 128) or spills to AGPRs or to scratch.
template <int K>
__device__ void many_accumulators(const float* __restrict__ in, float* __restrict__ out, int iters) {
    float acc[K];
#pragma unroll
    for (int i = 0; i < K; ++i) acc[i] = in[threadIdx.x + i * blockDim.x];
    for (int it = 0; it < iters; ++it) {
        const float x = in[(it + K) * blockDim.x + threadIdx.x];
#pragma unroll
        for (int i = 0; i < K; ++i) acc[i] = fmaf(acc[i], x, acc[(i + 1) % K]);
    }
#pragma unroll
    for (int i = 0; i < K; ++i) out[threadIdx.x + i * blockDim.x] = acc[i];
}

}  // namespace

// A few registers, no bound: the compiled default bound (1024) applies.
__global__ void light_axpy(float a, const float* x, float* y, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) y[i] = a * x[i] + y[i];
}

// The same kernel under an explicit bound of 256.
__global__ __launch_bounds__(256) void light_axpy_256(float a, const float* x, float* y, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) y[i] = a * x[i] + y[i];
}

// Moderate pressure (about 72 VGPRs): occupancy below 8 waves per SIMD from registers alone.
__global__ __launch_bounds__(256) void moderate_registers(const float* in, float* out, int iters) {
    many_accumulators<24>(in, out, iters);
}

// One register-heavy body under three bounds: about 252 VGPRs at 256 and 512, and at 1024 the
// compiler must fit 128 registers and spills to scratch (.private_segment_fixed_size > 0).
__global__ __launch_bounds__(256) void heavy_256(const float* in, float* out, int iters) {
    many_accumulators<64>(in, out, iters);
}
__global__ __launch_bounds__(512) void heavy_512(const float* in, float* out, int iters) {
    many_accumulators<64>(in, out, iters);
}
__global__ __launch_bounds__(1024) void heavy_1024_spills(const float* in, float* out, int iters) {
    many_accumulators<64>(in, out, iters);
}

// More live values than 256 architectural VGPRs: on gfx90a/gfx940 the compiler spills into AGPRs
// instead of scratch, so .agpr_count is non-zero without any MFMA (about 256 + 124 = 380).
__global__ __launch_bounds__(256) void agpr_spill_256(const float* in, float* out, int iters) {
    many_accumulators<96>(in, out, iters);
}

// Matrix-core accumulation: MFMA results live in AGPRs (about 148 VGPRs + 128 AGPRs = 276). The
// builtin exists for gfx908, gfx90a and gfx940 in clang 15; other targets get a plain loop.
typedef float wavefit_f32x16 __attribute__((ext_vector_type(16)));
typedef _Float16 wavefit_f16x4 __attribute__((ext_vector_type(4)));
__global__ __launch_bounds__(256) void mfma_accumulate(const wavefit_f16x4* a, wavefit_f32x16* c, int iters) {
    constexpr int tiles = 8;
    wavefit_f32x16 acc[tiles];
#pragma unroll
    for (int i = 0; i < tiles; ++i) acc[i] = c[threadIdx.x + i * 256];
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int i = 0; i < tiles; ++i) {
            const wavefit_f16x4 x = a[threadIdx.x + (it * tiles + i) * 64];
#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__)
            acc[i] = __builtin_amdgcn_mfma_f32_32x32x8f16(x, x, acc[i], 0, 0, 0);
#else
            acc[i] += static_cast<float>(x[0] * x[1]);
#endif
        }
    }
#pragma unroll
    for (int i = 0; i < tiles; ++i) c[threadIdx.x + i * 256] = acc[i];
}

// Static LDS of several sizes: .group_segment_fixed_size is Bytes; 48 KiB leaves room for one
// block per CU, 24 KiB for two.
template <int Bytes>
__global__ __launch_bounds__(256) void lds_tile(float* data) {
    constexpr int n = Bytes / static_cast<int>(sizeof(float));
    __shared__ float tile[n];
    for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) tile[i] = data[i];
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) data[i] = tile[n - 1 - i];
}
template __global__ void lds_tile<4096>(float*);
template __global__ void lds_tile<24576>(float*);
template __global__ void lds_tile<49152>(float*);

// Dynamic LDS only: the code object records no static LDS (.group_segment_fixed_size 0); the launch
// supplies the size.
__global__ __launch_bounds__(1024) void dynamic_lds(float* data) {
    extern __shared__ float scratchpad[];
    scratchpad[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] = scratchpad[blockDim.x - 1 - threadIdx.x];
}

// A long mangled name (templates, nested namespaces, a functor type), as real libraries have.
namespace wavefit_samples {
namespace ops {
template <typename T>
struct scaled_sum {
    T scale;
    __device__ T operator()(T a, T b) const { return scale * a + b; }
};
}  // namespace ops

template <typename T, int TileWidth, typename BinaryOp>
__global__ __launch_bounds__(512) void tiled_transform(const T* __restrict__ a, const T* __restrict__ b,
                                                       T* __restrict__ out, BinaryOp op, unsigned long long n) {
    __shared__ T staged[TileWidth];
    const unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * TileWidth;
    for (int i = static_cast<int>(threadIdx.x); i < TileWidth; i += static_cast<int>(blockDim.x))
        staged[i] = base + i < n ? a[base + i] : T{};
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < TileWidth; i += static_cast<int>(blockDim.x))
        if (base + i < n) out[base + i] = op(staged[i], b[base + i]);
}
template __global__ void tiled_transform<double, 1024, ops::scaled_sum<double>>(const double*, const double*,
                                                                               double*, ops::scaled_sum<double>,
                                                                               unsigned long long);
}  // namespace wavefit_samples
