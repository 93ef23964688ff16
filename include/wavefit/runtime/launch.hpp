// SPDX-License-Identifier: MIT
// wavefit::launch and wavefit::try_launch: the drop-in for hipLaunchKernelGGL / kernel<<<...>>>.
// Every launch is validated against the device of its stream and the kernel's own attributes before
// the runtime is called, so a rejected launch leaves no runtime error behind; the runtime's own error
// is then checked and reported with the same kind of message. Launches by element count, extent or
// unit count plan the configuration with the core's configure() from a cached recipe: no runtime
// query and no occupancy scan per launch.
#pragma once

#include <cstdint>  // sizes
#include <new>      // std::bad_alloc
#include <string>   // messages on failure
#include <utility>  // std::forward

#include "../detail/text.hpp"
#include "../explain.hpp"
#include "../launch_config.hpp"
#include "../plan.hpp"
#include "../validate.hpp"
#include "backend.hpp"
#include "device_state.hpp"
#include "kernel_arguments.hpp"
#include "launch_error.hpp"
#include "tuning.hpp"

namespace wavefit {

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

// The device a launch into `stream` runs on, and the calling thread's current device.
struct launch_device {
    int device = 0;
    int current = 0;
    bool is_current() const noexcept { return device == current; }
};

// hip/cudaGetDevice and hip/cudaStreamGetDevice cost tens of nanoseconds each (bench/RESULTS.md);
// with one visible GPU every stream is on device 0 and both queries are skipped.
inline bool find_launch_device(backend::stream_type stream, launch_device& where, launch_result& r) noexcept {
    if (only_one_visible_device()) return true;
    if (const backend::error_type e = backend::current_device(where.current); e != backend::success) {
        fail_runtime(r, e, "to report the current device");
        r.device = "the current device";
        return false;
    }
    where.device = where.current;
    if (reinterpret_cast<std::uintptr_t>(stream) > 2) {
        if (const backend::error_type e = backend::stream_device(where.device, stream); e != backend::success) {
            fail_runtime(r, e, "to report the stream's device");
            r.device = "the stream's device";
            return false;
        }
    }
    return true;
}

inline launch_key key_for(int device, const void* kernel) noexcept {
    launch_key key;
    key.device = device;
    key.kernel = kernel;
    return key;
}

inline launch_key key_for(int device, const void* kernel, const work& w) noexcept {
    launch_key key = key_for(device, kernel);
    key.planned = true;
    // Tuned choices differ by size bucket; the plan does not (configure() sizes it per launch).
    if (tuning_active()) {
        key.size_bucket = size_bucket(w.size());
        key.unit_bucket = w.kind == work_kind::per_block ? unit_bucket_of(w.unit_size) : 0;
        key.generation = tuning_state::get().generation();
    }
    key.kind = w.kind;
    key.grid = w.options.grid;
    key.spread_small_work = w.options.spread_small_work;
    key.grid_factor = w.options.grid == grid_policy::saturate  ? w.options.saturation_rounds
                      : w.options.grid == grid_policy::coarsen ? w.options.items_per_thread
                                                               : 0;
    key.dynamic_shared = w.options.dynamic_shared;
    key.min_efficient_block = w.options.min_efficient_block;
    return key;
}

// The entry for `key`: the device's limits, the kernel's state and, for planned work, its recipe:
// the plan's, or while tuning is on a tuned one (`tune_here`, when given, runs the kernel with the
// caller's arguments to tune in place). Kernel attributes are per device, so they are read with the
// launch's device current.
inline launch_entry make_entry(const launch_key& key, const launch_device& where, backend::stream_type stream, const work* w,
                               const launch_arguments* tune_here) {
    launch_entry e;
    e.device = key.device;
    e.address = key.kernel;
    e.limits = &cached_device_limits(key.device);
    const backend::device_guard on_device(where.device, where.current, !where.is_current());
    if (on_device.error() != backend::success)
        throw query_exception{{on_device.error(), "making the stream's device current"}};
    e.kernel = &cached_kernel_state(key.device, key.kernel, stream, *e.limits);
    if (w != nullptr) {
        e.recipe = planned_recipe(*e.limits, e.kernel->resources, *w);
        if (e.recipe.threads != 0 && tuning_active()) e.recipe = tuned_or_planned(e, *w, e.recipe, tune_here, stream);
    }
    return e;
}

inline void out_of_memory(launch_result& r) noexcept {
    r.status = launch_status::runtime_failed;
    r.runtime_code = 0;
    r.message.clear();  // nothing more can be allocated; the status says what happened
}

// The entry of a launch, or nullptr with `r` saying why (a failed runtime query).
inline const launch_entry* resolve(const launch_key& key, const launch_device& where, backend::stream_type stream,
                                   const work* w, launch_result& r, const launch_arguments* tune_here = nullptr) noexcept {
    try {
        return &launch_cache::get(key, [&] { return make_entry(key, where, stream, w, tune_here); });
    } catch (const query_exception& q) {
        fail_runtime(r, q.failure.code, std::string(q.failure.what) + " on device " + std::to_string(key.device));
        r.device = "device " + std::to_string(key.device);
    } catch (const std::bad_alloc&) {
        out_of_memory(r);
    }
    return nullptr;
}

// The failing launch's own names, for the result and the exception: no runtime query needed.
inline void name_failure(launch_result& r, const launch_entry& e) {
    r.kernel = e.kernel->name;
    r.device = device_text(*e.limits);
}

inline std::string launch_text(const launch_entry& e, const launch_config& cfg) {
    return e.kernel->name + " with grid " + dims_text(cfg.grid) + ", block " + dims_text(cfg.block) +
           (cfg.dynamic_shared ? ", " + bytes_text(cfg.dynamic_shared) + " of dynamic shared memory" : std::string()) +
           " on " + device_text(*e.limits);
}

inline void reject(launch_result& r, const findings& problems, const launch_entry& e, const launch_config& cfg) {
    const finding* first = problems.first_error();
    r.status = launch_status::rejected;
    r.diagnostic = first->code;
    const diagnostic d = describe(*first, *e.limits, e.kernel->resources, cfg);
    r.message = "wavefit rejected launching " + launch_text(e, cfg) + " [" + std::string(to_string(d.code)) +
                "]: " + d.message + ". Fix: " + d.fix;
    std::size_t more = 0;
    for (const finding& f : problems)
        if (f.severity() == severity::error && &f != first) ++more;
    if (more > 0) r.message += " (and " + plural(more, "more error") + "; `wavefit check` lists them all)";
    name_failure(r, e);
}

// No block of this kernel can run on this device: report why with the full plan (the slow path is fine).
inline void reject_infeasible(launch_result& r, const launch_entry& e, const work& w) {
    const launch_plan p = plan_with_recipe(*e.limits, e.kernel->resources, w, e.recipe);
    r.config = p.config();
    if (p.problems.has_error()) {
        reject(r, p.problems, e, problems_config(p, *e.limits, e.kernel->resources));
        return;
    }
    r.status = launch_status::rejected;
    r.message = "wavefit found no block size with which " + e.kernel->name + " can run on " + device_text(*e.limits);
    name_failure(r, e);
}

// CUDA's opt-in above the default per-block shared memory, raised once per kernel and size.
inline bool ensure_dynamic_shared(launch_result& r, const launch_entry& e, const void* kernel, std::uint64_t bytes) {
    if (const backend::error_type err = raise_dynamic_shared(*e.kernel, kernel, bytes); err != backend::success) {
        fail_runtime(r, err, "to raise the dynamic shared memory limit of " + e.kernel->name + " to " + bytes_text(bytes));
        name_failure(r, e);
        return false;
    }
    return true;
}

// The runtime refused a launch that relies on the dynamic shared memory opt-in. If the program
// lowered the kernel's max-dynamic-shared-memory attribute after wavefit raised it, wavefit's cached
// limit is stale: it is re-read, raised again once, and the launch retried. Returns the retry's
// error (success when it worked), or `failed` when the attribute is not the cause; `note` says what
// was found, for the message.
inline backend::error_type retry_after_stale_opt_in(const launch_entry& e, const void* kernel, const launch_config& cfg,
                                                    const dim3& grid, const dim3& block, void** args,
                                                    backend::stream_type stream, backend::error_type failed,
                                                    std::string& note) {
    kernel_state& k = *e.kernel;
    kernel_resources now{};
    std::uint64_t current_limit = 0;
    (void)backend::take_last_error();
    if (backend::read_kernel_resources(now, current_limit, kernel) != backend::success) {
        (void)backend::take_last_error();
        return failed;
    }
    if (current_limit >= cfg.dynamic_shared) return failed;
    std::lock_guard<std::mutex> lock(k.opt_in_mutex);
    note = "; the kernel's max-dynamic-shared-memory attribute read " + bytes_text(current_limit) + ", below the " +
           bytes_text(cfg.dynamic_shared) + " wavefit had raised it to: it was changed outside wavefit";
    k.dynamic_shared_limit.store(current_limit, std::memory_order_release);
    if (const backend::error_type err = backend::set_max_dynamic_shared(kernel, static_cast<int>(cfg.dynamic_shared));
        err != backend::success) {
        note += ", and raising it again failed (" + runtime_error_text(err) + ")";
        (void)backend::take_last_error();
        return failed;
    }
    k.dynamic_shared_limit.store(cfg.dynamic_shared, std::memory_order_release);
    const backend::error_type retried =
        backend::launch_kernel(kernel, grid, block, args, static_cast<std::size_t>(cfg.dynamic_shared), stream);
    if (retried != backend::success)
        note +=
            "; wavefit raised it again and retried, and the runtime still refused the launch. Keep the attribute at "
            "or above the largest dynamic shared memory you launch with, or let wavefit::launch manage it";
    return retried;
}

// Validate, opt in if needed, launch, check. `args` are the packed kernel arguments.
inline void validated_launch(launch_result& r, const launch_entry& e, const launch_device& where, const void* kernel,
                             const launch_config& cfg, void** args, backend::stream_type stream) {
    r.config = cfg;
    if (has_launch_errors(*e.limits, e.kernel->resources, cfg, e.kernel->register_bound)) {
        reject(r, find_problems(*e.limits, e.kernel->resources, cfg), e, cfg);
        return;
    }
    // CUDA refuses a launch into a stream of a device that is not current, and the opt-in is per device.
    const backend::device_guard on_device(where.device, where.current, !where.is_current());
    if (on_device.error() != backend::success) {
        fail_runtime(r, on_device.error(), "to make device " + std::to_string(where.device) + " (the stream's) current");
        name_failure(r, e);
        return;
    }
    if (!ensure_dynamic_shared(r, e, kernel, cfg.dynamic_shared)) return;
    // Validation bounded every dimension by the device's 32-bit limits, so the narrowing is exact.
    const dim3 grid(static_cast<unsigned>(cfg.grid.x), static_cast<unsigned>(cfg.grid.y), static_cast<unsigned>(cfg.grid.z));
    const dim3 block(static_cast<unsigned>(cfg.block.x), static_cast<unsigned>(cfg.block.y),
                     static_cast<unsigned>(cfg.block.z));
    backend::error_type err =
        backend::launch_kernel(kernel, grid, block, args, static_cast<std::size_t>(cfg.dynamic_shared), stream);
    std::string note;
    if (err != backend::success && cfg.dynamic_shared > default_dynamic_shared(*e.limits, e.kernel->resources))
        err = retry_after_stale_opt_in(e, kernel, cfg, grid, block, args, stream, err, note);
    if (err != backend::success) {
        fail_runtime(r, err, "launching " + launch_text(e, cfg));
        r.message += note;
        name_failure(r, e);
        return;
    }
    r.status = launch_status::launched;
}

template <class Kernel>
const void* kernel_address(Kernel* kernel) noexcept {
    return reinterpret_cast<const void*>(kernel);
}

}  // namespace detail

