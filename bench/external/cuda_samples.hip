// SPDX-License-Identifier: MIT
// The cuda-samples cases of the external suite, in a translation unit of their own so
// that the suite's sources compile in parallel (each wavefit::launch and tune instantiation is heavy).
#include "cuda_samples.hpp"

#include "suite_cases.hpp"

namespace wavefit_bench::external {

std::vector<suite_case> cuda_samples_cases() {
    std::vector<suite_case> out;
    for (const int n : {1 << 24, 1 << 28}) out.push_back(samples_vector_add_case(n));
    out.push_back(samples_scalar_prod_case(8192, 4096));
    out.push_back(samples_scalar_prod_case(256, 262144));
    for (const int n : {4000000, 64000000}) out.push_back(samples_black_scholes_case(n));
    return out;
}

}  // namespace wavefit_bench::external
