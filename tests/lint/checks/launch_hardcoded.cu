// SPDX-License-Identifier: MIT
// Positive: launches whose block is a constant, written every way CUDA and HIP code writes one.
// Each `expect:` comment names the finding the line must carry; no other finding may appear.

__global__ void scale(float* data, float factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

__global__ void fill_loop(float* data, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        data[i] = 0.0f;
}

__global__ void row_sum(const float* matrix, float* sums, int rows, int row_length) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    float s = 0.0f;
    for (int j = threadIdx.x; j < row_length; j += blockDim.x) s += matrix[row * row_length + j];
    atomicAdd(&sums[row], s);
}

#define THREADS 256

void launch_all(float* data, float* sums, int n, long long big, int rows, int row_length, cudaStream_t stream) {
    scale<<<(n + 255) / 256, 256, 0, stream>>>(data, 2.0f, n);  // expect: hardcoded_launch_config
    scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(data, 2.0f, n);  // expect: hardcoded_launch_config
    const int threads = 512;
    scale<<<(n + threads - 1) / threads, threads>>>(data, 2.0f, n);  // expect: hardcoded_launch_config
    dim3 block(128);
    hipLaunchKernelGGL(fill_loop, dim3(1024), block, 0, stream, data, big);  // expect: hardcoded_launch_config
    row_sum<<<rows, 128, 0, stream>>>(data, sums, rows, row_length);  // expect: hardcoded_launch_config
    void* args[] = {&data, &n};
    cudaLaunchKernel((const void*)scale, dim3((n + 63) / 64), dim3(64), args, 0, stream);  // expect: hardcoded_launch_config
}
