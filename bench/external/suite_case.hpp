// SPDX-License-Identifier: MIT
// One case of the external suite (bench/external_suite.hip): a public kernel at one size with its
// device buffers, how to reset its inputs, which outputs the check compares, the launch its project
// makes ("original"), a launch that must fail the check (the negative control), and the ports that
// are measured against the original: wavefit's plan, the tuned launch, and a grid-stride rewrite.
//
// Every output is compared bit for bit with the original launch's output on the same inputs, so a
// case's inputs are computed from the element index (zoo/values.hpp): resetting them reproduces
// them exactly, and the in-place kernels (AdamW, the classifier, the bias gradient) start from the
// same values before every check.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>     // sizes
#include <functional>  // per-case behaviour
#include <memory>      // buffers shared by the closures
#include <string>      // names
#include <tuple>       // kernel arguments
#include <utility>     // std::move
#include <vector>      // lists

#include "../zoo/values.hpp"
#include "gpu_support/gpu_support.hpp"

namespace wavefit_bench::external {

using zoo::value_range;

// Device memory shared by the closures of a case, freed when the last one goes.
template <class T>
using device_array = std::shared_ptr<gpu::buffer<T>>;

template <class T>
device_array<T> make_array(std::uint64_t count) {
    return std::make_shared<gpu::buffer<T>>(static_cast<std::size_t>(count));
}

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// "2^28" for powers of two, the number otherwise.
inline std::string count_name(std::uint64_t n) {
    for (int e = 10; e < 40; ++e)
        if (n == (std::uint64_t{1} << e)) return "2^" + std::to_string(e);
    return std::to_string(n);
}

inline wavefit::launch_config config_1d(std::uint64_t grid, std::uint64_t block, std::uint64_t shared = 0) {
    return wavefit::launch_config{wavefit::dims{grid}, wavefit::dims{block}, shared};
}

// --- device helpers: inputs, poison, the bitwise comparison, the L2 flush ------------------------

// Values in [lo, lo + width) rounded to a multiple of `step` (a power of two): sums of up to
// 2^(24 - bits of |sum| / step) of them are exact in fp32, whatever the order.
template <class T>
__global__ void fill_quantized_kernel(T* __restrict__ p, std::uint64_t n, value_range r, T step) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) p[i] = rintf(static_cast<T>(zoo::input_value(i, r)) / step) * step;
}

// Integers in [0, limit): token ids, class targets. (The helper kernels are templates so that every
// translation unit of the suite can include this header.)
template <class T>
__global__ void fill_index_kernel(T* __restrict__ p, std::uint64_t n, std::uint32_t seed, T limit) {
    const value_range r{seed, 0.0, 1.0};
    for (const std::uint64_t i : wavefit::grid_stride(n)) {
        const T v = static_cast<T>(zoo::input_value(i, r) * limit);
        p[i] = v < limit ? v : limit - 1;
    }
}

// Small positive integers [1, 5] (HeCBench's scan inputs are rand() % 5 + 1).
template <class T>
__global__ void fill_small_int_kernel(T* __restrict__ p, std::uint64_t n, std::uint32_t seed) {
    const value_range r{seed, 0.0, 1.0};
    for (const std::uint64_t i : wavefit::grid_stride(n)) p[i] = 1 + static_cast<T>(zoo::input_value(i, r) * 5.0);
}

// Every 32-bit word set to a quiet NaN's bits: an output a launch forgot stays at this pattern,
// which no kernel here computes.
template <class Word>
__global__ void poison_words_kernel(Word* __restrict__ p, std::uint64_t words) {
    for (const std::uint64_t i : wavefit::grid_stride(words)) p[i] = 0x7fc00badu;
}

