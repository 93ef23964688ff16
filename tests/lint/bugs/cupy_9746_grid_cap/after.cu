// SPDX-License-Identifier: MIT
// The fix of cupy/cupy#9746: on HIP the grid is capped at UINT32_MAX / block, so grid x block stays below
// 2^32 work-items; the kernel's grid-stride loop covers the rest.

__global__ void fill(double* out, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x)
        out[i] = 1.0;
}

void linear_launch(double* out, unsigned long long n, hipStream_t stream) {
    const unsigned int block = 128;
    const unsigned long long blocks = (n + block - 1) / block;
    const unsigned int grid = static_cast<unsigned int>(min(blocks, 0xffffffffull / block));
    fill<<<grid, block, 0, stream>>>(out, n);  // expect: hardcoded_launch_config
}
