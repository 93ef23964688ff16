// SPDX-License-Identifier: MIT
// A launch path model for cachegrind (count.sh): wavefit launches on the fake HIP runtime of the CPU
// tests, so that instructions and cache misses per launch can be counted without a GPU. The H200
// benchmark (bench/launch_overhead.hip) says what a launch costs; this says where, with the driver
// replaced by the fake. Usage: wavefit_launch_model FORM LAUNCHES [evict] | wavefit_launch_model first
//   FORM     raw (the runtime call alone), explicit, elements or per_block (the benchmark's forms:
//            work::per_block(units).block_fixed(256))
//   evict    between launches, write 1 MiB of data and run 42 KiB of code, a stand-in for a driver call
//            that leaves little of wavefit's code and data in the L1 caches.
//   first    prints the time and the page faults of the process's first launch (an element count),
//            with the fake's 200 us query delay off: what wavefit itself does once per process.
#include "fake_hip.hpp"

#include <wavefit/wavefit.hpp>

#include <sys/resource.h>  // getrusage: the first launch's page faults

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

template <int N>
void kernel(float* data, int n) {
    if (data != nullptr) data[0] = static_cast<float>(n + N);
}

// Read at every launch (the count is not a constant), in a line of its own like the fake's counters:
// a line it shared with wavefit's data would hide one of the lines a launch reads.
struct alignas(64) launch_count {
    volatile std::uint64_t value = 16;
};
launch_count units;
volatile char evicted_data[1 << 20];
volatile unsigned evicted_sink = 0;

__attribute__((noinline)) void evict_data() {
    for (std::size_t i = 0; i < sizeof(evicted_data); i += 64) evicted_data[i] = static_cast<char>(evicted_data[i] + 1);
}

// 6,144 dependent steps, each its own instructions: about 42 KiB of code at -O1 and above.
#define WAVEFIT_STEP(n) x = x * 3 + (n);
#define WAVEFIT_STEP8(n) WAVEFIT_STEP(n) WAVEFIT_STEP(n + 1) WAVEFIT_STEP(n + 2) WAVEFIT_STEP(n + 3) \
    WAVEFIT_STEP(n + 4) WAVEFIT_STEP(n + 5) WAVEFIT_STEP(n + 6) WAVEFIT_STEP(n + 7)
#define WAVEFIT_STEP64(n) WAVEFIT_STEP8(n) WAVEFIT_STEP8(n + 8) WAVEFIT_STEP8(n + 16) WAVEFIT_STEP8(n + 24) \
    WAVEFIT_STEP8(n + 32) WAVEFIT_STEP8(n + 40) WAVEFIT_STEP8(n + 48) WAVEFIT_STEP8(n + 56)
#define WAVEFIT_STEP512(n) WAVEFIT_STEP64(n) WAVEFIT_STEP64(n + 64) WAVEFIT_STEP64(n + 128) WAVEFIT_STEP64(n + 192) \
    WAVEFIT_STEP64(n + 256) WAVEFIT_STEP64(n + 320) WAVEFIT_STEP64(n + 384) WAVEFIT_STEP64(n + 448)
__attribute__((noinline)) unsigned evict_code(unsigned x) {
    WAVEFIT_STEP512(0u) WAVEFIT_STEP512(512u) WAVEFIT_STEP512(1024u) WAVEFIT_STEP512(1536u) WAVEFIT_STEP512(2048u)
    WAVEFIT_STEP512(2560u) WAVEFIT_STEP512(3072u) WAVEFIT_STEP512(3584u) WAVEFIT_STEP512(4096u) WAVEFIT_STEP512(4608u)
    WAVEFIT_STEP512(5120u) WAVEFIT_STEP512(5632u)
    return x;
}

// One loop per form, not inlined into main (which GCC optimizes for size), as a benchmark's loop is.
template <class Launch>
__attribute__((noinline)) void run(long launches, bool evict, Launch launch) {
    for (long i = 0; i < launches; ++i) {
        launch(units.value);
        if (evict) {
            evict_data();
            evicted_sink = evict_code(evicted_sink);
        }
    }
}

// The fake device 0, its launches' arguments unchecked: the stream to launch into.
hipStream_t fake_stream() {
    fake::count().check_arguments = false;
    fake::current_device = 0;
    return fake::stream_of(0);
}

}  // namespace

// The process's first launch: microseconds and minor page faults (fresh pages touched).
int first_launch() {
    fake::count().slow_queries = false;
    const hipStream_t s = fake_stream();
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    wavefit::launch(kernel<2>, static_cast<std::uint64_t>(units.value) * 256, s, nullptr, 4099);
    const auto stop = std::chrono::steady_clock::now();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    std::printf("%.1f us %ld page faults\n", std::chrono::duration<double, std::micro>(stop - start).count(),
                after.ru_minflt - before.ru_minflt);
    return fake::count().bad_launches.load() == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "first") == 0) return first_launch();
    if (argc < 3) {
        std::fprintf(stderr, "usage: wavefit_launch_model raw|explicit|elements|per_block LAUNCHES [evict] | first\n");
        return 2;
    }
    const std::string_view form = argv[1];
    const long launches = std::atol(argv[2]) + 1;  // + the first launch, which makes the entry
    const bool evict = argc > 3 && std::strcmp(argv[3], "evict") == 0;
    const hipStream_t s = fake_stream();
    if (form == "raw") {  // the runtime call alone, as the benchmark's raw baseline: what the forms add to it
        run(launches, evict, [s](std::uint64_t u) {
            float* data = nullptr;
            int n = 4099;
            void* args[] = {&data, &n};
            (void)wavefit::detail::backend::launch_kernel(reinterpret_cast<const void*>(&kernel<0>),
                                                          dim3(static_cast<unsigned>(u)), dim3(256), args, 0, s);
        });
    } else if (form == "explicit") {
        run(launches, evict, [s](std::uint64_t u) {
            wavefit::launch(kernel<1>, wavefit::launch_config{wavefit::dims{u}, wavefit::dims{256}}, s, nullptr, 4099);
        });
    } else if (form == "elements") {
        run(launches, evict, [s](std::uint64_t u) { wavefit::launch(kernel<2>, u * 256, s, nullptr, 4099); });
    } else if (form == "per_block") {
        run(launches, evict, [s](std::uint64_t u) {
            wavefit::launch(kernel<3>, wavefit::work::per_block(u).block_fixed(wavefit::dims{256}), s, nullptr, 4099);
        });
    } else {
        std::fprintf(stderr, "wavefit_launch_model: unknown form '%s' (raw, explicit, elements, per_block)\n", argv[1]);
        return 2;
    }
    return fake::count().bad_launches.load() == 0 ? 0 : 1;
}
