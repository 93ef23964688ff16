// SPDX-License-Identifier: MIT
// Code built with -fno-exceptions, as many GPU codebases are: the planning core and try_launch
// compile, and try_launch reports a rejected launch in its result. Built host-only against the fake
// HIP runtime (tests/cpu/fake_hip.hpp) and run: exit 0 when everything behaved as specified.
#include "fake_hip.hpp"
#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <cstdio>   // the verdict

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "no_exceptions.cpp must be compiled with -fno-exceptions"
#endif

static void kernel(float* p, int n) { (void)p, (void)n; }

int main() {
    int failures = 0;
    const auto expect = [&failures](bool ok, const char* what) {
        if (!ok) {
            std::printf("FAILED: %s\n", what);
            ++failures;
        }
    };
    const wavefit::launch_plan p = wavefit::plan(*wavefit::presets::find("mi300x"), wavefit::kernel_resources{}, 1u << 20);
    expect(p.feasible && p.block.x > 0, "the core plans without exceptions");

    float* data = nullptr;
    int n = 4099;
    const wavefit::launch_result ok = wavefit::try_launch(kernel, std::uint64_t{4096}, nullptr, data, n);
    expect(ok.ok(), "a planned launch through the fake runtime succeeds");
    const wavefit::launch_result bad =
        wavefit::try_launch(kernel, wavefit::launch_config{wavefit::dims{1}, wavefit::dims{2048}}, nullptr, data, n);
    expect(!bad.ok() && bad.status == wavefit::launch_status::rejected, "a 2048-thread block is rejected");
    expect(bad.diagnostic == wavefit::diagnostic_code::block_dim_exceeds_device_limit, "the rejection names its code");
    expect(bad.message.find("2048") != std::string::npos, "the message names the value");
    std::printf("%s\n", failures == 0 ? "all as specified" : "NOT as specified");
    return failures == 0 ? 0 : 1;
}
