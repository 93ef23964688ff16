// SPDX-License-Identifier: MIT
// cupy/cupy#9746: a linear launch capped the grid at 0x7fffffff blocks (CUDA's grid limit). On AMD the
// dispatch packet counts work-items in 32 bits: 2^33 elements need 2^26 blocks of 128, 2^33 work-items,
// and the launch fails with hipErrorInvalidValue.

__global__ void fill(double* out, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x)
        out[i] = 1.0;
}

void linear_launch(double* out, unsigned long long n, hipStream_t stream) {
    const unsigned int block = 128;
    const unsigned long long blocks = (n + block - 1) / block;
    const unsigned int grid = static_cast<unsigned int>(min(blocks, 0x7fffffffull));  // expect: grid_from_64bit_count
    fill<<<grid, block, 0, stream>>>(out, n);
}