// How many 32-bit words of `a` and `b` differ, and the first that does.
template <class Word>
__global__ void count_differences_kernel(const Word* __restrict__ a, const Word* __restrict__ b, std::uint64_t words,
                                         unsigned long long* __restrict__ differing,
                                         unsigned long long* __restrict__ first) {
    unsigned long long mine = 0;
    for (const std::uint64_t i : wavefit::grid_stride(words)) {
        if (a[i] != b[i]) {
            if (mine++ == 0) atomicMin(first, static_cast<unsigned long long>(i));
        }
    }
    if (mine != 0) atomicAdd(differing, mine);
}

// Reads every byte of a buffer (and writes one word only if the data is all zero, which it is not)
// so that the L2 holds the buffer's lines, clean, and none of the next kernel's data.
template <class Vector>
__global__ void read_through_kernel(const Vector* __restrict__ p, std::uint64_t vectors, std::uint32_t* sink) {
    std::uint32_t acc = 0;
    for (const std::uint64_t i : wavefit::grid_stride(vectors)) {
        const Vector v = p[i];
        acc |= v.x | v.y | v.z | v.w;
    }
    if (acc == 0) *sink = 1;
}

template <class Word>
__global__ void fill_nonzero_kernel(Word* __restrict__ p, std::uint64_t words) {
    for (const std::uint64_t i : wavefit::grid_stride(words)) p[i] = 0x01010101u;
}

// Setup launches are raw with a fixed grid (they grid-stride), so that nothing but the kernels under
// test goes through wavefit.
template <class Kernel, class... Args>
void helper_launch(Kernel kernel, const char* what, gpu::stream_t s, Args... args) {
    GPU_RAW_LAUNCH(kernel, dim3(zoo::helper_blocks), dim3(zoo::helper_threads), 0, s, args...);
    gpu::check_last_launch(what);
}

inline void fill(float* p, std::uint64_t n, value_range r, gpu::stream_t s) { zoo::fill(p, n, r, s); }
inline void fill_quantized(float* p, std::uint64_t n, value_range r, float step, gpu::stream_t s) {
    helper_launch(fill_quantized_kernel<float>, "launching fill_quantized_kernel", s, p, n, r, step);
}
inline void fill_index(int* p, std::uint64_t n, std::uint32_t seed, int limit, gpu::stream_t s) {
    helper_launch(fill_index_kernel<int>, "launching fill_index_kernel", s, p, n, seed, limit);
}
inline void fill_small_int(int* p, std::uint64_t n, std::uint32_t seed, gpu::stream_t s) {
    helper_launch(fill_small_int_kernel<int>, "launching fill_small_int_kernel", s, p, n, seed);
}
inline void poison_bytes(void* p, std::uint64_t bytes, gpu::stream_t s) {
    helper_launch(poison_words_kernel<std::uint32_t>, "launching poison_words_kernel", s, static_cast<std::uint32_t*>(p),
                  bytes / 4);
}

// The first differing word and how many differ between two device regions of `bytes` (a multiple of 4).
struct difference {
    unsigned long long words = 0;
    unsigned long long first = 0;
};

template <class Count>
__global__ void reset_difference_kernel(Count* slots) {
    slots[0] = 0;
    slots[1] = ~0ull;
}

class comparator {
public:
    comparator() : slots_(2) {}
    difference compare(const void* a, const void* b, std::uint64_t bytes, gpu::stream_t s) {
        GPU_RAW_LAUNCH(reset_difference_kernel<unsigned long long>, dim3(1), dim3(1), 0, s, slots_.data());
        gpu::check_last_launch("launching reset_difference_kernel");
        helper_launch(count_differences_kernel<std::uint32_t>, "launching count_differences_kernel", s,
                      static_cast<const std::uint32_t*>(a), static_cast<const std::uint32_t*>(b), bytes / 4, slots_.data(),
                      slots_.data() + 1);
        gpu::check(gpu::synchronize(s), "synchronizing the stream");
        const std::vector<unsigned long long> host = slots_.to_host();
        return {host[0], host[1]};
    }

private:
    gpu::buffer<unsigned long long> slots_;
};

