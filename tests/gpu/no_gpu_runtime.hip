// SPDX-License-Identifier: MIT
// wavefit against the real runtime on a machine without a GPU (CI: Debian's libamdhip64, which
// answers hipErrorNoDevice / hipErrorInvalidDevice; or the CUDA runtime without a driver). Nothing
// may crash or abort: queries and launches report the runtime's error in one line, and the planning
// core keeps working from presets. Exit 0 when every check holds, 1 when one fails, 77 (CTest's
// SKIP_RETURN_CODE) when a GPU is present.
#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes
#include <cstdio>   // the report
#include <string>   // messages

#include "gpu_support/gpu_support.hpp"

namespace {

// The device helpers must compile for every target; this kernel is never launched successfully.
__global__ void __launch_bounds__(256) scale(float* data, std::uint64_t n, float a) {
    static_assert(wavefit::detail::compiled_wave_size == 0 || wavefit::detail::compiled_wave_size == 32 || wavefit::detail::compiled_wave_size == 64,
                  "a wave is 32 or 64 lanes (0 in the host pass)");
    for (const std::uint64_t i : wavefit::grid_stride(n)) data[i] *= a;
    for (const std::uint64_t y : wavefit::grid_stride_axis<1>(n))
        if (wavefit::lane_id() == 0 && y == 0) data[0] += static_cast<float>(wavefit::wave_size());
}

int failures = 0;

void expect(bool ok, const char* what, const std::string& detail = {}) {
    std::printf("%s %s%s%s\n", ok ? "ok    " : "FAILED", what, detail.empty() ? "" : ": ", detail.c_str());
    if (!ok) ++failures;
}

const char* const error_prefix = wavefit::detail::backend::runtime_name[0] == 'H' ? "hipError" : "cudaError";

bool one_line_naming_the_error(const std::string& message) {
    return !message.empty() && message.find('\n') == std::string::npos && message.find(error_prefix) != std::string::npos;
}

// Runs `query`, expecting a launch_error that reports a runtime failure.
template <class Query>
void expect_runtime_failure(const char* what, Query&& query) {
    try {
        query();
        expect(false, what, "no exception");
    } catch (const wavefit::launch_error& e) {
        expect(e.status() == wavefit::launch_status::runtime_failed && e.runtime_code() != 0 &&
                   one_line_naming_the_error(e.what()),
               what, "launch_error (runtime code " + std::to_string(e.runtime_code()) + "): " + e.what());
    } catch (const std::exception& e) {
        expect(false, what, std::string("another exception: ") + e.what());
    }
}

void runtime_reports_no_gpu() {
    expect(wavefit::detail::visible_device_count() == 0, "visible_device_count() is 0");
    expect(wavefit::detail::visible_device_count() == 0, "visible_device_count() is 0 when asked again");
    expect_runtime_failure("current_device_limits() throws launch_error", [] { (void)wavefit::current_device_limits(); });
    expect_runtime_failure("device_limits_for(0) throws launch_error", [] { (void)wavefit::device_limits_for(0); });
    expect_runtime_failure("kernel_resources_for(kernel) throws launch_error",
                           [] { (void)wavefit::kernel_resources_for(scale); });
    expect_runtime_failure("plan(kernel, n) throws launch_error", [] { (void)wavefit::plan(scale, std::uint64_t{1000}); });

    float* const no_data = nullptr;
    const wavefit::launch_result by_count =
        wavefit::try_launch(scale, std::uint64_t{1000}, nullptr, no_data, std::uint64_t{1000}, 2.0f);
    expect(by_count.status == wavefit::launch_status::runtime_failed && by_count.runtime_code != 0 &&
               one_line_naming_the_error(by_count.message),
           "try_launch(kernel, n) returns runtime_failed", by_count.message);
    const wavefit::launch_result by_config = wavefit::try_launch(
        scale, wavefit::launch_config{wavefit::dims{4}, wavefit::dims{256}}, nullptr, no_data, std::uint64_t{1000}, 2.0f);
    expect(by_config.status == wavefit::launch_status::runtime_failed && one_line_naming_the_error(by_config.message),
           "try_launch(kernel, config) returns runtime_failed", by_config.message);
    expect_runtime_failure("launch(kernel, n) throws launch_error", [&] {
        wavefit::launch(scale, std::uint64_t{1000}, nullptr, no_data, std::uint64_t{1000}, 2.0f);
    });
    // Not a check: without a device every HIP call, hipGetLastError included, returns the
    // initialisation error, so "nothing left pending" can only be checked on a GPU (tests/gpu does).
    std::printf("info   the runtime's last-error query answers %s\n", gpu::error_text(gpu::take_last_error()).c_str());
}

void planning_core_works_from_presets() {
    using namespace wavefit;
    const std::uint64_t n = std::uint64_t{1} << 33;
    const launch_plan p = plan(presets::detail::mi300x, kernel_resources{}, work::elements(n).kernel_loops());
    expect(
        p.ok() && p.grid_stride && p.grid.x * p.block.x <= 4294967295ull && detail::is_launchable(presets::detail::mi300x, {}, p.config()),
        "plan(mi300x, 2^33 elements of a kernel that loops) clamps the grid below 2^32 work-items",
        "grid " + detail::dims_text(p.grid) + " block " + detail::dims_text(p.block));
    const launch_plan one_pass = plan(presets::detail::mi300x, kernel_resources{}, n);
    expect(!one_pass.ok() && one_pass.exceeds_one_pass, "plan(mi300x, 2^33 elements, one pass) is refused",
           "grid " + detail::dims_text(one_pass.grid) + " block " + detail::dims_text(one_pass.block));

    kernel_resources k{};
    k.registers = 128;
    const occupancy_report o = occupancy(presets::detail::mi250x, k, 256);
    expect(o.active_blocks_per_cu == 4 && o.limited_by == occupancy_report::limiter::registers,
           "occupancy(mi250x, 128 VGPRs, block 256) is 4 blocks limited by registers",
           std::to_string(o.active_blocks_per_cu) + " blocks, " + std::string(to_string(o.limited_by)));

    kernel_resources bounded{};
    bounded.max_threads_per_block = 256;
    const detail::findings f = detail::find_problems(presets::detail::mi300x, bounded, launch_config{dims{16777216}, dims{512}});
    expect(f.contains(diagnostic_code::block_exceeds_kernel_max_threads) &&
               f.contains(diagnostic_code::work_items_exceed_dispatch_limit),
           "check(mi300x, grid 16777216 x block 512, bound 256) finds both errors");
}

void grid_stride_range_is_exact() {
    std::string seen;
    for (const std::uint64_t i : wavefit::detail::grid_stride_range(3, 10, 4)) seen += std::to_string(i) + " ";
    expect(seen == "3 7 ", "grid_stride_range(3, 10, stride 4) visits 3 and 7", seen);
    int steps = 0;
    for (const std::uint64_t i : wavefit::detail::grid_stride_range(1, ~std::uint64_t{0}, std::uint64_t{1} << 63)) {
        (void)i;
        if (++steps > 3) break;
    }
    expect(steps == 2, "a stride near 2^64 stops at the end instead of wrapping", std::to_string(steps) + " steps");
#if !WAVEFIT_DEVICE_PASS
    static_assert(wavefit::detail::compiled_wave_size == 0, "the host pass has no wave size");
#endif
}

}  // namespace

int main() {
    const int raw_devices = gpu::device_count();
    if (raw_devices > 0) {
        std::printf("skipped: %d GPU(s) present; this program checks the no-GPU behaviour\n", raw_devices);
        return 77;
    }
    std::printf("wavefit %s on the %s runtime with no GPU\n", WAVEFIT_VERSION_STRING, wavefit::detail::backend::runtime_name);
    runtime_reports_no_gpu();
    planning_core_works_from_presets();
    grid_stride_range_is_exact();
    std::printf("%s\n", failures == 0 ? "all checks passed" : "some checks FAILED");
    return failures == 0 ? 0 : 1;
}
