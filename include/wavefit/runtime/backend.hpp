// SPDX-License-Identifier: MIT
// The only file in wavefit that calls hip* or cuda* functions. It picks the backend from the
// including translation unit and wraps the dozen calls wavefit needs behind one set of names, so
// the rest of the runtime layer is written once for HIP on AMD, HIP on NVIDIA and CUDA.
//
// Selection: WAVEFIT_BACKEND_HIP or WAVEFIT_BACKEND_CUDA when the user defines one (a host-only
// .cpp compiled by g++ against the HIP or CUDA runtime library), else HIP when the TU is compiled by
// hip-clang or defines a __HIP_PLATFORM_*__ macro, else CUDA under nvcc.
#pragma once

#include "../config.hpp"
#include "../platform.hpp"
#include "runtime_types.hpp"

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width values
#include <string>       // device names
#include <string_view>  // the ISA name
#include <type_traits>  // detecting hip/cudaStreamGetDevice
#include <utility>      // std::declval

#include "../detail/text.hpp"
#include "../device_attributes.hpp"
#include "../device_limits.hpp"
#include "../kernel_resources.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail::backend {

#if WAVEFIT_PLATFORM_HIP
inline constexpr error_type success = hipSuccess;
inline constexpr const char* runtime_name = "HIP";
inline constexpr error_type no_device = hipErrorNoDevice;
inline constexpr const char* visible_devices_variable = "HIP_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES)";
#if WAVEFIT_PLATFORM_HIP_NVIDIA
inline constexpr device_limits::vendor_kind platform_vendor = device_limits::vendor_kind::nvidia;
#else
inline constexpr device_limits::vendor_kind platform_vendor = device_limits::vendor_kind::amd;
#endif
#else
inline constexpr error_type success = cudaSuccess;
inline constexpr const char* runtime_name = "CUDA";
inline constexpr error_type no_device = cudaErrorNoDevice;
inline constexpr const char* visible_devices_variable = "CUDA_VISIBLE_DEVICES";
inline constexpr device_limits::vendor_kind platform_vendor = device_limits::vendor_kind::nvidia;
#endif

inline const char* error_name(error_type e) noexcept { return WAVEFIT_RUNTIME_API(GetErrorName)(e); }

inline const char* error_string(error_type e) noexcept { return WAVEFIT_RUNTIME_API(GetErrorString)(e); }

inline error_type current_device(int& device) noexcept { return WAVEFIT_RUNTIME_API(GetDevice)(&device); }

inline error_type set_current_device(int device) noexcept { return WAVEFIT_RUNTIME_API(SetDevice)(device); }

// Makes `device` current for the guard's lifetime when it is not (`switch_needed`), and restores the
// previous device after: kernel attributes and the shared-memory opt-in are per device, and CUDA
// refuses a launch into a stream of a device that is not current.
class device_guard {
public:
    device_guard(int device, int current, bool switch_needed) noexcept : previous_(current), switched_(switch_needed) {
        if (switched_) error_ = set_current_device(device);
    }
    ~device_guard() {
        if (switched_ && error_ == success) (void)set_current_device(previous_);
    }
    device_guard(const device_guard&) = delete;
    device_guard& operator=(const device_guard&) = delete;
    error_type error() const noexcept { return error_; }

private:
    int previous_;
    bool switched_;
    error_type error_ = success;
};

inline error_type device_count(int& count) noexcept { return WAVEFIT_RUNTIME_API(GetDeviceCount)(&count); }

// Clears the runtime's last (non-sticky) error, so a failure wavefit already reported is not
// reported a second time by the user's next error check.
inline error_type take_last_error() noexcept { return WAVEFIT_RUNTIME_API(GetLastError)(); }

