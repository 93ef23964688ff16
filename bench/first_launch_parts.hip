// SPDX-License-Identifier: MIT
// Where the process's first wavefit launch spends its time over a raw first launch: the same start
// as wavefit_bench_launch (context, stream, one warm-up launch that loads the module, the device's
// properties read), then, each the first of its kind in the process and timed on its own:
//   raw_first         a raw launch of a never-launched kernel, to the stream's end (the baseline)
//   device_count      wavefit's visible-device query (detail::visible_device_count)
//   device_limits     the launch path's device limits (detail::cached_device_limits: the
//                     architecture and every attribute, no name)
//   attributes_again  the same attributes read again by the runtime layer, one call each, with the
//                     slowest call's time (attribute_slowest): what the queries cost once warm
//   kernel_resources  the launch path's kernel state (detail::cached_kernel_state of kernel B: the
//                     runtime's function attributes)
//   wavefit_launch    wavefit::launch(kernel B, 32 elements) to the stream's end: what is left, the
//                     launch table, the plan and the runtime's launch
//   attributes_then_raw  the function attributes of kernel C read directly (attributes_direct), then
//                     a raw launch of it: what the two runtime calls cost without wavefit around them
//   raw_last          another raw first launch, after all of it (drift within the process)
//   second_launch     wavefit::launch of kernel D, never touched, to the stream's end: a kernel's
//                     first launch once the process's first is done (compare with raw_last)
// Each part also counts the page faults the process took during it (<part>_faults, getrusage): a
// first call's code and data pages are touched for the first time there.
// --parts_order=runtime_first reads kernel C's attributes and launches it right after raw_first,
// before any of wavefit's parts, so that the runtime's first function-attribute query of the process
// falls on it instead of on kernel_resources; --parts_order=attributes_first reads the device's
// attributes one by one (attributes_again) right after raw_first, so that their first calls fall
// there and device_limits shows what wavefit adds (default: wavefit_first, the order above).
// One process is one sample: bench/first_launch_parts.sh runs it N times and prints the medians.
// Each part is in microseconds, as a counter of the one benchmark `first_launch_parts`.
#include <benchmark/benchmark.h>
#include <wavefit/wavefit.hpp>

#include <chrono>     // host clock
#include <cstddef>    // the attribute count
#include <cstdint>    // sizes
#include <cstdio>     // error messages
#include <exception>  // std::exception
#include <stdexcept>  // std::runtime_error
#include <string>     // the command line

#include <sys/resource.h>  // getrusage: page faults per part

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
    double raw_first = 0, device_count = 0, device_limits = 0, attributes_again = 0, attribute_slowest = 0;
    double kernel_resources = 0, wavefit_launch_enqueue = 0, wavefit_launch = 0, attributes_direct = 0;
    double attributes_then_raw = 0, raw_last = 0, second_launch = 0;
    long raw_first_faults = 0, device_limits_faults = 0, attributes_again_faults = 0, kernel_resources_faults = 0;
    long wavefit_launch_faults = 0, raw_last_faults = 0, second_launch_faults = 0;
};

// The process's page faults so far (minor and major): read outside the timed parts (a system call).
long page_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt + usage.ru_majflt;
}

// Every attribute the launch path reads, one runtime-layer call each (the architecture's two
// included): the total and the slowest call, in microseconds.
void read_attributes_one_by_one(parts& p) {
    double total = 0, slowest = 0;
    const auto one = [&](auto&& read) {
        const auto t0 = host_clock::now();
        gpu::check(read(), "reading a device attribute");
        const double us = microseconds_since(t0);
        total += us;
        if (us > slowest) slowest = us;
    };
    for (std::size_t a = 0; a < wavefit::detail::device_attribute_count; ++a) {
        int value = 0;
        one([&] { return wavefit::detail::backend::read_attribute(value, static_cast<wavefit::detail::device_attribute>(a), 0); });
        benchmark::DoNotOptimize(value);
    }
    wavefit::detail::short_name arch;
    one([&] { return wavefit::detail::backend::read_arch(arch, 0); });
    benchmark::DoNotOptimize(arch);
    p.attributes_again = total;
    p.attribute_slowest = slowest;
}

template <int N>
double raw_launch_to_end(gpu::stream_t stream) {
    const auto t0 = host_clock::now();
    GPU_RAW_LAUNCH(part_kernel<N>, dim3(1), dim3(32), 0, stream, static_cast<int*>(nullptr));
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    const double us = microseconds_since(t0);
    gpu::check_last_launch("a raw launch");
    return us;
}

