// SPDX-License-Identifier: MIT
// The definitions behind launch.hpp and device_state.hpp: the caches, the one launch path and the
// failure messages (a refused launch's sentences through the registered explainer,
// launch_explainer.hpp, so that a launch file does not compile them). Included by launch.hpp in
// header-only mode, and by <wavefit/compiled.hpp> in the one translation unit of the compiled library
// (WAVEFIT_SEPARATE_COMPILATION).
//
// The path of a launch: find the stream's device (skipped with one visible GPU), look the launch's
// entry up in the launch table (computed once per device, kernel and work shape: limits, kernel
// attributes, the recipe, the bounds it is validated with), configure() the grid for this launch's
// size, validate with comparisons only, launch, check the runtime's error. Strings are built on
// failure only; nothing on the way throws, so try_launch works in code built with -fno-exceptions.
//
// wavefit::launch first runs that path quietly (`launch_result* r` null: no result, no text); only
// when it fails does the same path run again with a result to explain why (launch_planned or
// launch_configured, which try_launch calls directly). Running it again is safe: a failed launch ran
// no kernel, the cached steps are deterministic, and a runtime call that failed fails again the same
// way (or works, and the launch is made once). The quiet run clears the runtime's error it caused, so
// the explaining run reports its own. The hot path so carries neither the failure path's code nor a
// launch_result (bench/README.md, "Launch overhead after the quiet launch path" and "A lean cached
// launch" for what it costs now).
#pragma once
// Also a classic guard: launch.hpp and launch_impl.hpp include each other, and #pragma once does not
// hold for the main file (clang-tidy analyses each header as its own translation unit).
#ifndef WAVEFIT_RUNTIME_LAUNCH_IMPL_HPP
#define WAVEFIT_RUNTIME_LAUNCH_IMPL_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // sizes
#include <cstdio>   // the one warning about WAVEFIT_TUNING without the tuner
#include <cstdlib>  // std::getenv, std::free
#include <mutex>    // the opt-in
#include <string>   // messages on failure

#include "../config.hpp"
#include "../detail/text.hpp"
#include "../device_attributes.hpp"
#include "../detail/planning.hpp"
#include "../detail/launch_rules.hpp"
#include "backend.hpp"
#include "device_state.hpp"
#include "launch.hpp"
#include "launch_error.hpp"
#include "launch_explainer.hpp"
#include "once_table.hpp"
#include "process_state.hpp"
#include "tuning_switch.hpp"

#if defined(__GNUC__) || defined(__clang__)
// The Itanium C++ ABI's demangler (libstdc++, libc++abi), declared as <cxxabi.h> declares it so that
// a launch TU needs no header beyond the standard library and the GPU runtime. Used on failure only.
namespace __cxxabiv1 {
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): the ABI's own name
extern "C" char* __cxa_demangle(const char* mangled, char* buffer, std::size_t* length, int* status);
}
#define WAVEFIT_HAS_DEMANGLER 1
#endif

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// ------------------------------------------------------------------------------------- the caches

WAVEFIT_FUNC std::string runtime_error_text(backend::error_type e) {
    const char* name = backend::error_name(e);
    const char* text = backend::error_string(e);
    return concat({name ? name : "unknown error", " (", std::to_string(static_cast<int>(e)), "): ", text ? text : ""});
}

struct device_key {
    int device;
    friend bool operator==(const device_key& a, const device_key& b) noexcept { return a.device == b.device; }
};
struct device_key_hash {
    std::size_t operator()(const device_key& k) const noexcept { return static_cast<std::size_t>(k.device); }
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
        // The device's bits as their own word: g++ -Wsign-conversion misreads a cast of the int inside the xor.
        const std::uint64_t device_word = static_cast<std::uint32_t>(k.device);
        const std::uint64_t h = (std::uint64_t{reinterpret_cast<std::uintptr_t>(k.kernel)} ^ device_word) *
                                std::uint64_t{0x9E3779B97F4A7C15ull};
        return static_cast<std::size_t>(h >> 17);
    }
};

// Each device's limits as a launch needs them: no name (read on failure only).
// The process's tables are allocated once and never destroyed (once_table.hpp says why).
inline once_table<device_key, device_limits, device_key_hash, 64>& device_limits_table() {
    static auto& table = *new once_table<device_key, device_limits, device_key_hash, 64>;
    return table;
}
// The same with the device's name, for device_limits_for() (never on a launch's path).
inline once_table<device_key, device_limits, device_key_hash, 64>& named_device_limits_table() {
    static auto& table = *new once_table<device_key, device_limits, device_key_hash, 64>;
    return table;
}
inline once_table<kernel_key, kernel_state, kernel_key_hash, 1024>& kernel_table() {
    static auto& table = *new once_table<kernel_key, kernel_state, kernel_key_hash, 1024>;
    return table;
}
// A launch table's first use: made here with its slots' word in the process state, published in
// `root`; a thread that loses the race to publish frees its own and takes the winner's, whose word
// only the winner stores.
WAVEFIT_NOINLINE inline launch_table_type* first_launch_table(std::atomic<launch_table_type*>& root,
                                                              std::atomic<void*>& slots) {
    auto* made = new launch_table_type(slots);
    launch_table_type* found = nullptr;
    if (!root.compare_exchange_strong(found, made, std::memory_order_acq_rel, std::memory_order_acquire)) {
        delete made;
        return found;
    }
    made->publish_word();
    return made;
}

