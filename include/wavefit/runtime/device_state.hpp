// SPDX-License-Identifier: MIT
// What the runtime layer remembers, and the types of its caches: each device's limits (read once),
// each kernel's attributes per device (read once), and the entry of the launch table every launch
// looks up: per (device, kernel, work shape and contract) the pointers and the block recipe a launch
// needs, computed once. A repeated launch, of one kernel or of dozens in turn, finds its entry with a
// hash and a comparison (without a lock unless the entry sits in the table's overflow list:
// once_table.hpp), and runs no occupancy scan and no attribute query; with more than one visible
// GPU it still asks the runtime for the current device and, unless the stream is a default one, for
// the stream's device (and makes that device current for the launch when it is another). This header
// only declares: the tables and the functions are defined in launch_impl.hpp, which launch.hpp
// includes in header-only mode and <wavefit/compiled.hpp> in the compiled library
// (WAVEFIT_SEPARATE_COMPILATION).
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
#include "launch_key.hpp"
#include "../detail/planning.hpp"
#include "../detail/launch_rules.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// One kernel on one device: its compiled resources and how far its dynamic shared memory limit has
// been raised (CUDA's opt-in is per kernel and persists, so it is set at most once per size).
struct kernel_state {
    kernel_resources resources;
    std::uint64_t register_bound = 0;  // register_bound_threads(device, resources): checked per launch
    int device = -1;
    const void* address = nullptr;     // the kernel, for its name
    // The runtime's name for it, asked the first time a message or a tuning record needs it (never on
    // a launch's path: mangled_name); the runtime owns the text.
    mutable std::atomic<const char*> runtime_name{nullptr};
    std::atomic<std::uint64_t> dynamic_shared_limit{0};
    std::mutex opt_in_mutex;
};

// Everything a launch needs once its key is known. Pointers into the caches stay valid forever. What a
// cached launch reads comes first, right after the key in the table's node, so that a launch after a
// driver call finds few lines to fetch: the shared memory it may use without the opt-in, then the
// closed form (a planned launch reads its head and one step, or its configuration); the bounds an
// explicit configuration is checked against follow. The rest is read when the entry is made or a
// launch fails.
struct launch_entry {
    // The dynamic shared memory a launch may use without the opt-in, and what validating a launch
    // compares with (from *limits and *kernel): beside the key, so a launch reads neither record.
    std::uint64_t default_dynamic_shared = 0;
    count_scaling scaling{};     // planned 1-D work of many items: the recipe's configuration in closed form
    launch_bounds bounds{};
    int device = -1;
    const void* address = nullptr;  // the kernel
    const device_limits* limits = nullptr;
    kernel_state* kernel = nullptr;
    bool keep_baseline = true;   // a work that replaces a configuration: no tuning record replaced it
    launch_recipe recipe{};      // planned work: the block and grid policy (recipe.threads 0: none runs)
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
WAVEFIT_FUNC kernel_state* cached_kernel_state(int device, const void* kernel, const device_limits& limits,
                                               query_failure& failure);

// "NVIDIA H200 (sm_90)": the device's name, read now (a failure path), with its architecture.
WAVEFIT_FUNC std::string device_display(int device, const device_limits& limits);

// The runtime's (mangled) name for the kernel, asked on first need with its device current; empty where
// the runtime cannot say. Two threads may both ask at once: the runtime gives both the same name.
WAVEFIT_FUNC std::string mangled_name(const kernel_state& k);

// The kernel's name for messages: demangled where the platform can, else as the runtime gives it.
WAVEFIT_FUNC std::string kernel_display(const kernel_state& k);

// How many GPUs the runtime sees, asked once (process_state.hpp); `error` is what the count query returned.
struct visible_devices {
    int count = 0;
    backend::error_type error = backend::success;
};
WAVEFIT_FUNC visible_devices visible_device_state() noexcept;

// Raises the kernel's dynamic shared memory limit to at least `bytes` (CUDA's opt-in above the
// default), once per kernel and size however many threads ask.
WAVEFIT_FUNC backend::error_type raise_dynamic_shared(kernel_state& k, const void* kernel, std::uint64_t bytes);

// The dynamic shared memory a kernel may request without raising its attribute: the per-block
// default minus its static part.
constexpr std::uint64_t default_dynamic_shared(const device_limits& d, const kernel_resources& k) noexcept {
    return d.shared_per_block > k.static_shared ? d.shared_per_block - k.static_shared : 0;
}

}  // namespace detail

WAVEFIT_END_NAMESPACE
