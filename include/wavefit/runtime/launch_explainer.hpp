// SPDX-License-Identifier: MIT
// Who writes the sentences of a refused launch. A launch's translation unit does not compile the
// explanation prose (describe(), plan_reason(): with the headers that hold them, about a quarter of
// what a header-only launch added to a compile, bench/README.md "Compile cost"): its failure path calls the explainer registered here.
// <wavefit/wavefit.hpp> and the compiled library register the full one (runtime/launch_messages.hpp),
// so that a program where any file includes wavefit.hpp, or that links wavefit::compiled, gets the
// same messages as check(). Until one registers, the launch path's own short explainer
// (launch_impl.hpp) names the code, the value, the limit, the device and the fixed configuration, and
// says where the full text is. The same pattern as the tuner's (tuning_switch.hpp).
#pragma once

#include <atomic>   // the registered explainer
#include <cstdint>  // sizes
#include <string>   // what the explainers return

#include "../config.hpp"
#include "../detail/launch_fix.hpp"
#include "../device_limits.hpp"
#include "../diagnostic.hpp"
#include "../kernel_resources.hpp"
#include "../launch_config.hpp"

WAVEFIT_BEGIN_NAMESPACE

struct launch_plan;

namespace detail {

struct finding;

struct launch_explainer {
    // The finding as a message and a fix (describe(), validate.hpp).
    diagnostic (*describe)(const finding& f, const device_limits& d, const kernel_resources& k,
                           const launch_config& cfg, launch_work_shape shape, std::uint64_t group_threads) = nullptr;
    // Why a plan could not launch (plan_reason(), plan.hpp); null to say nothing.
    std::string (*plan_reason)(const launch_plan& p, const device_limits& d, const kernel_resources& k) = nullptr;
    // Why one-pass work cannot be launched in one pass (one_pass_phrase(), plan.hpp); null to say nothing.
    std::string (*one_pass_phrase)(const launch_plan& p, const device_limits& d) = nullptr;
};

// The registered explainer; a launch's failure path reads it once.
inline std::atomic<const launch_explainer*>& registered_launch_explainer() noexcept {
    static std::atomic<const launch_explainer*> slot{nullptr};
    return slot;
}

// Called by runtime/launch_messages.hpp's registration (every file that includes it registers the same
// object). Returns the explainer registered before, or null: a test that swaps it puts it back.
inline const launch_explainer* register_launch_explainer(const launch_explainer* x) noexcept {
    return registered_launch_explainer().exchange(x, std::memory_order_acq_rel);
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
