// SPDX-License-Identifier: MIT
// External kernels: three of HeCBench's CUDA benchmarks (zjin-lcf/HeCBench at commit
// f27000a5188f8ac79bd43fc95a1b3f890c18823d, Zheming Jin et al.), re-implemented here with the same
// algorithm, indexing, guards, shared memory and launch configuration as the files named, in our words:
//   softMax      src/softmax-cuda/main.cu: one row per thread, guarded, blocks of BLOCK_SIZE = 256
//   softMax2     src/softmax-cuda/main.cu: one row per 32-thread tile (cooperative groups), blocks of
//                256, grid ceil(rows / 8)
//   scan_bcao    src/scan-cuda/main.cu: an exclusive scan of each tile of N elements by N/2 threads
//                through a fixed shared array of 2N (bank-conflict-avoiding offsets), the kernel
//                looping over tiles; launched with 16 x SMs blocks of N/2 (here N = 1024, int)
// Sizes are the benchmarks' own run arguments (Makefile `run`): 100,000 rows of 784 for the softmax,
// 2^28 elements for the scan (and 2^24 beside it).
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <string>   // names
#include <tuple>    // kernel arguments
#include <vector>   // cases

#include "device_support.hpp"
#include "ports.hpp"
#include "suite_case.hpp"

namespace wavefit_bench::external {

inline const char* const hecbench_commit = "zjin-lcf/HeCBench @ f27000a";

// --- softMax: a thread per row ----------------------------------------------------------------

__device__ inline void hecbench_softmax_row(int sliceSize, const float* src, float* dest, int i) {
    float max_ = src[i * sliceSize];
    for (int j = 0; j < sliceSize; j++) max_ = fmaxf(max_, src[i * sliceSize + j]);
    float sum = 0;
    for (int j = 0; j < sliceSize; j++) sum += expf(src[i * sliceSize + j] - max_);
    for (int j = 0; j < sliceSize; j++) dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
}

__global__ void hecbench_softmax(const int numSlice, const int sliceSize, const float* src, float* dest) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= numSlice) return;
    hecbench_softmax_row(sliceSize, src, dest, i);
}

__global__ void hecbench_softmax_gs(const int numSlice, const int sliceSize, const float* src, float* dest) {
    for (const std::uint64_t i : wavefit::grid_stride(static_cast<std::uint64_t>(numSlice)))
        hecbench_softmax_row(sliceSize, src, dest, static_cast<int>(i));
}

// --- softMax2: a 32-thread tile per row -------------------------------------------------------

__device__ inline void hecbench_softmax2_row(int sliceSize, const float* src, float* dest, int i, int lane) {
    float max_ = src[i * sliceSize];
    for (int j = lane; j < sliceSize; j += 32) max_ = fmaxf(max_, src[i * sliceSize + j]);
    max_ = max_32(max_);
    float sum = 0;
    for (int j = lane; j < sliceSize; j += 32) sum += expf(src[i * sliceSize + j] - max_);
    sum = sum_32(sum);
    for (int j = lane; j < sliceSize; j += 32) dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
}

__global__ void hecbench_softmax2(const int numSlice, const int sliceSize, const float* src, float* dest) {
    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (i >= numSlice) return;
    hecbench_softmax2_row(sliceSize, src, dest, i, threadIdx.x % 32);
}

__global__ void hecbench_softmax2_gs(const int numSlice, const int sliceSize, const float* src, float* dest) {
    for (const std::uint64_t i : group_stride(static_cast<std::uint64_t>(numSlice), 32))
        hecbench_softmax2_row(sliceSize, src, dest, static_cast<int>(i), threadIdx.x % 32);
}

// --- scan_bcao<int, N>: an exclusive scan of every tile of N ---------------------------------------

template <int N>
__global__ void hecbench_scan_bcao(const std::int64_t nblocks, int* __restrict__ g_odata, const int* __restrict__ g_idata) {
    // i + OFFSET(i) in the original (OFFSET(n) is n >> LOG_MEM_BANKS): one padding slot every 32 entries.
    constexpr int log_banks = 5;
    const auto conflict_free = [](int i) { return i + (i >> log_banks); };
    __shared__ int temp[2 * N];
    for (std::int64_t bid = blockIdx.x; bid < nblocks; bid += gridDim.x) {
        const int* gi = g_idata + bid * N;
        int* go = g_odata + bid * N;
        const int thid = threadIdx.x;
        const int a = thid;
        const int b = a + (N / 2);
        const int oa = a >> log_banks;
        const int ob = b >> log_banks;
        temp[a + oa] = gi[a];
        temp[b + ob] = gi[b];
        int offset = 1;
        for (int d = N >> 1; d > 0; d >>= 1) {  // up-sweep: partial sums in place
            __syncthreads();
            if (thid < d) {
                const int ai = conflict_free(offset * (2 * thid + 1) - 1);
                const int bi = conflict_free(offset * (2 * thid + 2) - 1);
                temp[bi] += temp[ai];
            }
            offset *= 2;
        }
        if (thid == 0) temp[N - 1 + ((N - 1) >> log_banks)] = 0;
        for (int d = 1; d < N; d *= 2) {  // down-sweep
            offset >>= 1;
            __syncthreads();
            if (thid < d) {
                const int ai = conflict_free(offset * (2 * thid + 1) - 1);
                const int bi = conflict_free(offset * (2 * thid + 2) - 1);
                const int t = temp[ai];
                temp[ai] = temp[bi];
                temp[bi] += t;
            }
        }
        __syncthreads();
        go[a] = temp[a + oa];
        go[b] = temp[b + ob];
    }
}