// The launch tables' roots sit in the process state's one line (process_state.hpp), not behind a
// static's guard in lines of their own.
inline launch_table_type& launch_table_at(std::atomic<launch_table_type*>& root, std::atomic<void*>& slots) {
    launch_table_type* table = root.load(std::memory_order_acquire);
    if (table == nullptr) table = first_launch_table(root, slots);
    return *table;
}
// Planned launches, by device, kernel and work shape (key_for).
inline launch_table_type& launch_table() {
    process_state& p = process_state::get();
    return launch_table_at(p.planned_launches, p.planned_slots);
}
// Launches of an explicit configuration, keyed by device and kernel only (configured_key): apart from
// the planned ones, so that many planned shapes of a kernel never crowd its explicit entry. The same
// table type: one instantiation of the table's code serves both.
inline launch_table_type& configured_launch_table() {
    process_state& p = process_state::get();
    return launch_table_at(p.configured_launches, p.configured_slots);
}

// Reads a device's limits from its attributes; the name is left empty (read on failure only).
inline bool query_device_limits(int device, device_limits& out, query_failure& failure) {
    short_name arch;
    const backend::error_type e = backend::read_arch(arch, device);
    if (e != backend::success) {
        failure = {e, "reading the device's architecture"};
        return false;
    }
    backend::error_type failed = backend::success;
    out = device_limits_from_attributes(backend::platform_vendor, std::string_view(), arch.view(), [&](device_attribute a) {
        int value = 0;
        const backend::error_type err = backend::read_attribute(value, a, device);
        if (err != backend::success && failed == backend::success) failed = err;
        return value;
    });
    if (failed != backend::success) {
        failure = {failed, "reading a device attribute"};
        return false;
    }
    return true;
}

WAVEFIT_FUNC const device_limits* cached_device_limits(int device, query_failure& failure) {
    return device_limits_table().get(device_key{device},
                                     [&](device_limits& d) { return query_device_limits(device, d, failure); });
}

// CUDA's maxThreadsPerBlock folds register pressure into the kernel's bound: a 255-register kernel
// without __launch_bounds__ reports 256. kernel_resources::max_threads_per_block is the kernel's own
// bound, so a reported value that equals what the registers alone allow is taken as the registers'
// limit (0 = the device maximum). Validation then names the real cause (registers_exceed_limit,
// cudaErrorLaunchOutOfResources) and planning still respects it through the occupancy model. HIP
// on AMD reports the compiled flat work-group bound, independent of registers: kept as it is.
constexpr std::uint32_t declared_max_threads(const device_limits& d, const kernel_resources& k) noexcept {
    if (!d.is_nvidia() || k.registers == 0 || k.max_threads_per_block == 0 ||
        k.max_threads_per_block >= d.max_threads_per_block)
        return k.max_threads_per_block;
    kernel_resources registers_only{};
    registers_only.registers = k.registers;
    return largest_runnable_block(d, registers_only) == k.max_threads_per_block ? 0u : k.max_threads_per_block;
}

WAVEFIT_FUNC kernel_state* cached_kernel_state(int device, const void* kernel, const device_limits& limits,
                                               query_failure& failure) {
    const kernel_state* s = kernel_table().get(kernel_key{device, kernel}, [&](kernel_state& state) {
        std::uint64_t max_dynamic_shared = 0;
        if (const backend::error_type e = backend::read_kernel_resources(state.resources, max_dynamic_shared, kernel);
            e != backend::success) {
            failure = {e, "reading the kernel's attributes"};
            return false;
        }
        state.resources.max_threads_per_block = declared_max_threads(limits, state.resources);
        state.register_bound = register_bound_threads(limits, state.resources);
        state.device = device;
        state.address = kernel;
        // The limit as the kernel has it now: the default, or what the program raised it to before
        // wavefit saw the kernel; wavefit only ever raises it.
        const std::uint64_t by_default = default_dynamic_shared(limits, state.resources);
        state.dynamic_shared_limit.store(max_dynamic_shared > by_default ? max_dynamic_shared : by_default);
        return true;
    });
    // The entry's atomic limit and opt-in mutex change after publication; the rest never does.
    return const_cast<kernel_state*>(s);
}

WAVEFIT_FUNC std::string device_display(int device, const device_limits& limits) {
    if (!limits.name.empty()) return to_string(limits);
    std::string name;
    if (backend::read_device_name(name, device) != backend::success) {
        (void)backend::take_last_error();
        return to_string(limits);
    }
    device_limits named = limits;
    named.name.assign(name);
    return to_string(named);
}

WAVEFIT_FUNC std::string mangled_name(const kernel_state& k) {
    const char* name = k.runtime_name.load(std::memory_order_acquire);
    if (name == nullptr) {
        // HIP looks the name up on the current device (backend::kernel_name): the kernel's own
        // device is made current for the question.
        int current = -1;
        const bool known = backend::current_device(current) == backend::success;
        const backend::device_guard on_device(k.device, current, known && current != k.device);
        name = on_device.error() == backend::success ? backend::kernel_name(k.address) : nullptr;
        if (name == nullptr) {
            (void)backend::take_last_error();
            return {};
        }
        k.runtime_name.store(name, std::memory_order_release);
    }
    return name;
}

WAVEFIT_FUNC std::string kernel_display(const kernel_state& k) {
    std::string mangled = mangled_name(k);
    if (mangled.empty()) return "an unnamed kernel";
#if defined(WAVEFIT_HAS_DEMANGLER)
    int status = 0;
    char* text = __cxxabiv1::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status == 0 && text != nullptr) {
        std::string out(text);
        std::free(text);
        return out;
    }
#endif
    return mangled;
}

// The count query, the first time a launch needs it: two threads at once may both ask (the same answer).
WAVEFIT_NOINLINE inline std::uint64_t ask_visible_devices(std::atomic<std::uint64_t>& word) noexcept {
    int count = 0;
    const backend::error_type e = backend::device_count(count);
    if (e != backend::success) {
        (void)backend::take_last_error();
        count = 0;
    }
    const std::uint64_t packed = visible_device_word::pack(count, static_cast<int>(e));
    word.store(packed, std::memory_order_relaxed);
    return packed;
}

