// SPDX-License-Identifier: MIT
// What the runtime layer remembers: each device's limits (read once), each kernel's attributes per
// device (read once), and one launch cache that every launch looks up: per (device, kernel, work
// shape and options) the pointers and the block recipe a launch needs, computed once. A repeated
// launch does one comparison with the calling thread's previous launch (or a hash lookup), never a
// runtime query or an occupancy scan.
#pragma once

#include <atomic>      // the kernel's current dynamic shared memory limit
#include <cstddef>     // std::size_t
#include <cstdint>     // keys
#include <cstdlib>     // std::free for the demangled name
#include <functional>  // std::hash
#include <memory>      // kernel_state is not movable (atomic, mutex)
#include <mutex>       // serialises the opt-in call
#include <string>      // names
#include <utility>     // std::forward

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>  // abi::__cxa_demangle, for kernel names in messages
#define WAVEFIT_HAS_CXXABI 1
#endif

#include "../device_attributes.hpp"
#include "../device_limits.hpp"
#include "../kernel_resources.hpp"
#include "../plan.hpp"
#include "../validate.hpp"
#include "backend.hpp"
#include "launch_error.hpp"
#include "once_cache.hpp"

namespace wavefit::detail {

// A failed runtime query, carried as a result so try_launch never throws.
struct query_failure {
    backend::error_type code = backend::success;
    const char* what = "";  // which call failed, for the message
};

inline std::string runtime_error_text(backend::error_type e) {
    const char* name = backend::error_name(e);
    const char* text = backend::error_string(e);
    return std::string(name ? name : "unknown error") + " (" + std::to_string(static_cast<int>(e)) +
           "): " + (text ? text : "");
}

// Thrown inside the caches' compute functions and turned into a launch_result at the API boundary.
struct query_exception {
    query_failure failure;
};

inline device_limits query_device_limits(int device) {
    std::string name, arch;
    if (const backend::error_type e = backend::read_names(name, arch, device); e != backend::success)
        throw query_exception{{e, "reading the device's name"}};
    backend::error_type failed = backend::success;
    const device_limits d = device_limits_from_attributes(backend::platform_vendor, name, arch, [&](device_attribute a) {
        int value = 0;
        const backend::error_type e = backend::read_attribute(value, a, device);
        if (e != backend::success && failed == backend::success) failed = e;
        return value;
    });
    if (failed != backend::success) throw query_exception{{failed, "reading a device attribute"}};
    return d;
}

inline std::string demangled(const char* mangled) {
    if (mangled == nullptr) return "an unnamed kernel";
#if defined(WAVEFIT_HAS_CXXABI)
    int status = 0;
    char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status == 0 && text != nullptr) {
        std::string out(text);
        std::free(text);
        return out;
    }
#endif
    return mangled;
}

// One kernel on one device: its compiled resources and how far its dynamic shared memory limit has
// been raised (CUDA's opt-in is per kernel and persists, so it is set at most once per size).
struct kernel_state {
    kernel_resources resources;
    std::uint64_t register_bound = 0;  // register_bound_threads(device, resources): checked per launch
    std::string name;                  // demangled where possible, for messages
    std::string mangled;               // the runtime's name for it (empty where it cannot say): tuning records' key
    std::atomic<std::uint64_t> dynamic_shared_limit{0};
    std::mutex opt_in_mutex;
};

struct kernel_key {
    int device;
    const void* kernel;
    friend bool operator==(const kernel_key& a, const kernel_key& b) noexcept {
        return a.device == b.device && a.kernel == b.kernel;
    }
};
struct kernel_key_hash {
    std::size_t operator()(const kernel_key& k) const noexcept {
        return std::hash<const void*>{}(k.kernel) ^ (static_cast<std::size_t>(k.device) * 0x9E3779B97F4A7C15ull);
    }
};

