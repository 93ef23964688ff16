// SPDX-License-Identifier: MIT
// A fake HIP runtime for the CPU tests of wavefit's runtime layer (tests/cpu/fake_hip_runtime.cpp
// defines the HIP functions wavefit calls; the test program links against them instead of
// libamdhip64: a link-time seam, wavefit's code is unchanged). 16 devices, MI300X-like but for
// device 13, a small GPU (104 CUs, 32 KiB of LDS, blocks of at most 256 threads); fake streams that
// know their device; per-kernel dynamic-shared-memory attributes; and device time on a fake clock
// from a model of launch durations, for the tuner. Every query is counted. Without HIP's headers
// nothing is declared.
#pragma once

#if __has_include(<hip/hip_runtime.h>)

#define WAVEFIT_BACKEND_HIP 1
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime.h>

// Debian's HIP 5.2 headers do not declare hipStreamGetDevice (newer ROCm does); declaring it here
// lets wavefit find it as it would on ROCm 6, so the stream-device path is the one under test.
extern "C" hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device);

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#define WAVEFIT_HAS_FAKE_HIP 1

namespace fake {

constexpr int device_count = 16;
// The device with other limits than the rest.
constexpr int small_device = 13;

// Its own cache lines: the launch model (bench/launch_model) counts the lines a launch reads, and a
// fake's counter sharing a line with wavefit's data would hide one of wavefit's.
struct alignas(64) counters {
    std::array<std::atomic<int>, device_count> attribute_calls{};
    std::array<std::atomic<int>, device_count> property_calls{};
    std::atomic<int> function_attribute_calls{0};
    std::atomic<int> set_attribute_calls{0};
    std::atomic<int> name_queries{0};  // hipKernelNameRefByPtr calls
    std::atomic<int> launches{0};
    std::atomic<int> bad_launches{0};          // a launch the fake device would refuse
    std::atomic<int> wrong_arguments{0};       // kernel arguments that did not arrive as passed
    std::atomic<int> fail_properties_for{-1};  // device whose next property queries fail
    std::atomic<int> property_failures_left{0};
    std::atomic<int> wrong_device_launches{0};    // launched into a stream while another device was current
    std::atomic<int> wrong_device_attributes{0};  // kernel attributes read while the stream's device was not current
    std::atomic<int> stream_device_calls{0};
    std::atomic<int> set_device_calls{0};
    std::atomic<bool> refuse_set_attribute{false};  // hipFuncSetAttribute fails while set
    std::atomic<bool> check_arguments{true};        // launches must carry (float*, int 4099)
    std::atomic<int> allocations{0};                // hipMalloc minus hipFree: what is still held
    std::atomic<int> cache_flushes{0};              // hipMemsetAsync calls (the tuner's L2 flush)
    std::atomic<bool> refuse_allocations{false};    // hipMalloc fails while set
    std::atomic<bool> slow_queries{true};  // device and kernel queries take 200 us, so that threads race
};
counters& count();

extern thread_local int current_device;
// The device whose stream the calling thread's current launch or query targets (-1: none), so that the
// fake can tell whether wavefit made that device current first.
extern thread_local int expected_device;

// A distinct non-null stream per device, which hipStreamGetDevice maps back; -1 for another handle.
hipStream_t stream_of(int device);
int device_of(hipStream_t s);

// What the fake device reports for an attribute.
int attribute(hipDeviceAttribute_t a, int device);

// The address HIP knows a kernel function by: what wavefit passes to hipFuncGetAttributes and hipLaunchKernel, and
// what the functions below take.
template <class... Params>
const void* address_of(void (*kernel)(Params...)) {
    return reinterpret_cast<const void*>(kernel);
}

// A kernel's max-dynamic-shared-memory attribute as hipFuncSetAttribute left it (65536 by default).
int dynamic_shared_of(const void* kernel);

// The mangled name hipKernelNameRefByPtr gives a kernel ("_Z4fakePfi" unless registered).
void name_kernel(const void* kernel, const std::string& mangled);

// Device time of one launch in nanoseconds (default: 1000 ns whatever the configuration). Each
// stream's fake clock advances by it at every launch; events read the clock.
using duration_model = std::function<double(const void* kernel, dim3 grid, dim3 block)>;
void set_duration_model(duration_model model);

}  // namespace fake

#endif  // __has_include(<hip/hip_runtime.h>)