// The visible-device word, asked once (a plain value: relaxed loads suffice).
inline std::uint64_t visible_device_word_now() noexcept {
    std::atomic<std::uint64_t>& word = process_state::get().visible_devices;
    const std::uint64_t packed = word.load(std::memory_order_relaxed);
    return packed != 0 ? packed : ask_visible_devices(word);
}

inline visible_devices visible_devices_of(std::uint64_t packed) noexcept {
    visible_devices v;
    v.count = visible_device_word::count(packed);
    v.error = static_cast<backend::error_type>(visible_device_word::error(packed));
    return v;
}

WAVEFIT_FUNC visible_devices visible_device_state() noexcept { return visible_devices_of(visible_device_word_now()); }

WAVEFIT_FUNC backend::error_type raise_dynamic_shared(kernel_state& k, const void* kernel, std::uint64_t bytes) {
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_acquire)) return backend::success;
    std::lock_guard<std::mutex> lock(k.opt_in_mutex);
    if (bytes <= k.dynamic_shared_limit.load(std::memory_order_relaxed)) return backend::success;
    const backend::error_type e = backend::set_max_dynamic_shared(kernel, static_cast<int>(bytes));
    if (e == backend::success) k.dynamic_shared_limit.store(bytes, std::memory_order_release);
    return e;
}

// ------------------------------------------------------------------------------------- a launch

WAVEFIT_COLD inline void fail_runtime(launch_result& r, backend::error_type e, const std::string& doing) {
    r.status = launch_status::runtime_failed;
    r.runtime_code = static_cast<int>(e);
    r.message = concat({backend::runtime_name, " failed ", doing, ": ", runtime_error_text(e)});
    // A failed call leaves its error as the runtime's "last error"; wavefit has reported it, so the
    // user's next error check must not see it a second time.
    (void)backend::take_last_error();
}

// The device a launch into `stream` runs on, and the calling thread's current device.
struct launch_device {
    int device = 0;
    int current = 0;
    bool is_current() const noexcept { return device == current; }
};

WAVEFIT_COLD inline void report_no_device(launch_result& r, const visible_devices& visible) {
    r.status = launch_status::runtime_failed;
    r.runtime_code = static_cast<int>(visible.error != backend::success ? visible.error : backend::no_device);
    r.device = "no GPU";
    r.message = concat({"no GPU is visible: ", backend::runtime_name, " reports no device (",
                        visible.error != backend::success ? runtime_error_text(visible.error)
                                                          : concat({backend::runtime_name, " device count 0"}),
                        "); check that the GPU driver is loaded and that ", backend::visible_devices_variable,
                        " does not hide every device"});
}

// A runtime query failed: explained with `r`, or its error cleared (the quiet run, which runs again to
// explain). `device` is -1 where the current device was asked for, -2 where a stream's device was.
WAVEFIT_COLD inline void report_query_failure(launch_result* r, const query_failure& failure, int device) {
    if (r == nullptr) {
        (void)backend::take_last_error();
        return;
    }
    if (device < 0) {
        fail_runtime(*r, failure.code, failure.what);
        r->device = device == -1 ? "the current device" : "the stream's device";
        return;
    }
    fail_runtime(*r, failure.code, concat({failure.what, " on device ", std::to_string(device)}));
    r->device = concat({"device ", std::to_string(device)});
}

// find_launch_device with no GPU or several: out of the one-GPU launch's way.
WAVEFIT_NOINLINE inline bool find_device_among_many(std::uint64_t visible_word, backend::stream_type stream,
                                                     launch_device& where, launch_result* r) {
    if (visible_device_word::count(visible_word) == 0) {
        if (r != nullptr) report_no_device(*r, visible_devices_of(visible_word));
        return false;
    }
    if (const backend::error_type e = backend::current_device(where.current); e != backend::success) {
        report_query_failure(r, {e, "reporting the current device"}, -1);
        return false;
    }
    where.device = where.current;
    if (reinterpret_cast<std::uintptr_t>(stream) > 2) {
        if (const backend::error_type e = backend::stream_device(where.device, stream); e != backend::success) {
            report_query_failure(r, {e, "reporting the stream's device"}, -2);
            return false;
        }
    }
    return true;
}

// hip/cudaGetDevice and hip/cudaStreamGetDevice cost tens of nanoseconds each (bench/RESULTS.md);
// with one visible GPU every stream is on device 0 and both queries are skipped. With none, the
// launch says so instead of the runtime's "invalid device".
inline bool find_launch_device(backend::stream_type stream, launch_device& where, launch_result* r) {
    const std::uint64_t visible = visible_device_word_now();
    if (visible == visible_device_word::one_device) return true;
    return find_device_among_many(visible, stream, where, r);
}

inline launch_key configured_key(int device, const void* kernel) noexcept {
    launch_key key;
    key.words[0] = reinterpret_cast<std::uintptr_t>(kernel);
    key.words[1] = static_cast<std::uint32_t>(device);
    return key;
}

// The key of a planned launch of `w`, packed here (try_launch, and the first launch of launch()).
inline launch_key key_for(int device, const void* kernel, const work& w, std::uint32_t tuning_generation) noexcept {
    return finished_key(work_key(w), device, kernel, w.size(), tuning_generation);
}

// Whether WAVEFIT_TUNING's value (`mode`, null when unset) asks for tuning that no tuner can give: none is
// registered. A registered tuner that is off (set_tuning_mode) is no such case.
inline bool tuning_requested_without_tuner(const char* mode, bool has_tuner) noexcept {
    tuning_mode m = tuning_mode::off;
    return !has_tuner && mode != nullptr && parse_tuning_mode(mode, m) && m != tuning_mode::off;
}

