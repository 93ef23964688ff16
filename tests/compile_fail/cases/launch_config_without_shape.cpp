// SPDX-License-Identifier: MIT
// launch_config has no default constructor: a launch without a grid and a block is a bug.
#include <wavefit/launch_config.hpp>

#if WAVEFIT_COMPILE_FAIL
wavefit::launch_config cfg;
#else
wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#endif
