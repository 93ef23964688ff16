// SPDX-License-Identifier: MIT
// What the examples share besides the GPU support layer: the "no GPU" exit every example takes on a
// machine without one, a printout of diagnostics, and the last line that matches the exit code
// (examples/README.md). The examples are single-source HIP programs; the same files build with nvcc
// for an NVIDIA GPU, their runtime calls going through gpu_support/gpu_support.hpp.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdio>  // the examples print what they show
#include <string>  // names in the printout
#include <vector>  // diagnostics

#include "gpu_support/gpu_support.hpp"

// Whether there is a GPU to run on. Without one, prints wavefit's own report of the runtime's answer
// on a line starting "no GPU:" (the part shown with presets has already run) and returns false.
inline bool gpu_available() {
    try {
        const wavefit::device_limits& d = wavefit::current_device_limits();
        std::printf("\nOn this GPU, %s:\n", wavefit::to_string(d).c_str());
        return true;
    } catch (const wavefit::launch_error& e) {
        std::printf("\nno GPU: %s\n", e.what());
        return false;
    }
}

// Prints each diagnostic of `check` as "  error [code] message / fix: ...".
inline void print_diagnostics(const std::vector<wavefit::diagnostic>& diagnostics) {
    for (const wavefit::diagnostic& d : diagnostics)
        std::printf("  %s [%s] %s\n    fix: %s\n", std::string(wavefit::to_string(d.severity)).c_str(),
                    std::string(wavefit::to_string(d.code)).c_str(), d.message.c_str(), d.fix.c_str());
}

// Whether `check` finds no error in the launch (a warning still launches).
inline bool launchable(const wavefit::device_limits& d, const wavefit::kernel_resources& k,
                       const wavefit::launch_config& c) {
    for (const wavefit::diagnostic& dg : wavefit::check(d, k, c))
        if (dg.severity == wavefit::severity::error) return false;
    return true;
}

// Whether one of `diagnostics` has `code`.
inline bool has_code(const std::vector<wavefit::diagnostic>& diagnostics, wavefit::diagnostic_code code) {
    for (const wavefit::diagnostic& dg : diagnostics)
        if (dg.code == code) return true;
    return false;
}

// "(256, 1, 1)".
inline std::string dims_text(const wavefit::dims& v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// "as intended" or "NOT as intended": the last line of every example, matching its exit code.
inline int finish(bool as_intended) {
    std::printf("\n%s\n", as_intended ? "behaved as intended" : "did NOT behave as intended");
    return as_intended ? 0 : 1;
}
