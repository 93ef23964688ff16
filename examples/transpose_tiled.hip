// SPDX-License-Identifier: MIT
// A 2-D transpose two ways, both checked against the host:
//   - tiled through shared memory / LDS: the kernel's indexing needs a 32 x 8 block, so the block
//     is a compile-time wavefit::static_launch_config<32, 8> and the grid comes from the extent in
//     tiles (validated like any launch: the grid's y limit, the dispatch limit on AMD);
//   - naive, launched over the extent: wavefit plans block and grid from the device (an extent
//     plan) and the kernel covers any clamped axis with wavefit::grid_stride_axis.
// The matrix is 4099 x 2053: neither side is a multiple of a tile.
#include "example_support.hpp"

#include <cstdint>  // sizes
#include <vector>   // host matrices

constexpr unsigned tile = 32;
constexpr unsigned rows_per_pass = 8;

// out (width rows of height) = in (height rows of width), transposed. Loops over tiles, so any
// grid covers the matrix.
__global__ void transpose_tiled(const float* in, float* out, std::uint64_t width, std::uint64_t height) {
    __shared__ float t[tile][tile + 1];  // +1 column: the transposed read does not hit one bank 32 times
    for (std::uint64_t ty = blockIdx.y; ty * tile < height; ty += gridDim.y) {
        for (std::uint64_t tx = blockIdx.x; tx * tile < width; tx += gridDim.x) {
            const std::uint64_t x = tx * tile + threadIdx.x;
            for (unsigned r = threadIdx.y; r < tile; r += rows_per_pass) {
                const std::uint64_t y = ty * tile + r;
                if (x < width && y < height) t[r][threadIdx.x] = in[y * width + x];
            }
            __syncthreads();
            const std::uint64_t out_x = ty * tile + threadIdx.x;  // a column of `in` is a row of `out`
            for (unsigned r = threadIdx.y; r < tile; r += rows_per_pass) {
                const std::uint64_t out_y = tx * tile + r;
                if (out_x < height && out_y < width) out[out_y * height + out_x] = t[threadIdx.x][r];
            }
            __syncthreads();
        }
    }
}

__global__ void transpose_naive(const float* in, float* out, std::uint64_t width, std::uint64_t height) {
    for (const std::uint64_t y : wavefit::grid_stride_axis<1>(height))
        for (const std::uint64_t x : wavefit::grid_stride_axis<0>(width)) out[x * height + y] = in[y * width + x];
}

int main() {
    using namespace wavefit;
    const std::uint64_t width = 4099, height = 2053, cells = width * height;
    const dims extent{width, height};
    const dims tiles{(width + tile - 1) / tile, (height + tile - 1) / tile};

    // What the extent plan picks on two presets: a block shaped along x for coalescing.
    for (const device_limits* d : {presets::find("mi300x"), presets::find("h200")}) {
        const launch_plan p = plan(*d, kernel_resources{}, extent);
        std::printf("naive transpose of %llu x %llu on %s: block %s, grid %s\n", static_cast<unsigned long long>(width),
                    static_cast<unsigned long long>(height), to_string(*d).c_str(), dims_text(p.block).c_str(),
                    dims_text(p.grid).c_str());
    }
    bool as_intended = launchable(presets::by_name("mi300x"), kernel_resources{}, static_launch_config<tile, rows_per_pass>{tiles});
    if (!gpu_available()) return finish(as_intended);

    std::vector<float> host(cells);
    for (std::uint64_t i = 0; i < cells; ++i) host[i] = static_cast<float>(i);  // exact below 2^24
    float* in = static_cast<float*>(gpu::allocate_bytes(cells * sizeof(float)));
    float* out = static_cast<float*>(gpu::allocate_bytes(cells * sizeof(float)));
    gpu::check(gpu::to_device(in, host.data(), cells * sizeof(float)), "copying to the device");
    gpu::stream_t stream = nullptr;
    gpu::check(gpu::create_stream(stream), "creating a stream");

    const auto check_transposed = [&](const char* which) {
        std::vector<float> result(cells);
        gpu::check(gpu::synchronize(stream), "running the kernels");
        gpu::check(gpu::to_host(result.data(), out, cells * sizeof(float)), "copying to the host");
        std::uint64_t wrong = 0;
        for (std::uint64_t y = 0; y < height; ++y)
            for (std::uint64_t x = 0; x < width; ++x) wrong += result[x * height + y] != host[y * width + x];
        std::printf("  %s: %llu of %llu elements wrong\n", which, static_cast<unsigned long long>(wrong),
                    static_cast<unsigned long long>(cells));
        return wrong == 0;
    };

    gpu::check(gpu::fill_bytes(out, 0xFF, cells * sizeof(float)),
               "filling device memory");  // NaN everywhere: an element never written shows
    launch(transpose_tiled, static_launch_config<tile, rows_per_pass>{tiles}, stream, in, out, width, height);
    as_intended &= check_transposed("tiled, block (32, 8) over the grid of tiles");

    gpu::check(gpu::fill_bytes(out, 0xFF, cells * sizeof(float)), "filling device memory");
    const launch_plan p = plan(transpose_naive, extent);
    launch(transpose_naive, extent, stream, in, out, width, height);
    std::printf("  naive, planned block %s, grid %s\n", dims_text(p.block).c_str(),
                dims_text(p.grid).c_str());
    as_intended &= check_transposed("naive over the extent");

    gpu::check(gpu::destroy_stream(stream), "destroying the stream");
    gpu::check(gpu::release(in), "freeing device memory");
    gpu::check(gpu::release(out), "freeing device memory");
    return finish(as_intended);
}
