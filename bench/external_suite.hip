// SPDX-License-Identifier: MIT
// The external suite: public kernels nobody on this project wrote (llm.c, HeCBench, cuda-samples,
// ggml), each launched as its project launches it and ported to wavefit as a user would, side by side
// in one run, every output compared bit for bit with the original launch's.
//
// Benchmark names are `ext/<project>_<kernel>/<variant>/<size>`; the variants (bench/external/ports.hpp):
//   original         the project's own <<<grid, block, shared>>> (raw)
//   original_repeat  the same launch measured again as a separate benchmark: the ratio of the two is
//                    the run's own measure of its noise
//   plan             wavefit::launch(kernel, work, ...), the work and contract the kernel needs
//   tuned            the same with .replacing(original), after wavefit::tune in the tuning phase,
//                    launched with WAVEFIT_TUNING=use
//   gs_plan, gs_tuned  our grid-stride rewrite of the kernel (same arithmetic) with .kernel_loops()
//   plan_free, tuned_free  (the llm.c classifier) the block left to wavefit; its bits follow the block,
//                    so these are checked against the original kernel launched with the same block
//
// Before anything is timed, for every case: the original's outputs become the reference; the
// original launched again must reproduce them (else the kernel is not deterministic and no bitwise
// check means anything); the negative control (bench/external/*.hpp: the original without its last
// block, or over one unit fewer where the kernel loops) must differ from them; plan and gs_plan must
// match them. Then the tuning phase (wavefit::tune, on scratch copies for in-place kernels; the outputs
// of the others are checked after it), then every tuned variant is checked with WAVEFIT_TUNING=use.
// Each benchmark checks once more after its timed launches. Inputs are reset before every check.
// The program exits 1 if any check failed or a negative control passed.
//
// Timing (what the application sees): device events around each launch, the L2 flushed before every
// timed launch by reading a buffer of max(2 x L2, 256 MiB) (suite_case.hpp says why reading), one
// launch per pair of events; the counters give the median of the launches (`median_us`), their
// spread (1.4826 x MAD / median) and the configuration launched. Flags besides Google Benchmark's:
//   --ext_tuning=on|off   the tuning phase and the tuned variants (default on)
//   --ext_checks_only     run the checks (and the tuning phase and its checks), time nothing
//   --ext_only=A,B        only the cases whose `<project>_<kernel>` contains one of A, B, ...
// bench/external_report.py turns the JSON into the table of bench/RESULTS.md.
#include <benchmark/benchmark.h>
#include <wavefit/wavefit.hpp>

#include <algorithm>  // std::sort
#include <chrono>     // the tuning phase's wall time
#include <cmath>      // std::fabs
#include <cstdint>    // sizes
#include <cstdio>     // messages
#include <deque>      // cases keep their addresses
#include <exception>  // std::exception
#include <map>        // tuning results per variant
#include <memory>     // owners
#include <string>     // names
#include <vector>     // lists

#include "benchmark_context.hpp"
#include "external/suite_case.hpp"
#include "external/suite_cases.hpp"
#include "gpu_support/gpu_support.hpp"

namespace {

using namespace wavefit_bench;
using namespace wavefit_bench::external;

constexpr int warmup_launches = 2;

struct suite_options {
    bool tuning = true;
    bool checks_only = false;
    std::vector<std::string> only;
};

// A case with the original's outputs (the reference) and what its checks and tuning found.
struct case_state {
    suite_case c;
    std::vector<std::unique_ptr<gpu::buffer<std::uint8_t>>> reference;
    std::map<std::string, wavefit::tuning_result> tuning;  // by variant name
};

gpu::stream_t stream{};
device_facts facts;
std::unique_ptr<gpu::event_pair> events;
std::unique_ptr<l2_flush> flush;
std::unique_ptr<comparator> compare;
std::deque<case_state> states;

// Every check's outcome: the program's exit status and the JSON context report them.
struct check_log {
    int passed = 0;
    int failed = 0;
    std::vector<std::string> failures;

