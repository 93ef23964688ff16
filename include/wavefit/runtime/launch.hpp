// SPDX-License-Identifier: MIT
// wavefit::launch and wavefit::try_launch: the drop-in for hipLaunchKernelGGL / kernel<<<...>>>.
// Every launch is validated against the device and the kernel's own attributes before the runtime
// is called, so a rejected launch leaves no runtime error behind; the runtime's own error is then
// checked and reported with the same kind of message. Launches by element count or extent plan the
// configuration from cached block choices: no runtime query and no occupancy scan per launch.
#pragma once

#include <cstdint>      // sizes
#include <new>          // std::bad_alloc
#include <string>       // messages on failure
#include <utility>      // std::forward

#include "../detail/text.hpp"
#include "../explain.hpp"
#include "../launch_config.hpp"
#include "../plan.hpp"
#include "../validate.hpp"
#include "backend.hpp"
#include "device_state.hpp"
#include "kernel_arguments.hpp"
#include "launch_error.hpp"

namespace wavefit {

// Work for a planned launch: an element count (1-D, block capped at max_block.x) or an extent,
// with the planning options (dynamic shared memory per block, the efficient-block floor).
struct work {
    dims extent{0, 1, 1};
    bool one_dimensional = true;
    plan_options options{};

    static constexpr work elements(std::uint64_t n, const plan_options& o = {}) noexcept { return {dims{n, 1, 1}, true, o}; }
    static constexpr work over(const dims& e, const plan_options& o = {}) noexcept { return {e, false, o}; }
};

// A configuration whose block is a compile-time constant: a block no device allows (0 threads,
// more than 1024 threads, or a dimension above 1024) does not compile.
template <std::uint32_t X, std::uint32_t Y = 1, std::uint32_t Z = 1>
struct static_launch_config {
    static_assert(X > 0 && Y > 0 && Z > 0, "wavefit: a block dimension of 0 never launches");
    static_assert(X <= 1024 && Y <= 1024 && Z <= 1024, "wavefit: no GPU allows a block dimension above 1024");
    static_assert(std::uint64_t{X} * Y * Z <= 1024, "wavefit: no GPU allows more than 1024 threads per block");
    static constexpr dims block{X, Y, Z};

    dims grid;
    std::uint64_t dynamic_shared = 0;

    constexpr operator launch_config() const noexcept { return launch_config{grid, block, dynamic_shared}; }
};

namespace detail {

// The device and kernel a launch goes to. Pointers into the caches stay valid forever.
struct launch_target {
    int device = -1;
    const device_limits* limits = nullptr;
    kernel_state* kernel = nullptr;
};

inline void fail_runtime(launch_result& r, backend::error_type e, const std::string& doing) {
    r.status = launch_status::runtime_failed;
    r.runtime_code = static_cast<int>(e);
    r.message = std::string(backend::runtime_name) + " failed " + doing + ": " + runtime_error_text(e);
    if (const error_explanation* x = find_explanation(backend::error_name(e) ? backend::error_name(e) : ""))
        r.message += ". " + std::string(x->meaning);
    // A failed call leaves its error as the runtime's "last error"; wavefit has reported it, so the
    // user's next error check must not see it a second time.
    (void)backend::take_last_error();
}

// Whether the process sees exactly one GPU, asked once (the count cannot change in a process).
inline bool only_one_visible_device() noexcept {
    static const bool one = visible_device_count() == 1;
    return one;
}

// Finds the current device and the kernel's cached state. The last kernel each thread launched is
// remembered, so a loop of launches costs one cudaGetDevice/hipGetDevice and a compare.
inline bool resolve_target(const void* kernel, backend::stream_type stream, launch_target& t, launch_result& r) noexcept {
    thread_local launch_target last{};
    thread_local const void* last_kernel = nullptr;
    int device = 0;
    // hip/cudaGetDevice costs about 67 ns on the H200's host (bench/RESULTS.md), 1.3% of a launch.
    // With one visible GPU the current device can only be 0, so the query is skipped.
    if (!only_one_visible_device()) {
        if (const backend::error_type e = backend::current_device(device); e != backend::success) {
            fail_runtime(r, e, "to report the current device");
            return false;
        }
    }
    if (kernel == last_kernel && device == last.device) {
        t = last;
        return true;
    }
    try {
        t.device = device;
        t.limits = &cached_device_limits(device);
        t.kernel = &cached_kernel_state(device, kernel, stream, *t.limits);
    } catch (const query_exception& q) {
        fail_runtime(r, q.failure.code, std::string(q.failure.what) + " on device " + std::to_string(device));
        return false;
    } catch (const std::bad_alloc&) {
        r.status = launch_status::runtime_failed;
        r.message = "out of memory while caching the kernel's attributes";
        return false;
    }
    last = t;
    last_kernel = kernel;
    return true;
}

inline std::string launch_text(const launch_target& t, const launch_config& cfg) {
    return t.kernel->name + " with grid " + dims_text(cfg.grid) + ", block " + dims_text(cfg.block) +
           (cfg.dynamic_shared ? ", " + bytes_text(cfg.dynamic_shared) + " of dynamic shared memory" : std::string()) +
           " on " + device_text(*t.limits);
}

inline void reject(launch_result& r, const findings& problems, const launch_target& t, const launch_config& cfg) {
    const finding* first = problems.first_error();
    r.status = launch_status::rejected;
    r.diagnostic = first->code;
    const diagnostic d = describe(*first, *t.limits, t.kernel->resources, cfg);
    r.message = "wavefit rejected launching " + launch_text(t, cfg) + " [" + std::string(to_string(d.code)) + "]: " +
                d.message + ". Fix: " + d.fix;
    std::size_t more = 0;
    for (const finding& f : problems)
        if (f.severity() == severity::error && &f != first) ++more;
    if (more > 0) r.message += " (and " + plural(more, "more error") + "; `wavefit check` lists them all)";
}

// CUDA's opt-in above the default per-block shared memory, raised once per kernel and size.
inline bool ensure_dynamic_shared(launch_result& r, const launch_target& t, const void* kernel, std::uint64_t bytes) {
    kernel_state& k = *t.kernel;
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_acquire)) return true;
    std::lock_guard<std::mutex> lock(k.opt_in_mutex);
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_relaxed)) return true;
    if (const backend::error_type e = backend::set_max_dynamic_shared(kernel, static_cast<int>(bytes)); e != backend::success) {
        fail_runtime(r, e, "to raise the dynamic shared memory limit of " + k.name + " to " + bytes_text(bytes));
        return false;
    }
    k.dynamic_shared_limit.store(bytes, std::memory_order_release);
    return true;
}