// Evicts the kernel's data from the L2 before a timed launch, as Triton's do_bench does (it zeroes
// 256 MB). This one reads instead of writing: a write leaves the L2 full of dirty lines that the timed
// kernel then pays to write back (about 60 MB on the H200, ~20 us), the same for every variant, which
// would shrink the ratios between them. Reading leaves clean lines that are dropped for free.
class l2_flush {
public:
    explicit l2_flush(std::uint64_t l2_bytes) : bytes_(flush_bytes(l2_bytes)), data_(bytes_ / 4), sink_(1) {
        GPU_RAW_LAUNCH(fill_nonzero_kernel<std::uint32_t>, dim3(zoo::helper_blocks), dim3(zoo::helper_threads), 0, nullptr,
                       data_.data(), data_.size());
        gpu::check_last_launch("launching fill_nonzero_kernel");
        gpu::check(gpu::synchronize(), "synchronizing the device");
    }
    void run(gpu::stream_t s) {
        GPU_RAW_LAUNCH(read_through_kernel<uint4>, dim3(4 * zoo::helper_blocks), dim3(zoo::helper_threads), 0, s,
                       reinterpret_cast<const uint4*>(data_.data()), bytes_ / 16, sink_.data());
    }
    std::uint64_t bytes() const { return bytes_; }

    // At least twice the L2 and at least Triton's 256 MiB, a whole number of 16-byte vectors.
    static std::uint64_t flush_bytes(std::uint64_t l2_bytes) {
        const std::uint64_t at_least = std::uint64_t{256} << 20;
        const std::uint64_t twice = 2 * l2_bytes;
        return ((twice > at_least ? twice : at_least) + 15) / 16 * 16;
    }

private:
    std::uint64_t bytes_;
    gpu::buffer<std::uint32_t> data_;
    gpu::buffer<std::uint32_t> sink_;
};

// --- a case and its variants ---------------------------------------------------------------------

// An output the check compares (a multiple of 4 bytes).
struct output_region {
    std::string name;
    void* data;
    std::uint64_t bytes;
};

// One way of launching a case's kernel.
struct variant {
    std::string name;      // original, original_repeat, plan, tuned, gs_plan, gs_tuned
    std::string contract;  // what the port tells wavefit, for the report ("work::per_group(B*T, 32, C)")
    std::function<void(gpu::stream_t)> launch;
    // Tuned variants: the tuning phase's wavefit::tune call (on scratch copies for in-place kernels);
    // the variant then launches with WAVEFIT_TUNING=use.
    std::function<wavefit::tuning_result(gpu::stream_t)> tune;
    // The configuration the launch uses (for the counters; tuned variants: after tuning).
    std::function<wavefit::launch_config()> config;
    // A port that lets wavefit choose the block of a kernel whose summation order follows the block
    // (plan_free, tuned_free): its bits are those of the original kernel launched with the same block,
    // so it is checked against that launch (the original's grid, this variant's block) instead.
    bool same_block_reference = false;
    bool is_tuned() const { return static_cast<bool>(tune); }
};

struct suite_case {
    std::string project;  // first part of the benchmark name: ext/<project>_<kernel>/<variant>/<size>
    std::string kernel;
    std::string size;
    std::string source;  // repository, path, commit and function of the original
    std::string shape;   // "guarded elementwise", "warp per row", ...
    double bytes = 0;    // device memory moved per launch: each input read once, each output written once
    bool in_place = false;
    wavefit::launch_config original{wavefit::dims{0}, wavefit::dims{0}};
    std::vector<output_region> outputs;
    std::function<void(gpu::stream_t)> reset;          // inputs to their values, outputs poisoned
    std::function<void(gpu::stream_t)> reset_scratch;  // in-place kernels: the copies the tuner runs on
    std::function<void(gpu::stream_t)> broken;         // the negative control: must fail the check
    // The original kernel with another configuration (for same_block_reference variants).
    std::function<void(const wavefit::launch_config&, gpu::stream_t)> original_with;
    std::string broken_what;
    std::vector<variant> variants;            // variants[0] is the original
    std::vector<std::shared_ptr<void>> keep;  // the buffers the closures point into

