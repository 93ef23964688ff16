// SPDX-License-Identifier: MIT
// A user's translation unit written the ways README.md shows, compiled with -Wall -Wextra -Wconversion
// -Wshadow -Werror by g++ and clang++ (host-only against HIP's headers, as a .cpp of a HIP program is)
// and, as a .hip/.cu, by hipcc and nvcc: wavefit adds no warning to a strict build. The user's own
// globals named like POSIX functions (close, read) must not clash with anything wavefit includes.
#include <wavefit/wavefit.hpp>

#include <cstddef>  // NULL
#include <cstdint>  // sizes

int close = 0;  // wavefit includes no POSIX header: <unistd.h> would make this a redefinition
int read = 0;

#if WAVEFIT_DEVICE_COMPILER
#define USER_KERNEL __global__
#else
#define USER_KERNEL  // host-only C++: kernels are declared as plain functions
#endif

USER_KERNEL void saxpy(float a, const float* x, float* y, std::uint64_t n) {
#if WAVEFIT_DEVICE_COMPILER
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i];
#else
    (void)a, (void)x, (void)y, (void)n;
#endif
}

USER_KERNEL void row_sums(const float* in, float* out, int rows, int row_length) {
#if WAVEFIT_DEVICE_COMPILER
    for (const std::uint64_t row : wavefit::block_stride(static_cast<std::uint64_t>(rows)))
        if (threadIdx.x == 0) {
            float sum = 0;
            for (int j = 0; j < row_length; ++j) sum += in[row * static_cast<std::uint64_t>(row_length) + static_cast<std::uint64_t>(j)];
            out[row] = sum;
        }
#else
    (void)in, (void)out, (void)rows, (void)row_length;
#endif
}

USER_KERNEL void takes_pointer(float* p, int n) {
    (void)p, (void)n;
}

int user_launches(wavefit::detail::backend::stream_type stream, float* x, float* y, std::uint64_t n, int rows,
                  int row_length) {
    const float a = 2.0f;
    wavefit::launch(saxpy, n, stream, a, x, y, n);
    wavefit::launch(saxpy, wavefit::launch_config{dim3(16), dim3(256), 0}, stream, a, x, y, n);
    const int grid = 16, block = 256, shared = 0;  // int sizes, as ported code holds them
    wavefit::launch(saxpy, wavefit::launch_config{grid, block, shared}, stream, a, x, y, n);
    wavefit::launch(saxpy, wavefit::static_launch_config<256>{wavefit::dims{16}}, stream, a, x, y, n);
    wavefit::launch(saxpy, wavefit::dims{64, 64}, stream, a, x, y, n);
    wavefit::launch(saxpy, wavefit::work::elements(n).kernel_loops(), stream, a, x, y, n);
    wavefit::launch(row_sums, wavefit::work::per_block(rows, row_length), stream, x, y, rows, row_length);
    wavefit::launch(takes_pointer, wavefit::launch_config{1, 64}, stream, NULL, 0);
    // The porting table's contracts.
    wavefit::launch(saxpy, wavefit::work::elements(n).block_fixed(256), stream, a, x, y, n);
    wavefit::launch(saxpy, wavefit::work::elements(n).block_at_most(256), stream, a, x, y, n);
    wavefit::launch(row_sums, wavefit::work::per_group(rows, 32, row_length), stream, x, y, rows, row_length);
    wavefit::launch(row_sums, wavefit::work::per_wave(rows, row_length), stream, x, y, rows, row_length);
    wavefit::launch(saxpy, wavefit::work::elements(n).replacing(wavefit::launch_config{grid, block}), stream, a, x, y, n);
    const wavefit::launch_result r = wavefit::try_launch(saxpy, n, stream, a, x, y, n);
    return r.ok() ? 0 : r.runtime_code;
}

bool user_plans(std::uint64_t n) {
    const wavefit::device_limits& mi300x = wavefit::presets::by_name("mi300x");
    const wavefit::kernel_resources resources{};
    const wavefit::launch_plan p = wavefit::plan(mi300x, resources, n);
    const std::vector<wavefit::diagnostic> problems = wavefit::check(mi300x, resources, p.config());
    const wavefit::device_limits* gfx942 = wavefit::presets::find("gfx942");
    const int rows = 4096, row_length = 768;
    const wavefit::launch_plan rows_plan = wavefit::plan(*gfx942, resources, wavefit::work::per_block(rows, row_length));
    return problems.empty() && rows_plan.ok();
}
