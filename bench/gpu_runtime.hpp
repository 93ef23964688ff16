// SPDX-License-Identifier: MIT
// The runtime calls the benchmarks make themselves (events, memory, occupancy queries, raw launches),
// under one set of names for HIP and CUDA. wavefit's own runtime layer picks the backend; this file
// follows its choice, so a benchmark is one source for hipcc and nvcc.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>    // sizes
#include <stdexcept>  // gpu_failure
#include <string>     // messages

#if defined(WAVEFIT_BACKEND_HIP)
#define WAVEFIT_BENCH_HIP 1
#endif

// A launch the way users write it without wavefit: hipLaunchKernelGGL on HIP, <<<>>> on CUDA.
#if defined(WAVEFIT_BENCH_HIP)
#define WAVEFIT_BENCH_RAW_LAUNCH(kernel, grid, block, shared, stream, ...) \
    hipLaunchKernelGGL(kernel, grid, block, shared, stream, __VA_ARGS__)
#define WAVEFIT_BENCH_RAW_LAUNCH_NO_ARGS(kernel, grid, block, shared, stream) \
    hipLaunchKernelGGL(kernel, grid, block, shared, stream)
#else
#define WAVEFIT_BENCH_RAW_LAUNCH(kernel, grid, block, shared, stream, ...) \
    kernel<<<grid, block, shared, stream>>>(__VA_ARGS__)
#define WAVEFIT_BENCH_RAW_LAUNCH_NO_ARGS(kernel, grid, block, shared, stream) kernel<<<grid, block, shared, stream>>>()
#endif

namespace wavefit_bench::gpu {

using stream_t = wavefit::backend::stream_type;
using error_t = wavefit::backend::error_type;
#if defined(WAVEFIT_BENCH_HIP)
using event_t = hipEvent_t;
inline constexpr const char* runtime_name = "HIP";
#else
using event_t = cudaEvent_t;
inline constexpr const char* runtime_name = "CUDA";
#endif

// A failed runtime call: benchmarks turn it into SkipWithError, main() into a message and exit 1.
struct gpu_failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void check(error_t e, const char* what) {
    if (e != wavefit::backend::success)
        throw gpu_failure(std::string(what) + ": " + wavefit::backend::error_name(e) + " (" +
                          wavefit::backend::error_string(e) + ")");
}

// The error a raw launch left behind (the runtime reports launch failures only this way).
inline void check_last_launch(const char* what) { check(wavefit::backend::take_last_error(), what); }

inline void synchronize(stream_t s) {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipStreamSynchronize(s), "synchronizing the stream");
#else
    check(cudaStreamSynchronize(s), "synchronizing the stream");
#endif
}

inline void device_synchronize() {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipDeviceSynchronize(), "synchronizing the device");
#else
    check(cudaDeviceSynchronize(), "synchronizing the device");
#endif
}

inline void* allocate(std::uint64_t bytes) {
    void* p = nullptr;
#if defined(WAVEFIT_BENCH_HIP)
    check(hipMalloc(&p, bytes), "allocating device memory");
#else
    check(cudaMalloc(&p, bytes), "allocating device memory");
#endif
    return p;
}

inline void release(void* p) noexcept {
#if defined(WAVEFIT_BENCH_HIP)
    (void)hipFree(p);
#else
    (void)cudaFree(p);
#endif
}

inline void copy_to_host(void* dst, const void* src, std::uint64_t bytes) {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost), "copying to the host");
#else
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "copying to the host");
#endif
}

// `count` elements of `bytes` each, `stride` bytes apart on the device, packed on the host.
inline void copy_strided_to_host(void* dst, const void* src, std::uint64_t stride, std::uint64_t bytes, std::uint64_t count) {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipMemcpy2D(dst, bytes, src, stride, bytes, count, hipMemcpyDeviceToHost), "copying samples to the host");
#else
    check(cudaMemcpy2D(dst, bytes, src, stride, bytes, count, cudaMemcpyDeviceToHost), "copying samples to the host");
#endif
}

inline void copy_to_device(void* dst, const void* src, std::uint64_t bytes) {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice), "copying to the device");
#else
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "copying to the device");
#endif
}

