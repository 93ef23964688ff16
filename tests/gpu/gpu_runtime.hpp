// SPDX-License-Identifier: MIT
// The runtime calls the GPU tests make on their own (memory, raw launches' errors, the vendor's
// occupancy and attribute queries), spelled once for HIP and CUDA. Tests use these to set up data
// and to ask the runtime directly what wavefit predicts; wavefit itself calls hip*/cuda* only in
// include/wavefit/runtime/backend.hpp.
#pragma once

#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)
#include <hip/hip_runtime.h>
#define WAVEFIT_TEST_HIP 1
#else
#include <cuda_runtime.h>
#endif

#include <cstddef>    // std::size_t
#include <cstdint>    // fixed-width element types
#include <stdexcept>  // allocation failures
#include <string>     // messages
#include <vector>     // host copies

namespace gpu {

#if defined(WAVEFIT_TEST_HIP)
using error_t = hipError_t;
using stream_t = hipStream_t;
inline constexpr error_t success = hipSuccess;
inline constexpr error_t launch_out_of_resources = hipErrorLaunchOutOfResources;
inline constexpr error_t invalid_value = hipErrorInvalidValue;
inline constexpr error_t invalid_configuration = hipErrorInvalidConfiguration;
inline constexpr error_t invalid_device = hipErrorInvalidDevice;
inline const char* error_name(error_t e) { return hipGetErrorName(e); }
inline error_t take_last_error() { return hipGetLastError(); }
inline error_t peek_last_error() { return hipPeekAtLastError(); }
inline error_t synchronize() { return hipDeviceSynchronize(); }
inline error_t current_device(int& d) { return hipGetDevice(&d); }
inline error_t raw_device_count(int& n) { return hipGetDeviceCount(&n); }
inline error_t memory_info(std::size_t& free, std::size_t& total) { return hipMemGetInfo(&free, &total); }
inline error_t allocate(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
inline error_t release(void* p) { return hipFree(p); }
inline error_t fill_bytes(void* p, int value, std::size_t bytes) { return hipMemset(p, value, bytes); }
inline error_t to_host(void* dst, const void* src, std::size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost); }
inline error_t to_device(void* dst, const void* src, std::size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice); }
inline error_t create_stream(stream_t& s) { return hipStreamCreate(&s); }
inline error_t destroy_stream(stream_t s) { return hipStreamDestroy(s); }
inline error_t synchronize(stream_t s) { return hipStreamSynchronize(s); }
inline error_t begin_capture(stream_t s) { return hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal); }
// Ends a capture and drops the recorded graph: the captured launches never run.
inline error_t end_capture_and_discard(stream_t s) {
    hipGraph_t graph = nullptr;
    const error_t e = hipStreamEndCapture(s, &graph);
    if (graph != nullptr) (void)hipGraphDestroy(graph);
    return e;
}
inline error_t occupancy_blocks(int& blocks, const void* kernel, int block, std::size_t dynamic_shared) {
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, dynamic_shared);
}
inline error_t set_max_dynamic_shared(const void* kernel, int bytes) {
    return hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
inline std::string device_name(int device) {
    hipDeviceProp_t p{};
    return hipGetDeviceProperties(&p, device) == hipSuccess ? std::string(p.name) : std::string();
}
#else
using error_t = cudaError_t;
using stream_t = cudaStream_t;
inline constexpr error_t success = cudaSuccess;
inline constexpr error_t launch_out_of_resources = cudaErrorLaunchOutOfResources;
inline constexpr error_t invalid_value = cudaErrorInvalidValue;
inline constexpr error_t invalid_configuration = cudaErrorInvalidConfiguration;
inline constexpr error_t invalid_device = cudaErrorInvalidDevice;
inline const char* error_name(error_t e) { return cudaGetErrorName(e); }
inline error_t take_last_error() { return cudaGetLastError(); }
inline error_t peek_last_error() { return cudaPeekAtLastError(); }
inline error_t synchronize() { return cudaDeviceSynchronize(); }
inline error_t current_device(int& d) { return cudaGetDevice(&d); }
inline error_t raw_device_count(int& n) { return cudaGetDeviceCount(&n); }
inline error_t memory_info(std::size_t& free, std::size_t& total) { return cudaMemGetInfo(&free, &total); }
inline error_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline error_t release(void* p) { return cudaFree(p); }
inline error_t fill_bytes(void* p, int value, std::size_t bytes) { return cudaMemset(p, value, bytes); }
inline error_t to_host(void* dst, const void* src, std::size_t bytes) { return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost); }
inline error_t to_device(void* dst, const void* src, std::size_t bytes) { return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice); }
inline error_t create_stream(stream_t& s) { return cudaStreamCreate(&s); }
inline error_t destroy_stream(stream_t s) { return cudaStreamDestroy(s); }
inline error_t synchronize(stream_t s) { return cudaStreamSynchronize(s); }
inline error_t begin_capture(stream_t s) { return cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal); }
inline error_t end_capture_and_discard(stream_t s) {
    cudaGraph_t graph = nullptr;
    const error_t e = cudaStreamEndCapture(s, &graph);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    return e;
}
inline error_t occupancy_blocks(int& blocks, const void* kernel, int block, std::size_t dynamic_shared) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, dynamic_shared);
}
inline error_t set_max_dynamic_shared(const void* kernel, int bytes) {
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
inline std::string device_name(int device) {
    cudaDeviceProp p{};
    return cudaGetDeviceProperties(&p, device) == cudaSuccess ? std::string(p.name) : std::string();
}
#endif

// What the runtime itself reports about a compiled kernel.
struct kernel_attributes {
    int registers = 0;
    std::size_t static_shared = 0;
    int max_threads_per_block = 0;
    int max_dynamic_shared = 0;
    std::size_t local_bytes = 0;
};

inline error_t attributes_of(kernel_attributes& out, const void* kernel) {
#if defined(WAVEFIT_TEST_HIP)
    hipFuncAttributes a{};
    const error_t e = hipFuncGetAttributes(&a, kernel);
#else
    cudaFuncAttributes a{};
    const error_t e = cudaFuncGetAttributes(&a, kernel);
#endif
    out = kernel_attributes{a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes, a.localSizeBytes};
    return e;
}

inline std::string error_text(error_t e) {
    const char* name = error_name(e);
    return std::string(name ? name : "unknown error") + " (" + std::to_string(static_cast<int>(e)) + ")";
}

// The number of GPUs, 0 when the runtime finds none (or no driver); clears the error it leaves.
inline int device_count() {
    int n = 0;
    if (raw_device_count(n) != success) {
        (void)take_last_error();
        return 0;
    }
    return n;
}

inline void ok(error_t e, const char* what) {
    if (e != success) throw std::runtime_error(std::string(what) + " failed: " + error_text(e));
}

// Device memory for `count` elements of T, freed on scope exit.
template <class T>
class buffer {
public:
    explicit buffer(std::size_t count) : count_(count) {
        void* p = nullptr;
        if (count > 0) ok(allocate(&p, bytes()), ("allocating " + std::to_string(bytes()) + " bytes").c_str());
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
    void poison(unsigned char value) const { ok(fill_bytes(data_, value, bytes()), "poisoning a buffer"); }
    std::vector<T> to_host() const {
        std::vector<T> out(count_);
        if (count_ > 0) ok(gpu::to_host(out.data(), data_, bytes()), "copying to the host");
        return out;
    }
    void from_host(const std::vector<T>& values) const {
        if (values.size() != count_) throw std::invalid_argument("buffer::from_host: size mismatch");
        if (count_ > 0) ok(to_device(data_, values.data(), bytes()), "copying to the device");
    }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// A stream, destroyed on scope exit. Blocking on purpose: the buffers' memset and memcpy calls run
// on the legacy default stream, and a blocking stream's work is ordered after them.
class stream {
public:
    stream() { ok(create_stream(s_), "creating a stream"); }
    ~stream() { (void)destroy_stream(s_); }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    stream_t get() const noexcept { return s_; }
    void wait() const { ok(synchronize(s_), "synchronizing a stream"); }

private:
    stream_t s_ = nullptr;
};

}  // namespace gpu
