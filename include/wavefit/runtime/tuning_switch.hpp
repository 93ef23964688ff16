// SPDX-License-Identifier: MIT
// What a launch knows of tuning, and no more: whether it is on (WAVEFIT_TUNING=off|use|tune, or
// set_tuning_mode), the database's generation, and the tuner that a translation unit registers by
// including <wavefit/tuning.hpp>. The tuner itself (measurement, the database, its file) is that
// opt-in header: a program that never includes it compiles none of it, and a launch pays one relaxed
// atomic load to learn that tuning is off.
#pragma once

#include <atomic>   // the mode, the generation, the tuner
#include <cstdint>  // the generation

#include "../config.hpp"
#include "../tuning_mode.hpp"
#include "../work.hpp"
#include "backend.hpp"

WAVEFIT_BEGIN_NAMESPACE

namespace detail {

// What a launch of the caller's kernel needs besides its configuration: its address, the packed
// arguments and the stream (the tuner runs the kernel with them in WAVEFIT_TUNING=tune mode).
struct launch_arguments {
    const void* kernel = nullptr;
    void** args = nullptr;
    backend::stream_type stream = nullptr;
};

struct launch_entry;
struct launch_recipe;

// The tuner's side of a planned launch, registered by <wavefit/tuning.hpp>.
struct tuner_interface {
    // The recipe of a planned launch's entry while tuning is on: a record that fits and is valid on
    // the device, or in tune mode a new measurement with the caller's arguments (`here`), else
    // `planned`. Sets `keep_baseline` false when a record replaces the configuration the work replaces.
    void (*recipe_for)(const launch_entry& e, const work& w, const launch_arguments* here, launch_recipe& recipe,
                       bool& keep_baseline) = nullptr;
    // Reads WAVEFIT_TUNING and the file settings once, when the tuner registers.
    tuning_mode (*initial_mode)() = nullptr;
};

class tuning_switch {
public:
    // The process's switch. It lives in the line every launch reads, process_state, whose header
    // defines this function: include process_state.hpp to call it.
    static tuning_switch& get() noexcept;

    tuning_mode mode() const noexcept { return static_cast<tuning_mode>(mode_.load(std::memory_order_relaxed)); }
    void set_mode(tuning_mode m) noexcept {
        mode_.store(static_cast<int>(m), std::memory_order_relaxed);
        bump();
    }
    // A new record or another file: entries computed before are recomputed on their next launch.
    void bump() noexcept { generation_.fetch_add(1, std::memory_order_relaxed); }
    std::uint32_t generation() const noexcept { return generation_.load(std::memory_order_relaxed); }

    // The registered tuner while tuning is on, else nullptr: the one check a planned launch pays.
    const tuner_interface* active() const noexcept {
        if (mode_.load(std::memory_order_relaxed) == 0) return nullptr;
        return tuner_.load(std::memory_order_acquire);
    }
    // Whether a tuner is registered, on or off (a launch that finds none says why WAVEFIT_TUNING does nothing).
    bool has_tuner() const noexcept { return tuner_.load(std::memory_order_acquire) != nullptr; }
    // Called once per program by <wavefit/tuning.hpp>: from then on WAVEFIT_TUNING works.
    bool register_tuner(const tuner_interface* t) noexcept {
        const tuner_interface* expected = nullptr;
        if (!tuner_.compare_exchange_strong(expected, t, std::memory_order_acq_rel)) return false;
        mode_.store(static_cast<int>(t->initial_mode()), std::memory_order_relaxed);
        bump();
        return true;
    }

private:
    friend class process_state;
    constexpr tuning_switch() noexcept = default;

    std::atomic<int> mode_{0};
    std::atomic<std::uint32_t> generation_{1};
    std::atomic<const tuner_interface*> tuner_{nullptr};
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
