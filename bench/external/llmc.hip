// SPDX-License-Identifier: MIT
// The llm.c cases of the external suite, in a translation unit of their own so
// that the suite's sources compile in parallel (each wavefit::launch and tune instantiation is heavy).
#include "llmc.hpp"

#include "suite_cases.hpp"

namespace wavefit_bench::external {

// GPT-2 124M at B = 8 and 32 (T = 1024): the shapes the external suite measures.
std::vector<suite_case> llmc_cases() {
    const int T = 1024, C = 768, NH = 12, V = 50257, P = 50304;
    std::vector<suite_case> out;
    for (const int B : {8, 32}) out.push_back(llmc_encoder_case(B, T, C, V));
    for (const int B : {8, 32}) out.push_back(llmc_layernorm_case(B, T, C));
    out.push_back(llmc_attention_softmax_case(8, NH, T));
    for (const int B : {8, 32}) out.push_back(llmc_residual_case(B, T, C));
    for (const int B : {8, 32}) out.push_back(llmc_gelu_case(B, T, C));
    out.push_back(llmc_classifier_case(8, T, V, P));
    out.push_back(llmc_adamw_case(124475904L, "gpt2_124M"));
    out.push_back(llmc_adamw_case(354871296L, "gpt2_350M"));
    for (const int OC : {C, 4 * C}) out.push_back(llmc_bias_backward_case(8, T, OC));
    return out;
}

}  // namespace wavefit_bench::external
