// SPDX-License-Identifier: MIT
// The device a run measured, written into Google Benchmark's JSON "context" so that a results file
// says by itself what it came from (rocPRIM's benchmarks do the same), plus the exact command line.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>  // sizes
#include <string>   // context values

#include "gpu_runtime.hpp"

namespace wavefit_bench {

struct device_facts {
    int device = 0;
    std::string name;
    std::string arch;  // "sm_90", "gfx942:sramecc+:xnack-"
    int compute_units = 0;
    int wave_size = 0;
    int memory_clock_khz = 0;
    int memory_bus_width_bits = 0;
    int l2_bytes = 0;
    int max_threads_per_cu = 0;
    int runtime_version = 0;
    int driver_version = 0;
    std::uint64_t global_memory_bytes = 0;

    // Double data rate: two transfers per memory clock over the whole bus.
    double peak_bandwidth_gbps() const {
        return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0) / 1e9;
    }
};

namespace detail {

inline int attribute(
#if defined(WAVEFIT_BENCH_HIP)
    hipDeviceAttribute_t a,
#else
    cudaDeviceAttr a,
#endif
    int device) {
    int value = 0;
#if defined(WAVEFIT_BENCH_HIP)
    if (hipDeviceGetAttribute(&value, a, device) != hipSuccess) {
        (void)hipGetLastError();
        return 0;
    }
#else
    if (cudaDeviceGetAttribute(&value, a, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
#endif
    return value;
}

}  // namespace detail

inline device_facts read_device_facts() {
    device_facts f;
#if defined(WAVEFIT_BENCH_HIP)
    gpu::check(hipGetDevice(&f.device), "hipGetDevice");
    hipDeviceProp_t p{};
    gpu::check(hipGetDeviceProperties(&p, f.device), "hipGetDeviceProperties");
    f.name = p.name;
#if defined(__HIP_PLATFORM_NVIDIA__)
    f.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
#else
    f.arch = p.gcnArchName;
#endif
    f.global_memory_bytes = p.totalGlobalMem;
    f.compute_units = detail::attribute(hipDeviceAttributeMultiprocessorCount, f.device);
    f.wave_size = detail::attribute(hipDeviceAttributeWarpSize, f.device);
    f.memory_clock_khz = detail::attribute(hipDeviceAttributeMemoryClockRate, f.device);
    f.memory_bus_width_bits = detail::attribute(hipDeviceAttributeMemoryBusWidth, f.device);
    f.l2_bytes = detail::attribute(hipDeviceAttributeL2CacheSize, f.device);
    f.max_threads_per_cu = detail::attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor, f.device);
    (void)hipRuntimeGetVersion(&f.runtime_version);
    (void)hipDriverGetVersion(&f.driver_version);
#else
    gpu::check(cudaGetDevice(&f.device), "cudaGetDevice");
    cudaDeviceProp p{};
    gpu::check(cudaGetDeviceProperties(&p, f.device), "cudaGetDeviceProperties");
    f.name = p.name;
    f.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
    f.global_memory_bytes = p.totalGlobalMem;
    f.compute_units = detail::attribute(cudaDevAttrMultiProcessorCount, f.device);
    f.wave_size = detail::attribute(cudaDevAttrWarpSize, f.device);
    f.memory_clock_khz = detail::attribute(cudaDevAttrMemoryClockRate, f.device);
    f.memory_bus_width_bits = detail::attribute(cudaDevAttrGlobalMemoryBusWidth, f.device);
    f.l2_bytes = detail::attribute(cudaDevAttrL2CacheSize, f.device);
    f.max_threads_per_cu = detail::attribute(cudaDevAttrMaxThreadsPerMultiProcessor, f.device);
    (void)cudaRuntimeGetVersion(&f.runtime_version);
    (void)cudaDriverGetVersion(&f.driver_version);
#endif
    return f;
}

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

}  // namespace wavefit_bench
