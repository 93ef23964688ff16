// SPDX-License-Identifier: MIT
// External kernels: three of NVIDIA's CUDA samples (NVIDIA/cuda-samples, tag v13.0; BSD-3-Clause,
// NVIDIA Corporation), re-implemented here with the same algorithm, indexing, guards, shared memory
// and launch configuration as the files named, in our words:
//   vectorAdd       Samples/0_Introduction/vectorAdd/vectorAdd.cu: guarded, blocks of 256
//   scalarProdGPU   Samples/2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh: one block per
//                   vector pair (its own loop over them), a fixed shared array of ACCUM_N = 1024
//                   accumulators reduced by a power-of-two tree, launched <<<128, 256>>>
//   BlackScholesGPU Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh: guarded, two
//                   options per thread (float2), __launch_bounds__(128), blocks of 128
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <string>   // names
#include <tuple>    // kernel arguments
#include <vector>   // cases

#include "ports.hpp"
#include "suite_case.hpp"

namespace wavefit_bench::external {

inline const char* const cuda_samples_tag = "NVIDIA/cuda-samples v13.0";

// --- vectorAdd ----------------------------------------------------------------------------------

__global__ void samples_vector_add(const float* A, const float* B, float* C, int numElements) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) C[i] = A[i] + B[i] + 0.0f;
}

__global__ void samples_vector_add_gs(const float* A, const float* B, float* C, int numElements) {
    for (const std::uint64_t i : wavefit::grid_stride(static_cast<std::uint64_t>(numElements))) C[i] = A[i] + B[i] + 0.0f;
}

// --- scalarProdGPU: d_C[vec] = dot(d_A[vec], d_B[vec]) -----------------------------------------

inline constexpr int samples_accumulators = 1024;  // ACCUM_N, a power of two

__global__ void samples_scalar_prod(float* d_C, float* d_A, float* d_B, int vectorN, int elementN) {
    __shared__ float accumulators[samples_accumulators];
    for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
        const int first = __mul24(elementN, vec);
        const int last = first + elementN;
        // Accumulator k sums positions first + k, first + k + ACCUM_N, ...: whichever thread holds it.
        for (int k = threadIdx.x; k < samples_accumulators; k += blockDim.x) {
            float sum = 0;
            for (int pos = first + k; pos < last; pos += samples_accumulators) sum += d_A[pos] * d_B[pos];
            accumulators[k] = sum;
        }
        for (int stride = samples_accumulators / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int k = threadIdx.x; k < stride; k += blockDim.x) accumulators[k] += accumulators[stride + k];
        }
        __syncthreads();
        if (threadIdx.x == 0) d_C[vec] = accumulators[0];
    }
}

// --- BlackScholesGPU --------------------------------------------------------------------------

// The cumulative normal distribution by the polynomial approximation the sample uses.
__device__ inline float samples_cnd(float d) {
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    const float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
    float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) cnd = 1.0f - cnd;
    return cnd;
}

__device__ inline void samples_black_scholes_body(float& call, float& put, float S, float X, float T, float R, float V) {
    const float sqrtT = __fdividef(1.0F, rsqrtf(T));
    const float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    const float d2 = d1 - V * sqrtT;
    const float cnd_d1 = samples_cnd(d1);
    const float cnd_d2 = samples_cnd(d2);
    const float expRT = __expf(-R * T);
    call = S * cnd_d1 - X * expRT * cnd_d2;
    put = X * expRT * (1.0f - cnd_d2) - S * (1.0f - cnd_d1);
}

__device__ inline void samples_black_scholes_pair(float2* call, float2* put, const float2* S, const float2* X,
                                                  const float2* T, float R, float V, int opt) {
    float call1, call2, put1, put2;
    samples_black_scholes_body(call1, put1, S[opt].x, X[opt].x, T[opt].x, R, V);
    samples_black_scholes_body(call2, put2, S[opt].y, X[opt].y, T[opt].y, R, V);
    call[opt] = make_float2(call1, call2);
    put[opt] = make_float2(put1, put2);
}

__launch_bounds__(128) __global__
    void samples_black_scholes(float2* __restrict__ d_CallResult, float2* __restrict__ d_PutResult,
                               float2* __restrict__ d_StockPrice, float2* __restrict__ d_OptionStrike,
                               float2* __restrict__ d_OptionYears, float Riskfree, float Volatility, int optN) {
    const int opt = blockDim.x * blockIdx.x + threadIdx.x;
    if (opt < optN / 2)
        samples_black_scholes_pair(d_CallResult, d_PutResult, d_StockPrice, d_OptionStrike, d_OptionYears, Riskfree,
                                   Volatility, opt);
}

__launch_bounds__(128) __global__
    void samples_black_scholes_gs(float2* __restrict__ d_CallResult, float2* __restrict__ d_PutResult,
                                  float2* __restrict__ d_StockPrice, float2* __restrict__ d_OptionStrike,
                                  float2* __restrict__ d_OptionYears, float Riskfree, float Volatility, int optN) {
    for (const std::uint64_t opt : wavefit::grid_stride(static_cast<std::uint64_t>(optN / 2)))
        samples_black_scholes_pair(d_CallResult, d_PutResult, d_StockPrice, d_OptionStrike, d_OptionYears, Riskfree,
                                   Volatility, static_cast<int>(opt));
}

