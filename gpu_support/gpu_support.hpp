// SPDX-License-Identifier: MIT
// The one GPU support layer of wavefit's tests, benchmarks and examples (what rocPRIM's common/ and
// CCCL's c2h/ are to theirs): the runtime calls that programs *using* wavefit make themselves
// (memory, streams, events, graphs, raw launches, the runtime's own occupancy and attribute answers),
// written once for HIP and CUDA. It follows wavefit's platform header and builds on
// wavefit::detail::backend's error and stream types; wavefit itself calls hip*/cuda* only in
// include/wavefit/runtime/backend.hpp, and tests, benchmarks and examples only here.
//
// Every call returns the runtime's error (so tests can require success or a particular error);
// gpu::check turns one into a gpu::failure exception for code that only needs success.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstddef>    // std::size_t
#include <cstdint>    // sizes
#include <stdexcept>  // gpu::failure
#include <string>     // messages
#include <vector>     // host copies

#if !WAVEFIT_HAS_RUNTIME
#error "gpu_support.hpp is for HIP or CUDA translation units"
#endif

// A launch the way users write it without wavefit: hipLaunchKernelGGL on HIP, <<<>>> on CUDA.
#if WAVEFIT_PLATFORM_HIP
#define GPU_RAW_LAUNCH(kernel, grid, block, shared, stream, ...) \
    hipLaunchKernelGGL(kernel, grid, block, shared, stream, __VA_ARGS__)
#define GPU_RAW_LAUNCH_NO_ARGS(kernel, grid, block, shared, stream) hipLaunchKernelGGL(kernel, grid, block, shared, stream)
#else
#define GPU_RAW_LAUNCH(kernel, grid, block, shared, stream, ...) kernel<<<(grid), (block), (shared), (stream)>>>(__VA_ARGS__)
#define GPU_RAW_LAUNCH_NO_ARGS(kernel, grid, block, shared, stream) kernel<<<(grid), (block), (shared), (stream)>>>()
#endif

namespace gpu {

using error_t = wavefit::detail::backend::error_type;
using stream_t = wavefit::detail::backend::stream_type;
inline constexpr error_t success = wavefit::detail::backend::success;
inline constexpr const char* runtime_name = wavefit::detail::backend::runtime_name;

#if WAVEFIT_PLATFORM_HIP
using event_t = hipEvent_t;
inline constexpr error_t launch_out_of_resources = hipErrorLaunchOutOfResources;
inline constexpr error_t invalid_value = hipErrorInvalidValue;
inline constexpr error_t invalid_configuration = hipErrorInvalidConfiguration;
inline constexpr error_t invalid_device = hipErrorInvalidDevice;
inline constexpr error_t launch_failure = hipErrorLaunchFailure;
inline constexpr error_t no_device = hipErrorNoDevice;
#else
using event_t = cudaEvent_t;
inline constexpr error_t launch_out_of_resources = cudaErrorLaunchOutOfResources;
inline constexpr error_t invalid_value = cudaErrorInvalidValue;
inline constexpr error_t invalid_configuration = cudaErrorInvalidConfiguration;
inline constexpr error_t invalid_device = cudaErrorInvalidDevice;
inline constexpr error_t launch_failure = cudaErrorLaunchFailure;
inline constexpr error_t no_device = cudaErrorNoDevice;
#endif

// ------------------------------------------------------------------------------- errors

inline const char* error_name(error_t e) { return wavefit::detail::backend::error_name(e); }

// "cudaErrorInvalidValue (1)".
inline std::string error_text(error_t e) {
    const char* name = error_name(e);
    return std::string(name ? name : "unknown error") + " (" + std::to_string(static_cast<int>(e)) + ")";
}

// A runtime call that had to succeed did not.
class failure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void check(error_t e, const std::string& what) {
    if (e != success) throw failure(what + " failed: " + error_text(e));
}

inline error_t take_last_error() { return wavefit::detail::backend::take_last_error(); }

inline error_t peek_last_error() {
#if WAVEFIT_PLATFORM_HIP
    return hipPeekAtLastError();
#else
    return cudaPeekAtLastError();
#endif
}

// The error a raw launch left behind (the runtime reports launch failures only this way).
inline void check_last_launch(const std::string& what) { check(take_last_error(), what); }

// ------------------------------------------------------------------------------- devices

inline error_t current_device(int& device) { return wavefit::detail::backend::current_device(device); }
inline error_t set_device(int device) { return wavefit::detail::backend::set_current_device(device); }
inline error_t raw_device_count(int& n) { return wavefit::detail::backend::device_count(n); }

// The number of GPUs, 0 when the runtime finds none (or no driver); clears the error it leaves.
inline int device_count() { return wavefit::detail::visible_device_count(); }

inline error_t synchronize() {
#if WAVEFIT_PLATFORM_HIP
    return hipDeviceSynchronize();
#else
    return cudaDeviceSynchronize();
#endif
}

inline error_t memory_info(std::size_t& free, std::size_t& total) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemGetInfo(&free, &total);
#else
    return cudaMemGetInfo(&free, &total);
#endif
}