// wavefit::launch(part_kernel<N>, 32 elements), timed to the end of its enqueue and to the stream's end.
template <int N>
double wavefit_launch_to_end(gpu::stream_t stream, double* enqueue_us = nullptr) {
    const auto t0 = host_clock::now();
    wavefit::launch(part_kernel<N>, std::uint64_t{32}, stream, nullptr);
    if (enqueue_us != nullptr) *enqueue_us = microseconds_since(t0);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    return microseconds_since(t0);
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

enum class parts_order { wavefit_first, runtime_first, attributes_first };

// Runs `part` and adds the page faults the process took meanwhile to `faults`.
template <class Part>
void counting_faults(long& faults, Part&& part) {
    const long before = page_faults();
    part();
    faults += page_faults() - before;
}

parts measure(gpu::stream_t stream, parts_order order) {
    parts p;
    counting_faults(p.raw_first_faults, [&] { p.raw_first = raw_launch_to_end<0>(stream); });
    if (order == parts_order::runtime_first) measure_attributes_then_raw(stream, p);
    if (order == parts_order::attributes_first)
        counting_faults(p.attributes_again_faults, [&] { read_attributes_one_by_one(p); });

    auto t0 = host_clock::now();
    benchmark::DoNotOptimize(wavefit::detail::visible_device_count());
    p.device_count = microseconds_since(t0);

    // As a launch's first call reads them (launch_impl.hpp, fill_entry); the public queries would
    // add the device's name and an entry of their own.
    wavefit::detail::query_failure failure;
    const wavefit::device_limits* limits = nullptr;
    counting_faults(p.device_limits_faults, [&] {
        t0 = host_clock::now();
        limits = wavefit::detail::cached_device_limits(0, failure);
        p.device_limits = microseconds_since(t0);
    });
    if (limits == nullptr) throw std::runtime_error(std::string("reading the device's limits failed: ") + failure.what);
    if (order != parts_order::attributes_first)
        counting_faults(p.attributes_again_faults, [&] { read_attributes_one_by_one(p); });

    bool kernel_read = false;
    counting_faults(p.kernel_resources_faults, [&] {
        t0 = host_clock::now();
        const void* kernel_b = reinterpret_cast<const void*>(part_kernel<1>);
        kernel_read = wavefit::detail::cached_kernel_state(0, kernel_b, *limits, failure) != nullptr;
        p.kernel_resources = microseconds_since(t0);
    });
    if (!kernel_read) throw std::runtime_error(std::string("reading the kernel's attributes failed: ") + failure.what);

    counting_faults(p.wavefit_launch_faults,
                    [&] { p.wavefit_launch = wavefit_launch_to_end<1>(stream, &p.wavefit_launch_enqueue); });

    if (order != parts_order::runtime_first) measure_attributes_then_raw(stream, p);
    counting_faults(p.raw_last_faults, [&] { p.raw_last = raw_launch_to_end<3>(stream); });
    counting_faults(p.second_launch_faults, [&] { p.second_launch = wavefit_launch_to_end<4>(stream); });
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
    state.counters["attributes_again_us"] = measured.attributes_again;
    state.counters["attribute_slowest_us"] = measured.attribute_slowest;
    state.counters["second_launch_us"] = measured.second_launch;
    state.counters["raw_first_faults"] = static_cast<double>(measured.raw_first_faults);
    state.counters["device_limits_faults"] = static_cast<double>(measured.device_limits_faults);
    state.counters["attributes_again_faults"] = static_cast<double>(measured.attributes_again_faults);
    state.counters["kernel_resources_faults"] = static_cast<double>(measured.kernel_resources_faults);
    state.counters["wavefit_launch_faults"] = static_cast<double>(measured.wavefit_launch_faults);
    state.counters["raw_last_faults"] = static_cast<double>(measured.raw_last_faults);
    state.counters["second_launch_faults"] = static_cast<double>(measured.second_launch_faults);
}

int run(int argc, char** argv) {
    const std::string command = command_line(argc, argv);
    parts_order order = parts_order::wavefit_first;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {  // --parts_order is this program's; the rest is Google Benchmark's
        const std::string arg = argv[i];
        if (arg == "--parts_order=wavefit_first") {
            order = parts_order::wavefit_first;
        } else if (arg == "--parts_order=runtime_first") {
            order = parts_order::runtime_first;
        } else if (arg == "--parts_order=attributes_first") {
            order = parts_order::attributes_first;
        } else if (arg.rfind("--parts_order=", 0) == 0) {
            std::fprintf(stderr, "wavefit_bench_first: unknown %s (wavefit_first, runtime_first or attributes_first)\n",
                         arg.c_str());
            return 2;
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    // As wavefit_bench_launch starts: nothing of wavefit touched before the parts are measured.
    measured = measure(start_before_wavefit(warm_up_kernel, command), order);

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
