// SPDX-License-Identifier: MIT
// A user's translation unit written the ways README.md shows, compiled with -Wall -Wextra -Wconversion
// -Wsign-conversion -Wshadow -Werror by g++ and clang++ (host-only against HIP's headers, as a .cpp
// of a HIP program is) and, as a .hip/.cu, by hipcc and nvcc: wavefit adds no warning to a strict build. Every documented
// name is used once (the tuning tier included), and the device helpers in device code. The user's own
// globals named like POSIX functions (close, read) must not clash with anything wavefit includes.
#include <wavefit/tuning.hpp>
#include <wavefit/wavefit.hpp>

#include <cstddef>  // NULL
#include <cstdint>  // sizes
#include <string>   // what the queries say

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

// One value per wave, and a 2-D grid-stride loop over the y axis.
USER_KERNEL void wave_values(float* out, std::uint64_t units, std::uint64_t rows) {
#if WAVEFIT_DEVICE_COMPILER
    for (const std::uint64_t unit : wavefit::wave_stride(units))
        if (wavefit::lane_id() == 0) out[unit] = static_cast<float>(wavefit::wave_size());
    for (const std::uint64_t row : wavefit::grid_stride_axis<1>(rows)) out[row] += 1.0f;
#else
    (void)out, (void)units, (void)rows;
#endif
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
    wavefit::launch(wave_values, wavefit::work::per_wave(n), stream, y, n, n);
    const wavefit::launch_result r = wavefit::try_launch(saxpy, n, stream, a, x, y, n);
    int failed = r.ok() ? 0 : 1;
    failed += wavefit::try_launch(saxpy, wavefit::launch_config{grid, block}, stream, a, x, y, n).ok() ? 0 : 1;
    failed += wavefit::try_launch(saxpy, wavefit::dims{64, 64}, stream, a, x, y, n).ok() ? 0 : 1;
    failed += wavefit::try_launch(row_sums, wavefit::work::per_block(rows), stream, x, y, rows, row_length).ok() ? 0 : 1;
    if (r.status == wavefit::launch_status::rejected) return static_cast<int>(wavefit::to_string(r.status).size());
    return failed;
}

// The queries of a real device and kernel, and the opt-in tuner.
std::string user_queries(wavefit::detail::backend::stream_type stream, float* x, float* y, std::uint64_t n) {
    const wavefit::kernel_resources resources = wavefit::kernel_resources_for(saxpy);
    const wavefit::device_limits& current = wavefit::current_device_limits();
    const wavefit::device_limits& first = wavefit::device_limits_for(0);
    const wavefit::launch_plan p = wavefit::plan(current, resources, wavefit::work::elements(n).grid_saturated());
    const wavefit::occupancy_report o = wavefit::occupancy(first, resources, p.block.volume());
    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    wavefit::set_tuning_file("tuned.jsonl");
    const wavefit::tuning_result t = wavefit::tune(saxpy, n, stream, 2.0f, x, y, n);
    std::string said = wavefit::plan_reason(p, current, resources);
    said += wavefit::to_string(o.limited_by);
    said += wavefit::to_string(first);
    said += wavefit::to_string(wavefit::tuning_mode::tune);
    try {
        wavefit::launch(saxpy, wavefit::launch_config{1u << 20, 2048}, stream, 2.0f, x, y, n);
    } catch (const wavefit::launch_error& e) {
        said += e.what();
    }
    return t.ok ? said : std::string();
}

bool user_plans(std::uint64_t n) {
    const wavefit::device_limits& mi300x = wavefit::presets::by_name("mi300x");
    const wavefit::kernel_resources resources{};
    const wavefit::launch_plan p = wavefit::plan(mi300x, resources, n);
    const std::vector<wavefit::diagnostic> problems = wavefit::check(mi300x, resources, p.config());
    const wavefit::device_limits* gfx942 = wavefit::presets::find("gfx942");
    for (const auto& preset : wavefit::presets::all)
        if (preset.key == std::string_view("h200")) return wavefit::plan(preset.limits, resources, n).ok();
    const int rows = 4096, row_length = 768;
    const wavefit::launch_plan rows_plan = wavefit::plan(*gfx942, resources, wavefit::work::per_block(rows, row_length));
    return problems.empty() && rows_plan.ok();
}
