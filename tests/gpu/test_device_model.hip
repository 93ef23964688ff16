// SPDX-License-Identifier: MIT
// wavefit's picture of the device and the kernels against the runtime's: the limits it reads equal
// the h200 preset, its occupancy model equals the runtime's occupancy query for every kernel of the
// suite, and a launch by element count or extent uses exactly the configuration wavefit::plan shows.
#include "gpu_test.hpp"

#include <algorithm>  // std::min
#include <set>        // sorted, unique sizes

namespace {

using wavefit::dims;
using wavefit::launch_config;

}  // namespace

TEST_CASE("the limits read from the runtime equal the h200 preset field by field", "[model][limits]") {
    REQUIRE_GPU();
    if (!gpu_test::on_h200()) {
        GPU_TEST_SKIP("device 0 is '" + gpu_test::current_device_name() + "', not an NVIDIA H200");
    }
    const wavefit::device_limits& got = wavefit::device_limits_for(0);
    const wavefit::device_limits& want = wavefit::presets::detail::h200;
#define WAVEFIT_SAME_FIELD(field)                                                               \
    do {                                                                                        \
        INFO(#field);                                                                           \
        CHECK(static_cast<std::uint64_t>(got.field) == static_cast<std::uint64_t>(want.field)); \
    } while (0)
    CHECK(std::string(got.name.view()) == std::string(want.name.view()));
    CHECK(std::string(got.arch.view()) == std::string(want.arch.view()));
    CHECK(got.vendor == want.vendor);
    WAVEFIT_SAME_FIELD(wave_size);
    WAVEFIT_SAME_FIELD(max_threads_per_block);
    WAVEFIT_SAME_FIELD(max_block.x);
    WAVEFIT_SAME_FIELD(max_block.y);
    WAVEFIT_SAME_FIELD(max_block.z);
    WAVEFIT_SAME_FIELD(max_grid.x);
    WAVEFIT_SAME_FIELD(max_grid.y);
    WAVEFIT_SAME_FIELD(max_grid.z);
    WAVEFIT_SAME_FIELD(max_work_items_per_dimension);
    WAVEFIT_SAME_FIELD(compute_units);
    WAVEFIT_SAME_FIELD(shared_per_block);
    WAVEFIT_SAME_FIELD(shared_per_block_optin);
    WAVEFIT_SAME_FIELD(shared_per_cu);
    WAVEFIT_SAME_FIELD(shared_reserved_per_block);
    WAVEFIT_SAME_FIELD(shared_allocation_unit);
    WAVEFIT_SAME_FIELD(simds_per_cu);
    WAVEFIT_SAME_FIELD(max_waves_per_simd);
    WAVEFIT_SAME_FIELD(max_blocks_per_cu);
    WAVEFIT_SAME_FIELD(registers_per_simd_lane);
    WAVEFIT_SAME_FIELD(register_granule);
    WAVEFIT_SAME_FIELD(max_registers_per_thread);
    WAVEFIT_SAME_FIELD(max_registers_per_block);
    WAVEFIT_SAME_FIELD(scalar_registers_per_simd);
    WAVEFIT_SAME_FIELD(scalar_register_granule);
#undef WAVEFIT_SAME_FIELD
    // The same object for the same device: read once, cached.
    CHECK(&wavefit::device_limits_for(0) == &got);
}

TEST_CASE("the occupancy model equals the runtime's occupancy query for every kernel of the suite", "[model][occupancy]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    std::size_t compared = 0;
    for (const suite_kernel& k : suite_kernels()) {
        gpu::kernel_attributes a;
        GPU_REQUIRE_OK(gpu::attributes_of(a, k.address));
        const std::uint64_t max_block = static_cast<std::uint64_t>(a.max_threads_per_block);
        // Dynamic sizes from none to all a block may use, ascending: when a size is above the kernel's
        // current limit the limit is raised to exactly that size first (as the H200 data were recorded).
        const std::uint64_t most =
            d.shared_per_block_optin > a.static_shared ? d.shared_per_block_optin - a.static_shared : 0;
        std::set<std::uint64_t> dynamic_sizes{0, 1024, 8192, 30000, 65536, 100000, most};
        if (d.shared_per_block > a.static_shared) dynamic_sizes.insert(d.shared_per_block - a.static_shared);
        std::set<std::uint64_t> blocks{1, 31, 33, 100, 250, 1000};
        for (std::uint64_t b = d.wave_size; b <= d.max_threads_per_block; b += d.wave_size) blocks.insert(b);

        for (const std::uint64_t dynamic_shared : dynamic_sizes) {
            if (dynamic_shared > most) continue;
            if (d.is_nvidia() && dynamic_shared > static_cast<std::uint64_t>(a.max_dynamic_shared)) {
                GPU_REQUIRE_OK(gpu::set_max_dynamic_shared(k.address, static_cast<int>(dynamic_shared)));
                a.max_dynamic_shared = static_cast<int>(dynamic_shared);
            }
            for (const std::uint64_t block : blocks) {
                if (block > max_block) continue;
                int runtime_blocks = -1;
                GPU_REQUIRE_OK(gpu::occupancy_blocks(runtime_blocks, k.address, static_cast<int>(block), dynamic_shared));
                const wavefit::occupancy_report model = k.model(block, dynamic_shared);
                INFO(k.name << " (numRegs " << a.registers << ", static shared " << a.static_shared
                            << ", maxThreadsPerBlock " << a.max_threads_per_block << ") block " << block
                            << " dynamic shared " << dynamic_shared << ": wavefit " << model.active_blocks_per_cu
                            << " limited by " << wavefit::to_string(model.limited_by) << ", runtime " << runtime_blocks);
                CHECK(static_cast<int>(model.active_blocks_per_cu) == runtime_blocks);
                ++compared;
            }
        }
    }
    gpu_test::note("occupancy: " + std::to_string(compared) +
                   " (kernel, block, dynamic shared) triples compared with the runtime");
    CHECK(compared > 100);
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
}

TEST_CASE("the kernel attributes wavefit reads are the runtime's", "[model][attributes]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    for (const suite_kernel& k : suite_kernels()) {
        gpu::kernel_attributes a;
        GPU_REQUIRE_OK(gpu::attributes_of(a, k.address));
        const wavefit::kernel_resources r = k.resources();
        INFO(k.name << ": numRegs " << a.registers << ", static shared " << a.static_shared << ", maxThreadsPerBlock "
                    << a.max_threads_per_block << "; wavefit bound " << r.max_threads_per_block);
        CHECK(r.registers == static_cast<std::uint32_t>(a.registers));
        CHECK(r.static_shared == a.static_shared);
        CHECK(r.local_bytes_per_thread == a.local_bytes);
        // The kernel's own bound: the runtime's, except where CUDA folded the registers' limit into it
        // (then wavefit records no bound and the occupancy model carries the limit).
        const std::uint64_t effective =
            std::min<std::uint64_t>(wavefit::detail::kernel_max_threads(d, r), wavefit::detail::largest_runnable_block(d, r));
        CHECK(effective == static_cast<std::uint64_t>(a.max_threads_per_block));
    }
}