// Says once per process, at the first planned launch that finds no tuner, that WAVEFIT_TUNING asks for
// tuning this program does not include (or has not registered yet: a launch from a static initializer
// can run before the one of <wavefit/tuning.hpp>).
inline void warn_if_tuning_requested_without_tuner() {
    static const bool warned = [] {
        const char* mode = std::getenv("WAVEFIT_TUNING");
        if (tuning_requested_without_tuner(mode, tuning_switch::get().has_tuner()))
            (void)std::fprintf(stderr,
                               "wavefit: WAVEFIT_TUNING=%s has no tuner to use: no translation unit of this program "
                               "compiled as HIP or CUDA includes <wavefit/tuning.hpp> (or this launch ran before its "
                               "static initialization); launches are planned without tuning\n",
                               mode);
        return true;
    }();
    (void)warned;
}

// Fills the entry of a launch's first call: the device's limits, the kernel's state, the bounds a
// launch is validated with and, for planned work, the recipe (tuned while tuning is on). It runs once
// per entry, on the table's miss path.
inline bool fill_entry(launch_entry& entry, const launch_device& where, const void* kernel, backend::stream_type stream,
                       const work* w, void** args, const tuner_interface* tuner, query_failure& failure) {
    if (w != nullptr && tuner == nullptr) warn_if_tuning_requested_without_tuner();
    entry.device = where.device;
    entry.address = kernel;
    entry.limits = cached_device_limits(where.device, failure);
    if (entry.limits == nullptr) return false;
    const backend::device_guard on_device(where.device, where.current, !where.is_current());
    if (on_device.error() != backend::success) {
        failure = {on_device.error(), "making the stream's device current"};
        return false;
    }
    entry.kernel = cached_kernel_state(where.device, kernel, *entry.limits, failure);
    if (entry.kernel == nullptr) return false;
    entry.bounds = launch_bounds::of(*entry.limits, entry.kernel->resources, entry.kernel->register_bound);
    entry.default_dynamic_shared = default_dynamic_shared(*entry.limits, entry.kernel->resources);
    if (w != nullptr) {
        entry.recipe = planned_recipe(*entry.limits, entry.kernel->resources, *w);
        if (tuner != nullptr && (entry.recipe.threads != 0 || w->has_baseline)) {
            const launch_arguments here{kernel, args, stream};
            tuner->recipe_for(entry, *w, args != nullptr ? &here : nullptr, entry.recipe, entry.keep_baseline);
        }
        entry.scaling = scaling_of(*entry.limits, entry.recipe, *w);
        entry.scaling.keep_launchable(entry.bounds);
    }
    return true;
}

// The entry of a launch, or nullptr with `r` (when given) saying why: a failed runtime query. Kernel
// attributes are per device, so they are read with the launch's device current. `w` is null for an
// explicit configuration.
inline const launch_entry* resolve(const launch_device& where, const void* kernel, backend::stream_type stream,
                                   const work* w, void** args, launch_result* r) {
    query_failure failure;
    const tuner_interface* tuner = w != nullptr ? tuning_switch::get().active() : nullptr;
    const launch_key key =
        w == nullptr ? configured_key(where.device, kernel)
                     : key_for(where.device, kernel, *w, tuner != nullptr ? tuning_switch::get().generation() : 0);
    auto& table = w == nullptr ? configured_launch_table() : launch_table();
    const launch_entry* e = table.get(key, [&](launch_entry& entry) {
        return fill_entry(entry, where, kernel, stream, w, args, tuner, failure);
    });
    if (e == nullptr) report_query_failure(r, failure, where.device);
    return e;
}

// The failing launch's own names, for the result and the exception.
WAVEFIT_COLD inline void name_failure(launch_result& r, const launch_entry& e) {
    r.kernel = kernel_display(*e.kernel);
    r.device = device_display(e.device, *e.limits);
}

// The entry's limits with the device's name, for messages (a failure path: the name is read now).
WAVEFIT_COLD inline device_limits named_limits(const launch_entry& e) {
    device_limits named = *e.limits;
    std::string name;
    if (named.name.empty() && backend::read_device_name(name, e.device) == backend::success)
        named.name.assign(name);
    else
        (void)backend::take_last_error();
    return named;
}

WAVEFIT_COLD inline std::string launch_text(const launch_entry& e, const launch_config& cfg,
                                                const std::string& device) {
    return concat({kernel_display(*e.kernel), " with grid ", dims_text(cfg.grid), ", block ", dims_text(cfg.block),
                   cfg.dynamic_shared ? concat({", ", bytes_text(cfg.dynamic_shared), " of dynamic shared memory"})
                                      : std::string(),
                   " on ", device});
}

// The short explainer of a program that registered no other (launch_explainer.hpp): the finding's
// numbers and the configuration of its fix, without the prose. The code's name is in the message
// already; `wavefit explain CODE` has the rest.
WAVEFIT_COLD inline diagnostic describe_briefly(const finding& f, const device_limits& d, const kernel_resources& k,
                                                const launch_config& cfg, launch_work_shape shape,
                                                std::uint64_t group_threads) {
    diagnostic out{f.code, f.severity(), {}, {}};
    if (f.code == diagnostic_code::negative_size) {
        out.message = "a size was given as a negative number";
        out.fix = "compute sizes in 64-bit types and check them before launching";
    } else if (f.code == diagnostic_code::contract_allows_no_block) {
        out.message = "no block the work's contract allows can run this kernel";
        out.fix = "allow more blocks in the contract, or change the kernel";
    } else {
        // "grid x: " or "block y: " where the finding is about one axis.
        const std::string axis =
            f.axis < 0 ? std::string() : concat({f.in_grid ? "grid " : "block ", axis_name(f.axis), ": "});
        out.message = concat({axis, "value ", f.value, ", limit ", f.limit});
        const std::optional<launch_fix> fix = fix_config(d, k, cfg, f, shape, group_threads);
        out.fix = fix ? concat({"launch grid ", dims_text(fix->config.grid), " x block ", dims_text(fix->config.block),
                                fix->grid_stride ? " and loop over the rest in the kernel" : ""})
                      : std::string("no configuration fixes it: the kernel must change");
    }
    out.fix += concat({" (`wavefit explain ", to_string(f.code),
                       "` says more; every message is in full once a file of the program includes <wavefit/wavefit.hpp>)"});
    return out;
}

