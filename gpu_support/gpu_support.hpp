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

using event_t = WAVEFIT_RUNTIME_API(Event_t);
inline constexpr error_t launch_out_of_resources = WAVEFIT_RUNTIME_API(ErrorLaunchOutOfResources);
inline constexpr error_t invalid_value = WAVEFIT_RUNTIME_API(ErrorInvalidValue);
inline constexpr error_t invalid_configuration = WAVEFIT_RUNTIME_API(ErrorInvalidConfiguration);
inline constexpr error_t invalid_device = WAVEFIT_RUNTIME_API(ErrorInvalidDevice);
inline constexpr error_t launch_failure = WAVEFIT_RUNTIME_API(ErrorLaunchFailure);
inline constexpr error_t no_device = WAVEFIT_RUNTIME_API(ErrorNoDevice);

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

inline error_t peek_last_error() { return WAVEFIT_RUNTIME_API(PeekAtLastError)(); }

// The error a raw launch left behind (the runtime reports launch failures only this way).
inline void check_last_launch(const std::string& what) { check(take_last_error(), what); }

// ------------------------------------------------------------------------------- devices

inline error_t current_device(int& device) { return wavefit::detail::backend::current_device(device); }
inline error_t set_device(int device) { return wavefit::detail::backend::set_current_device(device); }
inline error_t raw_device_count(int& n) { return wavefit::detail::backend::device_count(n); }

// The number of GPUs, 0 when the runtime finds none (or no driver); clears the error it leaves.
inline int device_count() { return wavefit::detail::visible_device_count(); }

inline error_t synchronize() { return WAVEFIT_RUNTIME_API(DeviceSynchronize)(); }

inline error_t memory_info(std::size_t& free, std::size_t& total) { return WAVEFIT_RUNTIME_API(MemGetInfo)(&free, &total); }

inline std::string device_name(int device) {
    std::string name;
    return wavefit::detail::backend::read_device_name(name, device) == success ? name : std::string();
}

// The runtime's properties struct, and one attribute by its name in each runtime (the other's name is
// never compiled).
#if WAVEFIT_PLATFORM_HIP
using device_properties = hipDeviceProp_t;
#define GPU_ATTRIBUTE(hip, cuda) hip
#else
using device_properties = cudaDeviceProp;
#define GPU_ATTRIBUTE(hip, cuda) cuda
#endif

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
        if (WAVEFIT_RUNTIME_API(DeviceGetAttribute)(&value, a, f.device) != WAVEFIT_RUNTIME_API(Success)) value = 0;
        (void)take_last_error();
        return value;
    };
    device_properties p{};
    check(WAVEFIT_RUNTIME_API(GetDeviceProperties)(&p, f.device), "reading the device properties");
    f.name = p.name;
    f.global_memory_bytes = p.totalGlobalMem;
    wavefit::detail::short_name isa;
    check(wavefit::detail::backend::read_arch(isa, f.device), "reading the device's ISA");
    f.arch.assign(isa.view());
    f.compute_units = attribute(GPU_ATTRIBUTE(hipDeviceAttributeMultiprocessorCount, cudaDevAttrMultiProcessorCount));
    f.wave_size = attribute(GPU_ATTRIBUTE(hipDeviceAttributeWarpSize, cudaDevAttrWarpSize));
    f.memory_clock_khz = attribute(GPU_ATTRIBUTE(hipDeviceAttributeMemoryClockRate, cudaDevAttrMemoryClockRate));
    f.memory_bus_width_bits = attribute(GPU_ATTRIBUTE(hipDeviceAttributeMemoryBusWidth, cudaDevAttrGlobalMemoryBusWidth));
    f.l2_bytes = attribute(GPU_ATTRIBUTE(hipDeviceAttributeL2CacheSize, cudaDevAttrL2CacheSize));
    f.max_threads_per_cu =
        attribute(GPU_ATTRIBUTE(hipDeviceAttributeMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor));
    (void)WAVEFIT_RUNTIME_API(RuntimeGetVersion)(&f.runtime_version);
    (void)WAVEFIT_RUNTIME_API(DriverGetVersion)(&f.driver_version);
    return f;
}

// ------------------------------------------------------------------------------- memory

inline error_t allocate(void** p, std::size_t bytes) { return WAVEFIT_RUNTIME_API(Malloc)(p, bytes); }

// `bytes` of device memory that must be had (gpu::failure otherwise); free with release().
inline void* allocate_bytes(std::size_t bytes) {
    void* p = nullptr;
    check(allocate(&p, bytes), "allocating " + std::to_string(bytes) + " bytes of device memory");
    return p;
}

