// SPDX-License-Identifier: MIT
/* Includes the shared header first; the launch reads the header's block macro. */
#include "common.cuh"

void run_a(float* v, long long n, hipStream_t stream) {
    scale<2><<<(n + ROW_BLOCK - 1) / ROW_BLOCK, ROW_BLOCK, 0, stream>>>(v, n);  // expect: block_not_wave_multiple, grid_from_64bit_count
}