// The device-to-device copy whose bandwidth is the ceiling the kernels are compared with.
inline error_t copy_device_async(void* dst, const void* src, std::uint64_t bytes, stream_t s) noexcept {
#if defined(WAVEFIT_BENCH_HIP)
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, s);
#else
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
#endif
}

inline void zero_async(void* p, std::uint64_t bytes, stream_t s) {
#if defined(WAVEFIT_BENCH_HIP)
    check(hipMemsetAsync(p, 0, bytes, s), "clearing device memory");
#else
    check(cudaMemsetAsync(p, 0, bytes, s), "clearing device memory");
#endif
}

inline stream_t create_stream() {
    stream_t s{};
#if defined(WAVEFIT_BENCH_HIP)
    check(hipStreamCreateWithFlags(&s, hipStreamNonBlocking), "creating a stream");
#else
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream");
#endif
    return s;
}

// Two events bracketing device work: the time the device spent between them, not the host's.
class event_pair {
public:
    event_pair() {
#if defined(WAVEFIT_BENCH_HIP)
        check(hipEventCreate(&start_), "creating an event");
        check(hipEventCreate(&stop_), "creating an event");
#else
        check(cudaEventCreate(&start_), "creating an event");
        check(cudaEventCreate(&stop_), "creating an event");
#endif
    }
    event_pair(const event_pair&) = delete;
    event_pair& operator=(const event_pair&) = delete;
    ~event_pair() {
#if defined(WAVEFIT_BENCH_HIP)
        (void)hipEventDestroy(start_);
        (void)hipEventDestroy(stop_);
#else
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
#endif
    }

    void start(stream_t s) {
#if defined(WAVEFIT_BENCH_HIP)
        check(hipEventRecord(start_, s), "recording an event");
#else
        check(cudaEventRecord(start_, s), "recording an event");
#endif
    }
    void stop(stream_t s) {
#if defined(WAVEFIT_BENCH_HIP)
        check(hipEventRecord(stop_, s), "recording an event");
#else
        check(cudaEventRecord(stop_, s), "recording an event");
#endif
    }
    // Waits for the stop event; seconds between the two events.
    double seconds() {
        float ms = 0.0f;
#if defined(WAVEFIT_BENCH_HIP)
        check(hipEventSynchronize(stop_), "waiting for an event");
        check(hipEventElapsedTime(&ms, start_, stop_), "reading an event time");
#else
        check(cudaEventSynchronize(stop_), "waiting for an event");
        check(cudaEventElapsedTime(&ms, start_, stop_), "reading an event time");
#endif
        return static_cast<double>(ms) * 1e-3;
    }

private:
    event_t start_{};
    event_t stop_{};
};

// The runtime's own occupancy answers, the baseline wavefit is compared with.
template <class Kernel>
int max_active_blocks(Kernel kernel, int block, std::uint64_t dynamic_shared) {
    int blocks = 0;
#if defined(WAVEFIT_BENCH_HIP)
    check(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, static_cast<std::size_t>(dynamic_shared)),
          "hipOccupancyMaxActiveBlocksPerMultiprocessor");
#else
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, static_cast<std::size_t>(dynamic_shared)),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
#endif
    return blocks;
}

// The block cudaOccupancyMaxPotentialBlockSize / hipOccupancyMaxPotentialBlockSize suggests.
template <class Kernel>
int suggested_block(Kernel kernel, std::uint64_t dynamic_shared) {
    int min_grid = 0;
    int block = 0;
#if defined(WAVEFIT_BENCH_HIP)
    check(hipOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, static_cast<std::size_t>(dynamic_shared), 0),
          "hipOccupancyMaxPotentialBlockSize");
#else
    check(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, static_cast<std::size_t>(dynamic_shared), 0),
          "cudaOccupancyMaxPotentialBlockSize");
#endif
    return block;
}

// The kernel's own maximum threads per block (launch bounds, or what its registers allow).
template <class Kernel>
int kernel_max_threads(Kernel kernel) {
#if defined(WAVEFIT_BENCH_HIP)
    hipFuncAttributes a{};
    check(hipFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)), "hipFuncGetAttributes");
#else
    cudaFuncAttributes a{};
    check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes");
#endif
    return a.maxThreadsPerBlock;
}

}  // namespace wavefit_bench::gpu
