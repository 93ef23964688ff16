// SPDX-License-Identifier: MIT
// Checks the separately compiled mode: a launch from separate_launch.cpp reaches the (fake) runtime,
// and a bad one throws wavefit::launch_error with wavefit's message. Exit 0 when all is as specified.
#include "fake_hip.hpp"
#include <wavefit/wavefit.hpp>

#include <cstdio>  // the verdict
#include <string>  // messages

void launch_elements(float* p, int n);
void launch_too_large_block(float* p, int n);

int main() {
    int failures = 0;
    const auto expect = [&failures](bool ok, const std::string& what) {
        if (!ok) {
            std::printf("FAILED: %s\n", what.c_str());
            ++failures;
        }
    };
    const int before = fake::count().launches.load();
    launch_elements(nullptr, 4099);
    expect(fake::count().launches.load() == before + 1, "the launch reached the runtime once");
    expect(fake::count().bad_launches.load() == 0, "the runtime accepted it");
    try {
        launch_too_large_block(nullptr, 4099);
        expect(false, "a 2048-thread block threw");
    } catch (const wavefit::launch_error& e) {
        expect(e.diagnostic() == wavefit::diagnostic_code::block_dim_exceeds_device_limit,
               std::string("the error names block_dim_exceeds_device_limit: ") + e.what());
        expect(std::string(e.what()).find("2048") != std::string::npos, std::string("the message names 2048: ") + e.what());
    }
    expect(fake::count().launches.load() == before + 1, "the rejected launch never reached the runtime");
    std::printf("%s\n", failures == 0 ? "all as specified" : "NOT as specified");
    return failures == 0 ? 0 : 1;
}
