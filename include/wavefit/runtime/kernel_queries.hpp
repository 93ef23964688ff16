// SPDX-License-Identifier: MIT
// Plans and occupancy for a real kernel on the calling thread's current device: the core's plan()
// and occupancy() with the device's limits and the kernel's attributes read from the runtime (once,
// cached). For questions asked before or beside a launch; the launch itself never calls these.
#pragma once

#include <cstdint>  // sizes

#include "../config.hpp"
#include "../occupancy.hpp"
#include "../plan.hpp"
#include "device_state.hpp"
#include "launch.hpp"

WAVEFIT_BEGIN_NAMESPACE

#if WAVEFIT_EXCEPTIONS
// The plan a launch of `kernel` over `w` would use (without tuning).
template <class... Params>
launch_plan plan(void (*kernel)(Params...), const work& w) {
    return plan(current_device_limits(), kernel_resources_for(kernel), w);
}

template <class... Params, class Count, detail::if_size_type<Count> = 0>
launch_plan plan(void (*kernel)(Params...), Count elements) {
    return plan(kernel, work::elements(elements));
}

template <class... Params>
launch_plan plan(void (*kernel)(Params...), const dims& extent) {
    return plan(kernel, work::over(extent));
}

// Resident blocks and waves per CU/SM of `kernel` with blocks of `block_threads` threads.
template <class... Params>
occupancy_report occupancy(void (*kernel)(Params...), std::uint64_t block_threads, std::uint64_t dynamic_shared = 0) {
    return occupancy(current_device_limits(), kernel_resources_for(kernel), block_threads, dynamic_shared);
}
#endif

WAVEFIT_END_NAMESPACE