inline std::string device_name(int device) {
#if WAVEFIT_PLATFORM_HIP
    hipDeviceProp_t p{};
    return hipGetDeviceProperties(&p, device) == hipSuccess ? std::string(p.name) : std::string();
#else
    cudaDeviceProp p{};
    return cudaGetDeviceProperties(&p, device) == cudaSuccess ? std::string(p.name) : std::string();
#endif
}

// What a run measured on, for benchmark contexts and reports.
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
    double peak_bandwidth_gbps() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0) / 1e9; }
};

inline device_facts read_device_facts() {
    device_facts f;
    check(current_device(f.device), "reading the current device");
    // An attribute a runtime does not have reads as 0.
    const auto attribute = [&f](auto a) {
        int value = 0;
#if WAVEFIT_PLATFORM_HIP
        if (hipDeviceGetAttribute(&value, a, f.device) != hipSuccess) value = 0;
#else
        if (cudaDeviceGetAttribute(&value, a, f.device) != cudaSuccess) value = 0;
#endif
        (void)take_last_error();
        return value;
    };
#if WAVEFIT_PLATFORM_HIP
    hipDeviceProp_t p{};
    check(hipGetDeviceProperties(&p, f.device), "reading the device properties");
    f.name = p.name;
#if WAVEFIT_PLATFORM_HIP_NVIDIA
    f.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
#else
    f.arch = p.gcnArchName;
#endif
    f.global_memory_bytes = p.totalGlobalMem;
    f.compute_units = attribute(hipDeviceAttributeMultiprocessorCount);
    f.wave_size = attribute(hipDeviceAttributeWarpSize);
    f.memory_clock_khz = attribute(hipDeviceAttributeMemoryClockRate);
    f.memory_bus_width_bits = attribute(hipDeviceAttributeMemoryBusWidth);
    f.l2_bytes = attribute(hipDeviceAttributeL2CacheSize);
    f.max_threads_per_cu = attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor);
    (void)hipRuntimeGetVersion(&f.runtime_version);
    (void)hipDriverGetVersion(&f.driver_version);
#else
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, f.device), "reading the device properties");
    f.name = p.name;
    f.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
    f.global_memory_bytes = p.totalGlobalMem;
    f.compute_units = attribute(cudaDevAttrMultiProcessorCount);
    f.wave_size = attribute(cudaDevAttrWarpSize);
    f.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
    f.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
    f.l2_bytes = attribute(cudaDevAttrL2CacheSize);
    f.max_threads_per_cu = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    (void)cudaRuntimeGetVersion(&f.runtime_version);
    (void)cudaDriverGetVersion(&f.driver_version);
#endif
    return f;
}

// ------------------------------------------------------------------------------- memory

inline error_t allocate(void** p, std::size_t bytes) {
#if WAVEFIT_PLATFORM_HIP
    return hipMalloc(p, bytes);
#else
    return cudaMalloc(p, bytes);
#endif
}