    void record(const std::string& what, bool ok, const std::string& detail) {
        if (ok) {
            ++passed;
        } else {
            ++failed;
            failures.push_back(what + ": " + detail);
        }
        std::fprintf(stderr, "check %s %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.empty() ? "" : ": ",
                     detail.c_str());
    }
};
check_log checks;

// --- comparing with the reference ---------------------------------------------------------------

void take_reference(case_state& st) {
    st.reference.clear();
    for (const output_region& r : st.c.outputs) {
        st.reference.push_back(std::make_unique<gpu::buffer<std::uint8_t>>(static_cast<std::size_t>(r.bytes)));
        gpu::check(gpu::copy_device_async(st.reference.back()->data(), r.data, r.bytes, stream), "copying the reference");
    }
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
}

// "" when every output matches the reference bit for bit; otherwise what differs.
std::string differences(case_state& st) {
    std::string text;
    for (std::size_t k = 0; k < st.c.outputs.size(); ++k) {
        const output_region& r = st.c.outputs[k];
        const difference d = compare->compare(r.data, st.reference[k]->data(), r.bytes, stream);
        if (d.words == 0) continue;
        if (!text.empty()) text += "; ";
        text += r.name + ": " + std::to_string(d.words) + " of " + std::to_string(r.bytes / 4) +
                " words differ, the first at word " + std::to_string(d.first);
    }
    return text;
}

// Inputs reset, outputs poisoned, one launch, the outputs compared.
std::string launch_and_compare(case_state& st, const std::function<void(gpu::stream_t)>& launch) {
    st.c.reset(stream);
    launch(stream);
    gpu::check_last_launch("the checked launch");
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    return differences(st);
}

// launch_and_compare against the reference the variant is held to: the original's outputs, or for
// a same_block_reference variant the original kernel's at the variant's block (and the original's
// grid), made here and put back after.
std::string check_launch(case_state& st, const variant& v) {
    if (!v.same_block_reference) return launch_and_compare(st, v.launch);
    wavefit::launch_config same = st.c.original;
    same.block = v.config().block;
    std::vector<std::unique_ptr<gpu::buffer<std::uint8_t>>> original;
    original.swap(st.reference);
    std::string wrong;
    try {
        st.c.reset(stream);
        st.c.original_with(same, stream);
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        take_reference(st);
        wrong = launch_and_compare(st, v.launch);
    } catch (...) {
        st.reference.swap(original);
        throw;
    }
    st.reference.swap(original);
    return wrong.empty() ? wrong
                         : wrong + " (against the original kernel with block " + std::to_string(same.block.volume()) + ")";
}

void check_variant(case_state& st, const variant& v, const std::string& mode) {
    const std::string what = st.c.name(v.name) + " (" + mode + ")";
    try {
        const std::string wrong = check_launch(st, v);
        checks.record(what, wrong.empty(), wrong);
    } catch (const std::exception& e) {
        (void)gpu::take_last_error();
        checks.record(what, false, e.what());
    }
}

// The reference, its reproducibility, the negative control, and every untuned variant.
void check_case(case_state& st) {
    const variant& original = st.c.variants.front();
    try {
        st.c.reset(stream);
        original.launch(stream);
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        take_reference(st);
    } catch (const std::exception& e) {
        (void)gpu::take_last_error();
        checks.record(st.c.name("original") + " (reference)", false, e.what());
        return;
    }
    check_variant(st, original, "reproduces itself");
    try {
        const std::string wrong = launch_and_compare(st, st.c.broken);
        checks.record(
            st.c.name("negative_control") + " (" + st.c.broken_what + ")", !wrong.empty(),
            wrong.empty() ? "the control matched the reference: the check cannot fail" : "fails as it must: " + wrong);
    } catch (const std::exception& e) {
        (void)gpu::take_last_error();
        checks.record(st.c.name("negative_control"), false, e.what());
    }
    for (const variant& v : st.c.variants)
        if (&v != &original && !v.is_tuned()) check_variant(st, v, "plan");
}

// --- tuning -------------------------------------------------------------------------------------

std::string config_text(const wavefit::launch_config& c) {
    return "grid " + wavefit::detail::dims_text(c.grid) + " block " + wavefit::detail::dims_text(c.block) +
           (c.dynamic_shared != 0 ? " shared " + std::to_string(c.dynamic_shared) : std::string());
}

void tune_case(case_state& st) {
    for (const variant& v : st.c.variants) {
        if (!v.is_tuned()) continue;
        const std::string what = st.c.name(v.name);
        try {
            if (st.c.in_place) {
                st.c.reset_scratch(stream);
            } else {
                st.c.reset(stream);  // outputs poisoned: after tuning they must hold the reference
            }
            gpu::check(gpu::synchronize(stream), "synchronizing the stream");
            const auto started = std::chrono::steady_clock::now();
            wavefit::tuning_result r = v.tune(stream);
            r.tuning_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            (void)gpu::take_last_error();
            st.tuning[v.name] = r;
            std::fprintf(stderr, "tuning %s: %s in %.0f ms (%u candidates, %u failed): %s%s\n", what.c_str(),
                         r.ok ? "done" : ("FAILED: " + r.message).c_str(), r.tuning_ms, r.candidates, r.failed,
                         config_text(r.chosen).c_str(), r.tuned ? "" : " (kept)");
            if (!r.ok) {
                checks.record(what + " (tune)", false, "tuning failed: " + r.message);
                continue;
            }
            if (!st.c.in_place && !v.same_block_reference) {
                gpu::check(gpu::synchronize(stream), "synchronizing the stream");
                const std::string wrong = differences(st);
                checks.record(what + " (outputs after tuning)", wrong.empty(), wrong);
            }
        } catch (const std::exception& e) {
            (void)gpu::take_last_error();
            checks.record(what + " (tune)", false, e.what());
        }
    }
}

void check_tuned(case_state& st) {
    const tuning_mode_scope mode(true);
    for (const variant& v : st.c.variants) {
        if (!v.is_tuned()) continue;
        const auto t = st.tuning.find(v.name);
        if (t == st.tuning.end() || !t->second.ok) continue;  // already recorded as a failure
        check_variant(st, v, "use");
    }
}

// --- timing -------------------------------------------------------------------------------------

double median_of(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 != 0 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// 1.4826 x the median absolute deviation over the median: one launch's relative spread.
double relative_spread(const std::vector<double>& v, double median) {
    if (v.size() < 2 || median <= 0.0) return 0.0;
    std::vector<double> deviation;
    deviation.reserve(v.size());
    for (const double x : v) deviation.push_back(std::fabs(x - median));
    return 1.4826 * median_of(deviation) / median;
}

void run_benchmark(benchmark::State& state, case_state& st, const variant& v) {
    const tuning_mode_scope mode(v.is_tuned());
    try {
        if (v.is_tuned()) {
            const auto t = st.tuning.find(v.name);
            if (t == st.tuning.end() || !t->second.ok) {
                state.SkipWithError("the tuning phase did not tune this variant");
                return;
            }
        }
        st.c.reset(stream);
        for (int i = 0; i < warmup_launches; ++i) {
            flush->run(stream);
            v.launch(stream);
        }
        gpu::check_last_launch("the warm-up launches");
        gpu::check(gpu::synchronize(stream), "synchronizing the stream");
        std::vector<double> times;
        for (auto _ : state) {
            // The flush also keeps the device busy while the host enqueues the launch, so the start
            // event is not followed by an idle gap that a slower launch path would lengthen.
            flush->run(stream);
            events->start(stream);
            v.launch(stream);
            events->stop(stream);
            const double t = events->seconds();
            state.SetIterationTime(t);
            times.push_back(t);
        }
        gpu::check_last_launch("the timed launches");
        const std::string wrong = check_launch(st, v);
        checks.record(st.c.name(v.name) + " (after timing)", wrong.empty(), wrong);
        if (!wrong.empty()) {
            state.SkipWithError(("wrong results: " + wrong).c_str());
            return;
        }
        const double median = median_of(times);
        const wavefit::launch_config cfg = v.config();
        state.counters["median_us"] = median * 1e6;
        state.counters["spread"] = relative_spread(times, median);
        state.counters["bytes_per_launch"] = st.c.bytes;
        state.counters["median_gbps"] = median > 0 ? st.c.bytes / median / 1e9 : 0.0;
        state.counters["grid"] = static_cast<double>(cfg.grid.volume());
        state.counters["block"] = static_cast<double>(cfg.block.volume());
        state.counters["l2_flush_bytes"] = static_cast<double>(flush->bytes());
        if (v.is_tuned()) {
            const wavefit::tuning_result& t = st.tuning.at(v.name);
            state.counters["tuning_ms"] = t.tuning_ms;
            state.counters["tuning_candidates"] = t.candidates;
            state.counters["tuned"] = t.tuned ? 1.0 : 0.0;
        }
    } catch (const std::exception& e) {
        (void)gpu::take_last_error();
        checks.record(st.c.name(v.name) + " (timing)", false, e.what());
        state.SkipWithError(e.what());
    }
}

void register_case(case_state& st) {
    std::vector<const variant*> order;
    for (const variant& v : st.c.variants) order.push_back(&v);
    auto repeat = std::make_shared<variant>(st.c.variants.front());
    repeat->name = "original_repeat";
    order.push_back(repeat.get());
    for (const variant* v : order) {
        benchmark::RegisterBenchmark(st.c.name(v->name).c_str(),
                                     [&st, v, repeat](benchmark::State& state) { run_benchmark(state, st, *v); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::AddCustomContext("ext_contract:" + st.c.project + "_" + st.c.kernel + "/" + v->name + "/" + st.c.size,
                                    v->contract);
    }
    const std::string key = st.c.project + "_" + st.c.kernel;
    benchmark::AddCustomContext("ext_source:" + key + "/" + st.c.size, st.c.source);
    benchmark::AddCustomContext("ext_shape:" + key + "/" + st.c.size, st.c.shape);
    benchmark::AddCustomContext("ext_original:" + key + "/" + st.c.size, config_text(st.c.original));
}

// --- the run ------------------------------------------------------------------------------------

bool parse_options(int argc, char** argv, suite_options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a(argv[i]);
        if (a == "--ext_tuning=on" || a == "--ext_tuning=off") {
            o.tuning = a == "--ext_tuning=on";
        } else if (a == "--ext_checks_only") {
            o.checks_only = true;
        } else if (a.rfind("--ext_only=", 0) == 0) {
            std::string list = a.substr(11);
            for (std::size_t at = 0; at <= list.size();) {
                const std::size_t comma = list.find(',', at);
                const std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
                if (!item.empty()) o.only.push_back(item);
                if (comma == std::string::npos) break;
                at = comma + 1;
            }
        } else {
            std::fprintf(stderr, "wavefit_bench_external: unknown argument '%s' (see the top of bench/external_suite.hip)\n",
                         a.c_str());
            return false;
        }
    }
    return true;
}

bool wanted(const suite_case& c, const suite_options& o) {
    if (o.only.empty()) return true;
    const std::string key = c.project + "_" + c.kernel;
    for (const std::string& s : o.only)
        if (key.find(s) != std::string::npos) return true;
    return false;
}

void make_cases(const suite_options& o) {
    auto take = [&o](std::vector<suite_case> made) {
        for (suite_case& c : made) {
            if (!wanted(c, o)) continue;
            if (!o.tuning) {
                std::vector<variant> kept;
                for (variant& v : c.variants)
                    if (!v.is_tuned()) kept.push_back(std::move(v));
                c.variants = std::move(kept);
            }
            states.push_back(case_state{std::move(c), {}, {}});
        }
    };
    take(llmc_cases());
    take(hecbench_cases(facts.compute_units));
    take(cuda_samples_cases());
    take(ggml_cases());
}

// The event timer's tick in seconds: the smallest gap between the distinct times of a launch whose
// duration varies by many ticks (the L2 flush, tens of microseconds). A median of event times moves in
// whole ticks, so bench/external_report.py counts one tick as noise (on the H200 one tick, 32 ns, was
// the whole difference between two launches of the same configuration).
double measure_timer_tick() {
    std::vector<double> times;
    for (int i = 0; i < 400; ++i) {
        events->start(stream);
        flush->run(stream);
        events->stop(stream);
        times.push_back(events->seconds());
    }
    gpu::check_last_launch("the timer's calibration");
    std::sort(times.begin(), times.end());
    double tick = 0.0;
    for (std::size_t i = 1; i < times.size(); ++i) {
        const double gap = times[i] - times[i - 1];
        if (gap > 0.0 && (tick == 0.0 || gap < tick)) tick = gap;
    }
    return tick;
}

int run(int argc, char** argv) {
    const std::string command = command_line(argc, argv);
    benchmark::Initialize(&argc, argv);
    suite_options options;
    if (!parse_options(argc, argv, options)) return 2;

    // Planned variants must plan: whatever WAVEFIT_TUNING says, only the tuned ones use records.
    wavefit::set_tuning_mode(wavefit::tuning_mode::off);
    gpu::check(gpu::create_stream(stream, true), "creating a stream");
    events = std::make_unique<gpu::event_pair>();
    compare = std::make_unique<comparator>();
    facts = read_device_facts();
    flush = std::make_unique<l2_flush>(static_cast<std::uint64_t>(facts.l2_bytes > 0 ? facts.l2_bytes : 0));
    add_context(facts, command);
    benchmark::AddCustomContext("ext_l2_flush_bytes", std::to_string(flush->bytes()));
    benchmark::AddCustomContext("ext_timer_tick_us", std::to_string(measure_timer_tick() * 1e6));

    make_cases(options);
    std::fprintf(stderr, "external suite: %zu cases on %s\n", states.size(), facts.name.c_str());
    for (case_state& st : states) check_case(st);
    if (options.tuning) {
        for (case_state& st : states) tune_case(st);
        for (case_state& st : states) check_tuned(st);
    }
    if (!options.checks_only) {
        for (case_state& st : states) register_case(st);
        benchmark::AddCustomContext("ext_checks_before_timing",
                                    std::to_string(checks.passed) + " passed, " + std::to_string(checks.failed) + " failed");
        benchmark::RunSpecifiedBenchmarks();
    }
    benchmark::Shutdown();
    std::fprintf(stderr, "external suite: %d checks passed, %d failed\n", checks.passed, checks.failed);
    for (const std::string& f : checks.failures) std::fprintf(stderr, "  FAILED %s\n", f.c_str());
    states.clear();
    flush.reset();
    compare.reset();
    events.reset();
    return checks.failed != 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wavefit_bench_external: %s\n", e.what());
        return 1;
    }
}
