// SPDX-License-Identifier: MIT
// Negative: a constant of 32 used only for a consistent scheme of 32-lane groups (shuffles with an
// explicit width of 32, lanes and groups computed with it) is correct inside a 64-lane wavefront; a
// tile of 32 is no warp; a per-target warp width and the 64-bit ballot are right.

#define WARP_SIZE 32
#define TILE_DIM 32
#if defined(__GFX9__)
#define WAVE 64
#else
#define WAVE 32
#endif

__device__ float group_sum(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(~0ull, v, offset, WARP_SIZE);
    return v;
}

__global__ void sums_of_groups(const float* in, float* out) {
    const int lane = threadIdx.x % WARP_SIZE;
    const float s = group_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (lane == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = s;
}

__global__ void transpose_tile(const float* in, float* out, int width) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int x = threadIdx.x % TILE_DIM;
    tile[threadIdx.y][x] = in[threadIdx.y * width + x];
    __syncthreads();
    out[x * width + threadIdx.y] = tile[x][threadIdx.y];
}

__global__ void vote(const int* flags, unsigned long long* masks) {
    const int lane = threadIdx.x % WAVE;
    const unsigned long long m = __ballot_sync(~0ull, flags[threadIdx.x]);
    if (lane == 0) masks[threadIdx.x / WAVE] = m;
}