// Launches `kernel` with an explicit configuration. Returns the outcome instead of throwing.
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const launch_config& cfg, backend::stream_type stream,
                         Args&&... args) noexcept {
    launch_result r;
    r.config = cfg;
    try {
        detail::packed_arguments<Params...> packed(std::forward<Args>(args)...);
        detail::launch_device where;
        if (!detail::find_launch_device(stream, where, r)) return r;
        const void* address = detail::kernel_address(kernel);
        const detail::launch_entry* e = detail::resolve(detail::key_for(where.device, address), where, stream, nullptr, r);
        if (e == nullptr) return r;
        detail::validated_launch(r, *e, where, address, cfg, packed.addresses(), stream);
    } catch (const std::bad_alloc&) {
        detail::out_of_memory(r);
    }
    return r;
}

// Launches `kernel` over planned work: an element count, an extent or one block per unit.
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const work& w, backend::stream_type stream, Args&&... args) noexcept {
    launch_result r;
    try {
        detail::packed_arguments<Params...> packed(std::forward<Args>(args)...);
        detail::launch_device where;
        if (!detail::find_launch_device(stream, where, r)) return r;
        const void* address = detail::kernel_address(kernel);
        // In WAVEFIT_TUNING=tune mode, the first launch of a (kernel, size bucket) may tune in place with these arguments.
        const detail::launch_arguments here{address, packed.addresses(), stream};
        const detail::launch_entry* e =
            detail::resolve(detail::key_for(where.device, address, w), where, stream, &w, r, &here);
        if (e == nullptr) return r;
        if (e->recipe.threads == 0) {
            detail::reject_infeasible(r, *e, w);
            return r;
        }
        const detail::configured_launch cl = detail::configure(*e->limits, e->recipe, w);
        if (cl.empty) {
            r.status = launch_status::nothing_to_launch;
            r.config = cl.config;
            return r;
        }
        detail::validated_launch(r, *e, where, address, cl.config, packed.addresses(), stream);
    } catch (const std::bad_alloc&) {
        detail::out_of_memory(r);
    }
    return r;
}