inline constexpr launch_explainer brief_launch_explainer{&describe_briefly, nullptr, nullptr};

// The registered explainer, or the short one.
inline const launch_explainer& launch_explainer_in_use() noexcept {
    const launch_explainer* x = registered_launch_explainer().load(std::memory_order_acquire);
    return x != nullptr ? *x : brief_launch_explainer;
}

// Rejects a launch that validation refused; for one-pass work the device could not hold, says that
// the kernel must loop.
WAVEFIT_COLD inline void reject(launch_result& r, const findings& problems, const launch_entry& e, const launch_config& cfg,
                   const work* w) {
    const launch_explainer& explain = launch_explainer_in_use();
    const finding* first = problems.first_error();
    const device_limits limits = named_limits(e);
    r.kernel = kernel_display(*e.kernel);
    r.device = to_string(limits);
    r.status = launch_status::rejected;
    r.diagnostic = first->code;
    // How the kernel maps the work onto the launch decides what the fix may change.
    launch_work_shape shape = launch_work_shape::thread_per_item;
    std::uint64_t group = 0;
    if (w != nullptr && w->kind == work_kind::per_block) shape = launch_work_shape::block_per_unit;
    if (w != nullptr && w->kind == work_kind::per_wave) {
        shape = launch_work_shape::group_per_unit;
        group = unit_threads(limits, *w);
    }
    const diagnostic d = explain.describe(*first, limits, e.kernel->resources, cfg, shape, group);
    r.message = concat({"wavefit rejected launching ", launch_text(e, cfg, r.device), " [", to_string(d.code),
                        "]: ", d.message, ". Fix: ", d.fix});
    std::size_t more = 0;
    for (const finding& f : problems)
        if (f.severity() == severity::error && &f != first) ++more;
    if (more > 0) r.message += concat({" (and ", plural(more, "more error"), "; `wavefit check` lists them all)"});
    if (explain.one_pass_phrase != nullptr && w != nullptr && !w->loops() && !w->has_baseline &&
        (problems.contains(diagnostic_code::grid_dim_exceeds_device_limit) ||
         problems.contains(diagnostic_code::work_items_exceed_dispatch_limit))) {
        const launch_plan p = plan_with_recipe(limits, e.kernel->resources, *w, e.recipe);
        r.message += concat({". Why: ", explain.one_pass_phrase(p, limits)});
    }
}

// A work that cannot be planned: a negative count, or no block the contract allows can run.
WAVEFIT_COLD inline void reject_unplannable(launch_result& r, const launch_entry& e, const work& w) {
    const launch_plan p = plan_with_recipe(*e.limits, e.kernel->resources, w, e.recipe);
    r.config = p.config();
    if (p.problems.has_error()) {
        reject(r, p.problems, e, problems_config(p, *e.limits, e.kernel->resources), nullptr);
        const launch_explainer& explain = launch_explainer_in_use();
        if (explain.plan_reason != nullptr)
            r.message += concat({". ", explain.plan_reason(p, named_limits(e), e.kernel->resources)});
        return;
    }
    name_failure(r, e);
    r.status = launch_status::rejected;
    r.message = concat({"wavefit found no block size with which ", r.kernel, " can run on ", r.device});
}

// CUDA's opt-in above the default per-block shared memory, raised once per kernel and size.
inline bool ensure_dynamic_shared(launch_result* r, const launch_entry& e, const void* kernel, std::uint64_t bytes) {
    if (bytes <= e.default_dynamic_shared) return true;  // needs no opt-in: the kernel's state is not read
    if (const backend::error_type err = raise_dynamic_shared(*e.kernel, kernel, bytes); err != backend::success) {
        if (r == nullptr) {
            (void)backend::take_last_error();
            return false;
        }
        fail_runtime(*r, err, concat({"to raise the dynamic shared memory limit to ", bytes_text(bytes)}));
        name_failure(*r, e);
        r->message += concat({" (kernel ", r->kernel, ")"});
        return false;
    }
    return true;
}

// Validation bounded every dimension by the device's 32-bit limits, so the narrowing is exact. Built
// at each call (not kept in a variable whose address is taken), the dim3 stays in registers.
inline dim3 runtime_dims(const dims& d) noexcept {
    return dim3(static_cast<unsigned>(d.x), static_cast<unsigned>(d.y), static_cast<unsigned>(d.z));
}

