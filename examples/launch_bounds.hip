// SPDX-License-Identifier: MIT
// A kernel with __launch_bounds__(256). wavefit reads the kernel's own bound from the runtime and
// sizes the block within it; an explicit 512-thread launch is rejected with
// block_exceeds_kernel_max_threads before the runtime is called (HIP would fail it with
// hipErrorLaunchFailure and only a log line; CUDA with an error code and no word about the bound).
#include "example_support.hpp"

#include <cstdint>  // sizes
#include <vector>   // results

__global__ void __launch_bounds__(256) add_one(int* values, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) values[i] += 1;
}

int main() {
    using namespace wavefit;
    bool as_intended = true;
    const std::uint64_t n = std::uint64_t{1} << 24;

    // With presets, the bound given by hand (on a GPU it comes from the kernel, below).
    kernel_resources bound_256{};
    bound_256.max_threads_per_block = 256;
    for (const device_limits* d : {presets::find("mi300x"), presets::find("h200")}) {
        const launch_plan p = plan(*d, bound_256, n);
        std::printf("%s: %s\n", to_string(*d).c_str(), plan_reason(p, *d, bound_256).c_str());
        as_intended &= p.ok() && p.block.volume() <= 256;
    }
    std::printf("an explicit block of 512 on an MI300X:\n");
    print_diagnostics(check(presets::by_name("mi300x"), bound_256, launch_config{dims{n / 512}, dims{512}}));

    if (!gpu_available()) return finish(as_intended);
    const kernel_resources& k = kernel_resources_for(add_one);
    std::printf("  add_one: the runtime reports a bound of %u threads per block\n", k.max_threads_per_block);
    as_intended &= k.max_threads_per_block == 256;

    int* values = static_cast<int*>(gpu::allocate_bytes(n * sizeof(int)));
    gpu::check(gpu::fill_bytes(values, 0, n * sizeof(int)), "filling device memory");
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");

    // Sized by wavefit: the block comes from the device and the kernel's bound.
    const launch_config planned = plan(add_one, n).config();
    launch(add_one, n, stream, values, n);
    std::printf("  wavefit::launch(add_one, n, ...): block %s, grid %s\n", dims_text(planned.block).c_str(),
                dims_text(planned.grid).c_str());
    as_intended &= planned.block.volume() <= 256;

    // Sized by hand: rejected, and the runtime never saw it (no error pending afterwards).
    const launch_result r = try_launch(add_one, launch_config{dims{n / 512}, dims{512}}, stream, values, n);
    const gpu::error_t pending = gpu::take_last_error();
    std::printf("  block 512: %s\n  the runtime's last error afterwards: %s\n", r.message.c_str(), gpu::error_name(pending));
    as_intended &= r.status == launch_status::rejected &&
                   r.diagnostic == diagnostic_code::block_exceeds_kernel_max_threads && r.runtime_code == 0 &&
                   pending == gpu::success;

    gpu::check(gpu::synchronize(stream), "running the kernels");
    std::vector<int> result(n);
    gpu::check(gpu::to_host(result.data(), values, n * sizeof(int)), "copying to the host");
    std::uint64_t wrong = 0;
    for (const int v : result) wrong += v != 1;
    std::printf("  %llu of %llu values wrong (each must be incremented exactly once)\n",
                static_cast<unsigned long long>(wrong), static_cast<unsigned long long>(n));
    as_intended &= wrong == 0;

    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    gpu::check(gpu::release(values), "freeing device memory");
    return finish(as_intended);
}
