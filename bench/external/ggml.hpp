// SPDX-License-Identifier: MIT
// External kernels: two of ggml's CUDA kernels (ggml-org/ggml, tag v0.9.4, src/ggml-cuda, the
// directory llama.cpp ships as ggml/src/ggml-cuda; MIT licence, the ggml authors), re-implemented
// here with the same algorithm, indexing, guards, shared memory and launch configuration, in our words:
//   unary_gated_op_kernel<op_silu>  unary.cu: SwiGLU, dst[i] = silu(x[j0]) * g[j1], guarded with a
//                                   64-bit index, blocks of CUDA_GLU_BLOCK_SIZE = 256
//   rms_norm_f32<1024>              norm.cu: one block per row (grid = rows x channels x samples), the
//                                   template block size striding the columns and sizing the warp
//                                   reduction; launched with 1024 threads when ncols >= 1024
// Shapes are Llama-2 7B's: hidden 4096, FFN 11008, at 8192 and 512 tokens (rms_norm) and 4096 and
// 512 tokens (SwiGLU, the gate and the up projection as separate tensors, as llama.cpp's
// ggml_swiglu_split passes them).
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <string>   // names
#include <tuple>    // kernel arguments
#include <vector>   // cases

#include "device_support.hpp"
#include "ports.hpp"
#include "suite_case.hpp"

