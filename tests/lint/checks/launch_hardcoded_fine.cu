// SPDX-License-Identifier: MIT
// Negative: a block chosen at run time from the device (the occupancy API) is no hard-coded configuration.

__global__ void scale(float* data, float factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

void launch_from_occupancy(float* data, int n, cudaStream_t stream) {
    int min_grid = 0;
    int block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale);
    scale<<<(n + block - 1) / block, block, 0, stream>>>(data, 2.0f, n);
}