namespace {

// Runs `launch` for real, or inside a stream capture whose graph is dropped (the launch is recorded
// and validated by the runtime but never runs) for work too large to execute in a test.
template <class Launch>
wavefit::launch_result launched_or_captured(bool capture, const gpu::stream& s, Launch&& launch) {
    if (!capture) return launch();
    GPU_REQUIRE_OK(gpu::begin_capture(s.get()));
    const wavefit::launch_result r = launch();
    GPU_REQUIRE_OK(gpu::end_capture_and_discard(s.get()));
    return r;
}

constexpr std::uint64_t capture_above = std::uint64_t{1} << 31;  // elements; smaller launches run for real

}  // namespace

TEST_CASE("a launch by element count uses exactly the configuration wavefit::plan computes", "[model][plan]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const wavefit::kernel_resources& k = wavefit::kernel_resources_for(noop_elements);
    std::set<std::uint64_t> counts{1023,
                                   1024,
                                   1025,
                                   1000003,
                                   4294967295ull,
                                   4294967296ull,
                                   4294967297ull,
                                   (std::uint64_t{1} << 36) + 1,
                                   std::uint64_t{1} << 39,
                                   std::uint64_t{1} << 40,
                                   (std::uint64_t{1} << 40) * 255 + 17,
                                   ~std::uint64_t{0}};
    for (std::uint64_t n = 0; n <= 300; ++n) counts.insert(n);
    for (int p = 7; p <= 34; ++p) {
        counts.insert((std::uint64_t{1} << p) - 1);
        counts.insert(std::uint64_t{1} << p);
        counts.insert((std::uint64_t{1} << p) + 1);
    }
    // Where spreading small work stops shrinking the block: multiples of CUs x wave.
    for (std::uint64_t m = 1; m <= 9; ++m) {
        counts.insert(m * d.compute_units * d.wave_size - 1);
        counts.insert(m * d.compute_units * d.wave_size);
        counts.insert(m * d.compute_units * d.wave_size + 1);
    }
    // plan_options gained fields before min_efficient_block: set the three this spec varies by name.
    const auto options = [](std::uint64_t shared, std::uint64_t min_block, bool spread) {
        wavefit::plan_options o;
        o.dynamic_shared = shared;
        o.min_efficient_block = min_block;
        o.spread_small_work = spread;
        return o;
    };
    const wavefit::plan_options custom[] = {{}, options(8192, 256, true), options(0, 64, true), options(0, 256, false),
                                            options(100000, 128, true)};

    // Both contracts: a kernel that loops (the plan may clamp the grid, every count launches) and the
    // default one pass (a count the device cannot hold in one launch is refused, exactly where the
    // plan says so).
    gpu::stream s;
    std::size_t compared = 0, refused = 0;
    for (const bool loops : {true, false}) {
        for (const wavefit::plan_options& o : custom) {
            for (const std::uint64_t n : counts) {
                const wavefit::work w = loops ? wavefit::work::elements(n, o).kernel_loops() : wavefit::work::elements(n, o);
                const wavefit::launch_plan p = wavefit::plan(d, k, w);
                const wavefit::launch_result r = launched_or_captured(n > capture_above, s, [&] {
                    return wavefit::try_launch(noop_elements, w, s.get(), n);
                });
                INFO("n = " << n << (loops ? " (the kernel loops)" : " (one pass)") << ", dynamic shared "
                            << o.dynamic_shared << ", min efficient block " << o.min_efficient_block << ", spread "
                            << o.spread_small_work << ": " << r.message);
                if (loops || p.ok()) {
                    CHECK(r.ok());
                    CHECK(gpu_test::status_name(r.status) == (n == 0 ? "nothing_to_launch" : "launched"));
                    CHECK(r.config == p.config());
                } else {
                    CHECK(p.exceeds_one_pass);
                    CHECK(gpu_test::status_name(r.status) == "rejected");
                    ++refused;
                }
                ++compared;
            }
        }
    }
    CHECK(refused > 0);  // the one-pass contract was exercised beyond the device's grid
    // The plain element-count overload is the default-options case.
    for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000003}}) {
        const wavefit::launch_result r = wavefit::try_launch(noop_elements, n, s.get(), n);
        CHECK(r.config ==
              wavefit::plan(wavefit::current_device_limits(), wavefit::kernel_resources_for(noop_elements), n).config());
    }
    s.wait();
    gpu_test::note("plan: " + std::to_string(compared) + " element-count launches compared with wavefit::plan (" +
                   std::to_string(refused) + " refused as one pass, as the plan says)");
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
}

