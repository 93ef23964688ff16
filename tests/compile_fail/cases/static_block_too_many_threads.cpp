// SPDX-License-Identifier: MIT
// A compile-time block of more than 1024 threads: no GPU launches it, so it must not compile.
#include <wavefit/runtime/launch.hpp>

#if WAVEFIT_COMPILE_FAIL
constexpr wavefit::static_launch_config<64, 32> cfg{wavefit::dims{1}};
#else
constexpr wavefit::static_launch_config<32, 32> cfg{wavefit::dims{1}};
#endif
static_assert(cfg.block.volume() <= 1024);
