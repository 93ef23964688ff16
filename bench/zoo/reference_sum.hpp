// SPDX-License-Identifier: MIT
// What a reduction over the zoo's inputs must return, computed from the input formulas rather than
// from memory. Apart from values.hpp because its kernel is not a template: one translation unit
// (kernel_zoo.hip, through cases.hpp) includes it.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes

#include "gpu_support/gpu_support.hpp"
#include "values.hpp"

namespace wavefit_bench::zoo {

// sum over i of x(i) (or x(i) * y(i)) in double, from the formulas rather than from memory: what a
// reduction over correctly filled inputs must return.
__global__ void reference_sum_kernel(std::uint64_t n, value_range x, value_range y, bool product,
                                     double* __restrict__ total) {
    double acc = 0.0;
    for (const std::uint64_t i : wavefit::grid_stride(n))
        acc += product ? input_value(i, x) * input_value(i, y) : input_value(i, x);
    atomicAdd(total, acc);
}

inline double reference_sum(std::uint64_t n, value_range x, value_range y, bool product, gpu::stream_t s) {
    double* total = static_cast<double*>(gpu::allocate_bytes(sizeof(double)));
    gpu::check(gpu::zero_async(total, sizeof(double), s), "clearing device memory");
    GPU_RAW_LAUNCH(reference_sum_kernel, dim3(helper_blocks), dim3(helper_threads), 0, s, n, x, y, product, total);
    gpu::check_last_launch("launching reference_sum_kernel");
    gpu::check(gpu::synchronize(s), "synchronizing the stream");
    double v = 0.0;
    gpu::check(gpu::to_host(&v, total, sizeof v), "copying to the host");
    (void)gpu::release(total);
    return v;
}

}  // namespace wavefit_bench::zoo
