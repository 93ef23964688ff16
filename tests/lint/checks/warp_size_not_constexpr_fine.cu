// SPDX-License-Identifier: MIT
// Negative: warpSize read as a value at run time.

__global__ void uses(float* data) {
    const int width = warpSize;
    for (int offset = width / 2; offset > 0; offset /= 2) data[threadIdx.x] += __shfl_down(data[threadIdx.x], offset);
    if (threadIdx.x % warpSize == 0) data[threadIdx.x / warpSize] = data[threadIdx.x];
}
