// SPDX-License-Identifier: MIT
// A kernel tuned on an H100/H200 for 128 KiB of dynamic shared memory per block, ported to an
// MI300X: 64 KiB of LDS per CU and no opt-in beyond it. wavefit says so before launching, with the
// numbers; an MI355X (gfx950, 160 KiB) takes it; on an H200 the same launch works because
// wavefit::launch opts in to more than the default 48 KiB by itself.
#include "example_support.hpp"

#include <cstdint>  // sizes
#include <vector>   // results

// Stages `words` 32-bit words through dynamic shared memory and reads back words other threads
// wrote; out[thread] = how many came back wrong.
__global__ void stage_through_lds(std::uint32_t* out, std::uint32_t words) {
    extern __shared__ std::uint32_t lds[];
    for (std::uint32_t w = threadIdx.x; w < words; w += blockDim.x) lds[w] = w * 2654435761u + blockIdx.x;
    __syncthreads();
    std::uint32_t wrong = 0;
    for (std::uint32_t w = threadIdx.x; w < words; w += blockDim.x) {
        const std::uint32_t r = words - 1 - w;
        wrong += lds[r] != r * 2654435761u + blockIdx.x;
    }
    out[std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x] = wrong;
}

int main() {
    using namespace wavefit;
    const std::uint64_t bytes = 128 * 1024;
    const std::uint64_t blocks = 512, threads = 256;
    const launch_config cfg{dims{blocks}, dims{threads}, bytes};

    bool as_intended = true;
    for (const device_limits* d : {presets::find("mi300x"), presets::find("mi355x"), presets::find("h200")}) {
        const std::vector<diagnostic> found = check(*d, kernel_resources{}, cfg);
        std::printf("128 KiB of dynamic shared memory per block on %s: %s\n", to_string(*d).c_str(),
                    launchable(*d, kernel_resources{}, cfg) ? "valid" : "invalid");
        print_diagnostics(found);
        as_intended &= launchable(*d, kernel_resources{}, cfg) == (d != presets::find("mi300x"));
    }

    if (!gpu_available()) return finish(as_intended);
    const device_limits& here = current_device_limits();
    std::uint32_t* out = static_cast<std::uint32_t*>(gpu::allocate_bytes(blocks * threads * sizeof(std::uint32_t)));
    gpu::check(gpu::fill_bytes(out, 0xAB, blocks * threads * sizeof(std::uint32_t)), "filling device memory");
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");

    const launch_result r = try_launch(stage_through_lds, cfg, stream, out, static_cast<std::uint32_t>(bytes / 4));
    if (here.shared_per_block_optin < bytes) {
        // An MI300X, an MI250X...: rejected before the runtime, with the limit and the fix.
        std::printf("  rejected: %s\n", r.message.c_str());
        as_intended &= r.status == launch_status::rejected && r.diagnostic == diagnostic_code::shared_memory_exceeds_limit;
    } else {
        // An H200, an MI355X: launched (with the opt-in where the device needs one) and checked.
        std::printf("  launched: %s\n", r.ok() ? "yes" : r.message.c_str());
        gpu::check(gpu::synchronize(stream), "running the kernels");
        std::vector<std::uint32_t> wrong(blocks * threads);
        gpu::check(gpu::to_host(wrong.data(), out, wrong.size() * sizeof(std::uint32_t)), "copying to the host");
        std::uint64_t bad = 0;
        for (const std::uint32_t w : wrong) bad += w != 0;
        std::printf("  %llu of %llu threads saw wrong shared memory contents\n", static_cast<unsigned long long>(bad),
                    static_cast<unsigned long long>(wrong.size()));
        as_intended &= r.status == launch_status::launched && bad == 0;
    }

    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    gpu::check(gpu::release(out), "freeing device memory");
    return finish(as_intended);
}
