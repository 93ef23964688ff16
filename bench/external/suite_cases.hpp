// SPDX-License-Identifier: MIT
// The cases of the external suite, one factory per project (each defined in its own .hip file):
// every case allocates its device buffers when it is made, so make them once per run.
#pragma once

#include <vector>  // cases

#include "suite_case.hpp"

namespace wavefit_bench::external {

// karpathy/llm.c: the eight fp32 training kernels at GPT-2 124M shapes (llmc.hpp).
std::vector<suite_case> llmc_cases();
// zjin-lcf/HeCBench: softMax, softMax2, scan_bcao (hecbench.hpp); `compute_units` sizes the scan's grid.
std::vector<suite_case> hecbench_cases(int compute_units);
// NVIDIA/cuda-samples: vectorAdd, scalarProd, BlackScholes (cuda_samples.hpp).
std::vector<suite_case> cuda_samples_cases();
// ggml-org/ggml (llama.cpp's ggml-cuda): SwiGLU, RMS norm (ggml.hpp).
std::vector<suite_case> ggml_cases();

}  // namespace wavefit_bench::external