// Validate, opt in if needed, launch, check. `args` are the packed kernel arguments.
inline void validated_launch(launch_result& r, const launch_target& t, const void* kernel, const launch_config& cfg,
                             void** args, backend::stream_type stream) {
    r.config = cfg;
    if (has_launch_errors(*t.limits, t.kernel->resources, cfg, t.kernel->register_bound)) {
        reject(r, find_problems(*t.limits, t.kernel->resources, cfg), t, cfg);
        return;
    }
    if (!ensure_dynamic_shared(r, t, kernel, cfg.dynamic_shared)) return;
    // Validation bounded every dimension by the device's 32-bit limits, so the narrowing is exact.
    const dim3 grid(static_cast<unsigned>(cfg.grid.x), static_cast<unsigned>(cfg.grid.y), static_cast<unsigned>(cfg.grid.z));
    const dim3 block(static_cast<unsigned>(cfg.block.x), static_cast<unsigned>(cfg.block.y), static_cast<unsigned>(cfg.block.z));
    if (const backend::error_type e = backend::launch_kernel(kernel, grid, block, args, static_cast<std::size_t>(cfg.dynamic_shared), stream);
        e != backend::success) {
        fail_runtime(r, e, "launching " + launch_text(t, cfg));
        return;
    }
    r.status = launch_status::launched;
}

// The configuration for planned work, from the cached block choice; the same arithmetic as plan().
inline bool planned_config(launch_result& r, const launch_target& t, const void* kernel, const work& w, launch_config& cfg) {
    const device_limits& d = *t.limits;
    const plan_key key{t.device, kernel, w.options.dynamic_shared, w.options.min_efficient_block, w.one_dimensional};
    // The block choice does not depend on the grid policy; the grid is computed per launch.
    // Each thread remembers its last block choice, so repeated launches of one kernel skip even the
    // shared-lock lookup; entries are never erased, so the pointer stays valid.
    thread_local plan_key last_key{-1, nullptr, 0, 0, false};
    thread_local const block_choice* last_choice = nullptr;
    if (last_choice == nullptr || !(last_key == key)) {
        last_choice = &block_choice_cache().get(key, [&] {
            return choose_block(d, t.kernel->resources, w.options, w.one_dimensional ? d.max_block.x : u64_max);
        });
        last_key = key;
    }
    const block_choice& c = *last_choice;
    if (c.threads == 0) {
        // No block of this kernel can run: report why with the full plan (the slow path is fine here).
        const launch_plan p = w.one_dimensional ? plan(d, t.kernel->resources, w.extent.x, w.options)
                                                : plan(d, t.kernel->resources, w.extent, w.options);
        r.config = p.config();
        if (p.problems.has_error()) {
            reject(r, p.problems, t, problems_config(p, d, t.kernel->resources));
        } else {
            r.status = launch_status::rejected;
            r.message = "wavefit found no block size with which " + t.kernel->name + " can run on " + device_text(d);
        }
        return false;
    }
    const std::uint64_t elements = w.extent.volume();
    if (elements == 0) {
        r.status = launch_status::nothing_to_launch;
        // The block plan() reports for no work: an extent's is shaped like a non-empty one's.
        const dims block = w.one_dimensional ? dims{c.threads} : detail::shape_block(d, c.threads, w.extent);
        r.config = launch_config{dims{0}, block, w.options.dynamic_shared};
        return false;
    }
    const std::uint64_t threads = block_for_work(d, c, elements, w.options);
    grid_clamp clamp = grid_clamp::none;
    if (w.one_dimensional) {
        cfg = launch_config{dims{grid_for_elements(d, c, threads, w.extent.x, w.options, clamp)}, dims{threads},
                            w.options.dynamic_shared};
    } else {
        const dims block = shape_block(d, threads, w.extent);
        dims grid{1, 1, 1};
        grid.x = grid_for_extent(d, 0, w.extent.x, block.x, clamp);
        grid.y = grid_for_extent(d, 1, w.extent.y, block.y, clamp);
        grid.z = grid_for_extent(d, 2, w.extent.z, block.z, clamp);
        cfg = launch_config{grid, block, w.options.dynamic_shared};
    }
    return true;
}