    // A case by what names it and where its kernel comes from; its maker sets the rest.
    static suite_case from(std::string project, std::string kernel, std::string size, std::string source,
                           std::string shape) {
        suite_case c;
        c.project = std::move(project);
        c.kernel = std::move(kernel);
        c.size = std::move(size);
        c.source = std::move(source);
        c.shape = std::move(shape);
        return c;
    }

    std::string name(const std::string& variant_name) const {
        return "ext/" + project + "_" + kernel + "/" + variant_name + "/" + size;
    }
};

// The reset of a kernel that only writes its outputs: its inputs, then every output poisoned, so
// that a word the kernel skips differs from the reference. (In-place kernels write their own reset.)
inline std::function<void(gpu::stream_t)> fill_then_poison(std::vector<output_region> outputs,
                                                           std::function<void(gpu::stream_t)> fill_inputs) {
    return [outputs = std::move(outputs), fill_inputs = std::move(fill_inputs)](gpu::stream_t s) {
        fill_inputs(s);
        for (const output_region& r : outputs) poison_bytes(r.data, r.bytes, s);
    };
}

// --- launching ----------------------------------------------------------------------------------

inline dim3 to_dim3(const wavefit::dims& d) {
    return dim3(static_cast<unsigned>(d.x), static_cast<unsigned>(d.y), static_cast<unsigned>(d.z));
}

// The launch as the project writes it: <<<grid, block, shared, stream>>> / hipLaunchKernelGGL.
template <class... Params, class... Args>
void raw_launch(void (*kernel)(Params...), const wavefit::launch_config& c, gpu::stream_t s, Args... args) {
    GPU_RAW_LAUNCH(kernel, to_dim3(c.grid), to_dim3(c.block), static_cast<std::size_t>(c.dynamic_shared), s, args...);
    gpu::check_last_launch("a raw launch");
}

// `args` returns the kernel's arguments as a tuple (so a closure can hold device pointers).
template <class... Params, class Args>
variant original_variant(const std::string& name, void (*kernel)(Params...), const wavefit::launch_config& cfg, Args args) {
    variant v;
    v.name = name;
    v.contract = "its own <<<grid, block, shared>>>";
    v.launch = [kernel, cfg, args](gpu::stream_t s) {
        std::apply([&](auto... a) { raw_launch(kernel, cfg, s, a...); }, args());
    };
    v.config = [cfg] { return cfg; };
    return v;
}

// The original kernel with any configuration.
template <class... Params, class Args>
std::function<void(const wavefit::launch_config&, gpu::stream_t)> raw_with(void (*kernel)(Params...), Args args) {
    return [kernel, args](const wavefit::launch_config& cfg, gpu::stream_t s) {
        std::apply([&](auto... a) { raw_launch(kernel, cfg, s, a...); }, args());
    };
}

// The original launch with a different configuration: the negative controls.
template <class... Params, class Args>
std::function<void(gpu::stream_t)> raw_closure(void (*kernel)(Params...), const wavefit::launch_config& cfg, Args args) {
    return
        [kernel, cfg, args](gpu::stream_t s) { std::apply([&](auto... a) { raw_launch(kernel, cfg, s, a...); }, args()); };
}

// The original's configuration with the last block of x missing: a one-pass kernel then leaves the
// items of that block undone.
inline wavefit::launch_config without_last_block(wavefit::launch_config c) {
    c.grid.x -= 1;
    return c;
}

// variants[0], the launch as the project makes it, and the negative control of a one-pass kernel:
// that launch without its last block. Kernels that loop over their items set their own control.
template <class... Params, class Args>
void add_original(suite_case& c, void (*kernel)(Params...), Args args,
                  const std::string& broken_what = "the original launch without its last block") {
    c.variants.push_back(original_variant("original", kernel, c.original, args));
    c.broken = raw_closure(kernel, without_last_block(c.original), args);
    c.broken_what = broken_what;
}

}  // namespace wavefit_bench::external