// `bytes` of device memory that must be had (gpu::failure otherwise); free with release().
inline void* allocate_bytes(std::size_t bytes) {
    void* p = nullptr;
    check(allocate(&p, bytes), "allocating " + std::to_string(bytes) + " bytes of device memory");
    return p;
}

inline error_t release(void* p) {
#if WAVEFIT_PLATFORM_HIP
    return hipFree(p);
#else
    return cudaFree(p);
#endif
}

inline error_t fill_bytes(void* p, int value, std::size_t bytes) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemset(p, value, bytes);
#else
    return cudaMemset(p, value, bytes);
#endif
}

inline error_t zero_async(void* p, std::size_t bytes, stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemsetAsync(p, 0, bytes, s);
#else
    return cudaMemsetAsync(p, 0, bytes, s);
#endif
}

inline error_t to_host(void* dst, const void* src, std::size_t bytes) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost);
#else
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
#endif
}

inline error_t to_device(void* dst, const void* src, std::size_t bytes) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice);
#else
    return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
#endif
}

// `count` elements of `bytes` each, `stride` bytes apart on the device, packed on the host.
inline error_t strided_to_host(void* dst, const void* src, std::size_t stride, std::size_t bytes, std::size_t count) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemcpy2D(dst, bytes, src, stride, bytes, count, hipMemcpyDeviceToHost);
#else
    return cudaMemcpy2D(dst, bytes, src, stride, bytes, count, cudaMemcpyDeviceToHost);
#endif
}

// The device-to-device copy whose bandwidth is the ceiling kernels are compared with.
inline error_t copy_device_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, s);
#else
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
#endif
}

// ------------------------------------------------------------------------------- streams and graphs

// A blocking stream by default (ordered after the legacy default stream's memset and memcpy calls).
inline error_t create_stream(stream_t& s, bool non_blocking = false) {
#if WAVEFIT_PLATFORM_HIP
    return hipStreamCreateWithFlags(&s, non_blocking ? hipStreamNonBlocking : hipStreamDefault);
#else
    return cudaStreamCreateWithFlags(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault);
#endif
}

inline error_t destroy_stream(stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipStreamDestroy(s);
#else
    return cudaStreamDestroy(s);
#endif
}

inline error_t synchronize(stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipStreamSynchronize(s);
#else
    return cudaStreamSynchronize(s);
#endif
}

inline error_t begin_capture(stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal);
#else
    return cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
#endif
}

// Ends a capture and drops the recorded graph: the captured launches never run.
inline error_t end_capture_and_discard(stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    hipGraph_t graph = nullptr;
    const error_t e = hipStreamEndCapture(s, &graph);
    if (graph != nullptr) (void)hipGraphDestroy(graph);
#else
    cudaGraph_t graph = nullptr;
    const error_t e = cudaStreamEndCapture(s, &graph);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
#endif
    return e;
}

// ------------------------------------------------------------------------------- events

inline error_t create_event(event_t& e) {
#if WAVEFIT_PLATFORM_HIP
    return hipEventCreate(&e);
#else
    return cudaEventCreate(&e);
#endif
}

inline error_t destroy_event(event_t e) {
#if WAVEFIT_PLATFORM_HIP
    return hipEventDestroy(e);
#else
    return cudaEventDestroy(e);
#endif
}

inline error_t record_event(event_t e, stream_t s) {
#if WAVEFIT_PLATFORM_HIP
    return hipEventRecord(e, s);
#else
    return cudaEventRecord(e, s);
#endif
}

inline error_t wait_event(event_t e) {
#if WAVEFIT_PLATFORM_HIP
    return hipEventSynchronize(e);
#else
    return cudaEventSynchronize(e);
#endif
}

inline error_t elapsed_ms(float& ms, event_t start, event_t stop) {
#if WAVEFIT_PLATFORM_HIP
    return hipEventElapsedTime(&ms, start, stop);
#else
    return cudaEventElapsedTime(&ms, start, stop);
#endif
}

// ------------------------------------------------------------------------------- the runtime's answers