// device_attribute and the runtime's own attribute, one row each: wavefit's name, HIP's, CUDA's. The
// column of the other runtime is never compiled, so its names need not exist.
// clang-format off
#define WAVEFIT_RUNTIME_ATTRIBUTES(row)                                                                                 \
    row(warp_size, hipDeviceAttributeWarpSize, cudaDevAttrWarpSize)                                                     \
    row(max_threads_per_block, hipDeviceAttributeMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock)                     \
    row(max_block_dim_x, hipDeviceAttributeMaxBlockDimX, cudaDevAttrMaxBlockDimX)                                       \
    row(max_block_dim_y, hipDeviceAttributeMaxBlockDimY, cudaDevAttrMaxBlockDimY)                                       \
    row(max_block_dim_z, hipDeviceAttributeMaxBlockDimZ, cudaDevAttrMaxBlockDimZ)                                       \
    row(max_grid_dim_x, hipDeviceAttributeMaxGridDimX, cudaDevAttrMaxGridDimX)                                          \
    row(max_grid_dim_y, hipDeviceAttributeMaxGridDimY, cudaDevAttrMaxGridDimY)                                          \
    row(max_grid_dim_z, hipDeviceAttributeMaxGridDimZ, cudaDevAttrMaxGridDimZ)                                          \
    row(multiprocessor_count, hipDeviceAttributeMultiprocessorCount, cudaDevAttrMultiProcessorCount)                    \
    row(max_shared_memory_per_block, hipDeviceAttributeMaxSharedMemoryPerBlock, cudaDevAttrMaxSharedMemoryPerBlock)     \
    row(max_shared_memory_per_block_optin, hipDeviceAttributeSharedMemPerBlockOptin,                                    \
        cudaDevAttrMaxSharedMemoryPerBlockOptin)                                                                        \
    row(max_shared_memory_per_multiprocessor, hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,                       \
        cudaDevAttrMaxSharedMemoryPerMultiprocessor)                                                                    \
    row(reserved_shared_memory_per_block, hipDeviceAttributeReservedSharedMemPerBlock,                                  \
        cudaDevAttrReservedSharedMemoryPerBlock)                                                                        \
    row(max_threads_per_multiprocessor, hipDeviceAttributeMaxThreadsPerMultiProcessor,                                  \
        cudaDevAttrMaxThreadsPerMultiProcessor)                                                                         \
    row(max_blocks_per_multiprocessor, hipDeviceAttributeMaxBlocksPerMultiProcessor,                                    \
        cudaDevAttrMaxBlocksPerMultiprocessor)                                                                          \
    row(max_registers_per_block, hipDeviceAttributeMaxRegistersPerBlock, cudaDevAttrMaxRegistersPerBlock)               \
    row(max_registers_per_multiprocessor, hipDeviceAttributeMaxRegistersPerMultiprocessor,                              \
        cudaDevAttrMaxRegistersPerMultiprocessor)
#if WAVEFIT_PLATFORM_HIP
using runtime_attribute_type = hipDeviceAttribute_t;
#define WAVEFIT_RUNTIME_ATTRIBUTE_CASE(name, hip, cuda) \
    case device_attribute::name: return hip;
#else
using runtime_attribute_type = cudaDeviceAttr;
#define WAVEFIT_RUNTIME_ATTRIBUTE_CASE(name, hip, cuda) \
    case device_attribute::name: return cuda;
#endif

// clang-format on

constexpr runtime_attribute_type runtime_attribute(device_attribute a) noexcept {
    switch (a) { WAVEFIT_RUNTIME_ATTRIBUTES(WAVEFIT_RUNTIME_ATTRIBUTE_CASE) }
    return runtime_attribute_type{};  // not reached: the switch names every attribute
}
#undef WAVEFIT_RUNTIME_ATTRIBUTE_CASE
#undef WAVEFIT_RUNTIME_ATTRIBUTES

// One attribute, read with hip/cudaDeviceGetAttribute (cheap, stable across runtime versions,
// unlike the properties struct whose layout changed in ROCm 6).
inline error_type read_attribute(int& value, device_attribute a, int device) noexcept {
    value = 0;
    const error_type e = WAVEFIT_RUNTIME_API(DeviceGetAttribute)(&value, runtime_attribute(a), device);
#if WAVEFIT_PLATFORM_HIP
    // Attributes HIP marks "CUDA only" may be unsupported on AMD: absent, not an error for wavefit.
    if (e == hipErrorInvalidValue || e == hipErrorNotSupported) {
        (void)hipGetLastError();
        value = 0;
        return hipSuccess;
    }
#endif
    return e;
}