inline error_t release(void* p) { return WAVEFIT_RUNTIME_API(Free)(p); }

inline error_t fill_bytes(void* p, int value, std::size_t bytes) { return WAVEFIT_RUNTIME_API(Memset)(p, value, bytes); }

inline error_t zero_async(void* p, std::size_t bytes, stream_t s) {
    return WAVEFIT_RUNTIME_API(MemsetAsync)(p, 0, bytes, s);
}

inline error_t to_host(void* dst, const void* src, std::size_t bytes) {
    return WAVEFIT_RUNTIME_API(Memcpy)(dst, src, bytes, WAVEFIT_RUNTIME_API(MemcpyDeviceToHost));
}

inline error_t to_device(void* dst, const void* src, std::size_t bytes) {
    return WAVEFIT_RUNTIME_API(Memcpy)(dst, src, bytes, WAVEFIT_RUNTIME_API(MemcpyHostToDevice));
}

// `count` elements of `bytes` each, `stride` bytes apart on the device, packed on the host.
inline error_t strided_to_host(void* dst, const void* src, std::size_t stride, std::size_t bytes, std::size_t count) {
    return WAVEFIT_RUNTIME_API(Memcpy2D)(dst, bytes, src, stride, bytes, count, WAVEFIT_RUNTIME_API(MemcpyDeviceToHost));
}

// The device-to-device copy whose bandwidth is the ceiling kernels are compared with.
inline error_t copy_device_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return WAVEFIT_RUNTIME_API(MemcpyAsync)(dst, src, bytes, WAVEFIT_RUNTIME_API(MemcpyDeviceToDevice), s);
}

// ------------------------------------------------------------------------------- streams and graphs

// A blocking stream by default (ordered after the legacy default stream's memset and memcpy calls).
inline error_t create_stream(stream_t& s, bool non_blocking = false) {
    return WAVEFIT_RUNTIME_API(StreamCreateWithFlags)(
        &s, non_blocking ? WAVEFIT_RUNTIME_API(StreamNonBlocking) : WAVEFIT_RUNTIME_API(StreamDefault));
}

inline error_t destroy_stream(stream_t s) { return WAVEFIT_RUNTIME_API(StreamDestroy)(s); }

inline error_t synchronize(stream_t s) { return WAVEFIT_RUNTIME_API(StreamSynchronize)(s); }

inline error_t begin_capture(stream_t s) {
    return WAVEFIT_RUNTIME_API(StreamBeginCapture)(s, WAVEFIT_RUNTIME_API(StreamCaptureModeThreadLocal));
}

// Ends a capture and drops the recorded graph: the captured launches never run.
inline error_t end_capture_and_discard(stream_t s) {
    WAVEFIT_RUNTIME_API(Graph_t) graph = nullptr;
    const error_t e = WAVEFIT_RUNTIME_API(StreamEndCapture)(s, &graph);
    if (graph != nullptr) (void)WAVEFIT_RUNTIME_API(GraphDestroy)(graph);
    return e;
}

// ------------------------------------------------------------------------------- events

inline error_t create_event(event_t& e) { return WAVEFIT_RUNTIME_API(EventCreate)(&e); }

inline error_t destroy_event(event_t e) { return WAVEFIT_RUNTIME_API(EventDestroy)(e); }

inline error_t record_event(event_t e, stream_t s) { return WAVEFIT_RUNTIME_API(EventRecord)(e, s); }

inline error_t wait_event(event_t e) { return WAVEFIT_RUNTIME_API(EventSynchronize)(e); }

inline error_t elapsed_ms(float& ms, event_t start, event_t stop) {
    return WAVEFIT_RUNTIME_API(EventElapsedTime)(&ms, start, stop);
}

// ------------------------------------------------------------------------------- the runtime's answers

inline error_t occupancy_blocks(int& blocks, const void* kernel, int block, std::size_t dynamic_shared) {
    return WAVEFIT_RUNTIME_API(OccupancyMaxActiveBlocksPerMultiprocessor)(&blocks, kernel, block, dynamic_shared);
}

// The block cudaOccupancyMaxPotentialBlockSize / hipOccupancyMaxPotentialBlockSize suggests.
template <class Kernel>
error_t suggested_block(int& block, Kernel kernel, std::size_t dynamic_shared) {
    int min_grid = 0;
    return WAVEFIT_RUNTIME_API(OccupancyMaxPotentialBlockSize)(&min_grid, &block, kernel, dynamic_shared, 0);
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
    WAVEFIT_RUNTIME_API(FuncAttributes) a{};
    const error_t e = WAVEFIT_RUNTIME_API(FuncGetAttributes)(&a, kernel);
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
