// SPDX-License-Identifier: MIT
// out = in^T for a rows x cols fp32 matrix, through 32 x 32 tiles in shared memory (padded one column
// so the transposed read hits 32 different banks). One tile per block step; the block's threads,
// however many, share the tile's 1024 elements, and the grid strides over tiles, so the kernel is
// correct for any 1-D block of whole waves and any grid. The natural grid is one block per tile.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes

#include "values.hpp"

namespace wavefit_bench::zoo {

inline constexpr unsigned transpose_tile = 32;

constexpr std::uint64_t transpose_tiles(std::uint64_t rows, std::uint64_t cols) {
    return ((rows + transpose_tile - 1) / transpose_tile) * ((cols + transpose_tile - 1) / transpose_tile);
}

__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, std::uint64_t rows,
                                 std::uint64_t cols) {
    constexpr unsigned T = transpose_tile;
    __shared__ float tile[T][T + 1];
    const std::uint64_t tiles_x = (cols + T - 1) / T;
    const std::uint64_t tiles = tiles_x * ((rows + T - 1) / T);
    for (std::uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const std::uint64_t r0 = (t / tiles_x) * T;
        const std::uint64_t c0 = (t % tiles_x) * T;
#pragma unroll 4
        for (unsigned e = threadIdx.x; e < T * T; e += blockDim.x) {
            const unsigned r = e / T;
            const unsigned c = e % T;
            if (r0 + r < rows && c0 + c < cols) tile[r][c] = in[(r0 + r) * cols + c0 + c];
        }
        __syncthreads();
#pragma unroll 4
        for (unsigned e = threadIdx.x; e < T * T; e += blockDim.x) {
            const unsigned r = e / T;  // row of out = column c0 + r of in
            const unsigned c = e % T;
            if (c0 + r < cols && r0 + c < rows) out[(c0 + r) * rows + r0 + c] = tile[c][r];
        }
        __syncthreads();
    }
}

// Counts the elements of out (cols x rows) that are not the input formula's value at the
// transposed position; the copy is exact, so the comparison is too.
__global__ void check_transpose_kernel(const float* __restrict__ out, std::uint64_t rows, std::uint64_t cols, value_range in,
                                       unsigned long long* __restrict__ bad) {
    for (const std::uint64_t i : wavefit::grid_stride(rows * cols)) {
        const std::uint64_t c = i / rows;  // out is cols x rows: element (c, r) is in(r, c)
        const std::uint64_t r = i % rows;
        if (!(out[i] == static_cast<float>(input_value(r * cols + c, in)))) atomicAdd(bad, 1ull);
    }
}

}  // namespace wavefit_bench::zoo