// The device's ISA name ("gfx942:sramecc+:xnack-", "sm_90"), which decides its register and
// residency model. NVIDIA's comes from two attributes (cheap); AMD's exists only in the properties
// struct, read once per device by the caller's cache. Written into a short_name, not a std::string:
// a process's first launch reads it, and no string function need be resolved for it there.
inline error_type read_arch(short_name& arch, int device) {
#if WAVEFIT_PLATFORM_HIP && !WAVEFIT_PLATFORM_HIP_NVIDIA
    hipDeviceProp_t props{};
    const error_type e = hipGetDeviceProperties(&props, device);
    if (e != hipSuccess) return e;
    arch.assign(props.gcnArchName);
    return hipSuccess;
#else
    int major = 0, minor = 0;
#if WAVEFIT_PLATFORM_HIP
    error_type e = hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, device);
    if (e == hipSuccess) e = hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor, device);
#else
    error_type e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
#endif
    if (e != success) return e;
    // "sm_" and the two numbers in decimal.
    char text[3 + 2 * 20] = {'s', 'm', '_'};
    std::size_t size = 3;
    for (const int part : {major, minor}) size += write_decimal(text + size, part < 0 ? 0u : static_cast<unsigned>(part));
    arch.assign(std::string_view(text, size));
    return success;
#endif
}

// The device's marketing name ("AMD Instinct MI300X", "NVIDIA H200"). The properties call behind it
// costs hundreds of microseconds on CUDA, so launches ask for it only to word a failure, and the
// tuner to key its records.
inline error_type read_device_name(std::string& name, int device) {
#if WAVEFIT_PLATFORM_HIP
    hipDeviceProp_t props{};
    const error_type e = hipGetDeviceProperties(&props, device);
#else
    cudaDeviceProp props{};
    const error_type e = cudaGetDeviceProperties(&props, device);
#endif
    if (e != success) return e;
    name = props.name;
    return success;
}

// Both names, for callers that need both (device_limits_for, the CLI's device catalog).
inline error_type read_names(std::string& name, std::string& arch, int device) {
    short_name isa;
    const error_type e = read_arch(isa, device);
    if (e != success) return e;
    arch.assign(isa.view());
    return read_device_name(name, device);
}

// The device's L2 cache in bytes (0 where the runtime does not say): the tuner flushes twice that
// before each timed launch so that it measures the kernel as an application runs it.
inline error_type read_l2_bytes(std::uint64_t& bytes, int device) noexcept {
    int value = 0;
#if WAVEFIT_PLATFORM_HIP
    const error_type e = hipDeviceGetAttribute(&value, hipDeviceAttributeL2CacheSize, device);
#else
    const error_type e = cudaDeviceGetAttribute(&value, cudaDevAttrL2CacheSize, device);
#endif
    bytes = e == success && value > 0 ? static_cast<std::uint64_t>(value) : 0;
    return e;
}

// Device memory for the tuner's cache flush (never on a launch's path).
inline error_type allocate(void*& p, std::size_t bytes) noexcept { return WAVEFIT_RUNTIME_API(Malloc)(&p, bytes); }

inline error_type release(void* p) noexcept { return WAVEFIT_RUNTIME_API(Free)(p); }

inline error_type fill_async(void* p, int value, std::size_t bytes, stream_type stream) noexcept {
    return WAVEFIT_RUNTIME_API(MemsetAsync)(p, value, bytes, stream);
}

// The kernel's compiled resources (registers, static shared memory, its own max threads per block,
// local/scratch bytes). Neither runtime reports SGPRs: scalar_registers stays 0 (not limiting).
// `max_dynamic_shared` receives the kernel's current dynamic shared memory limit (raised earlier by
// the program itself, or the default).
inline error_type read_kernel_resources(kernel_resources& out, std::uint64_t& max_dynamic_shared,
                                        const void* kernel) noexcept {
    WAVEFIT_RUNTIME_API(FuncAttributes) attr{};
    const error_type e = WAVEFIT_RUNTIME_API(FuncGetAttributes)(&attr, kernel);
    if (e != success) return e;
    out = kernel_resources{};
    out.registers = attr.numRegs < 0 ? 0u : static_cast<std::uint32_t>(attr.numRegs);
    out.static_shared = attr.sharedSizeBytes;
    out.max_threads_per_block = attr.maxThreadsPerBlock < 0 ? 0u : static_cast<std::uint32_t>(attr.maxThreadsPerBlock);
    out.local_bytes_per_thread = attr.localSizeBytes;
    max_dynamic_shared =
        attr.maxDynamicSharedSizeBytes < 0 ? 0u : static_cast<std::uint64_t>(attr.maxDynamicSharedSizeBytes);
    return success;
}

