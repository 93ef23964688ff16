// SPDX-License-Identifier: MIT
// What `wavefit lint` parses CUDA and HIP sources with instead of the vendors' headers, so that a
// source parses on a machine without CUDA or ROCm. It is included before every file, as nvcc and hipcc
// include their runtime headers implicitly, and declares only what the checks and a typical kernel need:
// the execution-space attributes, the built-in index variables, dim3 and the vector types, the warp
// intrinsics with HIP's 64-bit masks and ballots, the launch syntax, and the host API both families
// share. The hip* names are aliases of the cuda* ones, so hipified code and CUDA code parse alike.
// Semantics follow HIP on AMD (what the port will compile against), with two deliberate choices:
// warpSize is not a constant expression (as in ROCm 7), and __launch_bounds__ keeps CUDA's spelling so
// that the lint can read its arguments.

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))

typedef __SIZE_TYPE__ __wavefit_size_t;

// The HIP the semantics follow: ROCm 7 (hip_runtime.h defines these through hip_version.h).
#define HIP_VERSION_MAJOR 7
#define HIP_VERSION_MINOR 0
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

// nvcc's and hipcc's runtime headers bring these C headers into every source; code relies on it.
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---- built-in variables -------------------------------------------------------------------------
struct __wavefit_index3 {
    const unsigned int x, y, z;
};
extern const __device__ __wavefit_index3 threadIdx, blockIdx, blockDim, gridDim;
// Not a constant expression: ROCm 7 removed constexpr warpSize, and CUDA's never was one.
extern const __device__ int warpSize;

#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

// ---- dim3 and the vector types --------------------------------------------------------------------
struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
};

#define __WAVEFIT_VECTOR_TYPES(T, name)                                                                        \
    struct name##1 { T x; };                                                                                   \
    struct name##2 { T x, y; };                                                                                \
    struct name##3 { T x, y, z; };                                                                             \
    struct name##4 { T x, y, z, w; };                                                                          \
    __host__ __device__ inline name##1 make_##name##1(T x) { return name##1{x}; }                              \
    __host__ __device__ inline name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                      \
    __host__ __device__ inline name##3 make_##name##3(T x, T y, T z) { return name##3{x, y, z}; }              \
    __host__ __device__ inline name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }
__WAVEFIT_VECTOR_TYPES(char, char)
__WAVEFIT_VECTOR_TYPES(unsigned char, uchar)
__WAVEFIT_VECTOR_TYPES(short, short)
__WAVEFIT_VECTOR_TYPES(unsigned short, ushort)
__WAVEFIT_VECTOR_TYPES(int, int)
__WAVEFIT_VECTOR_TYPES(unsigned int, uint)
__WAVEFIT_VECTOR_TYPES(long, long)
__WAVEFIT_VECTOR_TYPES(unsigned long, ulong)
__WAVEFIT_VECTOR_TYPES(long long, longlong)
__WAVEFIT_VECTOR_TYPES(unsigned long long, ulonglong)
__WAVEFIT_VECTOR_TYPES(float, float)
__WAVEFIT_VECTOR_TYPES(double, double)
#undef __WAVEFIT_VECTOR_TYPES

// ---- half, bfloat16 and fp8 -------------------------------------------------------------------------
typedef _Float16 __half;
typedef __half half;
struct __half2 { __half x, y; };
typedef __half2 half2;
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
struct __nv_bfloat16 {
    unsigned short __x;
    __host__ __device__ __nv_bfloat16() = default;
    __host__ __device__ __nv_bfloat16(float);
    __host__ __device__ __nv_bfloat16(double);
    __host__ __device__ __nv_bfloat16(int);
    __host__ __device__ operator float() const;
};
struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __host__ __device__ __nv_bfloat162() = default;
    __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
#define __WAVEFIT_FP8(name)                                                                                    \
    struct name {                                                                                              \
        unsigned char __x;                                                                                     \
        __host__ __device__ name() = default;                                                                  \
        __host__ __device__ explicit name(float);                                                              \
        __host__ __device__ explicit name(__half);                                                             \
        __host__ __device__ explicit name(__nv_bfloat16);                                                      \
        __host__ __device__ operator float() const;                                                            \
    };