// Launches over `elements` items, one per thread where the device allows; the kernel must cover
// [0, elements) with wavefit::grid_stride(elements) (or its own grid-stride loop), because the
// grid is clamped where the device cannot hold one thread per element (2^32-1 work-items on AMD).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), std::uint64_t elements, backend::stream_type stream,
                         Args&&... args) noexcept {
    return try_launch(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

// Launches over a 2-D/3-D extent; a clamped axis must be strided (wavefit::grid_stride_axis).
template <class... Params, class... Args>
launch_result try_launch(void (*kernel)(Params...), const dims& extent, backend::stream_type stream,
                         Args&&... args) noexcept {
    return try_launch(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

// Tunes `kernel` for `w` on `stream`: runs it with `args` in each candidate configuration (at most
// 64; about half a second of device time), chooses the fastest if it beats the plan by more than the
// measured noise, keeps the record for this process (planned launches use it while tuning is on:
// WAVEFIT_TUNING=use or set_tuning_mode) and adds it to WAVEFIT_TUNING_FILE when that is set.
// The kernel runs many times with these arguments: unless it is idempotent (its outputs do not
// depend on its earlier outputs), pass scratch buffers.
template <class... Params, class... Args>
tuning_result tune(void (*kernel)(Params...), const work& w, backend::stream_type stream, Args&&... args) {
    tuning_result out;
    try {
        detail::packed_arguments<Params...> packed(std::forward<Args>(args)...);
        if (w.is_empty()) {
            out.message = "nothing to tune: the work is empty";
            return out;
        }
        launch_result r;
        detail::launch_device where;
        const void* address = detail::kernel_address(kernel);
        const detail::launch_entry* e =
            detail::find_launch_device(stream, where, r)
                ? detail::resolve(detail::key_for(where.device, address), where, stream, nullptr, r)
                : nullptr;
        if (e == nullptr) {
            out.message = r.message;
            return out;
        }
        tuning_record record;
        if (!detail::tuning_key_for(*e, w, record.key)) {
            out.message = "the runtime gives " + e->kernel->name + " no name to key a tuning record by";
            return out;
        }
        const backend::device_guard on_device(where.device, where.current, !where.is_current());
        backend::error_type err = on_device.error();
        if (err == backend::success) err = detail::raise_dynamic_shared(*e->kernel, address, w.options.dynamic_shared);
        if (err != backend::success) {
            (void)backend::take_last_error();
            out.message = "preparing the launches failed: " + detail::runtime_error_text(err);
            return out;
        }
        const detail::launch_arguments a{address, packed.addresses(), stream};
        out = detail::measure_and_choose(
            *e->limits, e->kernel->resources, w, [a](const launch_config& c) { return detail::launch_candidate(a, c); },
            stream, record);
        if (out.ok) detail::tuning_state::get().store(record);
    } catch (const std::bad_alloc&) {
        out.ok = false;
        out.message = "out of memory while tuning";
    }
    return out;
}

template <class... Params, class... Args>
tuning_result tune(void (*kernel)(Params...), std::uint64_t elements, backend::stream_type stream, Args&&... args) {
    return tune(kernel, work::elements(elements), stream, std::forward<Args>(args)...);
}

template <class... Params, class... Args>
tuning_result tune(void (*kernel)(Params...), const dims& extent, backend::stream_type stream, Args&&... args) {
    return tune(kernel, work::over(extent), stream, std::forward<Args>(args)...);
}

// The throwing forms: the same as try_launch, raising wavefit::launch_error on failure. A launch
// with nothing to do (0 elements) is not a failure.
template <class Kernel, class Shape, class... Args>
void launch(Kernel* kernel, const Shape& shape, backend::stream_type stream, Args&&... args) {
    const launch_result r = try_launch(kernel, shape, stream, std::forward<Args>(args)...);
    if (!r.ok()) throw launch_error(r);
}

// The attributes of a real kernel on the current device (read once and cached).
template <class... Params>
const kernel_resources& kernel_resources_for(void (*kernel)(Params...)) {
    launch_result r;
    detail::launch_device where;
    if (!detail::find_launch_device(nullptr, where, r)) throw launch_error(r);
    const detail::launch_entry* e =
        detail::resolve(detail::key_for(where.device, detail::kernel_address(kernel)), where, nullptr, nullptr, r);
    if (e == nullptr) throw launch_error(r);
    return e->kernel->resources;
}

// Plans and occupancy for a real kernel on the current device.
template <class... Params>
launch_plan plan(void (*kernel)(Params...), const work& w) {
    return plan(current_device_limits(), kernel_resources_for(kernel), w);
}

template <class... Params>
launch_plan plan(void (*kernel)(Params...), std::uint64_t elements, const plan_options& options = {}) {
    return plan(kernel, work::elements(elements, options));
}

template <class... Params>
launch_plan plan(void (*kernel)(Params...), const dims& extent, const plan_options& options = {}) {
    return plan(kernel, work::over(extent, options));
}

template <class... Params>
occupancy_report occupancy(void (*kernel)(Params...), std::uint64_t block_threads, std::uint64_t dynamic_shared = 0) {
    return occupancy(current_device_limits(), kernel_resources_for(kernel), block_threads, dynamic_shared);
}

}  // namespace wavefit
