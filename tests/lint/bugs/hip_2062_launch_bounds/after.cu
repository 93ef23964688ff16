// SPDX-License-Identifier: MIT
// The conversion ROCm/hip#2062 and HIP's porting guide describe: under HIP the minimum is wavefronts per
// SIMD, blocks x wavefronts per block / SIMDs per CU = 6 x 2 / 4 = 3, written as what it is.

__global__ void __launch_bounds__(128) __attribute__((amdgpu_waves_per_eu(3))) tuned_fixed(float* data) {
    data[threadIdx.x] *= 2.0f;
}

void launch(float* data, hipStream_t stream, int block) { tuned_fixed<<<64, block, 0, stream>>>(data); }