// --- the cases ------------------------------------------------------------------------------------

inline suite_case hecbench_softmax_case(bool per_warp, int numSlice, int sliceSize) {
    const std::uint64_t n = std::uint64_t(numSlice) * sliceSize;
    auto src = make_array<float>(n);
    auto dest = make_array<float>(n);
    suite_case c = suite_case::from(
        "hecbench", per_warp ? "softMax2" : "softMax", std::to_string(numSlice) + "x" + std::to_string(sliceSize),
        std::string(hecbench_commit) + " src/softmax-cuda/main.cu: " + (per_warp ? "softMax2" : "softMax"),
        per_warp ? "warp per row (a 32-thread tile), rows of 784" : "guarded, one row of 784 per thread");
    c.bytes = 8.0 * double(n);
    constexpr int block = 256;
    c.original = per_warp ? config_1d(ceil_div(numSlice, block / 32), block) : config_1d(ceil_div(numSlice, block), block);
    c.outputs = {{"dest", dest->data(), dest->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) {
        fill(src->data(), n, {131, 0.0, 13.0}, s);  // the benchmark's inputs are rand() % 13
    });
    auto args = [=] { return std::make_tuple(numSlice, sliceSize, static_cast<const float*>(src->data()), dest->data()); };
    if (per_warp) {
        add_original_and_ports(c, hecbench_softmax2, hecbench_softmax2_gs,
                               wavefit::work::per_group(numSlice, 32, sliceSize).block_powers_of_two(), args,
                               "work::per_group(numSlice, 32, sliceSize).block_powers_of_two()");
    } else {
        add_original_and_ports(c, hecbench_softmax, hecbench_softmax_gs,
                               wavefit::work::elements(numSlice).block_powers_of_two(), args,
                               "work::elements(numSlice).block_powers_of_two()");
    }
    c.keep = {src, dest};
    return c;
}

inline constexpr int hecbench_scan_tile = 1024;

// The kernel loops over tiles with gridDim strides and needs exactly N/2 threads (its shared array
// and both sweeps are written for them): the port fixes the block and says the kernel loops.
inline suite_case hecbench_scan_case(std::int64_t n, int compute_units) {
    constexpr int N = hecbench_scan_tile;
    const std::int64_t nblocks = (n + N - 1) / N;
    const std::uint64_t elements = std::uint64_t(nblocks) * N;
    auto in = make_array<int>(elements);
    auto out = make_array<int>(elements);
    suite_case c =
        suite_case::from("hecbench", "scan_bcao", count_name(static_cast<std::uint64_t>(n)),
                         std::string(hecbench_commit) + " src/scan-cuda/main.cu: scan_bcao<int, 1024>, launched by runTest",
                         "block per tile with its own loop, exactly N/2 = 512 threads, a fixed shared array of 2N ints");
    c.bytes = 8.0 * double(elements);
    c.original = config_1d(16 * std::uint64_t(compute_units), N / 2);
    c.outputs = {{"g_odata", out->data(), out->bytes()}};
    c.reset = fill_then_poison(c.outputs, [=](gpu::stream_t s) { fill_small_int(in->data(), elements, 141, s); });
    auto args = [=] { return std::make_tuple(nblocks, out->data(), static_cast<const int*>(in->data())); };
    c.variants.push_back(original_variant("original", hecbench_scan_bcao<N>, c.original, args));
    // Any grid covers the tiles (the kernel loops): the control scans one tile fewer.
    auto short_args = [=] { return std::make_tuple(nblocks - 1, out->data(), static_cast<const int*>(in->data())); };
    c.broken = raw_closure(hecbench_scan_bcao<N>, c.original, short_args);
    c.broken_what = "the original launch over one tile fewer";
    add_ports(
        c, hecbench_scan_bcao<N>,
        wavefit::work::per_block(static_cast<std::uint64_t>(nblocks), N).block_fixed(wavefit::dims{N / 2}).kernel_loops(),
        args, args, "work::per_block(nblocks, N).block_fixed(N/2).kernel_loops()");
    c.keep = {in, out};
    return c;
}

}  // namespace wavefit_bench::external
