// SPDX-License-Identifier: MIT
// The classic port. A CUDA kernel moves to HIP with its launch unchanged:
//
//     GPU_RAW_LAUNCH(scale, dim3(n / 512), dim3(512), 0, stream, x, n, a);
//
// On the way the kernel got __launch_bounds__(256), and the data grew past 2^32 elements. This shows
//   1. what wavefit::check says about that launch on an MI300X (a preset: no GPU needed),
//   2. what wavefit::launch does there instead (wavefit::plan): the kernel loops (grid_stride), and the
//      launch says so with work::elements(n).kernel_loops(), so that wavefit may clamp the grid,
//   3. on the GPU at hand: the raw launch fails with the runtime's error, wavefit rejects the same
//      configuration before calling the runtime, and wavefit::launch just works.
#include "example_support.hpp"

#include <cstdint>  // 64-bit sizes
#include <vector>   // host data

__global__ void __launch_bounds__(256) scale(float* x, std::uint64_t n, float a) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) x[i] *= a;
}

int main() {
    using namespace wavefit;
    bool as_intended = true;

    // 1. The ported launch on an MI300X over 2^33 elements. The kernel's own bound is what the
    //    compiler records for __launch_bounds__(256); on a GPU, kernel_resources_for(scale) reads it.
    const std::uint64_t big = std::uint64_t{1} << 33;
    kernel_resources bound_256{};
    bound_256.max_threads_per_block = 256;
    const launch_config ported{dims{big / 512}, dims{512}};
    std::printf("GPU_RAW_LAUNCH(scale, dim3(%llu), dim3(512), ...) over 2^33 elements on an MI300X:\n",
                static_cast<unsigned long long>(big / 512));
    const std::vector<diagnostic> found = check(presets::by_name("mi300x"), bound_256, ported);
    print_diagnostics(found);
    as_intended &= !launchable(presets::by_name("mi300x"), bound_256, ported) &&
                   has_code(found, diagnostic_code::block_exceeds_kernel_max_threads) &&
                   has_code(found, diagnostic_code::work_items_exceed_dispatch_limit);

    // 2. What wavefit::launch(scale, work::elements(n).kernel_loops(), stream, ...) launches there: a
    //    block within the bound, a grid clamped below 2^32 work-items, and the kernel's grid-stride loop
    //    covers the rest. (Without .kernel_loops() wavefit refuses it: one pass cannot cover 2^33.)
    const launch_plan p = plan(presets::by_name("mi300x"), bound_256, work::elements(big).kernel_loops());
    as_intended &= !plan(presets::by_name("mi300x"), bound_256, big).ok();
    std::printf("\nwavefit::launch(scale, work::elements(2^33).kernel_loops(), stream, ...) on an MI300X: %s\n",
                plan_reason(p, presets::by_name("mi300x"), bound_256).c_str());
    as_intended &= p.ok() && p.block.x <= 256 && p.grid_stride;

    // 3. The same on a real GPU, over 2^24 elements.
    if (!gpu_available()) return finish(as_intended);
    const std::uint64_t n = std::uint64_t{1} << 24;
    float* x = static_cast<float*>(gpu::allocate_bytes(n * sizeof(float)));
    const std::vector<float> ones(n, 1.0f);
    gpu::check(gpu::to_device(x, ones.data(), n * sizeof(float)), "copying to the device");
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");

    GPU_RAW_LAUNCH(scale, dim3(static_cast<unsigned>(n / 512)), dim3(512), 0, stream, x, n, 2.0f);
    gpu::error_t raw = gpu::take_last_error();
    if (raw == gpu::success) raw = gpu::synchronize(stream);  // some runtimes report it only here
    std::printf("  the ported launch: %s\n", gpu::error_name(raw));
    as_intended &= raw != gpu::success;
    (void)gpu::take_last_error();

    const launch_result rejected = try_launch(scale, launch_config{dims{n / 512}, dims{512}}, stream, x, n, 2.0f);
    std::printf("  wavefit::try_launch with the same configuration: %s\n", rejected.message.c_str());
    as_intended &= rejected.status == launch_status::rejected && rejected.runtime_code == 0 &&
                   rejected.diagnostic == diagnostic_code::block_exceeds_kernel_max_threads;

    const launch_config used = plan(scale, work::elements(n).kernel_loops()).config();
    launch(scale, work::elements(n).kernel_loops(), stream, x, n, 2.0f);  // throws launch_error if anything were wrong
    gpu::check(gpu::synchronize(stream), "running the kernels");
    std::vector<float> result(n);
    gpu::check(gpu::to_host(result.data(), x, n * sizeof(float)), "copying to the host");
    std::uint64_t wrong = 0;
    for (const float v : result) wrong += v != 2.0f;
    std::printf("  wavefit::launch(scale, n, stream, ...) used grid %s, block %s: %llu of %llu values wrong\n",
                dims_text(used.grid).c_str(), dims_text(used.block).c_str(),
                static_cast<unsigned long long>(wrong), static_cast<unsigned long long>(n));
    as_intended &= wrong == 0;

    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    gpu::check(gpu::release(x), "freeing device memory");
    return finish(as_intended);
}
