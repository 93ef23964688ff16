// SPDX-License-Identifier: MIT
// The kernels of the contract specs (declared and described in contract_kernels.hpp).
#include "contract_kernels.hpp"

namespace {

__device__ float shuffle_xor(float v, int lane_mask, int width) {
#if WAVEFIT_PLATFORM_HIP
    return __shfl_xor(v, lane_mask, width);
#else
    return __shfl_xor_sync(0xffffffffu, v, lane_mask, width);
#endif
}

// Every lane of a group of `width` threads (a power of two) ends with the group's sum.
__device__ float group_sum(float v, int width) {
    for (int offset = width / 2; offset > 0; offset >>= 1) v += shuffle_xor(v, offset, width);
    return v;
}

__device__ float group_max(float v, int width) {
    for (int offset = width / 2; offset > 0; offset >>= 1) v = fmaxf(v, shuffle_xor(v, offset, width));
    return v;
}

__device__ void row_sum_by_group(const float* x, float* out, int cols, int row, int lane, int width) {
    float sum = 0.0f;
    for (int c = lane; c < cols; c += width) sum += x[static_cast<std::int64_t>(row) * cols + c];
    sum = group_sum(sum, width);
    if (lane == 0) out[row] = sum;
}

__device__ void tile_sum(const float* x, float* out, std::uint64_t n, std::uint64_t tile) {
    __shared__ float partial[contract_tile];
    const std::uint64_t i = tile * contract_tile + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0.0f;
    for (unsigned s = contract_tile / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    }
    if (threadIdx.x == 0) out[tile] = partial[0];
    __syncthreads();  // the next tile of a looping block reuses the array
}

}  // namespace

__global__ void contract_guarded_map(const float* x, float* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 3.0f * x[i] + static_cast<float>(i);
}

__global__ void contract_strided_map(const float* x, float* out, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n))
        out[i] = 3.0f * x[i] + static_cast<float>(static_cast<unsigned>(i));
}

__global__ void contract_row_sum_per_32(const float* x, float* out, int rows, int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= rows) return;
    row_sum_by_group(x, out, cols, row, threadIdx.x % 32, 32);
}

__global__ void contract_row_sum_per_wave(const float* x, float* out, int rows, int cols) {
    const int wave = static_cast<int>(wavefit::wave_size());
    const int row = blockIdx.x * (blockDim.x / wave) + threadIdx.x / wave;
    if (row >= rows) return;
    row_sum_by_group(x, out, cols, row, threadIdx.x % wave, wave);
}

__global__ void contract_row_max_per_block(const float* x, float* out, int cols) {
    __shared__ float warp_max[32];
    const float* row = x + static_cast<std::int64_t>(blockIdx.x) * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    m = group_max(m, 32);
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    const int warps = blockDim.x / 32;
    if (warp == 0) {
        m = lane < warps ? warp_max[lane] : -INFINITY;
        m = group_max(m, 32);
        if (lane == 0) out[blockIdx.x] = m;
    }
}

__global__ void contract_row_sum_shared_256(const float* x, float* out, int cols) {
    __shared__ float partial[contract_shared_capacity];
    const float* row = x + static_cast<std::int64_t>(blockIdx.x) * cols;
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += row[c];
    partial[threadIdx.x] = sum;
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void contract_tile_sum_fixed_256(const float* x, float* out, unsigned n) { tile_sum(x, out, n, blockIdx.x); }

__global__ void contract_tile_sum_fixed_256_loop(const float* x, float* out, std::uint64_t n) {
    const std::uint64_t tiles = (n + contract_tile - 1) / contract_tile;
    for (const std::uint64_t tile : wavefit::block_stride(tiles)) tile_sum(x, out, n, tile);
}
