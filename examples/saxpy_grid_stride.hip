// SPDX-License-Identifier: MIT
// SAXPY over more than 2^32 elements. Every size is 64-bit from the host to the kernel, and the
// kernel loops with wavefit::grid_stride, and its launches say so (work::elements(n).kernel_loops()):
// only then is a planned grid clamped where the device cannot hold one thread per element. On AMD the dispatch packet counts at most 2^32-1 work-items per
// dimension, so on an MI300X one pass of the grid covers 2^32 - 256 elements and the loop does
// the rest. On a GPU with enough memory (2 x 16 GiB) it runs and checks a sample of the results.
#include "example_support.hpp"

#include <cstdint>  // 64-bit sizes
#include <vector>   // sample indices

__global__ void saxpy(float a, const float* x, float* y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i];
}

// Values whose saxpy result is exact in float: x = (i % 1000) / 2, y = i % 7.
__global__ void fill_inputs(float* x, float* y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) {
        x[i] = static_cast<float>(i % 1000) * 0.5f;
        y[i] = static_cast<float>(i % 7);
    }
}

int main() {
    using namespace wavefit;
    bool as_intended = true;
    const float a = 2.0f;
    std::uint64_t n = (std::uint64_t{1} << 32) + 4099;

    // The plan on an MI300X for a kernel with no special resources: the grid is clamped.
    const launch_plan mi300x = plan(presets::by_name("mi300x"), kernel_resources{}, work::elements(n).kernel_loops());
    std::printf("saxpy over %llu elements on an MI300X: %s\n", static_cast<unsigned long long>(n),
                plan_reason(mi300x, presets::by_name("mi300x"), kernel_resources{}).c_str());
    as_intended &= mi300x.grid_stride && mi300x.grid.x * mi300x.block.x <= presets::by_name("mi300x").max_work_items_per_dimension;

    if (!gpu_available()) return finish(as_intended);
    std::size_t free_bytes = 0, total_bytes = 0;
    gpu::check(gpu::memory_info(free_bytes, total_bytes), "reading the free memory");
    if (free_bytes < 2 * n * sizeof(float) + (std::uint64_t{1} << 30)) {
        n = (std::uint64_t{1} << 28) + 4099;  // still grid-strides where the plan clamps, but stays below 2^32
        std::printf("  %llu bytes free: too few for 2 x 2^32 floats, running %llu elements instead\n",
                    static_cast<unsigned long long>(free_bytes), static_cast<unsigned long long>(n));
    }
    float* x = static_cast<float*>(gpu::allocate_bytes(n * sizeof(float)));
    float* y = static_cast<float*>(gpu::allocate_bytes(n * sizeof(float)));
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");

    const launch_plan here = plan(saxpy, work::elements(n).kernel_loops());
    std::printf("  saxpy over %llu elements here: %s\n", static_cast<unsigned long long>(n),
                plan_reason(here, current_device_limits(), kernel_resources_for(saxpy)).c_str());
    launch(fill_inputs, work::elements(n).kernel_loops(), stream, x, y, n);
    launch(saxpy, work::elements(n).kernel_loops(), stream, a, x, y, n);  // x is a float*, the kernel takes const float*: allowed
    gpu::check(gpu::synchronize(stream), "running the kernels");

    // A sample: both ends, both sides of 2^31 and 2^32, and a spread of others.
    std::vector<std::uint64_t> sample{0, 1, 999, n - 1};
    for (const std::uint64_t edge : {std::uint64_t{1} << 31, std::uint64_t{1} << 32})
        if (edge < n) sample.insert(sample.end(), {edge - 1, edge});
    for (std::uint64_t i = 7; i < n; i += n / 997) sample.push_back(i);
    std::uint64_t wrong = 0;
    for (const std::uint64_t i : sample) {
        float got = 0.0f;
        gpu::check(gpu::to_host(&got, y + i, sizeof(float)), "copying to the host");
        const float want = a * (static_cast<float>(i % 1000) * 0.5f) + static_cast<float>(i % 7);
        if (got != want && wrong++ < 5)
            std::printf("  y[%llu] = %g, expected %g\n", static_cast<unsigned long long>(i), got, want);
    }
    std::printf("  %llu of %zu sampled results wrong\n", static_cast<unsigned long long>(wrong), sample.size());
    as_intended &= wrong == 0;

    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    gpu::check(gpu::release(x), "freeing device memory");
    gpu::check(gpu::release(y), "freeing device memory");
    return finish(as_intended);
}
