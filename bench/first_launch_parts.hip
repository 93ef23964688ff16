// SPDX-License-Identifier: MIT
// Where the process's first wavefit launch spends its time over a raw first launch: the same start
// as wavefit_bench_launch (context, stream, one warm-up launch that loads the module, the device's
// properties read), then, each the first of its kind in the process and timed on its own:
//   raw_first         a raw launch of a never-launched kernel, to the stream's end (the baseline)
//   device_count      wavefit's visible-device query (detail::visible_device_count)
//   device_limits     the launch path's device limits (detail::cached_device_limits: the
//                     architecture and every attribute, no name)
//   kernel_resources  the launch path's kernel state (detail::cached_kernel_state of kernel B: the
//                     runtime's function attributes)
//   wavefit_launch    wavefit::launch(kernel B, 32 elements) to the stream's end: what is left, the
//                     launch table, the plan and the runtime's launch
//   attributes_then_raw  the function attributes of kernel C read directly (attributes_direct), then
//                     a raw launch of it: what the two runtime calls cost without wavefit around them
//   raw_last          another raw first launch, after all of it (drift within the process)
// --parts_order=runtime_first reads kernel C's attributes and launches it right after raw_first,
// before any of wavefit's parts, so that the runtime's first function-attribute query of the process
// falls on it instead of on kernel_resources (default: wavefit_first, the order above).
// One process is one sample: bench/first_launch_parts.sh runs it N times and prints the medians.
// Each part is in microseconds, as a counter of the one benchmark `first_launch_parts`.
#include <benchmark/benchmark.h>
#include <wavefit/wavefit.hpp>

#include <chrono>     // host clock
#include <cstdint>    // sizes
#include <cstdio>     // error messages
#include <exception>  // std::exception
#include <stdexcept>  // std::runtime_error
#include <string>     // the command line

#include "benchmark_context.hpp"
#include "gpu_support/gpu_support.hpp"

namespace {

using namespace wavefit_bench;
using host_clock = std::chrono::steady_clock;

__global__ void warm_up_kernel() {}

template <int N>
__global__ void part_kernel(int* out) {
    if (out != nullptr && blockIdx.x == 0 && threadIdx.x == 0) out[0] = N;
}

double microseconds_since(host_clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(host_clock::now() - t0).count();
}

struct parts {
    double raw_first = 0, device_count = 0, device_limits = 0, kernel_resources = 0;
    double wavefit_launch_enqueue = 0, wavefit_launch = 0, attributes_direct = 0, attributes_then_raw = 0, raw_last = 0;
};

template <int N>
double raw_launch_to_end(gpu::stream_t stream) {
    const auto t0 = host_clock::now();
    GPU_RAW_LAUNCH(part_kernel<N>, dim3(1), dim3(32), 0, stream, static_cast<int*>(nullptr));
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    const double us = microseconds_since(t0);
    gpu::check_last_launch("a raw launch");
    return us;
}

// Kernel C's attributes read directly by the runtime layer, then its raw launch.
void measure_attributes_then_raw(gpu::stream_t stream, parts& p) {
    const auto t0 = host_clock::now();
    wavefit::kernel_resources direct{};
    std::uint64_t max_dynamic_shared = 0;
    gpu::check(wavefit::detail::backend::read_kernel_resources(direct, max_dynamic_shared,
                                                               reinterpret_cast<const void*>(part_kernel<2>)),
               "reading a kernel's attributes");
    benchmark::DoNotOptimize(direct);
    p.attributes_direct = microseconds_since(t0);
    p.attributes_then_raw = p.attributes_direct + raw_launch_to_end<2>(stream);
}

parts measure(gpu::stream_t stream, bool runtime_first) {
    parts p;
    p.raw_first = raw_launch_to_end<0>(stream);
    if (runtime_first) measure_attributes_then_raw(stream, p);

    auto t0 = host_clock::now();
    benchmark::DoNotOptimize(wavefit::detail::visible_device_count());
    p.device_count = microseconds_since(t0);

    // As a launch's first call reads them (launch_impl.hpp, fill_entry); the public queries would
    // add the device's name and an entry of their own.
    wavefit::detail::query_failure failure;
    t0 = host_clock::now();
    const wavefit::device_limits* limits = wavefit::detail::cached_device_limits(0, failure);
    p.device_limits = microseconds_since(t0);
    if (limits == nullptr) throw std::runtime_error(std::string("reading the device's limits failed: ") + failure.what);

    t0 = host_clock::now();
    const void* kernel_b = reinterpret_cast<const void*>(part_kernel<1>);
    const bool kernel_read = wavefit::detail::cached_kernel_state(0, kernel_b, *limits, failure) != nullptr;
    p.kernel_resources = microseconds_since(t0);
    if (!kernel_read) throw std::runtime_error(std::string("reading the kernel's attributes failed: ") + failure.what);

    t0 = host_clock::now();
    wavefit::launch(part_kernel<1>, std::uint64_t{32}, stream, nullptr);
    p.wavefit_launch_enqueue = microseconds_since(t0);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    p.wavefit_launch = microseconds_since(t0);

    if (!runtime_first) measure_attributes_then_raw(stream, p);
    p.raw_last = raw_launch_to_end<3>(stream);
    return p;
}

parts measured;

void bm_parts(benchmark::State& state) {
    for (auto _ : state) state.SetIterationTime(measured.wavefit_launch * 1e-6);
    state.counters["raw_first_us"] = measured.raw_first;
    state.counters["device_count_us"] = measured.device_count;
    state.counters["device_limits_us"] = measured.device_limits;
    state.counters["kernel_resources_us"] = measured.kernel_resources;
    state.counters["wavefit_launch_enqueue_us"] = measured.wavefit_launch_enqueue;
    state.counters["wavefit_launch_us"] = measured.wavefit_launch;
    state.counters["attributes_direct_us"] = measured.attributes_direct;
    state.counters["attributes_then_raw_us"] = measured.attributes_then_raw;
    state.counters["raw_last_us"] = measured.raw_last;
}

int run(int argc, char** argv) {
    const std::string command = command_line(argc, argv);
    bool runtime_first = false;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {  // --parts_order is this program's; the rest is Google Benchmark's
        const std::string arg = argv[i];
        if (arg == "--parts_order=runtime_first" || arg == "--parts_order=wavefit_first") {
            runtime_first = arg == "--parts_order=runtime_first";
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    // As wavefit_bench_launch starts: nothing of wavefit touched before the parts are measured.
    measured = measure(start_before_wavefit(warm_up_kernel, command), runtime_first);

    benchmark::RegisterBenchmark("first_launch_parts", bm_parts)->Iterations(1)->Repetitions(1)->UseManualTime();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wavefit_bench_first: %s\n", e.what());
        return 1;
    }
}
