// SPDX-License-Identifier: MIT
// Every launch check the runtime enforces, reproduced: the raw launch fails on the GPU with the
// runtime's own error, wavefit rejects the same configuration before calling the runtime (status
// rejected, runtime code 0, the right diagnostic), and no error is left behind for the user's next
// cudaGetLastError()/hipGetLastError(). The runtime's answers are printed ("runtime verdict | ...").
#include "gpu_test.hpp"

#include <string>  // case names

namespace {

using wavefit::diagnostic_code;
using wavefit::dims;
using wavefit::launch_config;

std::uint32_t* const no_visits = nullptr;  // rejected launches never run; n = 0 makes accepted ones harmless
constexpr std::uint64_t no_elements = 0;

// The launch as hipLaunchKernelGGL / kernel<<<>>> makes it; the runtime's error, cleared.
template <class... Params, class... Args>
gpu::error_t raw_launch(void (*kernel)(Params...), const launch_config& cfg, Args... args) {
    const dim3 grid(static_cast<unsigned>(cfg.grid.x), static_cast<unsigned>(cfg.grid.y), static_cast<unsigned>(cfg.grid.z));
    const dim3 block(static_cast<unsigned>(cfg.block.x), static_cast<unsigned>(cfg.block.y),
                     static_cast<unsigned>(cfg.block.z));
    GPU_RAW_LAUNCH(kernel, grid, block, static_cast<std::size_t>(cfg.dynamic_shared), nullptr, args...);
    return gpu::take_last_error();
}

std::string case_text(const std::string& what, const launch_config& cfg) {
    return what + ": " + Catch::StringMaker<launch_config>::convert(cfg);
}

// The whole specification for one shape the runtime refuses.
template <class... Params, class... Args>
void rejected_before_the_runtime(const std::string& what, void (*kernel)(Params...), const launch_config& cfg,
                                 diagnostic_code expected, Args... args) {
    INFO(case_text(what, cfg));
    REQUIRE(gpu_test::last_error_text() == gpu_test::success_text());  // a clean start

    const wavefit::launch_result r = wavefit::try_launch(kernel, cfg, nullptr, args...);
    INFO("wavefit: " << r.message);
    CHECK(gpu_test::status_name(r.status) == "rejected");
    CHECK(gpu_test::code_name(r.diagnostic) == std::string(wavefit::to_string(expected)));
    CHECK(r.runtime_code == 0);
    CHECK(r.config == cfg);
    CHECK_FALSE(r.message.empty());
    // Nothing reached the runtime, so nothing is pending.
    CHECK(gpu::error_text(gpu::peek_last_error()) == gpu_test::success_text());
    CHECK_THROWS_AS(wavefit::launch(kernel, cfg, nullptr, args...), wavefit::launch_error);
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());

    const gpu::error_t raw = raw_launch(kernel, cfg, args...);
    gpu_test::record_runtime_verdict(case_text(what, cfg), raw);
    CHECK(gpu::error_text(raw) != gpu_test::success_text());
    CHECK(gpu_test::names_the_runtime_error(r.message, raw));
    // Launch-configuration errors are not sticky: one read clears them and the context still works.
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
    CHECK(gpu::error_text(gpu::synchronize()) == gpu_test::success_text());
}

}  // namespace

TEST_CASE("a block of more threads than the device allows is rejected before launch, as the runtime rejects it",
          "[runtime-checks]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    // (32, 33, 1): every dimension is legal, the volume (1056 on a 1024-thread device) is not.
    const std::uint64_t y = d.max_threads_per_block / 32 + 1;
    rejected_before_the_runtime("block volume above the device maximum", count_visits,
                                launch_config{dims{1}, dims{32, y, 1}}, diagnostic_code::block_exceeds_device_max_threads,
                                no_visits, no_elements);
}

TEST_CASE("a block dimension above the device's maximum is rejected before launch, as the runtime rejects it",
          "[runtime-checks]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    rejected_before_the_runtime("block x = max + 1 (1025)", count_visits, launch_config{dims{1}, dims{d.max_block.x + 1}},
                                diagnostic_code::block_dim_exceeds_device_limit, no_visits, no_elements);
    rejected_before_the_runtime("block z = max + 1 (65 on NVIDIA)", count_visits,
                                launch_config{dims{1}, dims{1, 1, d.max_block.z + 1}},
                                diagnostic_code::block_dim_exceeds_device_limit, no_visits, no_elements);
}

