// SPDX-License-Identifier: MIT
// cupy/cupy#9977: a row-counting kernel passed the 32-bit mask 0xffffffff to __shfl_down_sync (refused by
// ROCm 7's headers) and reduced from offset 16, so on a 64-lane wavefront only 32 lanes reach the partial
// sum that is then stored once per hardware wavefront.

__global__ void count_rows(const int* row_of_entry, const int* wanted, int* counts, int entries) {
    __shared__ int partial[1024 / 32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int hits = (i < entries && wanted[row_of_entry[i]]) ? 1 : 0;
    for (int offset = 16; offset > 0; offset >>= 1)  // expect: shuffle_reduction_from_16
        hits += __shfl_down_sync(0xffffffff, hits, offset);  // expect: full_mask_32bit
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = hits;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < blockDim.x / warpSize; ++w) total += partial[w];
        atomicAdd(counts, total);
    }
}
