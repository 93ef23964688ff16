// SPDX-License-Identifier: MIT
// One zoo case: a kernel at one size with its buffers, how to launch it in each form (raw, wavefit
// with the work, wavefit with an explicit configuration), what one launch moves, how to prepare its
// inputs and how to check its outputs. kernel_zoo.hip measures each case under each strategy.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cmath>        // std::fabs
#include <cstdint>      // sizes
#include <functional>   // per-case behaviour
#include <memory>       // shared launch counters
#include <string>       // names, check messages
#include <tuple>        // kernel arguments
#include <type_traits>  // std::is_same_v
#include <utility>      // std::move
#include <vector>       // host copies

#include "gpu_support/gpu_support.hpp"
#include "reference_sum.hpp"
#include "register_heavy.hpp"
#include "softmax.hpp"
#include "stream.hpp"
#include "transpose.hpp"
#include "values.hpp"

namespace wavefit_bench::zoo {

// How to launch one kernel, and the runtime's answers about it.
struct launchers {
    std::function<void(dim3, dim3, gpu::stream_t)> raw;
    std::function<void(const wavefit::work&, gpu::stream_t)> wavefit_work;  // wavefit::launch(kernel, work, ...)
    std::function<void(const wavefit::launch_config&, gpu::stream_t)> wavefit_config;
    std::function<wavefit::launch_plan(const wavefit::work&)> plan;                   // wavefit::plan(kernel, work)
    std::function<wavefit::tuning_result(const wavefit::work&, gpu::stream_t)> tune;  // wavefit::tune(kernel, work, ...)
    wavefit::plan_options options;              // what the kernel's author passes: the wavefit and tuned strategies use them
    std::function<int(int)> max_active_blocks;  // per SM/CU, from the runtime
    std::function<int()> suggested_block;       // from the runtime
    int max_threads = 1024;                     // the kernel's own bound
};

// `args()` returns the kernel's parameters as a tuple, once per launch (so a launch may change them).
// `options` are the plan options the wavefit strategy launches with: what the kernel's author would
// pass (defaults for all but the register-heavy kernel, which asks for a saturated grid).
template <class... Params, class Args>
launchers make_launchers(void (*kernel)(Params...), Args args, const wavefit::plan_options& options = {}) {
    launchers l;
    l.raw = [kernel, args](dim3 grid, dim3 block, gpu::stream_t s) {
        std::apply([&](auto... a) { GPU_RAW_LAUNCH(kernel, grid, block, 0, s, a...); }, args());
    };
    l.wavefit_work = [kernel, args](const wavefit::work& w, gpu::stream_t s) {
        std::apply([&](auto... a) { wavefit::launch(kernel, w, s, a...); }, args());
    };
    l.wavefit_config = [kernel, args](const wavefit::launch_config& cfg, gpu::stream_t s) {
        std::apply([&](auto... a) { wavefit::launch(kernel, cfg, s, a...); }, args());
    };
    l.plan = [kernel](const wavefit::work& w) { return wavefit::plan(kernel, w); };
    l.tune = [kernel, args](const wavefit::work& w, gpu::stream_t s) {
        return std::apply([&](auto... a) { return wavefit::tune(kernel, w, s, a...); }, args());
    };
    l.options = options;
    const void* address = reinterpret_cast<const void*>(kernel);
    l.max_active_blocks = [address](int block) {
        int blocks = 0;
        gpu::check(gpu::occupancy_blocks(blocks, address, block, 0), "the runtime's occupancy query");
        return blocks;
    };
    l.suggested_block = [kernel] {
        int block = 0;
        gpu::check(gpu::suggested_block(block, kernel, 0), "the runtime's block size suggestion");
        return block;
    };
    gpu::kernel_attributes attributes;
    gpu::check(gpu::attributes_of(attributes, address), "reading the kernel's attributes");
    l.max_threads = attributes.max_threads_per_block;
    return l;
}

struct zoo_case {
    std::string kernel;   // first part of the benchmark name: "copy", "copy_v1u4", "softmax"
    std::string size;     // last part: "2^28", "8192x8192"
    double bytes = 0;     // moved through device memory per launch (each input read once, output written once)
    double elements = 0;  // per launch
    double flops = 0;     // per launch, compute-bound kernels only
    // Thread-granular kernels: `work` items, one per thread for the "cover" grid, and wavefit plans
    // the launch as work::elements. Block-granular kernels (tiles, rows): `work` units, one per block
    // for "cover", planned as work::per_block.
    bool block_granular = false;
    std::uint64_t work = 0;
    // The kernel is right with any multiple of the wave, not only powers of two (its reduction goes
    // through one shared slot per wave): said in its contract, as a port would say it.
    bool any_wave_multiple = false;
    // The configuration the kernel's own benchmark launches it with (external kernels only).
    std::function<wavefit::launch_config()> original;
    bool device_copy = false;        // the memcpy ceiling: no kernel
    int launches_per_iteration = 1;  // launches between one pair of events
    launchers launch;
    std::function<void(gpu::stream_t)> prepare;        // fill inputs, poison outputs
    std::function<std::string(gpu::stream_t)> verify;  // "" when every output is right
    std::function<void(gpu::stream_t)> copy;           // device_copy only

