// SPDX-License-Identifier: MIT
// What the examples share. They are HIP programs; so that the same files also build with nvcc for
// an NVIDIA GPU, the few hip* runtime names they use map to CUDA's when the compiler is not a HIP
// compiler. Plus a checked-call macro and the "no GPU" exit every example takes on a machine
// without one (exit codes: examples/README.md).
#pragma once

#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
using hipError_t = cudaError_t;
using hipStream_t = cudaStream_t;
#define hipSuccess cudaSuccess
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemGetInfo cudaMemGetInfo
#define hipMemset cudaMemset
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStreamCreate cudaStreamCreate
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) kernel<<<(grid), (block), (shared), (stream)>>>(__VA_ARGS__)
#endif

#include <wavefit/wavefit.hpp>

#include <cstdio>   // the examples print what they show
#include <cstdlib>  // std::exit
#include <string>   // names in the printout
#include <vector>   // diagnostics

// A runtime call the example needs to succeed; anything else ends it with exit code 1.
#define HIP_CHECK(call)                                                                                     \
    do {                                                                                                    \
        const hipError_t hip_check_error_ = (call);                                                         \
        if (hip_check_error_ != hipSuccess) {                                                               \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                       \
                         hipGetErrorName(hip_check_error_));                                                \
            std::exit(1);                                                                                   \
        }                                                                                                   \
    } while (0)

// Whether there is a GPU to run on. Without one, prints wavefit's own report of the runtime's answer
// on a line starting "no GPU:" (the part shown with presets has already run) and returns false.
inline bool gpu_available() {
    try {
        const wavefit::device_limits& d = wavefit::current_device_limits();
        std::printf("\nOn this GPU, %s:\n", wavefit::device_text(d).c_str());
        return true;
    } catch (const wavefit::launch_error& e) {
        std::printf("\nno GPU: %s\n", e.what());
        return false;
    }
}

// Prints each diagnostic of `check` as "  error [code] message / fix: ...".
inline void print_diagnostics(const std::vector<wavefit::diagnostic>& diagnostics) {
    for (const wavefit::diagnostic& d : diagnostics)
        std::printf("  %s [%s] %s\n    fix: %s\n", std::string(wavefit::to_string(d.severity)).c_str(),
                    std::string(wavefit::to_string(d.code)).c_str(), d.message.c_str(), d.fix.c_str());
}

// "as intended" or "NOT as intended": the last line of every example, matching its exit code.
inline int finish(bool as_intended) {
    std::printf("\n%s\n", as_intended ? "behaved as intended" : "did NOT behave as intended");
    return as_intended ? 0 : 1;
}