TEST_CASE("a block above the kernel's __launch_bounds__(256) is rejected before launch, as the runtime rejects it",
          "[runtime-checks]") {
    REQUIRE_GPU();
    CHECK(wavefit::kernel_resources_for(count_visits_bounded_256).max_threads_per_block == 256);
    rejected_before_the_runtime("block 512 over __launch_bounds__(256)", count_visits_bounded_256,
                                launch_config{dims{1}, dims{512}}, diagnostic_code::block_exceeds_kernel_max_threads,
                                no_visits, no_elements);
}

TEST_CASE("a grid dimension above the device's maximum is rejected before launch, as the runtime rejects it",
          "[runtime-checks]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    rejected_before_the_runtime("grid y = max + 1 (65536 on NVIDIA)", count_visits,
                                launch_config{dims{1, d.max_grid.y + 1, 1}, dims{32}},
                                diagnostic_code::grid_dim_exceeds_device_limit, no_visits, no_elements);
    rejected_before_the_runtime("grid z = max + 1", count_visits, launch_config{dims{1, 1, d.max_grid.z + 1}, dims{32}},
                                diagnostic_code::grid_dim_exceeds_device_limit, no_visits, no_elements);
    if (d.max_grid.x < 0xFFFFFFFFull) {
        rejected_before_the_runtime("grid x = max + 1 (2^31)", count_visits, launch_config{dims{d.max_grid.x + 1}, dims{32}},
                                    diagnostic_code::grid_dim_exceeds_device_limit, no_visits, no_elements);
    }
}

TEST_CASE("a zero grid or block dimension is rejected before launch, as the runtime rejects it", "[runtime-checks]") {
    REQUIRE_GPU();
    rejected_before_the_runtime("grid x = 0", count_visits, launch_config{dims{0}, dims{32}},
                                diagnostic_code::zero_dimension, no_visits, no_elements);
    rejected_before_the_runtime("block y = 0", count_visits, launch_config{dims{1}, dims{32, 0, 1}},
                                diagnostic_code::zero_dimension, no_visits, no_elements);
}

TEST_CASE("dynamic shared memory above the opt-in maximum is rejected before launch, as the runtime rejects it",
          "[runtime-checks]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const std::uint64_t most = d.shared_per_block_optin;  // static shared of count_visits is 0
    INFO("opt-in maximum " << most << " bytes on " << gpu_test::current_device_name());
    REQUIRE(wavefit::kernel_resources_for(count_visits).static_shared == 0);

    // Even the opt-in call refuses one byte more (CUDA); HIP has no opt-in to ask for.
    if (d.is_nvidia()) {
        const gpu::error_t opt_in =
            gpu::set_max_dynamic_shared(reinterpret_cast<const void*>(count_visits), static_cast<int>(most + 1));
        gpu_test::record_runtime_verdict("opt-in to " + std::to_string(most + 1) + " bytes of dynamic shared memory",
                                         opt_in);
        CHECK(gpu::error_text(opt_in) != gpu_test::success_text());
        // The refused raw call leaves its error pending (measured on the H200, CUDA 13): take it, so
        // that the check after wavefit's rejection below sees only what wavefit left.
        CHECK(gpu_test::last_error_text() == gpu::error_text(opt_in));
    }
    rejected_before_the_runtime("dynamic shared = opt-in maximum + 1 (232449 on the H200)", count_visits,
                                launch_config{dims{1}, dims{32}, most + 1}, diagnostic_code::shared_memory_exceeds_limit,
                                no_visits, no_elements);

    // The maximum itself is allowed: raw after the opt-in, and through wavefit (which opts in itself).
    if (d.is_nvidia())
        GPU_REQUIRE_OK(gpu::set_max_dynamic_shared(reinterpret_cast<const void*>(count_visits), static_cast<int>(most)));
    const gpu::error_t raw = raw_launch(count_visits, launch_config{dims{1}, dims{32}, most}, no_visits, no_elements);
    gpu_test::record_runtime_verdict("dynamic shared = opt-in maximum (after opting in)", raw);
    CHECK(gpu::error_text(raw) == gpu_test::success_text());
    const wavefit::launch_result r =
        wavefit::try_launch(count_visits, launch_config{dims{1}, dims{32}, most}, nullptr, no_visits, no_elements);
    INFO(r.message);
    CHECK(gpu_test::status_name(r.status) == "launched");
    CHECK(gpu::error_text(gpu::synchronize()) == gpu_test::success_text());
}

