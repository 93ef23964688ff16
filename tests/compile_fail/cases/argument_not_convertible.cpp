// SPDX-License-Identifier: MIT
// An argument that does not convert to the parameter's type at all must not compile, with
// wavefit's message rather than only a deep template error.
#include <wavefit/runtime/launch.hpp>

struct options {
    int n;
};

__global__ void run(int n) { (void)n; }

void misuse(options o) {
    const wavefit::launch_config cfg{wavefit::dims{1}, wavefit::dims{256}};
#if WAVEFIT_COMPILE_FAIL
    (void)wavefit::try_launch(run, cfg, nullptr, o);
#else
    (void)wavefit::try_launch(run, cfg, nullptr, o.n);
#endif
}