// CUDA's maxThreadsPerBlock folds register pressure into the kernel's bound: a 255-register kernel
// without __launch_bounds__ reports 256. kernel_resources::max_threads_per_block is the kernel's own
// bound, so a reported value that equals what the registers alone allow is taken as the registers'
// limit (0 = the device maximum). Validation then names the real cause (registers_exceed_limit,
// cudaErrorLaunchOutOfResources) and planning still respects it through the occupancy model. HIP
// on AMD reports the compiled flat work-group bound, independent of registers: kept as it is.
inline std::uint32_t declared_max_threads(const device_limits& d, const kernel_resources& k) noexcept {
    if (!d.is_nvidia() || k.registers == 0 || k.max_threads_per_block == 0 ||
        k.max_threads_per_block >= d.max_threads_per_block)
        return k.max_threads_per_block;
    kernel_resources registers_only{};
    registers_only.registers = k.registers;
    return largest_runnable_block(d, registers_only) == k.max_threads_per_block ? 0u : k.max_threads_per_block;
}

// The dynamic shared memory a kernel may request without raising its attribute: the per-block
// default minus its static part.
inline std::uint64_t default_dynamic_shared(const device_limits& d, const kernel_resources& k) noexcept {
    return d.shared_per_block > k.static_shared ? d.shared_per_block - k.static_shared : 0;
}

// Raises the kernel's dynamic shared memory limit to at least `bytes` (CUDA's opt-in above the
// default), once per kernel and size however many threads ask.
inline backend::error_type raise_dynamic_shared(kernel_state& k, const void* kernel, std::uint64_t bytes) {
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_acquire)) return backend::success;
    std::lock_guard<std::mutex> lock(k.opt_in_mutex);
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_relaxed)) return backend::success;
    const backend::error_type e = backend::set_max_dynamic_shared(kernel, static_cast<int>(bytes));
    if (e == backend::success) k.dynamic_shared_limit.store(bytes, std::memory_order_release);
    return e;
}

inline once_cache<int, device_limits>& device_limits_cache() {
    static once_cache<int, device_limits> cache;
    return cache;
}
inline once_cache<kernel_key, std::unique_ptr<kernel_state>, kernel_key_hash>& kernel_cache() {
    static once_cache<kernel_key, std::unique_ptr<kernel_state>, kernel_key_hash> cache;
    return cache;
}

inline const device_limits& cached_device_limits(int device) {
    return device_limits_cache().get(device, [&] { return query_device_limits(device); });
}

inline kernel_state& cached_kernel_state(int device, const void* kernel, backend::stream_type stream,
                                         const device_limits& limits) {
    return *kernel_cache().get(kernel_key{device, kernel}, [&] {
        auto state = std::make_unique<kernel_state>();
        std::uint64_t max_dynamic_shared = 0;
        if (const backend::error_type e = backend::read_kernel_resources(state->resources, max_dynamic_shared, kernel);
            e != backend::success)
            throw query_exception{{e, "reading the kernel's attributes"}};
        state->resources.max_threads_per_block = declared_max_threads(limits, state->resources);
        state->register_bound = register_bound_threads(limits, state->resources);
        const char* runtime_name = backend::kernel_name(kernel, stream);
        state->name = demangled(runtime_name);
        if (runtime_name != nullptr) state->mangled = runtime_name;
        // The limit as the kernel has it now: the default, or what the program raised it to before
        // wavefit saw the kernel; wavefit only ever raises it.
        const std::uint64_t by_default = default_dynamic_shared(limits, state->resources);
        state->dynamic_shared_limit.store(max_dynamic_shared > by_default ? max_dynamic_shared : by_default);
        return state;
    });
}

// ---------------------------------------------------------------------------------- the launch cache

// What a launch looks up: the device, the kernel, and for planned work its kind and options, plus
// the size bucket when tuning is on (tuned choices differ by size; the static plan does not).
struct launch_key {
    int device = -1;
    const void* kernel = nullptr;
    bool planned = false;  // false: an explicit configuration; the fields below are 0
    work_kind kind = work_kind::elements;
    grid_policy grid = grid_policy::cover;
    bool spread_small_work = false;
    std::uint32_t grid_factor = 0;
    std::uint32_t size_bucket = 0;  // tuning on: the work's size bucket; off: 0 (the plan does not depend on it)
    std::uint32_t unit_bucket = 0;  // tuning on, per_block work: unit_bucket_of(unit_size); else 0
    std::uint32_t generation = 0;   // tuning on: the database's generation, so a new record is seen
    std::uint64_t dynamic_shared = 0;
    std::uint64_t min_efficient_block = 0;

