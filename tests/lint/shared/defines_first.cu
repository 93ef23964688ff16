// SPDX-License-Identifier: MIT
// A macro defined before the first include could change the header's meaning: this source is parsed on
// its own, never on the shared header.
#define SOMETHING_THE_HEADER_MIGHT_READ 1
#include "common.cuh"

void run_g(float* v, long long n, hipStream_t stream) {
    scale<7><<<(n + ROW_BLOCK - 1) / ROW_BLOCK, ROW_BLOCK, 0, stream>>>(v, n);  // expect: block_not_wave_multiple, grid_from_64bit_count
}
