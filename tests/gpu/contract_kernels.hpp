// SPDX-License-Identifier: MIT
// Kernels written the way public CUDA code is written, each assuming something of its launch, for
// the specs that a tuned launch never changes what a kernel computes (test_contract_results.hip).
// Each is launched raw as it was written ("the original") and through wavefit with the contract it
// needs; the outputs must match bit for bit. The inputs are small integers stored as floats, so every
// sum is exact: a kernel whose blocks split the work differently still gives the same bits when it
// covers every item, and a skipped item still shows.
#pragma once

#include <cmath>    // INFINITY
#include <cstdint>  // sizes

#include "gpu_support/gpu_support.hpp"

#include <wavefit/wavefit.hpp>

// Guarded, one element per thread: out[i] = 3 * x[i] + i for i < n (blockIdx.x * blockDim.x + threadIdx.x).
__global__ void contract_guarded_map(const float* x, float* out, unsigned n);
// The same arithmetic as a grid-stride loop (wavefit::grid_stride): any grid is correct.
__global__ void contract_strided_map(const float* x, float* out, std::uint64_t n);

// Row sums of a rows x cols matrix, one row per 32-thread group (threadIdx.x / 32, a 32-wide
// butterfly): blocks must be whole groups of 32; rows past `rows` return.
__global__ void contract_row_sum_per_32(const float* x, float* out, int rows, int cols);
// The same with one row per wave of the device (wavefit::wave_size(): 32 on NVIDIA, 64 on gfx9).
__global__ void contract_row_sum_per_wave(const float* x, float* out, int rows, int cols);

// Row maxima, one row per block (blockIdx.x), per-warp results through a shared array of 32 slots:
// any block of whole warps up to 1024 threads.
__global__ void contract_row_max_per_block(const float* x, float* out, int cols);

// Row sums, one row per block, partial sums in a shared array of 256 reduced by a halving tree over
// blockDim: blocks of at most 256 threads, powers of two.
inline constexpr unsigned contract_shared_capacity = 256;
__global__ void contract_row_sum_shared_256(const float* x, float* out, int cols);

// Sums of tiles of 256 consecutive elements, one tile per block (out[blockIdx.x]), a shared array of
// 256 and a tree from 128: exactly 256 threads, guarded at the end of the data.
inline constexpr unsigned contract_tile = 256;
__global__ void contract_tile_sum_fixed_256(const float* x, float* out, unsigned n);
// The same kernel looping over tiles with wavefit::block_stride: any grid, still exactly 256 threads.
__global__ void contract_tile_sum_fixed_256_loop(const float* x, float* out, std::uint64_t n);
