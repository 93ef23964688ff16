// SPDX-License-Identifier: MIT
// The smallest real use of wavefit from a CMake project: a grid-stride kernel launched by element
// count. Prints the plan for an MI300X; on a GPU it launches and checks; without one it prints
// wavefit's report of the runtime's answer and exits 0.
#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <cstdio>   // output
#include <vector>   // results

__global__ void square(float* values, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) values[i] *= values[i];
}

int main() {
    const std::uint64_t n = std::uint64_t{1} << 20;
    const wavefit::launch_plan p = wavefit::plan(wavefit::presets::by_name("mi300x"), wavefit::kernel_resources{}, n);
    std::printf("on an MI300X: %s\n",
                wavefit::plan_reason(p, wavefit::presets::by_name("mi300x"), wavefit::kernel_resources{}).c_str());

    int devices = 0;
    if (hipGetDeviceCount(&devices) != hipSuccess || devices == 0) {
        try {
            (void)wavefit::current_device_limits();
        } catch (const wavefit::launch_error& e) {
            std::printf("no GPU: %s\n", e.what());
        }
        return 0;
    }
    std::vector<float> host(n, 3.0f);
    float* values = nullptr;
    if (hipMalloc(&values, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemcpy(values, host.data(), n * sizeof(float), hipMemcpyHostToDevice) != hipSuccess) return 1;
    try {
        wavefit::launch(square, n, nullptr, values, n);
    } catch (const wavefit::launch_error& e) {
        std::printf("launch failed: %s\n", e.what());
        return 1;
    }
    if (hipMemcpy(host.data(), values, n * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess) return 1;
    (void)hipFree(values);
    for (const float v : host)
        if (v != 9.0f) return 1;
    std::printf("all %llu values squared\n", static_cast<unsigned long long>(n));
    return 0;
}