// Raises the kernel's dynamic shared memory limit (CUDA's opt-in above 48 KiB).
inline error_type set_max_dynamic_shared(const void* kernel, int bytes) noexcept {
    return WAVEFIT_RUNTIME_API(FuncSetAttribute)(
        kernel, WAVEFIT_RUNTIME_API(FuncAttributeMaxDynamicSharedMemorySize), bytes);
}

// Whether the runtime's headers declare hip/cudaStreamGetDevice (HIP 5.x before it, or Debian's 5.2,
// and CUDA before 12.8 do not): the call below is found by argument-dependent lookup on the stream
// type, so an undeclared function is a substitution failure, not an error.
template <class Stream, class = void>
struct has_stream_get_device : std::false_type {};
#if WAVEFIT_PLATFORM_HIP
template <class Stream>
struct has_stream_get_device<Stream, std::void_t<decltype(hipStreamGetDevice(std::declval<Stream>(), std::declval<int*>()))>>
    : std::true_type {};
#else
template <class Stream>
struct has_stream_get_device<Stream,
                             std::void_t<decltype(cudaStreamGetDevice(std::declval<Stream>(), std::declval<int*>()))>>
    : std::true_type {};
#endif

template <class Stream>
error_type query_stream_device(Stream stream, int& device) noexcept {
    return WAVEFIT_RUNTIME_API(StreamGetDevice)(stream, &device);
}

// True when this runtime can say which device a stream belongs to.
inline constexpr bool can_query_stream_device = has_stream_get_device<stream_type>::value;

// The device a stream was created on. A null stream, and the legacy and per-thread default streams
// (handles 1 and 2 in both runtimes), belong to the calling thread's current device. Where the
// runtime cannot tell (can_query_stream_device false), the current device too: documented in the
// README's multi-GPU notes.
inline error_type stream_device(int& device, stream_type stream) noexcept {
    if constexpr (can_query_stream_device) {
        if (reinterpret_cast<std::uintptr_t>(stream) > 2) return query_stream_device(stream, device);
    }
    return current_device(device);
}

// The kernel's (mangled) name for messages, or nullptr where the runtime cannot say. HIP finds it
// through a stream's device: the null stream, the current device's.
inline const char* kernel_name(const void* kernel) noexcept {
#if WAVEFIT_PLATFORM_HIP && !WAVEFIT_PLATFORM_HIP_NVIDIA
    return hipKernelNameRefByPtr(kernel, nullptr);
#elif WAVEFIT_PLATFORM_HIP
    (void)kernel;
    return nullptr;
#else
#if CUDART_VERSION >= 12030
    const char* name = nullptr;
    return cudaFuncGetName(&name, kernel) == cudaSuccess ? name : nullptr;
#else
    (void)kernel;
    return nullptr;
#endif
#endif
}

// Device events, for the tuner's timing on the caller's stream.
using event_type = WAVEFIT_RUNTIME_API(Event_t);

inline error_type create_event(event_type& e) noexcept { return WAVEFIT_RUNTIME_API(EventCreate)(&e); }

inline error_type destroy_event(event_type e) noexcept { return WAVEFIT_RUNTIME_API(EventDestroy)(e); }

inline error_type record_event(event_type e, stream_type stream) noexcept {
    return WAVEFIT_RUNTIME_API(EventRecord)(e, stream);
}

inline error_type wait_for_event(event_type e) noexcept { return WAVEFIT_RUNTIME_API(EventSynchronize)(e); }

inline error_type elapsed_ms(float& ms, event_type start, event_type stop) noexcept {
    return WAVEFIT_RUNTIME_API(EventElapsedTime)(&ms, start, stop);
}

inline error_type synchronize_stream(stream_type stream) noexcept { return WAVEFIT_RUNTIME_API(StreamSynchronize)(stream); }

// "CUDA 13000", "HIP 60443483": the runtime a tuning record was measured with.
inline std::string runtime_version_text() {
    int version = 0;
    if (WAVEFIT_RUNTIME_API(RuntimeGetVersion)(&version) != success) (void)take_last_error();
    return std::string(runtime_name) + " " + std::to_string(version);
}

inline error_type launch_kernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared,
                                stream_type stream) noexcept {
    return WAVEFIT_RUNTIME_API(LaunchKernel)(kernel, grid, block, args, shared, stream);
}

}  // namespace detail::backend
WAVEFIT_END_NAMESPACE
