// SPDX-License-Identifier: MIT
// A compile-time block with a zero dimension never launches: it must not compile.
#include <wavefit/runtime/launch.hpp>

#if WAVEFIT_COMPILE_FAIL
constexpr wavefit::static_launch_config<256, 0> cfg{wavefit::dims{1}};
#else
constexpr wavefit::static_launch_config<256, 1> cfg{wavefit::dims{1}};
#endif
static_assert(cfg.block.x == 256);