    friend bool operator==(const launch_key& a, const launch_key& b) noexcept {
        return a.device == b.device && a.kernel == b.kernel && a.planned == b.planned && a.kind == b.kind &&
               a.grid == b.grid && a.spread_small_work == b.spread_small_work && a.grid_factor == b.grid_factor &&
               a.size_bucket == b.size_bucket && a.unit_bucket == b.unit_bucket && a.generation == b.generation &&
               a.dynamic_shared == b.dynamic_shared && a.min_efficient_block == b.min_efficient_block;
    }
};
struct launch_key_hash {
    std::size_t operator()(const launch_key& k) const noexcept {
        std::size_t h = std::hash<const void*>{}(k.kernel) ^ static_cast<std::size_t>(k.device);
        const auto mix = [&h](std::uint64_t v) {
            h ^= std::hash<std::uint64_t>{}(v) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        };
        mix(k.dynamic_shared);
        mix(k.min_efficient_block);
        mix(k.generation);
        mix(k.unit_bucket);
        mix((std::uint64_t{k.size_bucket} << 32) | (std::uint64_t{k.grid_factor} << 8) | (std::uint64_t{k.planned} << 7) |
            (std::uint64_t{k.spread_small_work} << 6) | (static_cast<std::uint64_t>(k.grid) << 3) |
            static_cast<std::uint64_t>(k.kind));
        return h;
    }
};

// Everything a launch needs once its key is known. Pointers into the caches stay valid forever.
struct launch_entry {
    int device = -1;
    const void* address = nullptr;  // the kernel
    const device_limits* limits = nullptr;
    kernel_state* kernel = nullptr;
    launch_recipe recipe{};  // planned work: the block and grid policy (recipe.threads 0: none runs)
};

// The one lookup mechanism of the launch path: a process-wide once_cache of entries, with the calling
// thread's last (key, entry) in front of it, so that a loop launching one kernel compares one key and
// touches no lock. Entries are never erased, so the remembered pointer stays valid.
class launch_cache {
public:
    template <class Compute>
    static const launch_entry& get(const launch_key& key, Compute&& compute) {
        memo& m = last();
        if (m.entry != nullptr && m.key == key) return *m.entry;
        const launch_entry& entry = entries().get(key, std::forward<Compute>(compute));
        m.key = key;
        m.entry = &entry;
        return entry;
    }

    static std::size_t size() { return entries().size(); }

private:
    struct memo {
        launch_key key{};
        const launch_entry* entry = nullptr;
    };
    // One slot per thread, shared by every call site (not one per instantiation of get).
    static memo& last() noexcept {
        thread_local memo m;
        return m;
    }

    static once_cache<launch_key, launch_entry, launch_key_hash>& entries() {
        static once_cache<launch_key, launch_entry, launch_key_hash> cache;
        return cache;
    }
};

}  // namespace wavefit::detail

namespace wavefit {

// The launch-relevant limits of device `device` as the runtime reports them, read once and cached.
// Throws launch_error if the runtime cannot be queried (no GPU, bad index).
inline const device_limits& device_limits_for(int device) {
    try {
        return detail::cached_device_limits(device);
    } catch (const detail::query_exception& q) {
        (void)backend::take_last_error();  // reported here: the user's next error check must not see it again
        launch_result r;
        r.status = launch_status::runtime_failed;
        r.runtime_code = static_cast<int>(q.failure.code);
        r.device = "device " + std::to_string(device);
        r.message = std::string(backend::runtime_name) + " failed " + q.failure.what + " of device " +
                    std::to_string(device) + ": " + detail::runtime_error_text(q.failure.code);
        throw launch_error(r);
    }
}

// The limits of the calling thread's current device.
inline const device_limits& current_device_limits() {
    int device = 0;
    if (const backend::error_type e = backend::current_device(device); e != backend::success) {
        (void)backend::take_last_error();  // reported here: the user's next error check must not see it again
        launch_result r;
        r.status = launch_status::runtime_failed;
        r.runtime_code = static_cast<int>(e);
        r.device = "no device";
        r.message = std::string(backend::runtime_name) + " has no current device: " + detail::runtime_error_text(e);
        throw launch_error(r);
    }
    return device_limits_for(device);
}

// How many GPUs the runtime sees; 0 (not an error) when there are none or no driver.
inline int visible_device_count() noexcept {
    int count = 0;
    if (backend::device_count(count) != backend::success) {
        (void)backend::take_last_error();
        return 0;
    }
    return count;
}

}  // namespace wavefit
