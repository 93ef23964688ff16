// SPDX-License-Identifier: MIT
// Positive: an int global index compared with a 64-bit count, a grid computed from a 64-bit count and
// narrowed, a grid clamped to INT_MAX blocks (still past 2^32 work-items), and a 64-bit count narrowed
// to the kernel's 32-bit size parameter.

__global__ void axpy(float a, const float* x, float* y, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // expect: index_32bit
    if (i < n) y[i] += a * x[i];
}

__global__ void clear(float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.0f;
}

__global__ void clear_loop(float* y, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x)
        y[i] = 0.0f;
}

void run(float* x, float* y, size_t count, hipStream_t stream) {
    const int block = 256;
    dim3 grid((count + block - 1) / block);  // expect: grid_from_64bit_count
    axpy<<<grid, block, 0, stream>>>(2.0f, x, y, count);
    clear<<<1024, 256, 0, stream>>>(y, count);  // expect: hardcoded_launch_config, work_size_narrowed
    const long long blocks = (static_cast<long long>(count) + 127) / 128;
    const unsigned int capped = static_cast<unsigned int>(min(blocks, 0x7fffffffLL));  // expect: grid_from_64bit_count
    clear_loop<<<capped, 128, 0, stream>>>(y, count);
}
