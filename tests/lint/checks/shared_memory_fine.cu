// SPDX-License-Identifier: MIT
// Negative: shared memory within 64 KiB, and a dynamic limit raised after reading the device's.

__global__ void tile_kernel(float* out) {
    __shared__ float tile[64][128];
    tile[threadIdx.y][threadIdx.x] = 0.0f;
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void dynamic_tile(float* out) {
    extern __shared__ float buffer[];
    out[threadIdx.x] = buffer[threadIdx.x];
}

void launch(float* out, int wanted, hipStream_t stream, int block) {
    int limit = 0;
    hipDeviceGetAttribute(&limit, hipDeviceAttributeMaxSharedMemoryPerBlock, 0);
    const int bytes = wanted < limit ? wanted : limit;
    hipFuncSetAttribute((const void*)dynamic_tile, hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
    cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 32 * 1024);
    dynamic_tile<<<1, block, bytes, stream>>>(out);
    tile_kernel<<<1, block, 0, stream>>>(out);
}
