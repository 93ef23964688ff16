// SPDX-License-Identifier: MIT
// A second translation unit for the linked sample executable: the linker concatenates each
// object's .hip_fatbin, so the executable carries two offload bundles (padded to 4096 bytes), and
// the reader must find the kernels of both. It also provides main(); nothing is ever launched.
#include <hip/hip_runtime.h>

__global__ __launch_bounds__(128) void second_tu_scale(double* data, double factor, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

int main() { return 0; }
