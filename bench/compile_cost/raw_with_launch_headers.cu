// SPDX-License-Identifier: MIT
// The nvcc baseline (raw.cu) with the headers of a header-only wavefit launch included and not used:
// what parsing them alone costs (measure.py --phases), apart from compiling the launch's code.
#include <wavefit/launch.hpp>

#include "raw.cu"
