// SPDX-License-Identifier: MIT
#include <algorithm>
// Negative: an int index in a kernel whose count is an int (32 bits throughout), a 64-bit index in a
// kernel that loops, and its grid clamped below 2^32 work-items.

__global__ void clear(float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.0f;
}

__global__ void clear_loop(float* y, size_t n) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(blockDim.x) * gridDim.x)
        y[i] = 0.0f;
}

void run(float* y, int small, size_t count, hipStream_t stream, int block) {
    clear<<<(small + block - 1) / block, block, 0, stream>>>(y, small);
    const size_t blocks = (count + 255) / 256;
    const unsigned int grid = static_cast<unsigned int>(std::min<size_t>(blocks, 65535));
    clear_loop<<<grid, block, 0, stream>>>(y, count);
}
