// SPDX-License-Identifier: MIT
// Row-wise softmax over a [rows x hidden] fp32 matrix, the way LLM serving does it: one block per
// row (the grid strides over rows), the row kept in registers when the block is wide enough
// (hidden / 4 <= Capacity * blockDim.x float4 vectors), otherwise an online max/sum pass and a
// second read that writes. One read and one write of the matrix on the register path.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes

#include "block_reduce.hpp"
#include "stream.hpp"  // pack
#include "values.hpp"

namespace wavefit_bench::zoo {

// float4 vectors per thread held in registers: 32 floats, so hidden 8192 stays on the register path
// from 256 threads per block up.
inline constexpr int softmax_capacity = 8;

__device__ inline float max4(const pack<float, 4>& p) { return fmaxf(fmaxf(p.v[0], p.v[1]), fmaxf(p.v[2], p.v[3])); }

// hidden must be a multiple of 4 (the host checks).
template <int Capacity>
__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, std::uint64_t rows,
                               std::uint64_t hidden) {
    __shared__ float scratch[max_waves_per_block];
    using P = pack<float, 4>;
    const std::uint64_t vectors = hidden / 4;
    for (const std::uint64_t row : wavefit::block_stride(rows)) {
        const P* in = reinterpret_cast<const P*>(x + row * hidden);
        P* out = reinterpret_cast<P*>(y + row * hidden);
        if (vectors <= std::uint64_t{Capacity} * blockDim.x) {
            P v[Capacity];
            float m = -INFINITY;
#pragma unroll
            for (int k = 0; k < Capacity; ++k) {
                const std::uint64_t j = threadIdx.x + std::uint64_t{blockDim.x} * k;
                if (j < vectors) {
                    v[k] = in[j];
                    m = fmaxf(m, max4(v[k]));
                }
            }
            m = block_allreduce<max_combine>(m, scratch);
            float s = 0.0f;
#pragma unroll
            for (int k = 0; k < Capacity; ++k) {
                const std::uint64_t j = threadIdx.x + std::uint64_t{blockDim.x} * k;
                if (j < vectors) {
#pragma unroll
                    for (int l = 0; l < 4; ++l) {
                        v[k].v[l] = __expf(v[k].v[l] - m);
                        s += v[k].v[l];
                    }
                }
            }
            const float inv = 1.0f / block_allreduce<sum_combine>(s, scratch);
#pragma unroll
            for (int k = 0; k < Capacity; ++k) {
                const std::uint64_t j = threadIdx.x + std::uint64_t{blockDim.x} * k;
                if (j < vectors) {
#pragma unroll
                    for (int l = 0; l < 4; ++l) v[k].v[l] *= inv;
                    out[j] = v[k];
                }
            }
        } else {
            float m = -INFINITY;
            float s = 0.0f;
            for (std::uint64_t j = threadIdx.x; j < vectors; j += blockDim.x) {
                const P p = in[j];
                const float nm = fmaxf(m, max4(p));
                s = s * __expf(m - nm) + __expf(p.v[0] - nm) + __expf(p.v[1] - nm) + __expf(p.v[2] - nm) +
                    __expf(p.v[3] - nm);
                m = nm;
            }
            const float row_max = block_allreduce<max_combine>(m, scratch);
            s = m == -INFINITY ? 0.0f : s * __expf(m - row_max);
            const float inv = 1.0f / block_allreduce<sum_combine>(s, scratch);
            for (std::uint64_t j = threadIdx.x; j < vectors; j += blockDim.x) {
                P p = in[j];
#pragma unroll
                for (int l = 0; l < 4; ++l) p.v[l] = __expf(p.v[l] - row_max) * inv;
                out[j] = p;
            }
        }
    }
}

// One block per sampled row (rows 0, step, 2*step, ...): the softmax of the input formula in double,
// and a count of the elements of y further than 1e-4 relative from it (fast exp and fp32 sums).
__global__ void check_softmax_kernel(const float* __restrict__ y, std::uint64_t rows, std::uint64_t hidden,
                                     std::uint64_t step, value_range in, unsigned long long* __restrict__ bad) {
    __shared__ double scratch[max_waves_per_block];
    const std::uint64_t row = blockIdx.x * step;
    if (row >= rows) return;
    double m = -INFINITY;
    for (std::uint64_t j = threadIdx.x; j < hidden; j += blockDim.x)
        m = fmax(m, static_cast<double>(static_cast<float>(input_value(row * hidden + j, in))));
    m = block_allreduce<max_combine>(m, scratch);
    double s = 0.0;
    for (std::uint64_t j = threadIdx.x; j < hidden; j += blockDim.x)
        s += exp(static_cast<double>(static_cast<float>(input_value(row * hidden + j, in))) - m);
    s = block_allreduce<sum_combine>(s, scratch);
    for (std::uint64_t j = threadIdx.x; j < hidden; j += blockDim.x) {
        const double expected = exp(static_cast<double>(static_cast<float>(input_value(row * hidden + j, in))) - m) / s;
        if (!(fabs(static_cast<double>(y[row * hidden + j]) - expected) <= 1e-4 * expected)) atomicAdd(bad, 1ull);
    }
}

}  // namespace wavefit_bench::zoo
