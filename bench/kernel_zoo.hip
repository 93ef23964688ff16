// SPDX-License-Identifier: MIT
// The kernel zoo: our own kernels under every launch strategy (zoo/strategies.hpp), timed with device
// events, side by side in one run with the device-to-device memcpy as the bandwidth ceiling.
// Benchmark names are `kernel/strategy/size`: `copy/wavefit/2^28`, `triad/sweep_b256_g1x/2^28`,
// `softmax/b1024/32768x8192`, `memcpy/runtime/2^28`. Each benchmark's counters: bytes_per_second and
// items_per_second (Google Benchmark's, from the event time), bytes_per_launch, elements_per_launch,
// block, grid (what was launched), launches_per_iteration (short kernels are launched several times
// between the events; the time per launch is the iteration time over it), and for the compute-bound
// kernel flop_per_launch, flop_per_second.
//
// Before anything is timed, a self-test runs every kernel at awkward sizes (tails, partial tiles)
// under several configurations and checks the outputs (a failure is reported, and fails the program
// at the end); each benchmark checks its outputs again after timing, and a wrong output makes it an
// error. Flags besides Google Benchmark's:
//   --zoo_sweep=full|coarse|off   full (default): every wave-aligned block at the STREAM kernels'
//                                 large size, the coarse block list elsewhere
//   --zoo_variants=on|off         the STREAM kernels' other work-per-thread variants (default on)
//   --zoo_self_test_only          run the self-test and exit
//   --zoo_tuning=on|off           the tuning phase and the tuned strategy (default on). Before anything is
//                                 timed, wavefit::tune measures every case that has a tuned strategy at
//                                 its size (WAVEFIT_TUNING_FILE, when set, receives the records); the
//                                 tuned benchmarks then launch with WAVEFIT_TUNING=use and report the
//                                 tuning's cost (tuning_ms, tuning_candidates, tuned_vs_plan_measured)
//   --zoo_external=on|off         the external kernels (BabelStream 5.0's, bench/external/) (default on)
#include <benchmark/benchmark.h>
#include <wavefit/wavefit.hpp>

#include <chrono>      // the tuning phase's wall time
#include <cstdint>     // sizes
#include <cstdio>      // messages
#include <deque>       // cases keep their addresses
#include <exception>   // std::exception
#include <functional>  // launch closures
#include <map>         // tuning results per case
#include <memory>      // std::make_shared
#include <string>      // names
#include <vector>      // lists

#include "benchmark_context.hpp"
#include "gpu_support/gpu_support.hpp"
#include "external/babelstream.hpp"
#include "zoo/cases.hpp"
#include "zoo/strategies.hpp"