// The runtime refused a launch that relies on the dynamic shared memory opt-in. If the program
// lowered the kernel's max-dynamic-shared-memory attribute after wavefit raised it, wavefit's cached
// limit is stale: it is re-read, raised again once, and the launch retried. Returns the retry's
// error (success when it worked), or `failed` when the attribute is not the cause; `note` says what
// was found, for the message.
WAVEFIT_COLD inline backend::error_type retry_after_stale_opt_in(const launch_entry& e, const void* kernel,
                                                                    const launch_config& cfg, void** args,
                                                                    backend::stream_type stream,
                                                                    backend::error_type failed, std::string& note) {
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
    note = concat({"; the kernel's max-dynamic-shared-memory attribute read ", bytes_text(current_limit), ", below the ",
                   bytes_text(cfg.dynamic_shared), " wavefit had raised it to: it was changed outside wavefit"});
    k.dynamic_shared_limit.store(current_limit, std::memory_order_release);
    if (const backend::error_type err = backend::set_max_dynamic_shared(kernel, static_cast<int>(cfg.dynamic_shared));
        err != backend::success) {
        note += concat({", and raising it again failed (", runtime_error_text(err), ")"});
        (void)backend::take_last_error();
        return failed;
    }
    k.dynamic_shared_limit.store(cfg.dynamic_shared, std::memory_order_release);
    const backend::error_type retried = backend::launch_kernel(kernel, runtime_dims(cfg.grid), runtime_dims(cfg.block),
                                                               args, static_cast<std::size_t>(cfg.dynamic_shared), stream);
    if (retried != backend::success)
        note +=
            "; wavefit raised it again and retried, and the runtime still refused the launch. Keep the attribute at "
            "or above the largest dynamic shared memory you launch with, or let wavefit::launch manage it";
    return retried;
}

// The runtime refused the launch. The quiet run clears the error and leaves the rest to the
// explaining run, which retries once where wavefit's opt-in went stale (a retry changes the cached
// limit, and the explanation must see the state the quiet run saw) and otherwise says why.
WAVEFIT_COLD inline launch_status launch_refused_by_runtime(const launch_entry& e, const void* kernel,
                                                            const launch_config& cfg, void** args,
                                                            backend::stream_type stream, backend::error_type err,
                                                            launch_result* r) {
    if (r == nullptr) {
        (void)backend::take_last_error();
        return launch_status::runtime_failed;
    }
    std::string note;
    if (cfg.dynamic_shared > e.default_dynamic_shared)
        err = retry_after_stale_opt_in(e, kernel, cfg, args, stream, err, note);
    if (err == backend::success) return launch_status::launched;
    name_failure(*r, e);
    fail_runtime(*r, err, concat({"launching ", launch_text(e, cfg, r->device)}));
    r->message += note;
    return launch_status::runtime_failed;
}

// Opt in if needed, launch, check: the end of every launch, once `cfg` is known to pass e.bounds.
// `args` are the packed kernel arguments; `r`, when given, explains a failure.
inline launch_status launch_checked(const launch_entry& e, const launch_device& where, const void* kernel,
                                    const launch_config& cfg, void** args, backend::stream_type stream,
                                    launch_result* r) {
    // CUDA refuses a launch into a stream of a device that is not current, and the opt-in is per device.
    const backend::device_guard on_device(where.device, where.current, !where.is_current());
    if (on_device.error() != backend::success) {
        report_query_failure(r, {on_device.error(), "making the stream's device current"}, e.device);
        return launch_status::runtime_failed;
    }
    if (!ensure_dynamic_shared(r, e, kernel, cfg.dynamic_shared)) return launch_status::runtime_failed;
    const backend::error_type err = backend::launch_kernel(kernel, runtime_dims(cfg.grid), runtime_dims(cfg.block), args,
                                                           static_cast<std::size_t>(cfg.dynamic_shared), stream);
    if (err != backend::success) return launch_refused_by_runtime(e, kernel, cfg, args, stream, err, r);
    return launch_status::launched;
}

// Validate, then launch_checked: every launch but the cached planned ones, whose entry was made to
// hold only launches its bounds pass (count_scaling::keep_launchable).
inline launch_status launch_with(const launch_entry& e, const launch_device& where, const void* kernel,
                                 const launch_config& cfg, void** args, backend::stream_type stream, const work* w,
                                 launch_result* r) {
    if (r != nullptr) r->config = cfg;
    if (e.bounds.refuses(cfg)) {
        if (r != nullptr) reject(*r, find_problems(*e.limits, e.kernel->resources, cfg), e, cfg, w);
        return launch_status::rejected;
    }
    return launch_checked(e, where, kernel, cfg, args, stream, r);
}

WAVEFIT_COLD inline void refuse_negative(launch_result& r, const work& w) {
    r.status = launch_status::rejected;
    r.diagnostic = diagnostic_code::negative_size;
    r.message = std::string("wavefit rejected a launch [negative_size]: the work's ") +
                (w.kind == work_kind::extent ? "extent" : "count") +
                " was given as a negative number; as an unsigned size it would be about 2^64 items, so nothing was "
                "launched. Fix: compute sizes in 64-bit types and check them before launching (a count that went "
                "below 0 usually means n - 1 for n = 0 or an int that overflowed)";
}

// Runs `body` and turns an allocation failure into a launch_result (only where exceptions exist).
template <class Body>
launch_result guarded(Body&& body) noexcept {
#if WAVEFIT_EXCEPTIONS
    try {
        return body();
    } catch (...) {  // std::bad_alloc while building a message: nothing more can be said
        launch_result r;
        r.status = launch_status::runtime_failed;
        return r;
    }
#else
    return body();
#endif
}

// The quiet run of a launch (`run` with no result): its status, or not_attempted where an allocation
// failed (a first launch's entry); the explaining run then says what it can.
template <class Run>
launch_status run_quietly(Run&& run) noexcept {
#if WAVEFIT_EXCEPTIONS
    try {
        return run();
    } catch (...) {
        return launch_status::not_attempted;
    }
#else
    return run();
#endif
}

// The one path of a launch of an explicit configuration; `r`, when given, explains a failure. Not
// inlined: the quiet and the explaining run share one copy (a smaller object, fewer code lines).
WAVEFIT_NOINLINE inline launch_status run_configured(const void* kernel, const launch_config& cfg,
                                                     backend::stream_type stream, void** args, launch_result* r) {
    launch_device where;
    if (!find_launch_device(stream, where, r)) return launch_status::runtime_failed;
    const launch_entry* e = resolve(where, kernel, stream, nullptr, nullptr, r);
    if (e == nullptr) return launch_status::runtime_failed;
    return launch_with(*e, where, kernel, cfg, args, stream, nullptr, r);
}

