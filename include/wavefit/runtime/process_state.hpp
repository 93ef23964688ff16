// SPDX-License-Identifier: MIT
// The process-wide state that every cached launch reads, in one cache line: the tuning switch, how
// many GPUs the runtime shows, and the two launch tables with the words of their slot arrays. Sixteen
// kernels launched in turn find most of a launch's lines evicted by the driver calls between them, and
// each line costs a miss: kept as function-local statics (the switch, the device count, the table
// behind its guard) and read through the table object, this state took four lines of every launch
// (bench/README.md, "What a launch finds evicted").
// Constant-initialized, so no guard is tested; what is computed later (the device count, the tables)
// is published with atomics. Never destroyed: a launch from another static destructor still finds it.
#pragma once

#include <atomic>   // every field
#include <cstddef>  // std::size_t
#include <cstdint>  // the device count's word
#include <type_traits>  // the trivial destructor

#include "../config.hpp"
#include "launch_key.hpp"
#include "tuning_switch.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

template <class Key, class Value, class Hash, std::size_t MaxSlots>
class once_table;   // once_table.hpp
struct launch_entry;  // device_state.hpp
using launch_table_type = once_table<launch_key, launch_entry, launch_key_hash, 4096>;

// How many GPUs the runtime shows, packed in one word so that it is read and published at once:
// 0 until asked; then the `known` bit, the count query's error above bit 32 and the count below.
struct visible_device_word {
    static constexpr std::uint64_t known = std::uint64_t{1} << 63;
    static constexpr std::uint64_t one_device = known | 1;  // one GPU, asked without error: no query per launch

    static constexpr std::uint64_t pack(int count, int error) noexcept {
        return known | (std::uint64_t{static_cast<std::uint32_t>(error) & 0x7FFFFFFFu} << 32) |
               static_cast<std::uint32_t>(count);
    }
    static constexpr int count(std::uint64_t word) noexcept { return static_cast<int>(word & 0x7FFFFFFFu); }
    static constexpr int error(std::uint64_t word) noexcept { return static_cast<int>((word >> 32) & 0x7FFFFFFFu); }
};

class alignas(64) process_state {
public:
    tuning_switch tuning;
    std::atomic<std::uint64_t> visible_devices{0};  // visible_device_word
    // Each launch table, and the word in which a lookup finds its current slot array (once_table.hpp):
    // a launch that finds its entry reads this line, the slot and the entry, and no line of the table.
    std::atomic<launch_table_type*> planned_launches{nullptr};  // launch_table() (launch_impl.hpp)
    std::atomic<void*> planned_slots{nullptr};
    std::atomic<launch_table_type*> configured_launches{nullptr};  // configured_launch_table()
    std::atomic<void*> configured_slots{nullptr};

    // The one object of the process (of this wavefit version: the namespace is versioned).
    static process_state& get() noexcept { return the_state; }

private:
    constexpr process_state() noexcept = default;

    static process_state the_state;
};

// Constant initialization (a constexpr constructor of atomics), and a trivial destructor: the state
// outlives every static destructor that might launch.
inline process_state process_state::the_state;

static_assert(sizeof(process_state) == 64, "process_state: what every launch reads fits one cache line");
static_assert(std::is_trivially_destructible_v<process_state>, "process_state: never destroyed");

inline tuning_switch& tuning_switch::get() noexcept { return process_state::get().tuning; }

}  // namespace detail
WAVEFIT_END_NAMESPACE
