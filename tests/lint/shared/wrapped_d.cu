// SPDX-License-Identifier: MIT
// Includes the unguarded wrapper first, which opens with the shared header.
#include "wrapper.cuh"

void run_d(float* v, int n, hipStream_t stream) {
    shift<<<(n + 255) / 256, 256, 0, stream>>>(v, n);  // expect: hardcoded_launch_config
}