TEST_CASE("a launch over an extent uses exactly the configuration wavefit::plan computes", "[model][plan]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const wavefit::kernel_resources& k = wavefit::kernel_resources_for(noop_extent);
    const dims extents[] = {{0, 5},
                            {5, 0},
                            {1, 1},
                            {31, 7},
                            {32, 32},
                            {33, 1},
                            {1, 1000},
                            {1000, 77},
                            {4099, 2053},
                            {65536, 3},
                            {2, (std::uint64_t{1} << 24) + 3},
                            {1, std::uint64_t{1} << 30},
                            {70000, 70000},
                            {std::uint64_t{1} << 40, 2}};
    gpu::stream s;
    for (const bool loops : {true, false}) {
        for (const dims& e : extents) {
            const wavefit::work w = loops ? wavefit::work::over(e).kernel_loops() : wavefit::work::over(e);
            const wavefit::launch_plan p = wavefit::plan(d, k, w);
            const wavefit::launch_result r = launched_or_captured(
                e.volume() > capture_above, s, [&] { return wavefit::try_launch(noop_extent, w, s.get(), e.x, e.y); });
            INFO("extent " << wavefit::detail::dims_text(e) << (loops ? " (the kernel loops): " : " (one pass): ")
                           << r.message);
            if (loops || p.ok()) {
                CHECK(r.ok());
                CHECK(r.config == p.config());
            } else {
                CHECK(p.exceeds_one_pass);
                CHECK(gpu_test::status_name(r.status) == "rejected");
            }
        }
    }
    s.wait();
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
}
