// SPDX-License-Identifier: MIT
// Writes the recorded files beside it: real Google Benchmark 1.7.1 JSON with the shapes the wavefit
// benchmarks produce (manual time, counters, an error, Iterations(1)/Repetitions(1), real time), so the
// tests of compare.py and make_report.py read what the library really writes. CPU only:
//   g++ -O2 record_gbench.cpp -o record_gbench -lbenchmark -lpthread
//   ./record_gbench --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_out_format=json
//       --benchmark_display_aggregates_only=true --benchmark_out=gbench_1.7.1_repetitions.json
//   ./record_gbench --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_out_format=json
//       --benchmark_report_aggregates_only=true --benchmark_out=gbench_1.7.1_aggregates_only.json
#include <benchmark/benchmark.h>

namespace {

void manual(benchmark::State& s) {
    for (auto _ : s) s.SetIterationTime(1e-3 * (1.0 + 0.001 * static_cast<double>(s.iterations() % 3)));
    s.SetBytesProcessed(s.iterations() * 4000000);
    s.counters["bytes_per_launch"] = 4e6;
    s.counters["block"] = 256;
    s.counters["grid"] = 1024;
}

void failing(benchmark::State& s) { s.SkipWithError("launch failed: too many resources requested for launch"); }

void once(benchmark::State& s) {
    for (auto _ : s) s.SetIterationTime(2e-5);
    s.counters["latency_median_us"] = 20;
}

void realtime(benchmark::State& s) {
    for (auto _ : s) benchmark::DoNotOptimize(s.iterations());
    s.counters["us_per_launch"] = 4.1;
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::AddCustomContext("device_name", "synthetic");
    benchmark::RegisterBenchmark("copy/wavefit/2^20", manual)->UseManualTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("regheavy/b1024/2^22", failing)->UseManualTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("launch_first/raw/cold", once)->Iterations(1)->Repetitions(1)->UseManualTime();
    benchmark::RegisterBenchmark("launch_enqueue/raw/empty", realtime)->UseRealTime();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
