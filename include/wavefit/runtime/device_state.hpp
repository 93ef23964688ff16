// SPDX-License-Identifier: MIT
// What the runtime layer remembers, and the types of its caches: each device's limits (read once),
// each kernel's attributes per device (read once), and the launch table every launch looks up: per
// (device, kernel, work shape and contract) the pointers and the block recipe a launch needs,
// computed once. A repeated launch, of one kernel or of dozens in turn, does a hash and a comparison,
// never a runtime query or an occupancy scan. The functions are declared here and defined in
// device_state_impl.hpp (header-only mode) or in the compiled library (WAVEFIT_SEPARATE_COMPILATION).
#pragma once

#include <atomic>   // the kernel's current dynamic shared memory limit
#include <cstddef>  // std::size_t
#include <cstdint>  // keys
#include <mutex>    // serialises the opt-in call
#include <string>   // names

#include "../config.hpp"
#include "../device_limits.hpp"
#include "../kernel_resources.hpp"
#include "../work.hpp"
#include "backend.hpp"
#include "../plan.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// One kernel on one device: its compiled resources and how far its dynamic shared memory limit has
// been raised (CUDA's opt-in is per kernel and persists, so it is set at most once per size).
struct kernel_state {
    kernel_resources resources;
    std::uint64_t register_bound = 0;  // register_bound_threads(device, resources): checked per launch
    std::string mangled;               // the runtime's name for it (empty where it cannot say): messages, tuning keys
    std::atomic<std::uint64_t> dynamic_shared_limit{0};
    std::mutex opt_in_mutex;
};

// What a launch looks up: the device, the kernel, and for planned work everything the recipe
// follows from (its kind, contract and options, the unit's size class), plus the size bucket and the
// database's generation while tuning is on (tuned choices differ by size; the plan does not).
struct launch_key {
    const void* kernel = nullptr;
    int device = -1;
    bool planned = false;  // false: an explicit configuration; the fields below keep their defaults
    bool has_baseline = false;
    work_kind kind = work_kind::elements;
    kernel_contract contract{};
    std::uint64_t dynamic_shared = 0;
    std::uint64_t shared_per_thread = 0;
    std::uint64_t (*shared_for_block)(std::uint64_t) = nullptr;
    std::uint64_t min_efficient_block = 0;
    bool spread_small_work = false;
    grid_policy grid = grid_policy::cover;
    std::uint32_t grid_factor = 0;
    std::uint32_t unit_bucket = 0;  // per_block, per_wave: floor(log2(unit_size)) + 1; 0 when not said
    std::uint32_t size_bucket = 0;  // tuning on: the work's size bucket; off: 0
    std::uint32_t generation = 0;   // tuning on: the database's generation, so that a new record is seen

    friend bool operator==(const launch_key& a, const launch_key& b) noexcept {
        return a.kernel == b.kernel && a.device == b.device && a.planned == b.planned && a.has_baseline == b.has_baseline &&
               a.kind == b.kind && a.contract == b.contract && a.dynamic_shared == b.dynamic_shared &&
               a.shared_per_thread == b.shared_per_thread && a.shared_for_block == b.shared_for_block &&
               a.min_efficient_block == b.min_efficient_block && a.spread_small_work == b.spread_small_work &&
               a.grid == b.grid && a.grid_factor == b.grid_factor && a.unit_bucket == b.unit_bucket &&
               a.size_bucket == b.size_bucket && a.generation == b.generation;
    }
};

