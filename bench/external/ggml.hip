// SPDX-License-Identifier: MIT
// The ggml cases of the external suite, in a translation unit of their own so
// that the suite's sources compile in parallel (each wavefit::launch and tune instantiation is heavy).
#include "ggml.hpp"

#include "suite_cases.hpp"

namespace wavefit_bench::external {

std::vector<suite_case> ggml_cases() {
    std::vector<suite_case> out;
    for (const int tokens : {4096, 512}) out.push_back(ggml_swiglu_case(tokens, 11008));
    for (const int rows : {8192, 512}) out.push_back(ggml_rms_norm_case(rows, 4096));
    return out;
}

}  // namespace wavefit_bench::external