namespace {

using namespace wavefit_bench;
using namespace wavefit_bench::zoo;

// The largest sizes: 2^28 doubles per STREAM array (2 GiB, 34x the H200's L2) and the matrices below
// all fit the three 2 GiB buffers. At 2^25 doubles (256 MiB per array) the working set is still 8-13x
// the L2, so no buffer rotation is needed: what the previous launch left in L2 (the end of the
// arrays) is evicted long before the next launch, which starts at the beginning, gets there.
constexpr std::uint64_t stream_large = std::uint64_t{1} << 28;
constexpr std::uint64_t stream_small = std::uint64_t{1} << 25;

// Launches before timing in each call of a benchmark (clocks up, caches and TLBs in their steady state).
constexpr int warmup_launches = 2;

// Device time each pair of events should bracket. The start event runs on an idle device, so the
// host's launch call (a few microseconds) falls inside the interval: short kernels are launched
// several times between the events so that this gap stays a fraction of a percent.
constexpr double timed_interval_seconds = 2e-3;

struct zoo_options {
    enum class sweep_mode { full, coarse, off } sweep = sweep_mode::full;
    bool variants = true;
    bool self_test_only = false;
    bool tuning = true;
    bool external = true;
};

gpu::stream_t stream{};
device_facts facts;
zoo_buffers buffers;
std::deque<zoo_case> cases;  // registered benchmarks point into it
std::unique_ptr<gpu::event_pair> events;
// What the tuning phase measured for each case with a tuned strategy.
std::map<const zoo_case*, wavefit::tuning_result> tuned;
std::vector<zoo_case*> to_tune;

// --- launching a case under a strategy ------------------------------------------------------------

struct resolved_launch {
    std::function<void()> go;
    std::uint64_t grid = 0;
    std::uint64_t block = 0;
};

std::uint64_t cover_grid(const zoo_case& c, std::uint64_t block) {
    return c.block_granular ? c.work : (c.work + block - 1) / block;
}

// Decides the configuration once, before anything is timed; the runtime queries happen here.
resolved_launch resolve(zoo_case& c, const strategy& s) {
    resolved_launch r;
    if (c.device_copy) {
        r.go = [&c] { c.copy(stream); };
        return r;
    }
    switch (s.kind) {
        case strategy_kind::fixed_block:
            r.block = s.block;
            r.grid = cover_grid(c, r.block);
            break;
        case strategy_kind::runtime_suggestion:
            r.block = static_cast<std::uint64_t>(c.launch.suggested_block());
            r.grid = cover_grid(c, r.block);
            break;
        case strategy_kind::sweep: {
            r.block = s.block;
            r.grid = cover_grid(c, r.block);
            if (s.factor != 0) {
                const int active = c.launch.max_active_blocks(static_cast<int>(s.block));
                if (active <= 0) throw gpu::failure("no block of " + std::to_string(s.block) + " threads fits an SM/CU");
                const std::uint64_t saturated = std::uint64_t{s.factor} * static_cast<std::uint64_t>(active) *
                                                static_cast<std::uint64_t>(facts.compute_units);
                if (saturated < r.grid) r.grid = saturated;
            }
            break;
        }
        case strategy_kind::wavefit_plan:
        case strategy_kind::wavefit_tuned: {
            const wavefit::work w = c.planned_work();
            const wavefit::launch_config cfg =
                s.kind == strategy_kind::wavefit_plan ? c.launch.plan(w).config() : tuned.at(&c).chosen;
            r.block = cfg.block.volume();
            r.grid = cfg.grid.volume();
            r.go = [&c, w] { c.launch.wavefit_work(w, stream); };
            return r;
        }
        case strategy_kind::original: {
            const wavefit::launch_config cfg = c.original();
            r.block = cfg.block.volume();
            r.grid = cfg.grid.volume();
            break;
        }
        case strategy_kind::device_copy: break;
    }
    if (r.grid == 0 || r.grid > 0x7fffffffu) throw gpu::failure("grid of " + std::to_string(r.grid) + " blocks");
    const dim3 grid(static_cast<unsigned>(r.grid));
    const dim3 block(static_cast<unsigned>(r.block));
    r.go = [&c, grid, block] { c.launch.raw(grid, block, stream); };
    return r;
}

// The benchmark that was prepared last: a benchmark's later calls (Google Benchmark calls it once per
// repetition) find their inputs as they left them, since every zoo kernel is idempotent.
const void* prepared_for = nullptr;

void run_case(benchmark::State& state, zoo_case& c, const strategy& s, const void* key) {
    const tuning_mode_scope mode(s.kind == strategy_kind::wavefit_tuned);
    try {
        if (s.kind == strategy_kind::wavefit_tuned && !tuned.at(&c).ok) {
            state.SkipWithError(("tuning failed: " + tuned.at(&c).message).c_str());
            return;
        }
        if (prepared_for != key) {
            prepared_for = nullptr;
            c.prepare(stream);
            prepared_for = key;
        }
        const resolved_launch r = resolve(c, s);
        for (int i = 0; i < warmup_launches; ++i) r.go();
        gpu::check_last_launch("the warm-up launches");
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        const int launches = c.launches_per_iteration;
        for (auto _ : state) {
            events->start(stream);
            for (int i = 0; i < launches; ++i) r.go();
            events->stop(stream);
            state.SetIterationTime(events->seconds());
        }
        gpu::check_last_launch("the timed launches");
        if (const std::string wrong = c.verify(stream); !wrong.empty()) {
            prepared_for = nullptr;
            state.SkipWithError(("wrong results: " + wrong).c_str());
            return;
        }
        const double launched = static_cast<double>(state.iterations()) * launches;
        state.SetBytesProcessed(static_cast<std::int64_t>(c.bytes * launched));
        state.SetItemsProcessed(static_cast<std::int64_t>(c.elements * launched));
        state.counters["launches_per_iteration"] = launches;
        state.counters["bytes_per_launch"] = c.bytes;
        state.counters["elements_per_launch"] = c.elements;
        state.counters["block"] = static_cast<double>(r.block);
        state.counters["grid"] = static_cast<double>(r.grid);
        if (s.kind == strategy_kind::wavefit_tuned) {
            const wavefit::tuning_result& t = tuned.at(&c);
            state.counters["tuning_ms"] = t.tuning_ms;
            state.counters["tuning_candidates"] = t.candidates;
            state.counters["tuned_vs_plan_measured"] = t.chosen_ns > 0 ? t.plan_ns / t.chosen_ns : 1.0;
            state.counters["tuned_spread"] = t.spread;
        }
        if (c.flops > 0) {
            state.counters["flop_per_launch"] = c.flops;
            state.counters["flop_per_second"] = benchmark::Counter(c.flops * launched, benchmark::Counter::kIsRate);
        }
    } catch (const std::exception& e) {
        (void)wavefit::detail::backend::take_last_error();
        prepared_for = nullptr;
        state.SkipWithError(e.what());
    }
}

// Launches per timed interval: enough for about timed_interval_seconds at 60% of the device's peak
// bandwidth (or 30 TFLOP/s for the compute-bound kernel), at most 64.
int launches_per_iteration(const zoo_case& c) {
    const double peak = facts.peak_bandwidth_gbps() > 0 ? facts.peak_bandwidth_gbps() * 1e9 : 2e12;
    const double estimate = c.flops > 0 ? c.flops / 30e12 : c.bytes / (0.6 * peak);
    const double n = timed_interval_seconds / (estimate > 0 ? estimate : timed_interval_seconds);
    return n <= 1.0 ? 1 : n >= 64.0 ? 64 : static_cast<int>(n);
}

void register_case(zoo_case c, const std::vector<strategy>& strategies) {
    c.launches_per_iteration = launches_per_iteration(c);
    cases.push_back(std::move(c));
    zoo_case& stored = cases.back();
    for (const strategy& s : strategies)
        if (s.kind == strategy_kind::wavefit_tuned) to_tune.push_back(&stored);
    for (const strategy& s : strategies) {
        const std::string name = stored.kernel + "/" + s.name + "/" + stored.size;
        auto key = std::make_shared<char>();  // identifies this benchmark for prepared_for
        benchmark::RegisterBenchmark(name.c_str(),
                                     [&stored, s, key](benchmark::State& state) { run_case(state, stored, s, key.get()); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
}

bool tuning_on = true;

std::vector<strategy> with_sweep(const zoo_case& c, const std::vector<std::uint32_t>& blocks) {
    std::vector<strategy> all = fixed_strategies();
    if (tuning_on) all.push_back(tuned_strategy());
    for (strategy& s : sweep_strategies(blocks, c.launch.max_threads)) all.push_back(std::move(s));
    return all;
}

// A variant is measured beside the default at the hard-coded, runtime and wavefit strategies and at
// block 256 under each occupancy-saturated grid.
std::vector<strategy> variant_strategies(const zoo_case& c) {
    std::vector<strategy> all = fixed_strategies();
    for (strategy& s : sweep_strategies({256}, c.launch.max_threads, {1, 2, 4})) all.push_back(std::move(s));
    return all;
}

// --- the zoo ----------------------------------------------------------------------------------

// The default work per thread of each STREAM kernel (the plain name) and the variants measured
// beside it (named kernel_vVuU). The defaults follow docs/performance.md's one-pass probe: 16-byte
// accesses reached the memcpy ceiling at block 256; the reductions take more per thread so that each
// block's reduction and atomic are spread over more bytes. The first H200 run (2026-12-02) chose
// them: dot 2x8 ran 4580 GB/s against 4544 for 2x4, sum 4x8 4496 against 4236 for 4x4 (same plan).
template <class Op, int V, int U>
zoo_case map_case(const char* op, std::uint64_t n, bool is_default) {
    const std::string name =
        is_default ? std::string(op) : std::string(op) + "_v" + std::to_string(V) + "u" + std::to_string(U);
    return stream_case<Op, V, U>(name, n, buffers);
}

template <int V, int U>
zoo_case dot_case(std::uint64_t n, bool is_default) {
    const std::string name = is_default ? std::string("dot") : "dot_v" + std::to_string(V) + "u" + std::to_string(U);
    return reduce_case<double, dot_op, V, U>(name, n, buffers, 1e-10);
}

template <int V, int U>
zoo_case sum_case(std::uint64_t n, bool is_default) {
    const std::string name = is_default ? std::string("sum") : "sum_v" + std::to_string(V) + "u" + std::to_string(U);
    return reduce_case<float, sum_op, V, U>(name, n, buffers, 1e-5);
}

constexpr int map_v = 2, map_u = 1;
constexpr int dot_v = 2, dot_u = 8;
constexpr int sum_v = 4, sum_u = 8;

// The five STREAM kernels at their default variant.
std::vector<zoo_case> stream_cases(std::uint64_t n) {
    std::vector<zoo_case> out;
    out.push_back(map_case<copy_op, map_v, map_u>("copy", n, true));
    out.push_back(map_case<mul_op, map_v, map_u>("mul", n, true));
    out.push_back(map_case<add_op, map_v, map_u>("add", n, true));
    out.push_back(map_case<triad_op, map_v, map_u>("triad", n, true));
    out.push_back(dot_case<dot_v, dot_u>(n, true));
    return out;
}

template <class Op>
void add_map_variants(std::vector<zoo_case>& out, const char* op, std::uint64_t n) {
    out.push_back(map_case<Op, 1, 1>(op, n, false));  // plain wavefit::grid_stride over doubles
    out.push_back(map_case<Op, 1, 4>(op, n, false));
    out.push_back(map_case<Op, 2, 2>(op, n, false));
    out.push_back(map_case<Op, 2, 4>(op, n, false));
}

std::vector<zoo_case> variant_cases(std::uint64_t n) {
    std::vector<zoo_case> out;
    add_map_variants<copy_op>(out, "copy", n);
    add_map_variants<mul_op>(out, "mul", n);
    add_map_variants<add_op>(out, "add", n);
    add_map_variants<triad_op>(out, "triad", n);
    out.push_back(dot_case<1, 4>(n, false));
    out.push_back(dot_case<2, 1>(n, false));
    out.push_back(dot_case<2, 2>(n, false));
    out.push_back(dot_case<2, 4>(n, false));
    out.push_back(sum_case<4, 1>(n, false));
    out.push_back(sum_case<4, 4>(n, false));
    return out;
}

// Sizes for the self-test: tails of every kind (n % V, n % (V*U*threads)), partial tiles, short rows
// and rows too long for the registers at small blocks.
std::vector<zoo_case> self_test_cases() {
    const std::uint64_t n = (std::uint64_t{1} << 20) + 3;
    std::vector<zoo_case> out = stream_cases(n);
    for (zoo_case& c : variant_cases(n)) out.push_back(std::move(c));
    out.push_back(sum_case<sum_v, sum_u>((std::uint64_t{1} << 20) + 5, true));
    out.push_back(register_heavy_case(10007, buffers));
    out.push_back(transpose_case(1000, 777, buffers));
    out.push_back(transpose_case(64, 96, buffers));
    out.push_back(softmax_case(37, 1000, buffers));
    out.push_back(softmax_case(5, 8192, buffers));
    out.push_back(memcpy_case(n, buffers));
    return out;
}

// Every case under a spread of configurations, each output checked. Returns the number of failures.
int self_test() {
    const std::uint32_t w = static_cast<std::uint32_t>(facts.wave_size > 0 ? facts.wave_size : 32);
    int failures = 0;
    int passed = 0;
    std::vector<zoo_case> all = self_test_cases();
    for (zoo_case& c : all) {
        std::vector<strategy> tries{{"wavefit", strategy_kind::wavefit_plan, 0, 0},
                                    {"occupancy_api", strategy_kind::runtime_suggestion, 0, 0}};
        for (const std::uint32_t b : {w, 3 * w, 256u, 1024u}) {
            if (static_cast<int>(b) > c.launch.max_threads && !c.device_copy) continue;
            tries.push_back({sweep_name(b, 0), strategy_kind::sweep, b, 0});
            tries.push_back({sweep_name(b, 1), strategy_kind::sweep, b, 1});
        }
        if (c.device_copy) tries.resize(1);
        for (const strategy& s : tries) {
            std::string wrong;
            try {
                c.prepare(stream);
                const resolved_launch r = resolve(c, s);
                for (int i = 0; i < 3; ++i) r.go();  // three: the reductions alternate their slots
                gpu::check_last_launch("the self-test launches");
                wrong = c.verify(stream);
            } catch (const std::exception& e) {
                (void)wavefit::detail::backend::take_last_error();
                wrong = e.what();
            }
            if (wrong.empty()) {
                ++passed;
            } else {
                ++failures;
                std::fprintf(stderr, "self-test FAILED: %s/%s/%s: %s\n", c.kernel.c_str(), s.name.c_str(), c.size.c_str(),
                             wrong.c_str());
            }
        }
    }
    std::fprintf(stderr, "self-test: %d configurations checked, %d failed\n", passed + failures, failures);
    return failures;
}

void register_zoo(const zoo_options& o) {
    const bool sweep = o.sweep != zoo_options::sweep_mode::off;
    const std::vector<std::uint32_t> none;
    const std::vector<std::uint32_t> coarse = sweep ? coarse_blocks() : none;
    const std::vector<std::uint32_t> large_stream =
        o.sweep == zoo_options::sweep_mode::full ? every_wave_block(facts.wave_size) : coarse;
    const std::vector<strategy> copy_only{{"runtime", strategy_kind::device_copy, 0, 0}};

    register_case(memcpy_case(stream_large, buffers), copy_only);
    register_case(memcpy_case(stream_small, buffers), copy_only);
    for (zoo_case& c : stream_cases(stream_large)) register_case(c, with_sweep(c, large_stream));
    for (zoo_case& c : stream_cases(stream_small)) register_case(c, with_sweep(c, coarse));
    if (o.variants)
        for (zoo_case& c : variant_cases(stream_large)) register_case(c, variant_strategies(c));
    for (const std::uint64_t n : {stream_large, stream_small}) {
        zoo_case c = sum_case<sum_v, sum_u>(n, true);
        register_case(c, with_sweep(c, coarse));
    }
    for (const std::uint64_t n : {std::uint64_t{1} << 24, std::uint64_t{1} << 22}) {
        zoo_case c = register_heavy_case(n, buffers);
        register_case(c, with_sweep(c, coarse));
    }
    for (const std::uint64_t side : {std::uint64_t{16384}, std::uint64_t{8192}}) {
        zoo_case c = transpose_case(side, side, buffers);
        register_case(c, with_sweep(c, coarse));
    }
    for (const std::uint64_t rows : {std::uint64_t{32768}, std::uint64_t{4096}}) {
        for (const std::uint64_t hidden : {std::uint64_t{8192}, std::uint64_t{4096}}) {
            zoo_case c = softmax_case(rows, hidden, buffers);
            register_case(c, with_sweep(c, coarse));
        }
    }
    if (o.external) {
        std::vector<strategy> external = external_strategies();
        if (!o.tuning) external.pop_back();
        for (const std::uint64_t n : {stream_large, stream_small})
            for (zoo_case& c : external::babelstream_cases(n, buffers)) register_case(c, external);
    }
    // The ceiling again at the end: a drift between the two says the device changed during the run.
    register_case(memcpy_case(stream_large, buffers), {{"runtime_end", strategy_kind::device_copy, 0, 0}});
}

bool parse_options(int argc, char** argv, zoo_options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a(argv[i]);
        if (a == "--zoo_sweep=full") {
            o.sweep = zoo_options::sweep_mode::full;
        } else if (a == "--zoo_sweep=coarse") {
            o.sweep = zoo_options::sweep_mode::coarse;
        } else if (a == "--zoo_sweep=off") {
            o.sweep = zoo_options::sweep_mode::off;
        } else if (a == "--zoo_variants=on") {
            o.variants = true;
        } else if (a == "--zoo_variants=off") {
            o.variants = false;
        } else if (a == "--zoo_self_test_only") {
            o.self_test_only = true;
        } else if (a == "--zoo_tuning=on" || a == "--zoo_tuning=off") {
            o.tuning = a == "--zoo_tuning=on";
        } else if (a == "--zoo_external=on" || a == "--zoo_external=off") {
            o.external = a == "--zoo_external=on";
        } else {
            std::fprintf(stderr, "wavefit_bench_zoo: unknown argument '%s' (see the top of bench/kernel_zoo.hip)\n",
                         a.c_str());
            return false;
        }
    }
    return true;
}

void allocate_buffers() {
    buffers.bytes = stream_large * sizeof(double);
    buffers.a = gpu::allocate_bytes(buffers.bytes);
    buffers.b = gpu::allocate_bytes(buffers.bytes);
    buffers.c = gpu::allocate_bytes(buffers.bytes);
    buffers.slots = static_cast<double*>(gpu::allocate_bytes(2 * sizeof(double)));
    buffers.counter = std::make_shared<device_counter>();
}

// The tuning phase: every case with a tuned strategy, once, at its size, on its prepared inputs (every
// zoo kernel is idempotent, the reductions add into a slot the next launch clears). One line each on
// stderr; the records stay in the process (and go to WAVEFIT_TUNING_FILE when it is set).
void tune_cases() {
    for (zoo_case* c : to_tune) {
        if (tuned.count(c) != 0) continue;
        c->prepare(stream);
        prepared_for = nullptr;
        const auto started = std::chrono::steady_clock::now();
        wavefit::tuning_result r = c->launch.tune(c->planned_work(), stream);
        const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        (void)wavefit::detail::backend::take_last_error();
        std::fprintf(stderr,
                     "tuning %s/%s: %s in %.0f ms (%u candidates, %u failed): block %llu grid %llu, %.4fx the plan%s\n",
                     c->kernel.c_str(), c->size.c_str(), r.ok ? "tuned" : ("FAILED: " + r.message).c_str(), wall_ms,
                     r.candidates, r.failed, static_cast<unsigned long long>(r.chosen.block.volume()),
                     static_cast<unsigned long long>(r.chosen.grid.volume()),
                     r.chosen_ns > 0 ? r.plan_ns / r.chosen_ns : 1.0, r.tuned ? "" : " (the plan kept)");
        r.tuning_ms = wall_ms;
        tuned[c] = r;
    }
}

void release_buffers() {
    cases.clear();
    (void)gpu::release(buffers.a);
    (void)gpu::release(buffers.b);
    (void)gpu::release(buffers.c);
    (void)gpu::release(buffers.slots);
    buffers.counter.reset();
}

// Copies for about a fifth of a second so the clocks have ramped up before the first measurement.
void warm_up_device() {
    zoo_case c = memcpy_case(stream_large, buffers);
    c.prepare(stream);
    for (int i = 0; i < 200; ++i) c.copy(stream);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
}

int run(int argc, char** argv) {
    const std::string command = command_line(argc, argv);
    benchmark::Initialize(&argc, argv);
    zoo_options options;
    if (!parse_options(argc, argv, options)) return 2;

    gpu::check(gpu::create_stream(stream, true), "creating a stream");
    events = std::make_unique<gpu::event_pair>();
    facts = read_device_facts();
    add_context(facts, command);
    benchmark::AddCustomContext("stream_default_variants", "copy/mul/add/triad v" + std::to_string(map_v) + "u" +
                                                               std::to_string(map_u) + ", dot v" + std::to_string(dot_v) +
                                                               "u" + std::to_string(dot_u) + ", sum v" +
                                                               std::to_string(sum_v) + "u" + std::to_string(sum_u));
    allocate_buffers();

    // A failed self-test does not stop the run (device time is scarce and every benchmark checks
    // its own outputs again), but it does fail the program.
    const int failures = self_test();
    if (options.self_test_only) {
        release_buffers();
        return failures != 0 ? 1 : 0;
    }
    warm_up_device();
    tuning_on = options.tuning;
    register_zoo(options);
    tune_cases();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    events.reset();
    release_buffers();
    if (failures != 0) std::fprintf(stderr, "wavefit_bench_zoo: the self-test FAILED (%d configurations)\n", failures);
    return failures != 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wavefit_bench_zoo: %s\n", e.what());
        return 1;
    }
}