// The quiet run of an explicit configuration's launch made before (its entry exists): the key,
// validate, launch. not_attempted where it needs more (the entry's first launch, no device found):
// run_configured then.
WAVEFIT_NOINLINE inline launch_status run_configured_cached(const void* kernel, const launch_config& cfg,
                                                            backend::stream_type stream, void** args) {
    launch_device where;
    if (!find_launch_device(stream, where, nullptr)) return launch_status::not_attempted;
    const launch_key key = configured_key(where.device, kernel);
    const launch_entry* e = launch_table_type::find_matching_at(
        process_state::get().configured_slots, launch_key_hash{}(key), [&key](const launch_key& k) { return k == key; },
        []() -> const launch_table_type& { return configured_launch_table(); });
    if (e == nullptr) return launch_status::not_attempted;
    if (e->bounds.refuses(cfg)) return launch_status::rejected;  // the explaining run says why
    return launch_checked(*e, where, kernel, cfg, args, stream, nullptr);
}

// The rest of run_planned: work without configure()'s closed form (little work, extents, coarsened
// grids), or that no block can run. Out of the way of a large launch's path.
WAVEFIT_NOINLINE inline launch_status run_configure(const launch_entry& e, const launch_device& where, const void* kernel,
                                                    const work& w, backend::stream_type stream, void** args,
                                                    launch_config& used, launch_result* r) {
    if (e.recipe.threads == 0) {
        if (r != nullptr) reject_unplannable(*r, e, w);
        return launch_status::rejected;
    }
    const configured_launch cl = configure(*e.limits, e.recipe, w);
    used = cl.config;
    if (cl.empty) return launch_status::nothing_to_launch;
    return launch_with(e, where, kernel, used, args, stream, &w, r);
}

// The one path of a launch of planned work: `used` is the configuration it launched (or would have);
// `r`, when given, explains a failure. Not inlined, as run_configured.
WAVEFIT_NOINLINE inline launch_status run_planned(const void* kernel, const work& w, backend::stream_type stream,
                                                  void** args, launch_config& used, launch_result* r) {
    if (w.negative) {
        if (r != nullptr) refuse_negative(*r, w);
        return launch_status::rejected;
    }
    launch_device where;
    if (!find_launch_device(stream, where, r)) return launch_status::runtime_failed;
    const launch_entry* e = resolve(where, kernel, stream, &w, args, r);
    if (e == nullptr) return launch_status::runtime_failed;
    if (w.has_baseline && e->keep_baseline) {
        used = w.baseline;
        if (w.is_empty()) return launch_status::nothing_to_launch;
        return launch_with(*e, where, kernel, used, args, stream, &w, r);
    }
    // Many items or units (every launch of a large kernel): configure()'s answer in closed form.
    if (w.extent.x > e->scaling.above) {
        used = e->scaling.config_for(w.extent.x);
        return launch_with(*e, where, kernel, used, args, stream, &w, r);
    }
    return run_configure(*e, where, kernel, w, stream, args, used, r);
}

// run_cached of an element count that configure()'s closed form does not cover: configure() itself,
// with the work built here. Out of the way of the cached path.
WAVEFIT_NOINLINE inline launch_status run_elements_beyond_closed_form(const launch_entry& e, const launch_device& where,
                                                                  const void* kernel, std::uint64_t n,
                                                                  backend::stream_type stream, void** args) {
    launch_config used{dims{0}, dims{0}};
    return run_configure(e, where, kernel, work::elements(n), stream, args, used, nullptr);
}

// The quiet run of a planned launch made before (its entry exists): the key, configure()'s closed
// form (its launches validated when the entry was made, its grid here), launch. not_attempted where it
// needs more (the entry's first launch, no device found, and for a work a count beyond the closed
// form): run_planned then, with the work. The work's part of the key is packed by the caller: at the
// call site for launch(kernel, work), where a work of constants folds to constants; for
// launch(kernel, n) (Elements) `work_words` is not read: its words are elements_work_words, folded in
// here, and its work is built only beyond the closed form. `size` is read only while tuning.
template <bool Elements>
WAVEFIT_NOINLINE launch_status run_cached(const void* kernel, const launch_key& work_words, std::uint64_t n,
                                          std::uint64_t size, backend::stream_type stream, void** args) {
    launch_device where;
    if (!find_launch_device(stream, where, nullptr)) return launch_status::not_attempted;
    const tuning_switch& tuning = tuning_switch::get();
    const std::uint32_t generation = tuning.active() != nullptr ? tuning.generation() : 0;
    // A count's work words are a constant (element_count_work_words): no load of them per launch.
    const auto key = [&] {
        if constexpr (Elements)
            return finished_key_in_parts(element_count_work_words{}, where.device, kernel, size, generation);
        else
            return finished_key_in_parts(caller_work_words{work_words}, where.device, kernel, size, generation);
    }();
    const launch_entry* e = launch_table_type::find_matching_at(
        process_state::get().planned_slots, key.hash(), [&key](const launch_key& k) { return key.matches(k); },
        []() -> const launch_table_type& { return launch_table(); });
    if (e == nullptr) return launch_status::not_attempted;
    launch_config cfg{dims{0}, dims{0}};
    if (n > e->scaling.above) {
        cfg = e->scaling.config_for(n);
        if (!e->scaling.launchable(cfg)) return launch_status::rejected;  // the explaining run says why
    } else if (!e->scaling.small_config_for(n, cfg)) {
        return Elements ? run_elements_beyond_closed_form(*e, where, kernel, n, stream, args) : launch_status::not_attempted;
    }
    return launch_checked(*e, where, kernel, cfg, args, stream, nullptr);  // the entry holds launchable steps only
}