inline error_t occupancy_blocks(int& blocks, const void* kernel, int block, std::size_t dynamic_shared) {
#if WAVEFIT_PLATFORM_HIP
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, dynamic_shared);
#else
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, dynamic_shared);
#endif
}

// The block cudaOccupancyMaxPotentialBlockSize / hipOccupancyMaxPotentialBlockSize suggests.
template <class Kernel>
error_t suggested_block(int& block, Kernel kernel, std::size_t dynamic_shared) {
    int min_grid = 0;
#if WAVEFIT_PLATFORM_HIP
    return hipOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, dynamic_shared, 0);
#else
    return cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, dynamic_shared, 0);
#endif
}

inline error_t set_max_dynamic_shared(const void* kernel, int bytes) {
    return wavefit::detail::backend::set_max_dynamic_shared(kernel, bytes);
}

// What the runtime itself reports about a compiled kernel.
struct kernel_attributes {
    int registers = 0;
    std::size_t static_shared = 0;
    int max_threads_per_block = 0;
    int max_dynamic_shared = 0;
    std::size_t local_bytes = 0;
};

inline error_t attributes_of(kernel_attributes& out, const void* kernel) {
#if WAVEFIT_PLATFORM_HIP
    hipFuncAttributes a{};
    const error_t e = hipFuncGetAttributes(&a, kernel);
#else
    cudaFuncAttributes a{};
    const error_t e = cudaFuncGetAttributes(&a, kernel);
#endif
    out =
        kernel_attributes{a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes, a.localSizeBytes};
    return e;
}

// ------------------------------------------------------------------------------- owners

// Device memory for `count` elements of T, freed on scope exit.
template <class T>
class buffer {
public:
    explicit buffer(std::size_t count) : count_(count) {
        void* p = nullptr;
        if (count > 0) check(allocate(&p, bytes()), "allocating " + std::to_string(bytes()) + " bytes");
        data_ = static_cast<T*>(p);
    }
    ~buffer() {
        if (data_ != nullptr) (void)release(data_);
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;

    T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

    // Every byte set to `value`: 0xAB poisons integers, 0xFF makes every float a NaN.
    void poison(unsigned char value) const { check(fill_bytes(data_, value, bytes()), "poisoning a buffer"); }
    std::vector<T> to_host() const {
        std::vector<T> out(count_);
        if (count_ > 0) check(gpu::to_host(out.data(), data_, bytes()), "copying to the host");
        return out;
    }
    void from_host(const std::vector<T>& values) const {
        if (values.size() != count_) throw std::invalid_argument("buffer::from_host: size mismatch");
        if (count_ > 0) check(to_device(data_, values.data(), bytes()), "copying to the device");
    }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// A stream, destroyed on scope exit; blocking unless asked otherwise (see create_stream).
class stream {
public:
    explicit stream(bool non_blocking = false) { check(create_stream(s_, non_blocking), "creating a stream"); }
    ~stream() { (void)destroy_stream(s_); }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    stream_t get() const noexcept { return s_; }
    void wait() const { check(synchronize(s_), "synchronizing a stream"); }

private:
    stream_t s_ = nullptr;
};

// Two events bracketing device work: the time the device spent between them, not the host's.
class event_pair {
public:
    event_pair() {
        check(create_event(start_), "creating an event");
        check(create_event(stop_), "creating an event");
    }
    event_pair(const event_pair&) = delete;
    event_pair& operator=(const event_pair&) = delete;
    ~event_pair() {
        (void)destroy_event(start_);
        (void)destroy_event(stop_);
    }

    void start(stream_t s) { check(record_event(start_, s), "recording an event"); }
    void stop(stream_t s) { check(record_event(stop_, s), "recording an event"); }
    // Waits for the stop event; seconds between the two events.
    double seconds() {
        float ms = 0.0f;
        check(wait_event(stop_), "waiting for an event");
        check(elapsed_ms(ms, start_, stop_), "reading an event time");
        return static_cast<double>(ms) * 1e-3;
    }

private:
    event_t start_{};
    event_t stop_{};
};

}  // namespace gpu
