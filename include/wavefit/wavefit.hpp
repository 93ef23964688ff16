// The umbrella header. Always the planning core; when the including translation unit is compiled
// as HIP or CUDA, also the runtime layer (wavefit::launch and friends) and the device helpers.
#pragma once

#include "core.hpp"
