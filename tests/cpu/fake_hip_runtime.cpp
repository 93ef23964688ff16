// SPDX-License-Identifier: MIT
// The fake HIP runtime of the CPU tests (tests/cpu/fake_hip.hpp says what it models). Compiled
// against HIP's headers, host-only; without them the file is empty.
#include "fake_hip.hpp"

#if defined(WAVEFIT_HAS_FAKE_HIP)

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace fake {

// The runtime's last error, as HIP keeps it: per thread, set by a failed launch or attribute change,
// returned and cleared by hipGetLastError.
thread_local hipError_t last_error = hipSuccess;

hipError_t failed(hipError_t e) {
    last_error = e;
    return e;
}

// Each kernel's max-dynamic-shared-memory attribute, as hipFuncSetAttribute left it; launches above
// it (and above the 64 KiB default) are refused with hipErrorInvalidValue, as CUDA does.
std::mutex attribute_mutex;
std::map<const void*, int>& dynamic_shared_attribute() {
    static std::map<const void*, int> values;
    return values;
}
int dynamic_shared_of(const void* kernel) {
    std::lock_guard<std::mutex> lock(attribute_mutex);
    const auto it = dynamic_shared_attribute().find(kernel);
    return it == dynamic_shared_attribute().end() ? 65536 : it->second;
}
counters& count() {
    static counters c;
    return c;
}

thread_local int current_device = 0;
thread_local int expected_device = -1;

char stream_objects[device_count * 16];
hipStream_t stream_of(int device) { return reinterpret_cast<hipStream_t>(&stream_objects[device * 16 + 8]); }
int device_of(hipStream_t s) {
    const auto offset = reinterpret_cast<const char*>(s) - stream_objects;
    return offset >= 0 && offset < device_count * 16 ? static_cast<int>(offset / 16) : -1;
}

// Long enough that racing threads arrive while the first is still querying.
void slow() {
    if (count().slow_queries.load()) std::this_thread::sleep_for(std::chrono::microseconds(200));
}

// An MI300X-like device (HIP reports these attribute values, docs/device-facts.md), except that an
// opt-in above the default LDS exists so that ensure_dynamic_shared has work to do.
int attribute(hipDeviceAttribute_t a, int device) {
    if (device == small_device) {
        switch (a) {
            case hipDeviceAttributeMaxThreadsPerBlock: return 256;
            case hipDeviceAttributeMultiprocessorCount: return 104;
            case hipDeviceAttributeMaxSharedMemoryPerBlock:
            case hipDeviceAttributeSharedMemPerBlockOptin:
            case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: return 32768;
            default: break;
        }
    }
    switch (a) {
        case hipDeviceAttributeWarpSize: return 64;
        case hipDeviceAttributeMaxThreadsPerBlock: return 1024;
        case hipDeviceAttributeMaxBlockDimX:
        case hipDeviceAttributeMaxBlockDimY:
        case hipDeviceAttributeMaxBlockDimZ: return 1024;
        case hipDeviceAttributeMaxGridDimX: return 2147483647;
        case hipDeviceAttributeMaxGridDimY:
        case hipDeviceAttributeMaxGridDimZ: return 65536;
        case hipDeviceAttributeMultiprocessorCount: return 304;
        case hipDeviceAttributeMaxSharedMemoryPerBlock: return 65536;
        case hipDeviceAttributeSharedMemPerBlockOptin: return 131072;
        case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: return 131072;
        case hipDeviceAttributeMaxThreadsPerMultiProcessor: return 2048;
        case hipDeviceAttributeL2CacheSize: return 4 << 20;
        default: return 0;
    }
}

std::mutex name_mutex;
std::map<const void*, std::string>& kernel_names() {
    static std::map<const void*, std::string> names;
    return names;
}
void name_kernel(const void* kernel, const std::string& mangled) {
    std::lock_guard<std::mutex> lock(name_mutex);
    kernel_names()[kernel] = mangled;
}
const char* name_of(const void* kernel) {
    std::lock_guard<std::mutex> lock(name_mutex);
    const auto it = kernel_names().find(kernel);
    return it == kernel_names().end() ? "_Z4fakePfi" : it->second.c_str();  // entries are never erased
}

// The fake clock: per stream, advanced by the duration model at each launch.
std::mutex clock_mutex;
duration_model& model() {
    static duration_model m = [](const void*, dim3, dim3) { return 1000.0; };
    return m;
}
void set_duration_model(duration_model m) {
    std::lock_guard<std::mutex> lock(clock_mutex);
    model() = std::move(m);
}
std::map<hipStream_t, double>& clocks() {
    static std::map<hipStream_t, double> c;
    return c;
}
struct event {
    double ns = 0;
    bool recorded = false;
};

}  // namespace fake