namespace wavefit_bench::external {

inline const char* const ggml_tag = "ggml-org/ggml v0.9.4";

// --- unary_gated_op_kernel<op_silu> ------------------------------------------------------------

__device__ inline float ggml_silu(float x) { return x / (1.0f + expf(-x)); }

__device__ inline void ggml_swiglu_one(const float* x, const float* g, float* dst, std::int64_t n, std::int64_t o0,
                                       std::int64_t o1, std::int64_t i) {
    const std::int64_t j0 = (i / n) * o0 + (i % n);
    const std::int64_t j1 = o0 == o1 ? j0 : (i / n) * o1 + (i % n);
    dst[i] = ggml_silu(x[j0]) * g[j1];
}

__global__ void ggml_swiglu(const float* x, const float* g, float* dst, const std::int64_t k, const std::int64_t n,
                            const std::int64_t o0, const std::int64_t o1) {
    const std::int64_t i = std::int64_t(blockDim.x) * blockIdx.x + threadIdx.x;
    if (i >= k) return;
    ggml_swiglu_one(x, g, dst, n, o0, o1, i);
}

__global__ void ggml_swiglu_gs(const float* x, const float* g, float* dst, const std::int64_t k, const std::int64_t n,
                               const std::int64_t o0, const std::int64_t o1) {
    for (const std::uint64_t i : wavefit::grid_stride(static_cast<std::uint64_t>(k)))
        ggml_swiglu_one(x, g, dst, n, o0, o1, static_cast<std::int64_t>(i));
}

// --- rms_norm_f32<block_size> (no fused multiply or add) ------------------------------------------

template <int block_size>
__device__ inline void ggml_rms_norm_row(const float* x, float* dst, int ncols, float eps) {
    const int tid = threadIdx.x;
    float tmp = 0.0f;
    for (int col = tid; col < ncols; col += block_size) {
        const float xi = x[col];
        tmp += xi * xi;
    }
    tmp = sum_32(tmp);
    if constexpr (block_size > 32) {
        static_assert(block_size <= 1024 && block_size % 32 == 0, "a block of whole warps, at most 32 of them");
        __shared__ float s_sum[32];
        const int warp_id = tid / 32;
        const int lane_id = tid % 32;
        if (lane_id == 0) s_sum[warp_id] = tmp;
        __syncthreads();
        tmp = lane_id < block_size / 32 ? s_sum[lane_id] : 0.0f;
        tmp = sum_32(tmp);
    }
    const float scale = rsqrtf(tmp / ncols + eps);
    for (int col = tid; col < ncols; col += block_size) dst[col] = scale * x[col];
}

// The row, channel and sample come from the grid (x, y, z), the destination is contiguous.
template <int block_size>
__global__ void ggml_rms_norm(const float* x, float* dst, const int ncols, const std::int64_t stride_row,
                              const std::int64_t stride_channel, const std::int64_t stride_sample, const float eps) {
    const int nrows = gridDim.x;
    const int nchannels = gridDim.y;
    const int row = blockIdx.x;
    const int channel = blockIdx.y;
    const int sample = blockIdx.z;
    x += sample * stride_sample + channel * stride_channel + row * stride_row;
    dst += ((sample * nchannels + channel) * nrows + row) * ncols;
    ggml_rms_norm_row<block_size>(x, dst, ncols, eps);
}

// Our grid-stride rewrite for one channel and sample: rows from wavefit::block_stride, so the grid
// no longer says how many rows there are.
template <int block_size>
__global__ void ggml_rms_norm_gs(const float* x, float* dst, const int ncols, const int nrows, const std::int64_t stride_row,
                                 const float eps) {
    for (const std::uint64_t row : wavefit::block_stride(static_cast<std::uint64_t>(nrows)))
        ggml_rms_norm_row<block_size>(x + row * stride_row, dst + row * ncols, ncols, eps);
}

// --- the cases ------------------------------------------------------------------------------------

inline suite_case ggml_swiglu_case(int tokens, int ffn) {
    const std::int64_t k = std::int64_t(tokens) * ffn;
    auto x = make_array<float>(k);
    auto g = make_array<float>(k);
    auto dst = make_array<float>(k);
    suite_case c = suite_case::from(
        "ggml", "swiglu", std::to_string(tokens) + "x" + std::to_string(ffn),
        std::string(ggml_tag) + " src/ggml-cuda/unary.cu: unary_gated_op_kernel<op_silu>, launched by unary_gated_cuda",
        "guarded elementwise, 64-bit index");
    c.bytes = 12.0 * double(k);
    c.original = config_1d(ceil_div(k, 256), 256);
    c.outputs = {{"dst", dst->data(), dst->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) {
        fill(x->data(), k, {151, -6.0, 12.0}, s);
        fill(g->data(), k, {152, -2.0, 4.0}, s);
    });
    const std::int64_t n = ffn, o0 = ffn, o1 = ffn;
    auto args = [=] {
        return std::make_tuple(static_cast<const float*>(x->data()), static_cast<const float*>(g->data()), dst->data(), k, n,
                               o0, o1);
    };
    add_original_and_ports(c, ggml_swiglu, ggml_swiglu_gs, wavefit::work::elements(k).block_powers_of_two(), args,
                           "work::elements(k).block_powers_of_two()");
    c.keep = {x, g, dst};
    return c;
}

// The template block strides the columns: exactly 1024 threads (the port says so); the grid is the
// row count, which the kernel reads back from gridDim to place its output.
inline suite_case ggml_rms_norm_case(int nrows, int ncols) {
    constexpr int block = 1024;
    const std::uint64_t n = std::uint64_t(nrows) * ncols;
    auto x = make_array<float>(n);
    auto dst = make_array<float>(n);
    const float eps = 1e-6f;
    suite_case c =
        suite_case::from("ggml", "rms_norm", std::to_string(nrows) + "x" + std::to_string(ncols),
                         std::string(ggml_tag) + " src/ggml-cuda/norm.cu: rms_norm_f32<1024>, launched by rms_norm_f32_cuda",
                         "block per row, exactly 1024 threads (a template constant strides the columns)");
    c.bytes = 8.0 * double(n);
    c.original = wavefit::launch_config{wavefit::dims{std::uint64_t(nrows), 1, 1}, wavefit::dims{block}, 0};
    c.outputs = {{"dst", dst->data(), dst->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) { fill(x->data(), n, {161, -3.0, 6.0}, s); });
    const std::int64_t stride_row = ncols, stride_channel = n, stride_sample = n;
    auto args = [=] {
        return std::make_tuple(static_cast<const float*>(x->data()), dst->data(), ncols, stride_row, stride_channel,
                               stride_sample, eps);
    };
    // One row fewer: the kernel takes nrows from gridDim, so the last row is never written.
    add_original(c, ggml_rms_norm<block>, args);
    const auto w = wavefit::work::per_block(nrows, ncols).block_fixed(wavefit::dims{block});
    add_ports(c, ggml_rms_norm<block>, w, args, args, "work::per_block(nrows, ncols).block_fixed(1024)");
    auto gs_args = [=] {
        return std::make_tuple(static_cast<const float*>(x->data()), dst->data(), ncols, nrows, stride_row, eps);
    };
    add_grid_stride_ports(c, ggml_rms_norm_gs<block>, w.kernel_loops(), gs_args, gs_args,
                          "work::per_block(nrows, ncols).block_fixed(1024).kernel_loops()");
    c.keep = {x, dst};
    return c;
}

}  // namespace wavefit_bench::external
