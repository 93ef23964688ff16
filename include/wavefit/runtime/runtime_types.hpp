// SPDX-License-Identifier: MIT
// The runtime's stream and error types under one name for both backends, apart from backend.hpp so
// that the launch call (launch_call.hpp) declares its entry points without the rest of the backend.
#pragma once

#include "../config.hpp"
#include "../platform.hpp"

#if !WAVEFIT_HAS_RUNTIME
#error "wavefit/runtime needs HIP or CUDA: compile with hipcc/nvcc or define WAVEFIT_BACKEND_HIP or WAVEFIT_BACKEND_CUDA"
#endif

WAVEFIT_BEGIN_NAMESPACE
namespace detail::backend {

#if WAVEFIT_PLATFORM_HIP
using error_type = hipError_t;
using stream_type = hipStream_t;
#else
using error_type = cudaError_t;
using stream_type = cudaStream_t;
#endif

}  // namespace detail::backend
WAVEFIT_END_NAMESPACE
