// SPDX-License-Identifier: MIT
// CUDA's math_constants.h names, for the lint's parser only (values as IEEE-754 literals).
#pragma once

#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_SQRT_2PI_F 2.506628275f
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")
#define CUDART_MAX_NORMAL_F 3.40282347e+38f
#define CUDART_MIN_DENORM_F 1.40129846e-45f
#define CUDART_L2E_F 1.442695041f
#define CUDART_LN2_F 0.693147181f
#define HIP_INF_F CUDART_INF_F
#define HIP_PI_F CUDART_PI_F
