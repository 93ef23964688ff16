// SPDX-License-Identifier: MIT
// The HeCBench cases of the external suite, in a translation unit of their own so
// that the suite's sources compile in parallel (each wavefit::launch and tune instantiation is heavy).
#include "hecbench.hpp"

#include "suite_cases.hpp"

namespace wavefit_bench::external {

std::vector<suite_case> hecbench_cases(int compute_units) {
    std::vector<suite_case> out;
    out.push_back(hecbench_softmax_case(false, 100000, 784));
    out.push_back(hecbench_softmax_case(true, 100000, 784));
    for (const std::int64_t n : {std::int64_t{1} << 28, std::int64_t{1} << 24})
        out.push_back(hecbench_scan_case(n, compute_units));
    return out;
}

}  // namespace wavefit_bench::external
