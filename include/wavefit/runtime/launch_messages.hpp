// SPDX-License-Identifier: MIT
// The full explanations of a refused launch, registered for every launch of the program: the same
// describe() and plan_reason() that check() and plan() use. Included by <wavefit/wavefit.hpp> and by
// the compiled library (<wavefit/compiled.hpp>), never by <wavefit/launch.hpp>: a file that only
// launches does not compile this prose (launch_explainer.hpp says why and what it gets instead).
#pragma once

#include "../config.hpp"
#include "../plan.hpp"
#include "../validate.hpp"
#include "launch_explainer.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline constexpr launch_explainer full_launch_explainer{&describe, &plan_reason, &one_pass_phrase};

// Registered while the program starts (a launch before that, from another file's static
// initialiser, gets the short explainer).
inline const bool full_launch_explainer_registered =
    (register_launch_explainer(&full_launch_explainer), true);

}  // namespace detail
WAVEFIT_END_NAMESPACE
