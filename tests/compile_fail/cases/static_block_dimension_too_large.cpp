// SPDX-License-Identifier: MIT
// A compile-time block dimension above 1024 must not compile, even when the volume would fit.
#include <wavefit/runtime/launch.hpp>

#if WAVEFIT_COMPILE_FAIL
constexpr wavefit::static_launch_config<1, 2048> cfg{wavefit::dims{1}};
#else
constexpr wavefit::static_launch_config<1, 1024> cfg{wavefit::dims{1}};
#endif
static_assert(cfg.block.y <= 1024);