__WAVEFIT_FP8(__nv_fp8_e4m3)
__WAVEFIT_FP8(__nv_fp8x2_e4m3)
__WAVEFIT_FP8(__nv_fp8x4_e4m3)
__WAVEFIT_FP8(__nv_fp8x2_e5m2)
__WAVEFIT_FP8(__nv_fp8x4_e5m2)
__WAVEFIT_FP8(__nv_fp8_e5m2)
__WAVEFIT_FP8(__hip_fp8_e4m3)
__WAVEFIT_FP8(__hip_fp8_e5m2)
__WAVEFIT_FP8(__hip_fp8_e4m3_fnuz)
__WAVEFIT_FP8(__hip_fp8_e5m2_fnuz)
#undef __WAVEFIT_FP8

__host__ __device__ __half __float2half(float);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hneg(__half);
__device__ __half __habs(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __h2div(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half2 __hmax2(__half2, __half2);
__device__ __half2 __hmin2(__half2, __half2);
__device__ bool __hgt(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hge(__half, __half);
__device__ bool __hle(__half, __half);
__device__ bool __heq(__half, __half);
__device__ bool __hisnan(__half);
__device__ __half hexp(__half);
__device__ __half hsqrt(__half);
__device__ __half hrsqrt(__half);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float);
__host__ __device__ float __low2float(__nv_bfloat162);
__host__ __device__ float __high2float(__nv_bfloat162);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16);
__device__ __nv_bfloat16 __hadd(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmax(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);

// ---- synchronisation, warp and wave intrinsics (HIP: 64-bit masks and ballots) -------------------
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned long long mask = ~0ull);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ unsigned long long __ballot(int predicate);
__device__ unsigned long long __ballot_sync(unsigned long long mask, int predicate);
__device__ int __any(int predicate);
__device__ int __all(int predicate);
__device__ int __any_sync(unsigned long long mask, int predicate);
__device__ int __all_sync(unsigned long long mask, int predicate);
__device__ int __uni_sync(unsigned long long mask, int predicate);
__device__ unsigned long long __activemask();
__device__ unsigned int __lane_id();
template <class T> __device__ unsigned long long __match_any_sync(unsigned long long mask, T value);
template <class T> __device__ unsigned long long __match_all_sync(unsigned long long mask, T value, int* pred);
template <class T> __device__ T __shfl(T var, int src_lane, int width = warpSize);
template <class T> __device__ T __shfl_up(T var, unsigned int delta, int width = warpSize);
template <class T> __device__ T __shfl_down(T var, unsigned int delta, int width = warpSize);
template <class T> __device__ T __shfl_xor(T var, int lane_mask, int width = warpSize);
template <class T> __device__ T __shfl_sync(unsigned long long mask, T var, int src_lane, int width = warpSize);
template <class T> __device__ T __shfl_up_sync(unsigned long long mask, T var, unsigned int delta, int width = warpSize);
template <class T> __device__ T __shfl_down_sync(unsigned long long mask, T var, unsigned int delta, int width = warpSize);
template <class T> __device__ T __shfl_xor_sync(unsigned long long mask, T var, int lane_mask, int width = warpSize);
__device__ unsigned int __reduce_add_sync(unsigned long long mask, unsigned int value);
__device__ unsigned int __reduce_min_sync(unsigned long long mask, unsigned int value);
__device__ unsigned int __reduce_max_sync(unsigned long long mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned long long mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned long long mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned long long mask, unsigned int value);

// ---- bit and integer intrinsics ------------------------------------------------------------------
__host__ __device__ int __popc(unsigned int);
__host__ __device__ int __popcll(unsigned long long);
__host__ __device__ int __ffs(int);
__host__ __device__ int __ffs(unsigned int);
__host__ __device__ int __ffsll(long long);
__host__ __device__ int __ffsll(unsigned long long);
__host__ __device__ int __clz(int);
__host__ __device__ int __clzll(long long);
__host__ __device__ unsigned int __brev(unsigned int);
__host__ __device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ int __mul24(int, int);
__device__ unsigned int __umul24(unsigned int, unsigned int);
__device__ int __mulhi(int, int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ long long clock64();
__device__ long long clock();
__device__ unsigned long long __globaltimer();
__device__ unsigned int __smid();

// ---- float intrinsics --------------------------------------------------------------------------
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float*, float*);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __saturatef(float);
__device__ float __fadd_rn(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double);
__device__ float rsqrtf(float);
__device__ double rsqrt(double);
__device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double);
__device__ double __ddiv_rn(double, double);
__device__ float rcbrtf(float);
__device__ float exp10f(float);
__device__ void sincospif(float, float*, float*);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ int __float2int_rd(float);
__device__ int __float2int_ru(float);
__device__ unsigned int __float2uint_rn(float);
__device__ unsigned int __float2uint_rz(float);
__device__ long long __float2ll_rn(float);
__device__ long long __double2ll_rn(double);
__device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned int);
__device__ float __ll2float_rn(long long);
__device__ int __double2int_rn(double);
__device__ float __double2float_rn(double);
__host__ __device__ int __float_as_int(float);
__host__ __device__ unsigned int __float_as_uint(float);
__host__ __device__ float __int_as_float(int);
__host__ __device__ float __uint_as_float(unsigned int);
__host__ __device__ long long __double_as_longlong(double);
__host__ __device__ double __longlong_as_double(long long);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);
__device__ double __hiloint2double(int, int);
template <class T> __device__ T __ldg(const T*);
template <class T> __device__ T __ldcg(const T*);
template <class T> __device__ T __ldca(const T*);
template <class T> __device__ T __ldcs(const T*);
template <class T> __device__ T __ldlu(const T*);
template <class T> __device__ T __ldcv(const T*);
template <class T> __device__ void __stcg(T*, T);
template <class T> __device__ void __stcs(T*, T);
template <class T> __device__ void __stwt(T*, T);
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__host__ __device__ inline float min(float a, float b) { return a < b ? a : b; }
__host__ __device__ inline double min(double a, double b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__host__ __device__ inline float max(float a, float b) { return a > b ? a : b; }
__host__ __device__ inline double max(double a, double b) { return a > b ? a : b; }

// ---- atomics -------------------------------------------------------------------------------------
#define __WAVEFIT_ATOMIC(name, T)                                                                              \
    __device__ T name(T* address, T value);                                                                    \
    __device__ T name##_block(T* address, T value);                                                            \
    __device__ T name##_system(T* address, T value);
#define __WAVEFIT_ATOMICS(T)                                                                                   \
    __WAVEFIT_ATOMIC(atomicAdd, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicSub, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicExch, T)                                                                            \
    __WAVEFIT_ATOMIC(atomicMin, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicMax, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicAnd, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicOr, T)                                                                              \
    __WAVEFIT_ATOMIC(atomicXor, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicInc, T)                                                                             \
    __WAVEFIT_ATOMIC(atomicDec, T)                                                                             \
    __device__ T atomicCAS(T* address, T compare, T value);                                                    \
    __device__ T atomicCAS_block(T* address, T compare, T value);                                              \
    __device__ T atomicCAS_system(T* address, T compare, T value);
__WAVEFIT_ATOMICS(int)
__WAVEFIT_ATOMICS(unsigned int)
__WAVEFIT_ATOMICS(long long)
__WAVEFIT_ATOMICS(unsigned long long)
__WAVEFIT_ATOMICS(float)
__WAVEFIT_ATOMICS(double)
__WAVEFIT_ATOMICS(__half)
__WAVEFIT_ATOMICS(__half2)
__WAVEFIT_ATOMICS(__nv_bfloat16)
#undef __WAVEFIT_ATOMICS
#undef __WAVEFIT_ATOMIC

// ---- host API (the hip* names are the same functions) ------------------------------------------------
typedef __wavefit_size_t size_t;
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoDevice = 100,
    cudaErrorNotReady = 600,
    cudaErrorLaunchFailure = 719,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorAssert = 710,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;
typedef cudaError_t hipError_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorPeerAccessAlreadyEnabled cudaErrorPeerAccessAlreadyEnabled

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef struct CUfunc_st* CUfunction;
typedef struct CUmod_st* CUmodule;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef CUfunction hipFunction_t;
typedef CUmodule hipModule_t;
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef CUdeviceptr hipDeviceptr_t;
#define cudaStreamDefault 0
#define cudaStreamNonBlocking 1
#define hipStreamDefault 0
#define hipStreamNonBlocking 1
#define cudaStreamPerThread ((cudaStream_t)2)
#define hipStreamPerThread ((cudaStream_t)2)
#define cudaEventDefault 0
#define cudaEventDisableTiming 2
#define hipEventDefault 0
#define hipEventDisableTiming 2
#define cudaHostAllocDefault 0
#define cudaHostAllocMapped 2
#define cudaHostAllocPortable 1
#define hipHostMallocDefault 0
#define hipHostMallocMapped 2
#define cudaMemAttachGlobal 1
#define hipMemAttachGlobal 1
#define cudaCpuDeviceId (-1)
#define hipCpuDeviceId (-1)

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};
typedef enum cudaMemcpyKind hipMemcpyKind;
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
typedef enum cudaFuncAttribute hipFuncAttribute;
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipFuncAttributePreferredSharedMemoryCarveout cudaFuncAttributePreferredSharedMemoryCarveout
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
typedef enum cudaFuncCache hipFuncCache_t;
#define hipFuncCachePreferNone cudaFuncCachePreferNone
#define hipFuncCachePreferShared cudaFuncCachePreferShared
#define hipFuncCachePreferL1 cudaFuncCachePreferL1
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
};
enum cudaComputeMode { cudaComputeModeDefault, cudaComputeModeExclusive, cudaComputeModeProhibited };
typedef enum cudaDeviceAttr hipDeviceAttribute_t;
#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxGridDimX cudaDevAttrMaxGridDimX
#define hipDeviceAttributeMaxGridDimY cudaDevAttrMaxGridDimY
#define hipDeviceAttributeMaxGridDimZ cudaDevAttrMaxGridDimZ
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
#define hipDeviceAttributeSharedMemPerBlockOptin cudaDevAttrMaxSharedMemoryPerBlockOptin

