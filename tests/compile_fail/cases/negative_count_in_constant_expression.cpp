// SPDX-License-Identifier: MIT
// A negative element count is never a size: where the compiler sees it (a constant expression) it
// does not compile, and the one error names the mistake. At run time it is refused before a launch.
#include <wavefit/work.hpp>

#if WAVEFIT_COMPILE_FAIL
constexpr wavefit::work w = wavefit::work::elements(-1);
#else
constexpr wavefit::work w = wavefit::work::elements(1);
#endif
