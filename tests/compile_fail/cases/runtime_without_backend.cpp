// SPDX-License-Identifier: MIT
// The runtime layer needs HIP or CUDA; included without either it must stop with a message that
// says how to pick one, not with a missing-header error.
#if !WAVEFIT_COMPILE_FAIL
#define WAVEFIT_BACKEND_HIP 1
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <wavefit/runtime/launch.hpp>
