// SPDX-License-Identifier: MIT
// The fix of cupy/cupy#9977: a 64-bit mask, and the reduction starts at half the wavefront.

__global__ void count_rows(const int* row_of_entry, const int* wanted, int* counts, int entries) {
    __shared__ int partial[1024 / 32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int hits = (i < entries && wanted[row_of_entry[i]]) ? 1 : 0;
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) hits += __shfl_down_sync(~0ull, hits, offset);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = hits;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < blockDim.x / warpSize; ++w) total += partial[w];
        atomicAdd(counts, total);
    }
}