inline void out_of_memory(launch_result& r) noexcept {
    r.status = launch_status::runtime_failed;
    r.runtime_code = 0;
    r.message.clear();  // nothing more can be allocated; the status says what happened
}

template <class Kernel>
const void* kernel_address(Kernel* kernel) noexcept {
    return reinterpret_cast<const void*>(kernel);
}

}  // namespace detail

// Launches `kernel` with an explicit configuration. Returns the outcome instead of throwing.
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const launch_config& cfg, backend::stream_type stream, Args&&... args) noexcept {
    launch_result r;
    r.config = cfg;
    try {
        detail::packed_arguments<Params...> packed(std::forward<Args>(args)...);
        detail::launch_target t;
        if (!detail::resolve_target(detail::kernel_address(kernel), stream, t, r)) return r;
        detail::validated_launch(r, t, detail::kernel_address(kernel), cfg, packed.addresses(), stream);
    } catch (const std::bad_alloc&) {
        detail::out_of_memory(r);
    }
    return r;
}

// Launches `kernel` over planned work (element count or extent).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const work& w, backend::stream_type stream, Args&&... args) noexcept {
    launch_result r;
    try {
        detail::packed_arguments<Params...> packed(std::forward<Args>(args)...);
        detail::launch_target t;
        if (!detail::resolve_target(detail::kernel_address(kernel), stream, t, r)) return r;
        launch_config cfg{dims{0}, dims{0}};
        if (!detail::planned_config(r, t, detail::kernel_address(kernel), w, cfg)) return r;
        detail::validated_launch(r, t, detail::kernel_address(kernel), cfg, packed.addresses(), stream);
    } catch (const std::bad_alloc&) {
        detail::out_of_memory(r);
    }
    return r;
}

// Launches over `elements` items, one per thread where the device allows; the kernel must cover
// [0, elements) with wavefit::grid_stride(elements) (or its own grid-stride loop), because the
// grid is clamped where the device cannot hold one thread per element (2^32-1 work-items on AMD).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), std::uint64_t elements, backend::stream_type stream, Args&&... args) noexcept {
    return try_launch(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

// Launches over a 2-D/3-D extent; a clamped axis must be strided (wavefit::grid_stride_axis).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const dims& extent, backend::stream_type stream, Args&&... args) noexcept {
    return try_launch(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

namespace detail {

template <class... Params>
[[noreturn]] void throw_launch_error(void (*kernel)(Params...), const launch_result& r) {
    std::string kernel_name, device;
    int current = 0;
    if (backend::current_device(current) == backend::success) {
        if (const device_limits* d = device_limits_cache().find(current)) device = device_text(*d);
        if (const auto* state = kernel_cache().find(kernel_key{current, kernel_address(kernel)})) kernel_name = (*state)->name;
    }
    throw launch_error(r, kernel_name, device);
}

}  // namespace detail

// The throwing forms: the same as try_launch, raising wavefit::launch_error on failure. A launch
// with nothing to do (0 elements) is not a failure.
template <class Kernel, class Shape, class... Args>
void launch(Kernel* kernel, const Shape& shape, backend::stream_type stream, Args&&... args) {
    const launch_result r = try_launch(kernel, shape, stream, std::forward<Args>(args)...);
    if (!r.ok()) detail::throw_launch_error(kernel, r);
}

// Plans and occupancy for a real kernel on the current device (from its cached attributes).
template <class... Params>
const kernel_resources& kernel_resources_for(void (*kernel)(Params...)) {
    launch_result r;
    detail::launch_target t;
    if (!detail::resolve_target(detail::kernel_address(kernel), nullptr, t, r)) detail::throw_launch_error(kernel, r);
    return t.kernel->resources;
}

template <class... Params>
launch_plan plan(void (*kernel)(Params...), std::uint64_t elements, const plan_options& options = {}) {
    return plan(current_device_limits(), kernel_resources_for(kernel), elements, options);
}

template <class... Params>
launch_plan plan(void (*kernel)(Params...), const dims& extent, const plan_options& options = {}) {
    return plan(current_device_limits(), kernel_resources_for(kernel), extent, options);
}

template <class... Params>
occupancy_report occupancy(void (*kernel)(Params...), std::uint64_t block_threads, std::uint64_t dynamic_shared = 0) {
    return occupancy(current_device_limits(), kernel_resources_for(kernel), block_threads, dynamic_shared);
}

}  // namespace wavefit