extern "C" {

hipError_t hipGetDevice(int* deviceId) {
    *deviceId = fake::current_device;
    return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
    *count = fake::device_count;
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId) {
    if (deviceId < 0 || deviceId >= fake::device_count) return hipErrorInvalidDevice;
    fake::count().attribute_calls[static_cast<std::size_t>(deviceId)].fetch_add(1);
    fake::slow();
    *pi = fake::attribute(attr, deviceId);
    return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId) {
    if (deviceId < 0 || deviceId >= fake::device_count) return hipErrorInvalidDevice;
    fake::count().property_calls[static_cast<std::size_t>(deviceId)].fetch_add(1);
    fake::slow();
    if (fake::count().fail_properties_for.load() == deviceId && fake::count().property_failures_left.fetch_sub(1) > 0)
        return hipErrorNotReady;
    *prop = hipDeviceProp_t{};
    std::snprintf(prop->name, sizeof prop->name, deviceId == fake::small_device ? "Fake small GPU %d" : "Fake MI300X %d",
                  deviceId);
    std::snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "gfx942:sramecc+:xnack-");
    return hipSuccess;
}

hipError_t hipSetDevice(int deviceId) {
    if (deviceId < 0 || deviceId >= fake::device_count) return hipErrorInvalidDevice;
    fake::count().set_device_calls.fetch_add(1);
    fake::current_device = deviceId;
    return hipSuccess;
}

hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device) {
    fake::count().stream_device_calls.fetch_add(1);
    const int d = fake::device_of(stream);
    if (d < 0) return hipErrorInvalidHandle;
    *device = d;
    return hipSuccess;
}

hipError_t hipFuncGetAttributes(struct hipFuncAttributes* attr, const void* func) {
    (void)func;
    if (fake::expected_device >= 0 && fake::current_device != fake::expected_device)
        fake::count().wrong_device_attributes.fetch_add(1);
    fake::count().function_attribute_calls.fetch_add(1);
    fake::slow();
    *attr = hipFuncAttributes{};
    attr->numRegs = 32;
    attr->maxThreadsPerBlock = 1024;
    attr->maxDynamicSharedSizeBytes = fake::dynamic_shared_of(func);
    return hipSuccess;
}

const char* hipKernelNameRefByPtr(const void* hostFunction, hipStream_t stream) {
    (void)stream;
    fake::count().name_queries.fetch_add(1);
    return fake::name_of(hostFunction);
}

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
    (void)attr;
    fake::count().set_attribute_calls.fetch_add(1);
    fake::slow();
    if (fake::count().refuse_set_attribute.load()) return fake::failed(hipErrorNotSupported);
    std::lock_guard<std::mutex> lock(fake::attribute_mutex);
    fake::dynamic_shared_attribute()[func] = value;
    return hipSuccess;
}

hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args, size_t sharedMemBytes,
                           hipStream_t stream) {
    (void)function_address;
    fake::count().launches.fetch_add(1);
    if (stream != nullptr && fake::device_of(stream) != fake::current_device)
        fake::count().wrong_device_launches.fetch_add(1);
    // Judged by the limits of the device the launch goes to, as the fake reports them.
    const int device = stream != nullptr ? fake::device_of(stream) : fake::current_device;
    const std::uint64_t threads = std::uint64_t{dimBlocks.x} * dimBlocks.y * dimBlocks.z;
    if (threads == 0 ||
        threads > static_cast<std::uint64_t>(fake::attribute(hipDeviceAttributeMaxThreadsPerBlock, device)) ||
        numBlocks.x == 0 || numBlocks.y == 0 || numBlocks.z == 0 || numBlocks.y > 65536 || numBlocks.z > 65536 ||
        std::uint64_t{numBlocks.x} * dimBlocks.x > 4294967295u ||
        sharedMemBytes > static_cast<std::size_t>(fake::attribute(hipDeviceAttributeSharedMemPerBlockOptin, device)))
        fake::count().bad_launches.fetch_add(1);
    if (sharedMemBytes > 65536 && sharedMemBytes > static_cast<std::size_t>(fake::dynamic_shared_of(function_address)))
        return fake::failed(hipErrorInvalidValue);
    // Every kernel here is (float*, int): the int must arrive as the value the test passed (4099).
    if (fake::count().check_arguments.load() &&
        (args == nullptr || args[1] == nullptr || *static_cast<int*>(args[1]) != 4099))
        fake::count().wrong_arguments.fetch_add(1);
    std::lock_guard<std::mutex> lock(fake::clock_mutex);
    fake::clocks()[stream] += fake::model()(function_address, numBlocks, dimBlocks);
    return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t* event) {
    *event = reinterpret_cast<hipEvent_t>(new fake::event);
    return hipSuccess;
}
hipError_t hipEventDestroy(hipEvent_t event) {
    delete reinterpret_cast<fake::event*>(event);
    return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
    std::lock_guard<std::mutex> lock(fake::clock_mutex);
    auto* e = reinterpret_cast<fake::event*>(event);
    e->ns = fake::clocks()[stream];
    e->recorded = true;
    return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t event) {
    return reinterpret_cast<fake::event*>(event)->recorded ? hipSuccess : hipErrorInvalidHandle;
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
    const auto* a = reinterpret_cast<fake::event*>(start);
    const auto* b = reinterpret_cast<fake::event*>(stop);
    if (!a->recorded || !b->recorded) return hipErrorInvalidHandle;
    *ms = static_cast<float>((b->ns - a->ns) * 1e-6);
    return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t stream) {
    (void)stream;
    return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int* runtimeVersion) {
    *runtimeVersion = 60443483;
    return hipSuccess;
}

// Device memory: the tuner's cache-flush buffer. Nothing is allocated (the fake device has no memory
// to flush); the count says whether every allocation was released.
hipError_t hipMalloc(void** ptr, size_t size) {
    (void)size;
    if (fake::count().refuse_allocations.load()) return hipErrorOutOfMemory;
    static char fake_device_memory[16];
    fake::count().allocations.fetch_add(1);
    *ptr = fake_device_memory;
    return hipSuccess;
}
hipError_t hipFree(void* ptr) {
    if (ptr != nullptr) fake::count().allocations.fetch_sub(1);
    return hipSuccess;
}
hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream) {
    (void)dst;
    (void)value;
    (void)sizeBytes;
    (void)stream;
    fake::count().cache_flushes.fetch_add(1);
    return hipSuccess;
}

hipError_t hipGetLastError(void) {
    const hipError_t e = fake::last_error;
    fake::last_error = hipSuccess;
    return e;
}
const char* hipGetErrorName(hipError_t hip_error) { return hip_error == hipSuccess ? "hipSuccess" : "hipErrorFake"; }
const char* hipGetErrorString(hipError_t hipError) { return hipError == hipSuccess ? "no error" : "fake error"; }

}  // extern "C"

#endif  // WAVEFIT_HAS_FAKE_HIP