struct cudaDeviceProp {
    char name[256];
    char gcnArchName[256];
    size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin, sharedMemPerMultiprocessor, totalConstMem;
    size_t memPitch, textureAlignment, l2CacheSize_bytes;
    int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    int clockRate, memoryClockRate, memoryBusWidth, l2CacheSize, multiProcessorCount, maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor, major, minor, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID;
    int integrated, canMapHostMemory, computeMode, asyncEngineCount, unifiedAddressing, managedMemory;
    int cooperativeLaunch, pageableMemoryAccess, concurrentManagedAccess, isMultiGpuBoard, persistingL2CacheMaxSize, kernelExecTimeoutEnabled, deviceOverlap;
};
typedef struct cudaDeviceProp hipDeviceProp_t;
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes;
};
typedef struct cudaFuncAttributes hipFuncAttributes;
struct cudaPointerAttributes { int type, device; void* devicePointer; void* hostPointer; };
typedef struct cudaPointerAttributes hipPointerAttribute_t;

#define __WAVEFIT_RUNTIME(name, ...)                                                                          \
    extern "C" cudaError_t cuda##name(__VA_ARGS__);                                                           \
    extern "C" cudaError_t hip##name(__VA_ARGS__);
__WAVEFIT_RUNTIME(Malloc, void** pointer, size_t bytes)
__WAVEFIT_RUNTIME(MallocManaged, void** pointer, size_t bytes, unsigned int flags = 1)
__WAVEFIT_RUNTIME(MallocHost, void** pointer, size_t bytes)
__WAVEFIT_RUNTIME(HostAlloc, void** pointer, size_t bytes, unsigned int flags)
__WAVEFIT_RUNTIME(HostMalloc, void** pointer, size_t bytes, unsigned int flags = 0)
__WAVEFIT_RUNTIME(MallocPitch, void** pointer, size_t* pitch, size_t width, size_t height)
__WAVEFIT_RUNTIME(MallocAsync, void** pointer, size_t bytes, cudaStream_t stream)
__WAVEFIT_RUNTIME(Free, void* pointer)
__WAVEFIT_RUNTIME(FreeHost, void* pointer)
__WAVEFIT_RUNTIME(HostFree, void* pointer)
__WAVEFIT_RUNTIME(FreeAsync, void* pointer, cudaStream_t stream)
__WAVEFIT_RUNTIME(HostRegister, void* pointer, size_t bytes, unsigned int flags)
__WAVEFIT_RUNTIME(HostUnregister, void* pointer)
__WAVEFIT_RUNTIME(HostGetDevicePointer, void** device, void* host, unsigned int flags)
__WAVEFIT_RUNTIME(Memcpy, void* destination, const void* source, size_t bytes, cudaMemcpyKind kind)
__WAVEFIT_RUNTIME(MemcpyAsync, void* destination, const void* source, size_t bytes, cudaMemcpyKind kind,
                  cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(Memcpy2D, void* destination, size_t dpitch, const void* source, size_t spitch, size_t width,
                  size_t height, cudaMemcpyKind kind)
__WAVEFIT_RUNTIME(MemcpyPeer, void* destination, int ddevice, const void* source, int sdevice, size_t bytes)
__WAVEFIT_RUNTIME(Memset, void* destination, int value, size_t bytes)
__WAVEFIT_RUNTIME(MemsetAsync, void* destination, int value, size_t bytes, cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(MemGetInfo, size_t* free, size_t* total)
__WAVEFIT_RUNTIME(MemPrefetchAsync, const void* pointer, size_t bytes, int device, cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(DeviceSynchronize, void)
__WAVEFIT_RUNTIME(DeviceReset, void)
__WAVEFIT_RUNTIME(GetLastError, void)
__WAVEFIT_RUNTIME(PeekAtLastError, void)
__WAVEFIT_RUNTIME(SetDevice, int device)
__WAVEFIT_RUNTIME(GetDevice, int* device)
__WAVEFIT_RUNTIME(GetDeviceCount, int* count)
__WAVEFIT_RUNTIME(GetDeviceProperties, cudaDeviceProp* properties, int device)
__WAVEFIT_RUNTIME(DeviceGetAttribute, int* value, cudaDeviceAttr attribute, int device)
__WAVEFIT_RUNTIME(DeviceCanAccessPeer, int* can, int device, int peer)
__WAVEFIT_RUNTIME(DeviceEnablePeerAccess, int peer, unsigned int flags)
__WAVEFIT_RUNTIME(DeviceSetCacheConfig, cudaFuncCache config)
__WAVEFIT_RUNTIME(DeviceSetSharedMemConfig, cudaSharedMemConfig config)
__WAVEFIT_RUNTIME(DeviceGetLimit, size_t* value, int limit)
__WAVEFIT_RUNTIME(DeviceSetLimit, int limit, size_t value)
__WAVEFIT_RUNTIME(PointerGetAttributes, cudaPointerAttributes* attributes, const void* pointer)
__WAVEFIT_RUNTIME(StreamCreate, cudaStream_t* stream)
__WAVEFIT_RUNTIME(StreamCreateWithFlags, cudaStream_t* stream, unsigned int flags)
__WAVEFIT_RUNTIME(StreamCreateWithPriority, cudaStream_t* stream, unsigned int flags, int priority)
__WAVEFIT_RUNTIME(StreamDestroy, cudaStream_t stream)
__WAVEFIT_RUNTIME(StreamSynchronize, cudaStream_t stream)
__WAVEFIT_RUNTIME(StreamQuery, cudaStream_t stream)
__WAVEFIT_RUNTIME(StreamWaitEvent, cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0)
__WAVEFIT_RUNTIME(StreamBeginCapture, cudaStream_t stream, int mode)
__WAVEFIT_RUNTIME(StreamEndCapture, cudaStream_t stream, cudaGraph_t* graph)
__WAVEFIT_RUNTIME(GraphInstantiate, cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0)
__WAVEFIT_RUNTIME(GraphLaunch, cudaGraphExec_t exec, cudaStream_t stream)
__WAVEFIT_RUNTIME(GraphDestroy, cudaGraph_t graph)
__WAVEFIT_RUNTIME(GraphExecDestroy, cudaGraphExec_t exec)
__WAVEFIT_RUNTIME(EventCreate, cudaEvent_t* event)
__WAVEFIT_RUNTIME(EventCreateWithFlags, cudaEvent_t* event, unsigned int flags)
__WAVEFIT_RUNTIME(EventRecord, cudaEvent_t event, cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(EventSynchronize, cudaEvent_t event)
__WAVEFIT_RUNTIME(EventQuery, cudaEvent_t event)
__WAVEFIT_RUNTIME(EventElapsedTime, float* milliseconds, cudaEvent_t start, cudaEvent_t end)
__WAVEFIT_RUNTIME(EventDestroy, cudaEvent_t event)
__WAVEFIT_RUNTIME(FuncGetAttributes, cudaFuncAttributes* attributes, const void* function)
__WAVEFIT_RUNTIME(FuncSetAttribute, const void* function, cudaFuncAttribute attribute, int value)
__WAVEFIT_RUNTIME(FuncSetCacheConfig, const void* function, cudaFuncCache config)
__WAVEFIT_RUNTIME(MemcpyToSymbol, const void* symbol, const void* source, size_t bytes, size_t offset = 0,
                  cudaMemcpyKind kind = cudaMemcpyHostToDevice)
__WAVEFIT_RUNTIME(MemcpyFromSymbol, void* destination, const void* symbol, size_t bytes, size_t offset = 0,
                  cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
__WAVEFIT_RUNTIME(MemcpyToSymbolAsync, const void* symbol, const void* source, size_t bytes, size_t offset,
                  cudaMemcpyKind kind, cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(GetSymbolAddress, void** pointer, const void* symbol)
__WAVEFIT_RUNTIME(LaunchKernel, const void* function, dim3 grid, dim3 block, void** arguments, size_t shared_bytes = 0,
                  cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(LaunchCooperativeKernel, const void* function, dim3 grid, dim3 block, void** arguments,
                  size_t shared_bytes = 0, cudaStream_t stream = 0)
__WAVEFIT_RUNTIME(OccupancyMaxActiveBlocksPerMultiprocessor, int* blocks, const void* function, int block,
                  size_t shared_bytes)
__WAVEFIT_RUNTIME(OccupancyMaxPotentialBlockSize, int* grid, int* block, const void* function,
                  size_t shared_bytes = 0, int block_limit = 0)
__WAVEFIT_RUNTIME(DriverGetVersion, int* version)
__WAVEFIT_RUNTIME(RuntimeGetVersion, int* version)
__WAVEFIT_RUNTIME(ProfilerStart, void)
__WAVEFIT_RUNTIME(ProfilerStop, void)
__WAVEFIT_RUNTIME(ModuleLaunchKernel, CUfunction function, unsigned int grid_x, unsigned int grid_y,
                  unsigned int grid_z, unsigned int block_x, unsigned int block_y, unsigned int block_z,
                  unsigned int shared_bytes, cudaStream_t stream, void** arguments, void** extra)
#undef __WAVEFIT_RUNTIME
extern "C" const char* cudaGetErrorString(cudaError_t error);
extern "C" const char* hipGetErrorString(cudaError_t error);
extern "C" const char* cudaGetErrorName(cudaError_t error);
extern "C" const char* hipGetErrorName(cudaError_t error);
extern "C" CUresult cuLaunchKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                                   unsigned int block_x, unsigned int block_y, unsigned int block_z,
                                   unsigned int shared_bytes, cudaStream_t stream, void** arguments, void** extra);

// Typed overloads, as cuda_runtime.h has them for kernels and typed pointers.
template <class T> cudaError_t cudaMalloc(T** pointer, size_t bytes);
template <class T> cudaError_t hipMalloc(T** pointer, size_t bytes);
template <class T> cudaError_t cudaMallocManaged(T** pointer, size_t bytes, unsigned int flags = 1);
template <class T> cudaError_t hipMallocManaged(T** pointer, size_t bytes, unsigned int flags = 1);
template <class T> cudaError_t cudaMallocHost(T** pointer, size_t bytes);
template <class T> cudaError_t hipHostMalloc(T** pointer, size_t bytes, unsigned int flags = 0);
template <class T> cudaError_t cudaHostAlloc(T** pointer, size_t bytes, unsigned int flags);
template <class T> cudaError_t cudaFuncSetAttribute(T* function, cudaFuncAttribute attribute, int value);
template <class T> cudaError_t hipFuncSetAttribute(T* function, cudaFuncAttribute attribute, int value);
template <class T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T* function);
template <class T> cudaError_t hipFuncGetAttributes(cudaFuncAttributes* attributes, T* function);
template <class T> cudaError_t cudaFuncSetCacheConfig(T* function, cudaFuncCache config);
template <class T> cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* source, size_t bytes, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> cudaError_t hipMemcpyToSymbol(const T& symbol, const void* source, size_t bytes, size_t offset = 0,
                                                 cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> cudaError_t cudaMemcpyFromSymbol(void* destination, const T& symbol, size_t bytes,
                                                    size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t hipMemcpyFromSymbol(void* destination, const T& symbol, size_t bytes,
                                                   size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t cudaLaunchKernel(T* function, dim3 grid, dim3 block, void** arguments,
                                                size_t shared_bytes = 0, cudaStream_t stream = 0);
template <class T> cudaError_t hipLaunchKernel(T* function, dim3 grid, dim3 block, void** arguments,
                                               size_t shared_bytes = 0, cudaStream_t stream = 0);
template <class T> cudaError_t cudaLaunchCooperativeKernel(T* function, dim3 grid, dim3 block, void** arguments,
                                                           size_t shared_bytes = 0, cudaStream_t stream = 0);
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T function, int block,
                                                                             size_t shared_bytes);
template <class T> cudaError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T function, int block,
                                                                            size_t shared_bytes);
template <class T> cudaError_t cudaOccupancyMaxPotentialBlockSize(int* grid, int* block, T function,
                                                                  size_t shared_bytes = 0, int block_limit = 0);
template <class T> cudaError_t hipOccupancyMaxPotentialBlockSize(int* grid, int* block, T function,
                                                                 size_t shared_bytes = 0, int block_limit = 0);

// ---- launches ------------------------------------------------------------------------------------
// The <<<grid, block, shared, stream>>> syntax lowers to one of these calls (clang picks by language).
extern "C" cudaError_t __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes = 0,
                                                   cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared_bytes = 0, cudaStream_t stream = 0);
extern "C" cudaError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes = 0,
                                                  cudaStream_t stream = 0);
extern "C" cudaError_t hipConfigureCall(dim3 grid, dim3 block, size_t shared_bytes = 0, cudaStream_t stream = 0);
// As hip_runtime.h defines it for hip-clang: a macro around the triple-chevron launch.
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                                       \
    do {                                                                                                       \
        kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__);                                    \
    } while (0)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(symbol) symbol

// ---- the C math library in device code (clang's CUDA headers declare these device overloads) -------
#define __WAVEFIT_MATH1(name)                                                                                  \
    __device__ float name##f(float) noexcept;                                                                  \
    __device__ double name(double) noexcept;                                                                   \
    __device__ float name(float) noexcept;
#define __WAVEFIT_MATH2(name)                                                                                  \
    __device__ float name##f(float, float) noexcept;                                                           \
    __device__ double name(double, double) noexcept;                                                           \
    __device__ float name(float, float) noexcept;
__WAVEFIT_MATH1(sqrt) __WAVEFIT_MATH1(cbrt) __WAVEFIT_MATH1(exp) __WAVEFIT_MATH1(exp2) __WAVEFIT_MATH1(expm1)
__WAVEFIT_MATH1(log) __WAVEFIT_MATH1(log2) __WAVEFIT_MATH1(log10) __WAVEFIT_MATH1(log1p) __WAVEFIT_MATH1(logb)
__WAVEFIT_MATH1(sin) __WAVEFIT_MATH1(cos) __WAVEFIT_MATH1(tan) __WAVEFIT_MATH1(asin) __WAVEFIT_MATH1(acos)
__WAVEFIT_MATH1(atan) __WAVEFIT_MATH1(sinh) __WAVEFIT_MATH1(cosh) __WAVEFIT_MATH1(tanh) __WAVEFIT_MATH1(asinh)
__WAVEFIT_MATH1(acosh) __WAVEFIT_MATH1(atanh) __WAVEFIT_MATH1(fabs) __WAVEFIT_MATH1(floor) __WAVEFIT_MATH1(ceil)
__WAVEFIT_MATH1(round) __WAVEFIT_MATH1(trunc) __WAVEFIT_MATH1(rint) __WAVEFIT_MATH1(nearbyint) __WAVEFIT_MATH1(erf)
__WAVEFIT_MATH1(erfc) __WAVEFIT_MATH1(erfinv) __WAVEFIT_MATH1(erfcinv) __WAVEFIT_MATH1(lgamma) __WAVEFIT_MATH1(tgamma)
__WAVEFIT_MATH1(sinpi) __WAVEFIT_MATH1(cospi) __WAVEFIT_MATH1(normcdf) __WAVEFIT_MATH1(normcdfinv)
__WAVEFIT_MATH1(j0) __WAVEFIT_MATH1(j1) __WAVEFIT_MATH1(y0) __WAVEFIT_MATH1(y1)
__WAVEFIT_MATH2(pow) __WAVEFIT_MATH2(atan2) __WAVEFIT_MATH2(fmax) __WAVEFIT_MATH2(fmin) __WAVEFIT_MATH2(fmod)
__WAVEFIT_MATH2(hypot) __WAVEFIT_MATH2(copysign) __WAVEFIT_MATH2(remainder) __WAVEFIT_MATH2(fdim)
__WAVEFIT_MATH2(nextafter)
#undef __WAVEFIT_MATH1
#undef __WAVEFIT_MATH2
__device__ float fmaf(float, float, float) noexcept;
__device__ double fma(double, double, double) noexcept;
__device__ float fma(float, float, float) noexcept;
__device__ float ldexpf(float, int) noexcept;
__device__ double ldexp(double, int) noexcept;
__device__ float frexpf(float, int*) noexcept;
__device__ double frexp(double, int*) noexcept;
__device__ float modff(float, float*) noexcept;
__device__ double modf(double, double*) noexcept;
__device__ float scalbnf(float, int) noexcept;
__device__ long lrintf(float) noexcept;
__device__ long long llrintf(float) noexcept;
__device__ long lroundf(float) noexcept;
__device__ long long llroundf(float) noexcept;
__device__ long lround(double) noexcept;
__device__ long long llround(double) noexcept;
__device__ int ilogbf(float) noexcept;
__device__ void sincosf(float, float*, float*) noexcept;
__device__ void sincos(double, double*, double*) noexcept;
__device__ void sincospi(double, double*, double*) noexcept;
__device__ int abs(int) noexcept;
__device__ long labs(long) noexcept;
__device__ long long llabs(long long) noexcept;
__device__ float abs(float) noexcept;
__device__ double abs(double) noexcept;
__device__ bool isnan(float) noexcept;
__device__ bool isnan(double) noexcept;
__device__ bool isinf(float) noexcept;
__device__ bool isinf(double) noexcept;
__device__ bool isfinite(float) noexcept;
__device__ bool isfinite(double) noexcept;
__device__ bool signbit(float) noexcept;
__device__ bool signbit(double) noexcept;
__device__ int __isnanf(float) noexcept;
__device__ int __isinff(float) noexcept;
__device__ int __finitef(float) noexcept;
__device__ int printf(const char*, ...);
__device__ void* malloc(__wavefit_size_t) noexcept;
__device__ void free(void*) noexcept;
__device__ void* memcpy(void*, const void*, __wavefit_size_t) noexcept;
__device__ void* memset(void*, int, __wavefit_size_t) noexcept;
__device__ void __assert_fail(const char*, const char*, unsigned int, const char*) noexcept;
__device__ void __trap();
__device__ void __brkpt();
__device__ void __nanosleep(unsigned int);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
__host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16);
__host__ __device__ __half __ushort_as_half(unsigned short);
__host__ __device__ unsigned short __half_as_ushort(__half);
__host__ __device__ short __half_as_short(__half);
__host__ __device__ __half __short_as_half(short);
