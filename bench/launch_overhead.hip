// SPDX-License-Identifier: MIT
// What wavefit::launch costs per launch against a raw launch (kernel<<<>>> / hipLaunchKernelGGL) of
// the same kernel, configuration and stream, in one run:
//   launch_enqueue/<form>/<kernel>          many launches per iteration, one synchronize: host enqueue cost
//   launch_latency/<form>/<kernel>          launch + synchronize per iteration
//   launch_enqueue_paired/<form>/<kernel>   raw and wavefit batches interleaved ABBA in one benchmark, so
//   launch_latency_paired/<form>/<kernel>   clock drift between benchmarks cannot fake a difference
//   launch_first/<form>/cold                the first launch of never-launched kernels (template<int N>
//                                           instantiations), host clock + synchronize, median and max
//   launch_first/wavefit_process/cold       the first wavefit launch of the process (device limits too)
// <form> is raw, wavefit_config (explicit launch_config), wavefit_elements (an element count,
// planned), wavefit_per_block (work::per_block: one block per unit, planned) or wavefit_tuned (the
// element count again, with WAVEFIT_TUNING=use and a tuning record that wavefit::tune made before the
// run: the tuned hot path); all launch the configuration wavefit chose for the work, so only the
// launch path differs. Validation is always on: wavefit has no switch to turn it off.
// <kernel> is empty, small (a 4096-element grid-stride kernel) or roundrobin16: 16 different kernels
// launched in turn, as a model step launches dozens (each launch finds another kernel's entry).
#include <benchmark/benchmark.h>
#include <wavefit/wavefit.hpp>

#include <algorithm>  // std::sort
#include <array>      // the cold kernel tables
#include <chrono>     // host clock
#include <cstdint>    // sizes
#include <cstdio>     // error messages
#include <exception>  // std::exception
#include <stdexcept>  // std::runtime_error
#include <string>     // names
#include <type_traits>  // std::integral_constant
#include <utility>    // std::integer_sequence
#include <vector>     // samples

#include "benchmark_context.hpp"
#include "gpu_support/gpu_support.hpp"

namespace {

using namespace wavefit_bench;
using host_clock = std::chrono::steady_clock;

__global__ void empty_kernel() {}

__global__ void small_kernel(float* __restrict__ y, const float* __restrict__ x, float a, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i];
}

// Distinct kernels, each launched once: the cold path (attributes read, block chosen) every time.
template <int N>
__global__ void cold_kernel(int* out) {
    if (out != nullptr && blockIdx.x == 0 && threadIdx.x == 0) out[0] = N;
}

constexpr int cold_per_pool = 64;
constexpr std::uint64_t cold_elements = 32;  // one wave: the plan launches {1} x {32}

template <int N>
void raw_cold_launch(gpu::stream_t s) {
    GPU_RAW_LAUNCH(cold_kernel<N>, dim3(1), dim3(32), 0, s, static_cast<int*>(nullptr));
}

using cold_kernel_fn = void (*)(int*);
using raw_cold_fn = void (*)(gpu::stream_t);

template <int Offset, int... I>
constexpr std::array<cold_kernel_fn, sizeof...(I)> cold_kernels(std::integer_sequence<int, I...>) {
    return {&cold_kernel<Offset + I>...};
}
template <int Offset, int... I>
constexpr std::array<raw_cold_fn, sizeof...(I)> raw_cold_launchers(std::integer_sequence<int, I...>) {
    return {&raw_cold_launch<Offset + I>...};
}

// Pools of never-launched kernels, one per form; the process pool holds the two kernels main()
// launches before anything else touches wavefit.
const auto cold_raw = raw_cold_launchers<0>(std::make_integer_sequence<int, cold_per_pool>{});
const auto cold_config = cold_kernels<1 * cold_per_pool>(std::make_integer_sequence<int, cold_per_pool>{});
const auto cold_elements_pool = cold_kernels<2 * cold_per_pool>(std::make_integer_sequence<int, cold_per_pool>{});
constexpr int process_raw_index = 3 * cold_per_pool;
constexpr int process_wavefit_index = 3 * cold_per_pool + 1;

enum class form { raw, wavefit_config, wavefit_elements, wavefit_tuned, wavefit_per_block };

constexpr const char* form_name(form f) {
    return f == form::raw                ? "raw"
           : f == form::wavefit_config   ? "wavefit_config"
           : f == form::wavefit_elements ? "wavefit_elements"
           : f == form::wavefit_tuned    ? "wavefit_tuned"
                                         : "wavefit_per_block";
}

