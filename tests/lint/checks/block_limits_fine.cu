// SPDX-License-Identifier: MIT
// Negative: blocks of whole wavefronts, a single-thread launch (serial work, not a porting hazard), a
// block of 96 in a grid smaller than the device (idle CUs cost more than idle lanes) and grids within the
// limits carry only the hard-coded-configuration note.

__global__ void work(float* data) { data[threadIdx.x] = 0.0f; }

void launches(float* data) {
    work<<<100, 64>>>(data);  // expect: hardcoded_launch_config
    work<<<dim3(1, 65535), 256>>>(data);  // expect: hardcoded_launch_config
    work<<<1, 1>>>(data);  // expect: hardcoded_launch_config
    work<<<2, 96>>>(data);  // expect: hardcoded_launch_config
    work<<<dim3(16777215), 256>>>(data);  // expect: hardcoded_launch_config
}