// try_launch's runs, which fill a result anyway: they explain as they go. They also explain a failed
// quiet run of wavefit::launch.
WAVEFIT_FUNC launch_result launch_configured(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                             void** args) noexcept {
    return guarded([&] {
        launch_result r;
        r.config = cfg;
        r.status = run_configured(kernel, cfg, stream, args, &r);
        return r;
    });
}

WAVEFIT_FUNC launch_result launch_planned(const void* kernel, const work& w, backend::stream_type stream,
                                          void** args) noexcept {
    return guarded([&] {
        launch_result r;
        launch_config used{dims{0}, dims{0}};
        r.status = run_planned(kernel, w, stream, args, used, &r);
        if (r.status == launch_status::nothing_to_launch) r.config = used;
        return r;
    });
}

WAVEFIT_FUNC launch_status launch_cached_quietly(const void* kernel, const launch_key& work_words, std::uint64_t count,
                                                 std::uint64_t size, backend::stream_type stream, void** args) noexcept {
    return run_quietly([&] { return run_cached<false>(kernel, work_words, count, size, stream, args); });
}

WAVEFIT_FUNC launch_result refuse_nonzero_null(const launch_config& cfg) noexcept {
    return guarded([&] {
        launch_result r;
        r.config = cfg;
        r.status = launch_status::rejected;
        r.message =
            "wavefit rejected a launch: an integer of NULL's type that is not 0 was passed for a pointer parameter; pass "
            "nullptr (or NULL) for no pointer, or a pointer";
        return r;
    });
}

#if WAVEFIT_EXCEPTIONS
WAVEFIT_FUNC void launch_planned_or_throw(const void* kernel, const work& w, backend::stream_type stream, void** args,
                                          launch_status quiet) {
    if (quiet == launch_status::not_attempted) {
        launch_config used{dims{0}, dims{0}};
        quiet = run_quietly([&] { return run_planned(kernel, w, stream, args, used, nullptr); });
    }
    if (went_well(quiet)) return;
    const launch_result r = launch_planned(kernel, w, stream, args);
    if (!r.ok()) throw launch_error(r);  // unless the explaining run found it working
}

WAVEFIT_FUNC void launch_elements_or_throw(const void* kernel, std::uint64_t n, bool negative, backend::stream_type stream,
                                           void** args) {
    launch_status quiet = launch_status::not_attempted;
    if (!negative)
        quiet = run_quietly([&] { return run_cached<true>(kernel, elements_work_words, n, n, stream, args); });
    if (went_well(quiet)) return;
    work w = work::elements(n);
    w.negative = negative;
    launch_planned_or_throw(kernel, w, stream, args, quiet);
}

WAVEFIT_FUNC void launch_configured_or_throw(const void* kernel, const launch_config& cfg, backend::stream_type stream,
                                             void** args) {
    launch_status quiet = run_quietly([&] { return run_configured_cached(kernel, cfg, stream, args); });
    if (quiet == launch_status::not_attempted)
        quiet = run_quietly([&] { return run_configured(kernel, cfg, stream, args, nullptr); });
    if (went_well(quiet)) return;
    const launch_result r = launch_configured(kernel, cfg, stream, args);
    if (!r.ok()) throw launch_error(r);  // unless the explaining run found it working
}

WAVEFIT_FUNC void throw_nonzero_null(const launch_config& cfg) { throw launch_error(refuse_nonzero_null(cfg)); }
#endif

WAVEFIT_FUNC bool kernel_resources_of(const void* kernel, kernel_resources& out, launch_result& r) noexcept {
    launch_device where;
    bool found = false;
    r = guarded([&] {
        launch_result q;
        if (!find_launch_device(nullptr, where, &q)) return q;
        const launch_entry* e = resolve(where, kernel, nullptr, nullptr, nullptr, &q);
        if (e == nullptr) return q;
        out = e->kernel->resources;
        found = true;
        q.status = launch_status::launched;
        return q;
    });
    return found;
}

}  // namespace detail

#if WAVEFIT_EXCEPTIONS
WAVEFIT_FUNC const device_limits& device_limits_for(int device) {
    detail::query_failure failure;
    // The launch path's limits (read once) with the device's name added.
    const device_limits* d =
        detail::named_device_limits_table().get(detail::device_key{device}, [&](device_limits& out) {
            const device_limits* unnamed = detail::cached_device_limits(device, failure);
            if (unnamed == nullptr) return false;
            std::string name;
            if (const detail::backend::error_type e = detail::backend::read_device_name(name, device);
                e != detail::backend::success) {
                failure = {e, "reading the device's name"};
                return false;
            }
            out = *unnamed;
            out.name.assign(name);
            return true;
        });
    if (d != nullptr) return *d;
    launch_result r;
    detail::fail_runtime(r, failure.code, detail::concat({failure.what, " of device ", std::to_string(device)}));
    r.device = detail::concat({"device ", std::to_string(device)});
    throw launch_error(r);
}

WAVEFIT_FUNC const device_limits& current_device_limits() {
    int device = 0;
    if (const detail::backend::error_type e = detail::backend::current_device(device); e != detail::backend::success) {
        launch_result r;
        detail::fail_runtime(r, e, "to report the current device");
        r.device = "no device";
        throw launch_error(r);
    }
    return device_limits_for(device);
}
#endif

namespace detail {
WAVEFIT_FUNC int visible_device_count() noexcept { return visible_device_state().count; }
}  // namespace detail

WAVEFIT_END_NAMESPACE

#endif  // WAVEFIT_RUNTIME_LAUNCH_IMPL_HPP