    // A case by its name and the traffic its figures divide by; the rest is set by its maker.
    static zoo_case named(std::string kernel, std::string size, double bytes, double elements) {
        zoo_case c;
        c.kernel = std::move(kernel);
        c.size = std::move(size);
        c.bytes = bytes;
        c.elements = elements;
        return c;
    }

    // What the wavefit and tuned strategies hand wavefit: the work as its author would describe it.
    wavefit::work planned_work() const {
        // A unit's size (a row, a tile) keys the tuning record: softmax rows of 4096 and 8192 tune apart.
        const wavefit::work w =
                block_granular
                        ? wavefit::work::per_block(work, work != 0 ? static_cast<std::uint64_t>(elements) / work : 0,
                                                   launch.options)
                        : wavefit::work::elements(work, launch.options);
        return any_wave_multiple ? w.block_any_wave_multiple() : w;
    }
};

// The zoo's device memory: three buffers, each large enough for the largest case, shared by all
// cases (benchmarks run one at a time), and the two slots the reductions add into.
struct zoo_buffers {
    void* a = nullptr;
    void* b = nullptr;
    void* c = nullptr;
    std::uint64_t bytes = 0;
    double* slots = nullptr;
    std::shared_ptr<device_counter> counter;
};

inline const value_range range_a{1, 0.5, 1.0};
inline const value_range range_b{2, 0.5, 1.0};
inline const value_range range_c{3, 0.5, 1.0};
inline const value_range range_f{4, 0.5, 1.0};        // fp32 inputs of the sum and register-heavy kernels
inline const value_range range_logits{5, -4.0, 8.0};  // softmax inputs
inline constexpr double stream_scalar = 0.4;          // BabelStream's

inline std::string pow2_name(std::uint64_t n) {
    for (int e = 0; e < 64; ++e)
        if (n == (std::uint64_t{1} << e)) return "2^" + std::to_string(e);
    return std::to_string(n);
}

inline std::string mismatch_text(unsigned long long bad, std::uint64_t checked) {
    return bad == 0 ? std::string() : std::to_string(bad) + " of " + std::to_string(checked) + " outputs are wrong";
}

// --- STREAM ------------------------------------------------------------------------------------

// Which buffers an operation reads and writes, as BabelStream names them: copy c = a, mul b = s*c,
// add c = a + b, triad a = b + s*c.
struct stream_roles {
    double* x;
    double* y;
    double* out;
    value_range rx;
    value_range ry;
};

template <class Op>
stream_roles roles_for(const zoo_buffers& z) {
    auto* a = static_cast<double*>(z.a);
    auto* b = static_cast<double*>(z.b);
    auto* c = static_cast<double*>(z.c);
    if constexpr (std::is_same_v<Op, copy_op>) return {a, nullptr, c, range_a, range_a};
    if constexpr (std::is_same_v<Op, mul_op>) return {c, nullptr, b, range_c, range_c};
    if constexpr (std::is_same_v<Op, add_op>) return {a, b, c, range_a, range_b};
    if constexpr (std::is_same_v<Op, triad_op>) return {b, c, a, range_b, range_c};
}

template <class Op, int V, int U>
zoo_case stream_case(const std::string& kernel, std::uint64_t n, const zoo_buffers& z) {
    const stream_roles r = roles_for<Op>(z);
    zoo_case c =
        zoo_case::named(kernel, pow2_name(n), (Op::inputs + 1) * 8.0 * static_cast<double>(n), static_cast<double>(n));
    c.work = work_items<V, U>(n);
    c.launch = make_launchers(stream_map_kernel<Op, V, U>, [r, n] {
        return std::tuple<const double*, const double*, double*, double, std::uint64_t>(r.x, r.y, r.out, stream_scalar, n);
    });
    c.prepare = [r, n](gpu::stream_t s) {
        fill(r.x, n, r.rx, s);
        if (Op::inputs == 2) fill(r.y, n, r.ry, s);
        poison(r.out, n, s);
    };
    auto counter = z.counter;
    c.verify = [r, n, counter](gpu::stream_t s) {
        unsigned long long* bad = counter->reset(s);
        GPU_RAW_LAUNCH(check_map_kernel<Op>, dim3(helper_blocks), dim3(helper_threads), 0, s, r.out, n, r.rx, r.ry,
                       stream_scalar, bad);
        gpu::check_last_launch("launching check_map_kernel");
        return mismatch_text(counter->read(s), n);
    };
    return c;
}

// The reductions: dot (sum a*b over doubles) and sum (over floats). Each launch adds into one of the
// two slots and clears the other (see reduce_kernel); `launches` tells which slot holds the result.
template <class T, class Op, int V, int U>
zoo_case reduce_case(const std::string& kernel, std::uint64_t n, const zoo_buffers& z, double tolerance) {
    T* x = static_cast<T*>(z.a);
    T* y = Op::inputs == 2 ? static_cast<T*>(z.b) : nullptr;
    // The fp32 sum reads fp32 copies of its inputs; each is within 2^-24 of the double the
    // reference sums, far inside its tolerance.
    const value_range rx = Op::inputs == 2 ? range_a : range_f;
    double* slots = z.slots;
    auto launches = std::make_shared<std::uint64_t>(0);
    zoo_case c = zoo_case::named(kernel, pow2_name(n), Op::inputs * static_cast<double>(sizeof(T)) * static_cast<double>(n),
                                 static_cast<double>(n));
    c.work = work_items<V, U>(n);
    c.launch = make_launchers(reduce_kernel<T, Op, V, U>, [x, y, slots, n, launches] {
        const std::uint64_t k = (*launches)++ & 1;
        return std::tuple<const T*, const T*, double*, double*, std::uint64_t>(x, y, slots + k, slots + (1 - k), n);
    });
    c.prepare = [x, y, rx, slots, n, launches](gpu::stream_t s) {
        fill(x, n, rx, s);
        if (Op::inputs == 2) fill(y, n, range_b, s);
        gpu::check(gpu::zero_async(slots, 2 * sizeof(double), s), "clearing device memory");
        *launches = 0;
    };
    auto reference = std::make_shared<double>(0.0);  // computed on the first check: inputs never change
    c.verify = [rx, slots, n, launches, tolerance, reference](gpu::stream_t s) {
        if (*launches == 0) return std::string("no launch ran");
        gpu::check(gpu::synchronize(s), "synchronizing the stream");
        double got = 0.0;
        gpu::check(gpu::to_host(&got, slots + ((*launches - 1) & 1), sizeof got), "copying to the host");
        if (*reference == 0.0) *reference = reference_sum(n, rx, range_b, Op::inputs == 2, s);
        const double expected = *reference;
        if (std::fabs(got - expected) <= tolerance * std::fabs(expected)) return std::string();
        return "the sum is " + std::to_string(got) + ", expected " + std::to_string(expected);
    };
    return c;
}

// --- the register-heavy kernel ----------------------------------------------------------------------

inline zoo_case register_heavy_case(std::uint64_t n, const zoo_buffers& z) {
    float* x = static_cast<float*>(z.a);
    float* y = static_cast<float*>(z.b);
    zoo_case c = zoo_case::named("regheavy", pow2_name(n), 8.0 * static_cast<double>(n), static_cast<double>(n));
    c.flops = heavy_flop_per_element * static_cast<double>(n);
    c.work = n;
    // A compute-bound kernel with 110 registers: a saturated grid (each thread loops) ran about 4% faster
    // than one element per thread in the first H200 run (bench/RESULTS.md), so it asks for one.
    wavefit::plan_options saturated{};
    saturated.grid = wavefit::grid_policy::saturate;
    c.launch = make_launchers(
        register_heavy_kernel, [x, y, n] { return std::tuple<const float*, float*, std::uint64_t>(x, y, n); }, saturated);
    c.prepare = fill_and_poison(x, y, n, range_f);
    auto counter = z.counter;
    c.verify = [y, n, counter](gpu::stream_t s) {
        if (const unsigned long long bad = count_not_finite(y, n, *counter, s)) return mismatch_text(bad, n);
        // Every 4099th output and the last against the same arithmetic on the host.
        const std::uint64_t step = 4099;
        const std::uint64_t samples = (n + step - 1) / step;
        std::vector<float> host(static_cast<std::size_t>(samples + 1));
        gpu::check(gpu::strided_to_host(host.data(), y, step * sizeof(float), sizeof(float), samples),
                   "copying samples to the host");
        gpu::check(gpu::to_host(&host[samples], y + (n - 1), sizeof(float)), "copying to the host");
        unsigned long long bad = 0;
        for (std::uint64_t k = 0; k <= samples; ++k) {
            const std::uint64_t i = k < samples ? k * step : n - 1;
            const float expected = register_heavy_value(static_cast<float>(input_value(i, range_f)));
            if (!(std::fabs(host[k] - expected) <= 1e-5f * std::fabs(expected))) ++bad;
        }
        const std::uint64_t checked = samples + 1;
        return mismatch_text(bad, checked);
    };
    return c;
}

// --- transpose and softmax (block-granular) ----------------------------------------------------

inline std::string matrix_name(std::uint64_t rows, std::uint64_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

// A kernel over a rows x cols fp32 matrix, read once and written once, in blocks of rows or tiles.
inline zoo_case matrix_case(const char* kernel, std::uint64_t rows, std::uint64_t cols) {
    const double n = static_cast<double>(rows) * static_cast<double>(cols);
    zoo_case c = zoo_case::named(kernel, matrix_name(rows, cols), 8.0 * n, n);
    c.block_granular = true;
    return c;
}

// The launches of a kernel(const float* in, float* out, rows, cols).
template <class Kernel>
launchers matrix_launchers(Kernel kernel, const float* in, float* out, std::uint64_t rows, std::uint64_t cols) {
    return make_launchers(kernel, [in, out, rows, cols] {
        return std::tuple<const float*, float*, std::uint64_t, std::uint64_t>(in, out, rows, cols);
    });
}

inline zoo_case transpose_case(std::uint64_t rows, std::uint64_t cols, const zoo_buffers& z) {
    float* in = static_cast<float*>(z.a);
    float* out = static_cast<float*>(z.b);
    const std::uint64_t n = rows * cols;
    zoo_case c = matrix_case("transpose", rows, cols);
    c.work = transpose_tiles(rows, cols);
    c.launch = matrix_launchers(transpose_kernel, in, out, rows, cols);
    c.prepare = fill_and_poison(in, out, n, range_f);
    auto counter = z.counter;
    c.verify = [out, rows, cols, counter](gpu::stream_t s) {
        unsigned long long* bad = counter->reset(s);
        GPU_RAW_LAUNCH(check_transpose_kernel, dim3(helper_blocks), dim3(helper_threads), 0, s,
                       static_cast<const float*>(out), rows, cols, range_f, bad);
        gpu::check_last_launch("launching check_transpose_kernel");
        return mismatch_text(counter->read(s), rows * cols);
    };
    return c;
}

inline zoo_case softmax_case(std::uint64_t rows, std::uint64_t hidden, const zoo_buffers& z) {
    float* x = static_cast<float*>(z.a);
    float* y = static_cast<float*>(z.b);
    const std::uint64_t n = rows * hidden;
    zoo_case c = matrix_case("softmax", rows, hidden);
    c.any_wave_multiple = true;  // block_reduce: one scratch slot per wave, any number of waves
    c.work = rows;
    c.launch = matrix_launchers(softmax_kernel<softmax_capacity>, x, y, rows, hidden);
    c.prepare = fill_and_poison(x, y, n, range_logits);
    auto counter = z.counter;
    c.verify = [y, rows, hidden, n, counter](gpu::stream_t s) {
        if (const unsigned long long bad = count_not_finite(y, n, *counter, s)) return mismatch_text(bad, n);
        const std::uint64_t samples = rows < 64 ? rows : 64;
        const std::uint64_t step = rows / samples;
        unsigned long long* bad = counter->reset(s);
        GPU_RAW_LAUNCH(check_softmax_kernel, dim3(static_cast<unsigned>(samples)), dim3(256), 0, s,
                       static_cast<const float*>(y), rows, hidden, step, range_logits, bad);
        gpu::check_last_launch("launching check_softmax_kernel");
        return mismatch_text(counter->read(s), samples * hidden);
    };
    return c;
}

// --- the ceiling ---------------------------------------------------------------------------------

inline zoo_case memcpy_case(std::uint64_t n, const zoo_buffers& z) {
    double* src = static_cast<double*>(z.a);
    double* dst = static_cast<double*>(z.c);
    const std::uint64_t bytes = n * sizeof(double);
    zoo_case c = zoo_case::named("memcpy", pow2_name(n), 2.0 * static_cast<double>(bytes), static_cast<double>(n));
    c.device_copy = true;
    c.prepare = [src, n](gpu::stream_t s) { fill(src, n, range_a, s); };
    c.copy = [src, dst, bytes](gpu::stream_t s) {
        gpu::check(gpu::copy_device_async(dst, src, bytes, s), "the device-to-device copy");
    };
    auto counter = z.counter;
    c.verify = [dst, n, counter](gpu::stream_t s) {
        unsigned long long* bad = counter->reset(s);
        GPU_RAW_LAUNCH(check_map_kernel<copy_op>, dim3(helper_blocks), dim3(helper_threads), 0, s,
                       static_cast<const double*>(dst), n, range_a, range_a, 0.0, bad);
        gpu::check_last_launch("launching check_map_kernel");
        return mismatch_text(counter->read(s), n);
    };
    return c;
}

}  // namespace wavefit_bench::zoo