// A kernel with its arguments and the configuration every form launches.
struct subject {
    const char* name;
    std::uint64_t elements;
    wavefit::launch_config config{wavefit::dims{1}, wavefit::dims{1}};
    dim3 grid{1};
    dim3 block{1};
};

gpu::stream_t stream{};
float* small_x = nullptr;
float* small_y = nullptr;
subject empty_subject{"empty", 1};
subject small_subject{"small", 4096};

// The work each planned form launches: per_block work covers as many units as the plan's blocks.
template <form F>
wavefit::work work_of(const subject& s) {
    if constexpr (F == form::wavefit_per_block)
        return wavefit::work::per_block(s.config.grid.x).block_fixed(s.config.block);
    else
        return wavefit::work::elements(s.elements);
}

template <form F>
void launch_empty(const subject& s) {
    if constexpr (F == form::raw) {
        GPU_RAW_LAUNCH_NO_ARGS(empty_kernel, s.grid, s.block, 0, stream);
    } else if constexpr (F == form::wavefit_config) {
        wavefit::launch(empty_kernel, s.config, stream);
    } else if constexpr (F == form::wavefit_per_block) {
        wavefit::launch(empty_kernel, work_of<F>(s), stream);
    } else {
        wavefit::launch(empty_kernel, s.elements, stream);
    }
}

template <class Kernel>
void launch_axpy(Kernel kernel, const subject& s, std::integral_constant<form, form::raw>) {
    GPU_RAW_LAUNCH(kernel, s.grid, s.block, 0, stream, small_y, static_cast<const float*>(small_x), 0.5f, s.elements);
}
template <class Kernel, form F>
void launch_axpy(Kernel kernel, const subject& s, std::integral_constant<form, F>) {
    if constexpr (F == form::wavefit_config)
        wavefit::launch(kernel, s.config, stream, small_y, static_cast<const float*>(small_x), 0.5f, s.elements);
    else if constexpr (F == form::wavefit_per_block)
        wavefit::launch(kernel, work_of<F>(s), stream, small_y, static_cast<const float*>(small_x), 0.5f, s.elements);
    else
        wavefit::launch(kernel, s.elements, stream, small_y, static_cast<const float*>(small_x), 0.5f, s.elements);
}

template <form F>
void launch_small(const subject& s) {
    launch_axpy(small_kernel, s, std::integral_constant<form, F>{});
}

// 16 different kernels of one signature, launched in turn (a model step launches dozens).
template <int N>
__global__ void round_kernel(float* __restrict__ y, const float* __restrict__ x, float a, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i] + static_cast<float>(N);
}
using axpy_fn = void (*)(float*, const float*, float, std::uint64_t);
template <int... I>
constexpr std::array<axpy_fn, sizeof...(I)> round_kernels(std::integer_sequence<int, I...>) {
    return {&round_kernel<I>...};
}
constexpr int round_robin_kernels = 16;
const auto round_robin = round_kernels(std::make_integer_sequence<int, round_robin_kernels>{});

template <form F>
void launch_round_robin(const subject& s) {
    static unsigned next = 0;  // per form: each form cycles through the 16 kernels
    launch_axpy(round_robin[next++ % round_robin_kernels], s, std::integral_constant<form, F>{});
}

template <form F>
struct empty_launch {
    static void go() { launch_empty<F>(empty_subject); }
};
template <form F>
struct small_launch {
    static void go() { launch_small<F>(small_subject); }
};
template <form F>
struct round_robin_launch {
    static void go() { launch_round_robin<F>(small_subject); }
};

double seconds_since(host_clock::time_point t0) { return std::chrono::duration<double>(host_clock::now() - t0).count(); }

