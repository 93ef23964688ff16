// SPDX-License-Identifier: MIT
// Positive: static shared memory above the LDS of gfx942 (64 KiB), dynamic shared memory above it at a
// launch, and the dynamic limit raised past it (or without reading the device's limit).

__global__ void big_tile(float* out) {
    __shared__ float tile[128][160];  // expect: shared_memory_exceeds_limit
    tile[threadIdx.y][threadIdx.x] = 0.0f;
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void dynamic_tile(float* out) {
    extern __shared__ float buffer[];
    out[threadIdx.x] = buffer[threadIdx.x];
}

void launch(float* out, int bytes, hipStream_t stream) {
    cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);  // expect: dynamic_shared_memory_unchecked
    cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);  // expect: dynamic_shared_memory_unchecked
    dynamic_tile<<<1, 256, 80 * 1024, stream>>>(out);  // expect: shared_memory_exceeds_limit
}