struct launch_key_hash {
    std::size_t operator()(const launch_key& k) const noexcept {
        std::uint64_t h = reinterpret_cast<std::uintptr_t>(k.kernel) * 0x9E3779B97F4A7C15ull;
        const auto mix = [&h](std::uint64_t v) {
            h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
            h *= 0xBF58476D1CE4E5B9ull;
        };
        mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.device)) | (std::uint64_t{k.planned} << 32) |
            (std::uint64_t{k.has_baseline} << 33) | (static_cast<std::uint64_t>(k.kind) << 34) |
            (static_cast<std::uint64_t>(k.grid) << 37) | (std::uint64_t{k.spread_small_work} << 40) |
            (static_cast<std::uint64_t>(k.contract.cover) << 41) | (std::uint64_t{k.contract.powers_of_two} << 42));
        mix(k.contract.max_block | (std::uint64_t{k.contract.group_threads} << 32));
        mix(k.contract.fixed_block.x ^ (k.contract.fixed_block.y << 21) ^ (k.contract.fixed_block.z << 42));
        mix(k.dynamic_shared ^ (k.shared_per_thread << 32) ^ reinterpret_cast<std::uintptr_t>(k.shared_for_block));
        mix(k.min_efficient_block | (std::uint64_t{k.grid_factor} << 32));
        mix(k.unit_bucket | (std::uint64_t{k.size_bucket} << 8) | (std::uint64_t{k.generation} << 16));
        return static_cast<std::size_t>(h ^ (h >> 31));
    }
};

// Everything a launch needs once its key is known. Pointers into the caches stay valid forever.
struct launch_entry {
    int device = -1;
    const void* address = nullptr;  // the kernel
    const device_limits* limits = nullptr;
    kernel_state* kernel = nullptr;
    launch_recipe recipe{};      // planned work: the block and grid policy (recipe.threads 0: none runs)
    bool keep_baseline = true;   // a work that replaces a configuration: no tuning record replaced it
};

// A failed runtime query: what a cache reports instead of throwing (try_launch never throws).
struct query_failure {
    backend::error_type code = backend::success;
    const char* what = "";  // which call failed, for the message
};

// "hipErrorInvalidDevice (101): invalid device ordinal".
WAVEFIT_FUNC std::string runtime_error_text(backend::error_type e);

// The launch-relevant limits of `device`, read once (no properties query on NVIDIA: the name is
// read on failure only, see device_display); nullptr with `failure` set when the runtime refused.
WAVEFIT_FUNC const device_limits* cached_device_limits(int device, query_failure& failure);

// The kernel's state on `device` (whose limits are `limits`), read once; `device` must be current.
WAVEFIT_FUNC kernel_state* cached_kernel_state(int device, const void* kernel, backend::stream_type stream,
                                               const device_limits& limits, query_failure& failure);

// "NVIDIA H200 (sm_90)": the device's name, read now (a failure path), with its architecture.
WAVEFIT_FUNC std::string device_display(int device, const device_limits& limits);

// The kernel's name for messages: demangled where the platform can, else as the runtime gives it.
WAVEFIT_FUNC std::string kernel_display(const kernel_state& k);

// How many GPUs the runtime sees, asked once; `error` is what the count query returned.
struct visible_devices {
    int count = 0;
    backend::error_type error = backend::success;
};
WAVEFIT_FUNC const visible_devices& visible_device_state() noexcept;

// Raises the kernel's dynamic shared memory limit to at least `bytes` (CUDA's opt-in above the
// default), once per kernel and size however many threads ask.
WAVEFIT_FUNC backend::error_type raise_dynamic_shared(kernel_state& k, const void* kernel, std::uint64_t bytes);

// The dynamic shared memory a kernel may request without raising its attribute: the per-block
// default minus its static part.
constexpr std::uint64_t default_dynamic_shared(const device_limits& d, const kernel_resources& k) noexcept {
    return d.shared_per_block > k.static_shared ? d.shared_per_block - k.static_shared : 0;
}

}  // namespace detail

// The launch-relevant limits of device `device` as the runtime reports them, with its name, read
// once and cached. Throws launch_error if the runtime cannot be queried (no GPU, bad index).
WAVEFIT_FUNC const device_limits& device_limits_for(int device);

// The limits of the calling thread's current device.
WAVEFIT_FUNC const device_limits& current_device_limits();

// How many GPUs the runtime sees; 0 (not an error) when there are none or no driver.
WAVEFIT_FUNC int visible_device_count() noexcept;

WAVEFIT_END_NAMESPACE