// --- the cases ------------------------------------------------------------------------------------

inline suite_case samples_vector_add_case(int n) {
    auto a = make_array<float>(n);
    auto b = make_array<float>(n);
    auto out = make_array<float>(n);
    suite_case c = suite_case::from(
        "cudasamples", "vectorAdd", count_name(n),
        std::string(cuda_samples_tag) + " Samples/0_Introduction/vectorAdd/vectorAdd.cu: vectorAdd", "guarded elementwise");
    c.bytes = 12.0 * n;
    c.original = config_1d(ceil_div(n, 256), 256);
    c.outputs = {{"C", out->data(), out->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) {
        fill(a->data(), n, {101, 0.0, 1.0}, s);
        fill(b->data(), n, {102, 0.0, 1.0}, s);
    });
    auto args = [=] {
        return std::make_tuple(static_cast<const float*>(a->data()), static_cast<const float*>(b->data()), out->data(), n);
    };
    add_original_and_ports(c, samples_vector_add, samples_vector_add_gs, wavefit::work::elements(n).block_powers_of_two(),
                           args, "work::elements(numElements).block_powers_of_two()");
    c.keep = {a, b, out};
    return c;
}

// Any block and any grid give the same bits: accumulator k always sums the same positions and the
// tree over the 1024 accumulators is fixed. So the port states only that the kernel loops.
inline suite_case samples_scalar_prod_case(int vectorN, int elementN) {
    const std::uint64_t n = std::uint64_t(vectorN) * elementN;
    auto a = make_array<float>(n);
    auto b = make_array<float>(n);
    auto out = make_array<float>(vectorN);
    suite_case c = suite_case::from(
        "cudasamples", "scalarProd", std::to_string(vectorN) + "x" + std::to_string(elementN),
        std::string(cuda_samples_tag) +
            " Samples/2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh: scalarProdGPU, launched by "
            "scalarProd.cu",
        "block per vector pair (its own loop), a fixed shared array of 1024 accumulators, power-of-two tree");
    c.bytes = 8.0 * double(n) + 4.0 * vectorN;
    c.original = config_1d(128, 256);
    c.outputs = {{"d_C", out->data(), out->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) {
        fill(a->data(), n, {111, 0.0, 1.0}, s);
        fill(b->data(), n, {112, 0.0, 1.0}, s);
    });
    auto args = [=] { return std::make_tuple(out->data(), a->data(), b->data(), vectorN, elementN); };
    c.variants.push_back(original_variant("original", samples_scalar_prod, c.original, args));
    // The kernel loops over vectors, so a grid one block short still covers them: the control skips
    // the last vector instead.
    auto short_args = [=] { return std::make_tuple(out->data(), a->data(), b->data(), vectorN - 1, elementN); };
    c.broken = raw_closure(samples_scalar_prod, c.original, short_args);
    c.broken_what = "the original launch over one vector fewer";
    add_ports(c, samples_scalar_prod, wavefit::work::per_block(vectorN, elementN).block_powers_of_two().kernel_loops(), args, args,
              "work::per_block(vectorN, elementN).block_powers_of_two().kernel_loops()");
    c.keep = {a, b, out};
    return c;
}

inline suite_case samples_black_scholes_case(int optN) {
    const int pairs = optN / 2;
    auto call = make_array<float>(optN);
    auto put = make_array<float>(optN);
    auto S = make_array<float>(optN);
    auto X = make_array<float>(optN);
    auto T = make_array<float>(optN);
    const float riskfree = 0.02f, volatility = 0.30f;
    suite_case c =
        suite_case::from("cudasamples", "BlackScholes", std::to_string(optN),
                         std::string(cuda_samples_tag) +
                             " Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh: BlackScholesGPU, launched by "
                             "BlackScholes.cu",
                         "guarded elementwise, two options per thread, __launch_bounds__(128)");
    c.bytes = 20.0 * optN;
    c.original = config_1d(ceil_div(pairs, 128), 128);
    c.outputs = {{"call", call->data(), call->bytes()}, {"put", put->data(), put->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) {
        fill(S->data(), optN, {121, 5.0, 25.0}, s);
        fill(X->data(), optN, {122, 1.0, 99.0}, s);
        fill(T->data(), optN, {123, 0.25, 9.75}, s);
    });
    auto args = [=] {
        return std::make_tuple(reinterpret_cast<float2*>(call->data()), reinterpret_cast<float2*>(put->data()),
                               reinterpret_cast<float2*>(S->data()), reinterpret_cast<float2*>(X->data()),
                               reinterpret_cast<float2*>(T->data()), riskfree, volatility, optN);
    };
    // __launch_bounds__(128) is in the kernel's attributes: wavefit reads it, the port need not say it.
    add_original_and_ports(c, samples_black_scholes, samples_black_scholes_gs,
                           wavefit::work::elements(pairs).block_powers_of_two(), args,
                           "work::elements(optN/2).block_powers_of_two()");
    c.keep = {call, put, S, X, T};
    return c;
}

}  // namespace wavefit_bench::external