// Runs `body`; a runtime or launch failure becomes the benchmark's error instead of ending the run.
// The tuned form's benchmarks run with the tuning records in use (tuning_mode_scope).
template <form F, class Body>
void guarded(benchmark::State& state, Body&& body) {
    const tuning_mode_scope mode(F == form::wavefit_tuned);
    try {
        body();
        gpu::check_last_launch("a launch");
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

constexpr int enqueue_batch = 256;

template <template <form> class Launch, form F>
void bm_enqueue(benchmark::State& state) {
    guarded<F>(state, [&] {
        Launch<F>::go();
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        double host_seconds = 0.0;
        for (auto _ : state) {
            const auto t0 = host_clock::now();
            for (int i = 0; i < enqueue_batch; ++i) Launch<F>::go();
            const double enqueue = seconds_since(t0);
            gpu::check(gpu::synchronize(stream), "synchronizing the stream");
            host_seconds += enqueue;
        }
        const double launches = static_cast<double>(state.iterations()) * enqueue_batch;
        state.counters["us_per_launch"] = host_seconds / launches * 1e6;
        state.counters["launches_per_iteration"] = enqueue_batch;
        state.SetItemsProcessed(static_cast<std::int64_t>(launches));
    });
}

template <template <form> class Launch, form F>
void bm_latency(benchmark::State& state) {
    guarded<F>(state, [&] {
        Launch<F>::go();
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        for (auto _ : state) {
            Launch<F>::go();
            gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        }
        state.SetItemsProcessed(state.iterations());
    });
}

// Raw and wavefit in alternating batches (ABBA order) inside one benchmark; the counters are the
// figures the 2% target is judged on.
constexpr int paired_batch = 32;
constexpr int paired_rounds = 8;

template <template <form> class Launch, form F, bool Synchronize>
void bm_paired(benchmark::State& state) {
    guarded<F>(state, [&] {
        Launch<form::raw>::go();
        Launch<F>::go();
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        double raw_seconds = 0.0;
        double wavefit_seconds = 0.0;
        const auto batch = [&](auto launch) {
            const auto t0 = host_clock::now();
            for (int i = 0; i < paired_batch; ++i) {
                launch();
                if constexpr (Synchronize) gpu::check(gpu::synchronize(stream), "synchronizing the stream");
            }
            return seconds_since(t0);
        };
        for (auto _ : state) {
            for (int r = 0; r < paired_rounds; ++r) {
                if (r % 2 == 0) {
                    raw_seconds += batch([] { Launch<form::raw>::go(); });
                    wavefit_seconds += batch([] { Launch<F>::go(); });
                } else {
                    wavefit_seconds += batch([] { Launch<F>::go(); });
                    raw_seconds += batch([] { Launch<form::raw>::go(); });
                }
            }
            gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        }
        const double per_form = static_cast<double>(state.iterations()) * paired_rounds * paired_batch;
        state.counters["raw_us"] = raw_seconds / per_form * 1e6;
        state.counters["wavefit_us"] = wavefit_seconds / per_form * 1e6;
        state.counters["overhead_pct"] = (wavefit_seconds / raw_seconds - 1.0) * 100.0;
    });
}

// --- first launches ---------------------------------------------------------------------------

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double maximum(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }
double minimum(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

void report_first(benchmark::State& state, const std::vector<double>& enqueue, const std::vector<double>& latency) {
    state.counters["latency_median_us"] = median(latency) * 1e6;
    state.counters["latency_max_us"] = maximum(latency) * 1e6;
    state.counters["latency_min_us"] = minimum(latency) * 1e6;
    state.counters["enqueue_median_us"] = median(enqueue) * 1e6;
    state.counters["enqueue_max_us"] = maximum(enqueue) * 1e6;
    state.counters["samples"] = static_cast<double>(latency.size());
    // Which launch was the slowest, and what the first one cost: a one-time cost of the form shows
    // as index 0, a stray interruption anywhere.
    if (!latency.empty()) {
        state.counters["latency_argmax"] =
            static_cast<double>(std::max_element(latency.begin(), latency.end()) - latency.begin());
        state.counters["latency_first_us"] = latency.front() * 1e6;
        std::vector<double> sorted = latency;
        std::sort(sorted.begin(), sorted.end());
        state.counters["latency_second_max_us"] = sorted.size() > 1 ? sorted[sorted.size() - 2] * 1e6 : 0.0;
    }
}

bool cold_pools_used[3] = {false, false, false};  // raw, wavefit_config, wavefit_elements

// Each kernel of the pool is launched for the first time: the host clock times the launch call
// (enqueue) and the launch + synchronize (latency). Runs once: a second call has no cold kernels left.
template <form F>
void bm_first(benchmark::State& state) {
    guarded<F>(state, [&] {
        bool& used = cold_pools_used[static_cast<int>(F)];
        if (used) {
            state.SkipWithError("every kernel of this pool has been launched already (run once per process)");
            return;
        }
        used = true;
        std::vector<double> enqueue, latency;
        for (auto _ : state) {
            for (int i = 0; i < cold_per_pool; ++i) {
                const auto t0 = host_clock::now();
                if constexpr (F == form::raw) {
                    cold_raw[i](stream);
                } else if constexpr (F == form::wavefit_config) {
                    wavefit::launch(cold_config[i], wavefit::launch_config{wavefit::dims{1}, wavefit::dims{32}}, stream,
                                    nullptr);
                } else {
                    wavefit::launch(cold_elements_pool[i], cold_elements, stream, nullptr);
                }
                enqueue.push_back(seconds_since(t0));
                gpu::check(gpu::synchronize(stream), "synchronizing the stream");
                latency.push_back(seconds_since(t0));
            }
            state.SetIterationTime(median(latency));
        }
        report_first(state, enqueue, latency);
    });
}

// Measured in main() before anything else calls wavefit, so the device limits are read too.
struct process_first {
    double raw_enqueue = 0, raw_latency = 0;
    double wavefit_enqueue = 0, wavefit_latency = 0;
    double device_properties = 0;  // one cudaGetDeviceProperties / hipGetDeviceProperties call
    bool measured = false;
};
process_first first_in_process;

void measure_first_in_process() {
    auto t0 = host_clock::now();
    raw_cold_launch<process_raw_index>(stream);
    first_in_process.raw_enqueue = seconds_since(t0);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    first_in_process.raw_latency = seconds_since(t0);
    gpu::check_last_launch("the first raw launch");

    t0 = host_clock::now();
    wavefit::launch(cold_kernel<process_wavefit_index>, cold_elements, stream, nullptr);
    first_in_process.wavefit_enqueue = seconds_since(t0);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    first_in_process.wavefit_latency = seconds_since(t0);

    int device = 0;
    t0 = host_clock::now();
    gpu::check(gpu::current_device(device), "reading the current device");
    benchmark::DoNotOptimize(gpu::device_name(device));  // the properties query
    first_in_process.device_properties = seconds_since(t0);
    first_in_process.measured = true;
}

void bm_first_in_process(benchmark::State& state) {
    if (!first_in_process.measured) {
        state.SkipWithError("not measured");
        return;
    }
    for (auto _ : state) state.SetIterationTime(first_in_process.wavefit_latency);
    state.counters["latency_us"] = first_in_process.wavefit_latency * 1e6;
    state.counters["enqueue_us"] = first_in_process.wavefit_enqueue * 1e6;
    state.counters["raw_latency_us"] = first_in_process.raw_latency * 1e6;
    state.counters["raw_enqueue_us"] = first_in_process.raw_enqueue * 1e6;
    state.counters["get_device_properties_us"] = first_in_process.device_properties * 1e6;
}

// --- registration -----------------------------------------------------------------------------

template <template <form> class Launch, form F>
void register_steady(const char* kernel) {
    const std::string tail = std::string("/") + form_name(F) + "/" + kernel;
    benchmark::RegisterBenchmark(("launch_enqueue" + tail).c_str(), bm_enqueue<Launch, F>)->UseRealTime();
    benchmark::RegisterBenchmark(("launch_latency" + tail).c_str(), bm_latency<Launch, F>)->UseRealTime();
}

template <template <form> class Launch, form F>
void register_paired(const char* kernel) {
    const std::string tail = std::string("/") + form_name(F) + "/" + kernel;
    benchmark::RegisterBenchmark(("launch_enqueue_paired" + tail).c_str(), bm_paired<Launch, F, false>)->UseRealTime();
    benchmark::RegisterBenchmark(("launch_latency_paired" + tail).c_str(), bm_paired<Launch, F, true>)->UseRealTime();
}

template <template <form> class Launch>
void register_kernel(const char* kernel) {
    register_steady<Launch, form::raw>(kernel);
    register_steady<Launch, form::wavefit_config>(kernel);
    register_steady<Launch, form::wavefit_elements>(kernel);
    register_paired<Launch, form::wavefit_config>(kernel);
    register_paired<Launch, form::wavefit_elements>(kernel);
    register_paired<Launch, form::wavefit_per_block>(kernel);
    register_steady<Launch, form::wavefit_tuned>(kernel);
    register_paired<Launch, form::wavefit_tuned>(kernel);
}

void plan_subject(subject& s, wavefit::launch_plan p) {
    s.config = p.config();
    s.grid = dim3(static_cast<unsigned>(p.grid.x));
    s.block = dim3(static_cast<unsigned>(p.block.x));
}

void report_tuning(const char* kernel, const wavefit::tuning_result& r) {
    if (!r.ok) throw std::runtime_error(std::string("tuning the ") + kernel + " kernel: " + r.message);
    std::fprintf(stderr, "tuned %s: block %llu grid %llu (%s), %u candidates in %.0f ms\n", kernel,
                 static_cast<unsigned long long>(r.chosen.block.volume()),
                 static_cast<unsigned long long>(r.chosen.grid.volume()), r.tuned ? "faster than the plan" : "the plan kept",
                 r.candidates, r.tuning_ms);
}

int run(int argc, char** argv) {
    const std::string command = command_line(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    // The context and the module exist before anything is timed; wavefit is not touched yet.
    stream = start_before_wavefit(empty_kernel, command);
    measure_first_in_process();

    small_x = static_cast<float*>(gpu::allocate_bytes(small_subject.elements * sizeof(float)));
    small_y = static_cast<float*>(gpu::allocate_bytes(small_subject.elements * sizeof(float)));
    gpu::check(gpu::zero_async(small_x, small_subject.elements * sizeof(float), stream), "clearing device memory");
    gpu::check(gpu::zero_async(small_y, small_subject.elements * sizeof(float), stream), "clearing device memory");
    plan_subject(empty_subject, wavefit::plan(empty_kernel, empty_subject.elements));
    plan_subject(small_subject, wavefit::plan(small_kernel, small_subject.elements));
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    // The tuned form's records, made before anything is timed. Whether the tuner kept the plan or not,
    // the tuned form's launches go through the tuned lookup; what it chose is printed.
    constexpr float a = 0.5f;
    report_tuning("empty", wavefit::tune(empty_kernel, empty_subject.elements, stream));
    report_tuning("small", wavefit::tune(small_kernel, small_subject.elements, stream, small_y,
                                         static_cast<const float*>(small_x), a, small_subject.elements));
    for (const axpy_fn k : round_robin)
        report_tuning("roundrobin16", wavefit::tune(k, small_subject.elements, stream, small_y,
                                                    static_cast<const float*>(small_x), a, small_subject.elements));
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");

    // Cold kernels first: the order below is the order of the run.
    benchmark::RegisterBenchmark("launch_first/wavefit_process/cold", bm_first_in_process)
        ->Iterations(1)
        ->Repetitions(1)
        ->UseManualTime();
    benchmark::RegisterBenchmark("launch_first/raw/cold", bm_first<form::raw>)
        ->Iterations(1)
        ->Repetitions(1)
        ->UseManualTime();
    benchmark::RegisterBenchmark("launch_first/wavefit_config/cold", bm_first<form::wavefit_config>)
        ->Iterations(1)
        ->Repetitions(1)
        ->UseManualTime();
    benchmark::RegisterBenchmark("launch_first/wavefit_elements/cold", bm_first<form::wavefit_elements>)
        ->Iterations(1)
        ->Repetitions(1)
        ->UseManualTime();
    register_kernel<empty_launch>("empty");
    register_kernel<small_launch>("small");
    register_kernel<round_robin_launch>("roundrobin16");
    // Where wavefit's per-launch time goes on the host: the runtime's current-device query (one per
    // launch) and the validation verdict for a cached kernel.
    benchmark::RegisterBenchmark("host_cost/get_device", [](benchmark::State& state) {
        int device = 0;
        for (auto _ : state) {
            (void)wavefit::detail::backend::current_device(device);
            benchmark::DoNotOptimize(device);
        }
    });
    benchmark::RegisterBenchmark("host_cost/validate_cached", [](benchmark::State& state) {
        const wavefit::device_limits& d = wavefit::current_device_limits();
        const wavefit::kernel_resources& k = wavefit::kernel_resources_for(small_kernel);
        const std::uint64_t bound = wavefit::detail::register_bound_threads(d, k);
        std::uint64_t grid = 1;
        for (auto _ : state) {
            const bool bad = wavefit::detail::has_launch_errors(
                d, k, wavefit::launch_config{wavefit::dims{grid}, wavefit::dims{256}}, bound);
            benchmark::DoNotOptimize(bad);
            grid = grid % 4096 + 1;
        }
    });

    // What wavefit keeps off the launch path: the runtime's occupancy queries for a kernel whose
    // attributes the runtime has already loaded (docs/device-facts.md and docs/performance.md quote 14 us / 1.1 us).
    benchmark::RegisterBenchmark("host_cost/occupancy_max_active_blocks", [](benchmark::State& state) {
        int block = 32;
        for (auto _ : state) {
            int blocks = 0;
            benchmark::DoNotOptimize(gpu::occupancy_blocks(blocks, reinterpret_cast<const void*>(small_kernel), block, 0));
            benchmark::DoNotOptimize(blocks);
            block = block % 1024 + 32;
        }
    });
    benchmark::RegisterBenchmark("host_cost/occupancy_max_potential_block_size", [](benchmark::State& state) {
        for (auto _ : state) {
            int block = 0;
            benchmark::DoNotOptimize(gpu::suggested_block(block, small_kernel, 0));
            benchmark::DoNotOptimize(block);
        }
    });

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    (void)gpu::release(small_x);
    (void)gpu::release(small_y);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wavefit_bench_launch: %s\n", e.what());
        return 1;
    }
}
