// SPDX-License-Identifier: MIT
// What every GPU spec file shares: Catch2, the suite's kernels, readable names for wavefit's
// results (so a failing assertion prints words and numbers, not enum values) and the record of raw
// runtime errors that the specs print for the run's report.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>   // sizes
#include <iostream>  // notes for the run's report
#include <optional>  // diagnostic codes
#include <string>    // names
#include <vector>    // results

#include "gpu_support/gpu_support.hpp"
#include "kernels.hpp"

namespace Catch {
template <>
struct StringMaker<wavefit::launch_config> {
    static std::string convert(const wavefit::launch_config& c) {
        return "grid " + wavefit::detail::dims_text(c.grid) + " block " + wavefit::detail::dims_text(c.block) +
               " dynamic shared " + std::to_string(c.dynamic_shared);
    }
};
}  // namespace Catch

namespace gpu_test {

// Statuses as words, so that a failing comparison prints "rejected", not an enum value.
inline std::string status_name(wavefit::launch_status s) { return std::string(wavefit::to_string(s)); }

inline std::string code_name(const std::optional<wavefit::diagnostic_code>& c) {
    return c ? std::string(wavefit::to_string(*c)) : std::string("none");
}

// The runtime's last error as text, cleared by reading it ("cudaSuccess (0)" when there is none).
inline std::string last_error_text() { return gpu::error_text(gpu::take_last_error()); }
inline const std::string& success_text() {
    static const std::string text = gpu::error_text(gpu::success);
    return text;
}

// A line for the run's report. Written to std::cout (not printf): Catch2 captures std::cout per
// test case, so the JUnit file keeps it in the test case's <system-out>.
inline void note(const std::string& line) { std::cout << line << std::endl; }

// What the runtime answered for a raw launch or call: "runtime verdict | what | error (code)".
inline void record_runtime_verdict(const std::string& what, gpu::error_t e) {
    note("runtime verdict | " + what + " | " + gpu::error_text(e));
}

// Ends a spec that does not apply here, visibly: a Catch2 warning on the console and a
// "skipped: ..." note in the JUnit file (Catch2 2.x has no SKIP; the spec counts as passed).
#define GPU_TEST_SKIP(why)                           \
    do {                                             \
        const std::string gpu_test_why_ = (why);     \
        WARN("skipped: " << gpu_test_why_);          \
        gpu_test::note("skipped: " + gpu_test_why_); \
        return;                                      \
    } while (0)

// Where one of wavefit's messages names the runtime's error for a shape ("CUDA 13 refuses such a
// launch with cudaErrorInvalidValue"), it must be the error the runtime really returned.
inline bool names_the_runtime_error(const std::string& message, gpu::error_t raw) {
#if WAVEFIT_PLATFORM_HIP
    const char* prefix = "hipError";
#else
    const char* prefix = "cudaError";
#endif
    return message.find(prefix) == std::string::npos || message.find(gpu::error_name(raw)) != std::string::npos;
}

inline bool has_gpu() { return gpu::device_count() > 0; }

inline const std::string& current_device_name() {
    static const std::string name = [] {
        int device = 0;
        return gpu::current_device(device) == gpu::success ? gpu::device_name(device) : std::string();
    }();
    return name;
}

inline bool on_h200() { return current_device_name().rfind("NVIDIA H200", 0) == 0; }

// The first element of [first, last) that is not `expected`, and how many are not, as text; empty
// when all are. CHECK(mismatches(...) == "") prints the numbers on failure.
template <class T>
std::string mismatches(const T* values, std::uint64_t first, std::uint64_t last, T expected) {
    std::uint64_t count = 0, at = 0;
    for (std::uint64_t i = first; i < last; ++i)
        if (values[i] != expected && count++ == 0) at = i;
    if (count == 0) return {};
    return std::to_string(count) + " of [" + std::to_string(first) + ", " + std::to_string(last) + ") differ from " +
           std::to_string(static_cast<unsigned long long>(expected)) + "; the first is [" + std::to_string(at) +
           "] = " + std::to_string(static_cast<unsigned long long>(values[at]));
}

template <class T>
std::string mismatches(const std::vector<T>& values, std::uint64_t first, std::uint64_t last, T expected) {
    return mismatches(values.data(), first, last, expected);
}

// Poison for 32-bit visit counters: each visit adds 1.
inline constexpr std::uint32_t poison_u32 = 0xABABABABu;

}  // namespace gpu_test

// Stops a spec with a clear message on a machine without a GPU.
#define REQUIRE_GPU()                                                                            \
    do {                                                                                         \
        INFO("no GPU is visible to the runtime: the GPU specs need one (see tests/gpu/README)"); \
        REQUIRE(gpu_test::has_gpu());                                                            \
    } while (0)

// A runtime call in a spec's setup must succeed; the failure names the call and the error.
#define GPU_REQUIRE_OK(call)                                    \
    do {                                                        \
        const gpu::error_t gpu_e_ = (call);                     \
        INFO(#call << " returned " << gpu::error_text(gpu_e_)); \
        REQUIRE(gpu_e_ == gpu::success);                        \
    } while (0)
