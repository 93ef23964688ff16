// SPDX-License-Identifier: MIT
// The separately compiled mode on the fake HIP runtime: this translation unit only launches, through
// <wavefit/launch.hpp>; separate_compiled.cpp is the one that includes <wavefit/compiled.hpp>;
// separate_main.cpp checks what happened. All three are compiled with WAVEFIT_SEPARATE_COMPILATION.
#include "fake_hip.hpp"
#include <wavefit/launch.hpp>

#include <cstdint>  // sizes


void separate_kernel(float* p, int n) { (void)p, (void)n; }

void launch_elements(float* p, int n) { wavefit::launch(separate_kernel, std::uint64_t{4096}, nullptr, p, n); }

void launch_too_large_block(float* p, int n) {
    wavefit::launch(separate_kernel, wavefit::launch_config{wavefit::dims{1}, wavefit::dims{2048}}, nullptr, p, n);
}