TEST_CASE("a block the kernel's registers cannot hold is refused by the runtime and rejected first by wavefit",
          "[runtime-checks][registers]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    if (!d.is_nvidia()) {
        GPU_TEST_SKIP("the AMD runtime does not check registers at launch (docs/device-facts.md section 2)");
    }
    gpu::kernel_attributes attributes;
    GPU_REQUIRE_OK(gpu::attributes_of(attributes, reinterpret_cast<const void*>(register_heavy)));
    gpu_test::note("register_heavy: numRegs " + std::to_string(attributes.registers) + ", maxThreadsPerBlock " +
                   std::to_string(attributes.max_threads_per_block) + ", localSizeBytes " +
                   std::to_string(attributes.local_bytes));
    INFO("register_heavy: numRegs " << attributes.registers << ", maxThreadsPerBlock " << attributes.max_threads_per_block);
    REQUIRE(attributes.registers >= 200);  // the kernel really is register-bound
    const wavefit::kernel_resources& k = wavefit::kernel_resources_for(register_heavy);
    CHECK(k.registers == static_cast<std::uint32_t>(attributes.registers));

    gpu::buffer<float> in(1024 * heavy_values), out(1024 * heavy_values);
    in.poison(0);
    // Every block size from one warp to the device maximum: wavefit accepts exactly what the runtime accepts.
    std::uint64_t smallest_refused = 0;
    for (std::uint64_t block = d.wave_size; block <= d.max_threads_per_block; block += d.wave_size) {
        const launch_config cfg{dims{1}, dims{block}};
        const wavefit::launch_result r = wavefit::try_launch(register_heavy, cfg, nullptr, in.data(), out.data(), 1);
        const gpu::error_t raw = raw_launch(register_heavy, cfg, static_cast<const float*>(in.data()), out.data(), 1);
        const bool runtime_accepts = raw == gpu::success;
        INFO("block " << block << ": runtime " << gpu::error_text(raw) << ", wavefit " << gpu_test::status_name(r.status)
                      << " [" << gpu_test::code_name(r.diagnostic) << "] " << r.message);
        CHECK(runtime_accepts == (r.status == wavefit::launch_status::launched));
        if (!runtime_accepts) {
            if (smallest_refused == 0) {
                smallest_refused = block;
                gpu_test::record_runtime_verdict("register_heavy (" + std::to_string(attributes.registers) +
                                                     " registers) with block " + std::to_string(block),
                                                 raw);
            }
            CHECK(gpu::error_text(raw) == gpu::error_text(gpu::launch_out_of_resources));
            CHECK(gpu_test::code_name(r.diagnostic) == "registers_exceed_limit");
            CHECK(gpu_test::names_the_runtime_error(r.message, raw));
            CHECK(r.runtime_code == 0);
        }
        CHECK(gpu_test::last_error_text() == gpu_test::success_text());
    }
    CHECK(smallest_refused == static_cast<std::uint64_t>(attributes.max_threads_per_block) + d.wave_size);
    CHECK(gpu::error_text(gpu::synchronize()) == gpu_test::success_text());

    // The message of the classic mistake, block 1024, names the registers and the block that fits.
    const wavefit::launch_result r =
        wavefit::try_launch(register_heavy, launch_config{dims{1}, dims{1024}}, nullptr, in.data(), out.data(), 1);
    gpu_test::note("wavefit on block 1024: " + r.message);
    CHECK(gpu_test::code_name(r.diagnostic) == "registers_exceed_limit");
    CHECK_THAT(r.message, Catch::Contains(std::to_string(attributes.registers) + " registers per thread") &&
                              Catch::Contains("at most " + std::to_string(attributes.max_threads_per_block) + " threads"));
}
