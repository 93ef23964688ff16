// SPDX-License-Identifier: MIT
// The device a run measured, written into Google Benchmark's JSON "context" so that a results file
// says by itself what it came from (rocPRIM's benchmarks do the same), plus the exact command line.
// The device's facts come from the GPU support layer (gpu::read_device_facts).
#pragma once

#include <benchmark/benchmark.h>

#include <string>  // context values

#include <wavefit/tuning.hpp>  // set_tuning_mode: the opt-in tuning tier
#include <wavefit/wavefit.hpp>

#include "gpu_support/gpu_support.hpp"

namespace wavefit_bench {

using gpu::device_facts;
using gpu::read_device_facts;

// The command as typed, each argument quoted only when the shell would need it.
inline std::string command_line(int argc, char** argv) {
    std::string text;
    for (int i = 0; i < argc; ++i) {
        std::string arg(argv[i]);
        const bool plain = !arg.empty() && arg.find_first_not_of(
                                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:+%^") ==
                                               std::string::npos;
        if (!text.empty()) text += ' ';
        text += plain ? arg : "'" + arg + "'";
    }
    return text;
}

// Adds the device's facts and the command line to the JSON context. Call before RunSpecifiedBenchmarks.
inline void add_context(const device_facts& f, const std::string& command) {
    using benchmark::AddCustomContext;
    AddCustomContext("wavefit_version", WAVEFIT_VERSION_STRING);
    AddCustomContext("gpu_runtime", gpu::runtime_name);
    AddCustomContext("device_name", f.name);
    AddCustomContext("device_arch", f.arch);
    AddCustomContext("compute_units", std::to_string(f.compute_units));
    AddCustomContext("wave_size", std::to_string(f.wave_size));
    AddCustomContext("max_threads_per_cu", std::to_string(f.max_threads_per_cu));
    AddCustomContext("memory_clock_khz", std::to_string(f.memory_clock_khz));
    AddCustomContext("memory_bus_width_bits", std::to_string(f.memory_bus_width_bits));
    AddCustomContext("peak_bandwidth_gbps", std::to_string(f.peak_bandwidth_gbps()));
    AddCustomContext("l2_cache_bytes", std::to_string(f.l2_bytes));
    AddCustomContext("global_memory_bytes", std::to_string(f.global_memory_bytes));
    AddCustomContext("runtime_version", std::to_string(f.runtime_version));
    AddCustomContext("driver_version", std::to_string(f.driver_version));
    AddCustomContext("command_line", command);
}

// The start of the launch benchmarks (launch_overhead.hip, first_launch_parts.hip), with nothing of
// wavefit touched yet: the context made, a non-blocking stream, one raw launch of `warm_up` (which
// loads the module, so a first launch timed later pays only for its kernel) and the device's facts
// and `command` in the JSON context. Returns the stream.
inline gpu::stream_t start_before_wavefit(void (*warm_up)(), const std::string& command) {
    gpu::stream_t stream{};
    gpu::check(gpu::synchronize(), "synchronizing the device");
    gpu::check(gpu::create_stream(stream, true), "creating a stream");
    GPU_RAW_LAUNCH_NO_ARGS(warm_up, dim3(1), dim3(32), 0, stream);
    gpu::check(gpu::synchronize(stream), "synchronizing the stream");
    gpu::check_last_launch("the warm-up launch");
    add_context(read_device_facts(), command);
    return stream;
}

// The tuned strategy's launches read the tuning records (WAVEFIT_TUNING=use) while the scope lives;
// everything else plans without them, so that one process measures planned and tuned side by side.
class tuning_mode_scope {
public:
    explicit tuning_mode_scope(bool tuned) : tuned_(tuned), before_(wavefit::detail::current_tuning_mode()) {
        if (tuned_) wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    }
    ~tuning_mode_scope() {
        if (tuned_) wavefit::set_tuning_mode(before_);
    }
    tuning_mode_scope(const tuning_mode_scope&) = delete;
    tuning_mode_scope& operator=(const tuning_mode_scope&) = delete;

private:
    bool tuned_;
    wavefit::tuning_mode before_;
};

}  // namespace wavefit_bench
