// SPDX-License-Identifier: MIT
// Results, not just launches: every element of [0, n) is visited exactly once for element counts at
// the edges (0, 1, a wave +-1, the planned block +-1, primes, 2^31 + 3 one-byte elements with 64-bit
// indices) and for grids too small to hold one thread per element (the kernel grid-strides). Outputs
// are poisoned before each run and checked in full, guard elements after the end included.
#include "gpu_test.hpp"

#include <algorithm>  // std::max, std::min
#include <cstring>    // std::memcmp
#include <memory>     // the 2 GiB host copy
#include <set>        // unique counts

namespace {

using gpu_test::mismatches;
using gpu_test::poison_u32;
using wavefit::dims;
using wavefit::launch_config;

constexpr std::uint64_t guard = 1024;  // elements after the end that must stay poisoned

// Launches count_visits over n elements by count and checks every counter and the guard.
void check_visits_by_count(std::uint64_t n, gpu::buffer<std::uint32_t>& visits, const gpu::stream& s) {
    INFO("n = " << n);
    REQUIRE(n + guard <= visits.size());
    visits.poison(0xAB);
    const wavefit::launch_result r = wavefit::try_launch(count_visits, n, s.get(), visits.data(), n);
    INFO("wavefit: " << gpu_test::status_name(r.status) << " with " << Catch::StringMaker<launch_config>::convert(r.config)
                     << " " << r.message);
    REQUIRE(r.ok());
    CHECK(gpu_test::status_name(r.status) == (n == 0 ? "nothing_to_launch" : "launched"));
    s.wait();
    std::vector<std::uint32_t> host(n + guard);
    gpu::check(gpu::to_host(host.data(), visits.data(), host.size() * sizeof(std::uint32_t)), "copying visits");
    CHECK(mismatches(host, 0, n, poison_u32 + 1) == "");
    CHECK(mismatches(host, n, n + guard, poison_u32) == "");
}

// mismatches() for gigabytes: memcmp against a reference chunk (fast even in an unoptimised build),
// counting element by element only from the first chunk that differs.
std::string byte_mismatches(const std::uint8_t* bytes, std::uint64_t first, std::uint64_t last, std::uint8_t expected) {
    constexpr std::uint64_t chunk = std::uint64_t{1} << 20;
    const std::vector<std::uint8_t> reference(chunk, expected);
    for (std::uint64_t at = first; at < last; at += chunk) {
        if (std::memcmp(bytes + at, reference.data(), std::min(chunk, last - at)) != 0)
            return mismatches(bytes, at, last, expected);
    }
    return {};
}

}  // namespace

TEST_CASE("every element is visited exactly once for element counts at the edges", "[results]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const std::uint64_t wave = d.wave_size;
    const std::uint64_t block = wavefit::plan(count_visits, std::uint64_t{1} << 26).block.x;  // the block of large work
    const std::uint64_t full_wave_per_cu = std::uint64_t{d.compute_units} * wave;  // where small work stops shrinking
    INFO("wave " << wave << ", planned block " << block << ", CUs x wave " << full_wave_per_cu);

    std::set<std::uint64_t> counts{0,
                                   1,
                                   2,
                                   3,
                                   7,
                                   wave - 1,
                                   wave,
                                   wave + 1,
                                   2 * wave - 1,
                                   2 * wave + 1,
                                   block - 1,
                                   block,
                                   block + 1,
                                   2 * block - 1,
                                   2 * block + 1,
                                   full_wave_per_cu - 1,
                                   full_wave_per_cu,
                                   full_wave_per_cu + 1,
                                   full_wave_per_cu * block / wave - 1,
                                   full_wave_per_cu * block / wave + 1,
                                   1000,
                                   4093,
                                   65521,
                                   65537,
                                   1000003,
                                   (std::uint64_t{1} << 20) + 7,
                                   (std::uint64_t{1} << 24) - 1,
                                   16777259 /* prime */};
    const std::uint64_t largest = *counts.rbegin();
    gpu::buffer<std::uint32_t> visits(largest + guard);
    gpu::stream s;
    for (const std::uint64_t n : counts) check_visits_by_count(n, visits, s);
}

TEST_CASE("2^31 + 3 one-byte elements are all incremented exactly once (64-bit indices)", "[results][large]") {
    REQUIRE_GPU();
    const std::uint64_t n = (std::uint64_t{1} << 31) + 3;
    const std::uint64_t bytes = n + guard;
    std::size_t free_bytes = 0, total_bytes = 0;
    GPU_REQUIRE_OK(gpu::memory_info(free_bytes, total_bytes));
    if (free_bytes < bytes + (std::uint64_t{256} << 20)) {
        GPU_TEST_SKIP("needs " + std::to_string(bytes) + " bytes of device memory, " + std::to_string(free_bytes) + " free");
    }
    gpu::buffer<std::uint8_t> data(bytes);
    data.poison(0xAB);
    gpu::stream s;
    const wavefit::launch_result r = wavefit::try_launch(increment_u8, n, s.get(), data.data(), n);
    INFO("wavefit: " << Catch::StringMaker<launch_config>::convert(r.config) << " " << r.message);
    REQUIRE(gpu_test::status_name(r.status) == "launched");
    gpu_test::note("2^31 + 3 bytes: " + Catch::StringMaker<launch_config>::convert(r.config));
    s.wait();

    std::unique_ptr<std::uint8_t[]> host(new std::uint8_t[bytes]);
    gpu::check(gpu::to_host(host.get(), data.data(), bytes), "copying 2 GiB back");
    CHECK(byte_mismatches(host.get(), 0, n, 0xAC) == "");
    CHECK(byte_mismatches(host.get(), n, bytes, 0xAB) == "");
}

TEST_CASE("an explicit grid too small for one thread per element covers every element by grid-striding",
          "[results][grid-stride]") {
    REQUIRE_GPU();
    struct shape {
        std::uint64_t grid, block, n;
    };
    const shape shapes[] = {{1, 1, 300}, {1, 32, 1000}, {3, 128, 100003}, {7, 96, 65537}, {2, 1024, std::uint64_t{1} << 22}};
    gpu::buffer<std::uint32_t> visits((std::uint64_t{1} << 22) + guard);
    gpu::stream s;
    for (const shape& sh : shapes) {
        INFO("grid " << sh.grid << " x block " << sh.block << " over n = " << sh.n);
        visits.poison(0xAB);
        const wavefit::launch_result r =
            wavefit::try_launch(count_visits, launch_config{dims{sh.grid}, dims{sh.block}}, s.get(), visits.data(), sh.n);
        INFO(r.message);
        REQUIRE(gpu_test::status_name(r.status) == "launched");
        s.wait();
        const std::vector<std::uint32_t> host = visits.to_host();
        CHECK(mismatches(host, 0, sh.n, poison_u32 + 1) == "");
        CHECK(mismatches(host, sh.n, sh.n + guard, poison_u32) == "");
    }
}

TEST_CASE("grid_stride(first, last) visits every index from first up to last exactly once", "[results][grid-stride]") {
    REQUIRE_GPU();
    struct range {
        std::uint64_t first, last;
    };
    const range ranges[] = {{0, 0}, {5, 5}, {9, 3}, {0, 1}, {5, 1000}, {31, 100003}, {123456, 1000003}};
    const std::uint64_t size = 1000003 + guard;
    gpu::buffer<std::uint32_t> visits(size);
    gpu::stream s;
    for (const range& rg : ranges) {
        for (const std::uint64_t grid : {std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{4096}}) {
            INFO("[" << rg.first << ", " << rg.last << ") with grid " << grid << " x block 128");
            visits.poison(0xAB);
            const wavefit::launch_result r = wavefit::try_launch(count_visits_range, launch_config{dims{grid}, dims{128}},
                                                                 s.get(), visits.data(), rg.first, rg.last);
            REQUIRE(gpu_test::status_name(r.status) == "launched");
            s.wait();
            const std::vector<std::uint32_t> host = visits.to_host();
            const std::uint64_t end = std::max(rg.first, rg.last);
            CHECK(mismatches(host, 0, rg.first, poison_u32) == "");
            CHECK(mismatches(host, rg.first, end, poison_u32 + 1) == "");
            CHECK(mismatches(host, end, size, poison_u32) == "");
        }
    }
}

TEST_CASE("per-block work visits every unit with one whole block, also when the grid is smaller than the units",
          "[results][per-block]") {
    REQUIRE_GPU();
    constexpr std::uint64_t slots = block_visit_slots;
    const std::uint64_t unit_counts[] = {1, 131, 4096, 100003};
    gpu::buffer<std::uint32_t> visits(100003 * slots + guard);
    gpu::stream s;
    for (const std::uint64_t units : unit_counts) {
        visits.poison(0xAB);
        const wavefit::launch_result r =
            wavefit::try_launch(count_block_visits, wavefit::work::per_block(units), s.get(), visits.data(), units);
        INFO(units << " units: " << Catch::StringMaker<launch_config>::convert(r.config) << " " << r.message);
        REQUIRE(gpu_test::status_name(r.status) == "launched");
        CHECK(r.config.grid.x == units);  // one block per unit: the grid is the unit count
        REQUIRE(r.config.block.x % slots == 0);
        s.wait();
        const std::vector<std::uint32_t> host = visits.to_host();
        const std::uint32_t adds = static_cast<std::uint32_t>(r.config.block.x / slots);
        CHECK(mismatches(host, 0, units * slots, poison_u32 + adds) == "");
        CHECK(mismatches(host, units * slots, units * slots + guard, poison_u32) == "");
    }
    // An explicit grid of 7 blocks for 100003 units: block_stride walks each block over its share.
    visits.poison(0xAB);
    const wavefit::launch_result r = wavefit::try_launch(count_block_visits, launch_config{dims{7}, dims{64}}, s.get(),
                                                         visits.data(), std::uint64_t{100003});
    REQUIRE(gpu_test::status_name(r.status) == "launched");
    s.wait();
    const std::vector<std::uint32_t> host = visits.to_host();
    CHECK(mismatches(host, 0, 100003 * slots, poison_u32 + 2) == "");
    CHECK(mismatches(host, 100003 * slots, 100003 * slots + guard, poison_u32) == "");
}

TEST_CASE("2-D extents are covered exactly once, also when the grid's y limit clamps the plan", "[results][extent]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    struct extent {
        std::uint64_t width, height;
    };
    // {2, 2^24 + 3}: the planned block is narrow and tall, so ceil(height / block.y) exceeds the grid's y maximum.
    const extent extents[] = {{1, 1}, {31, 7}, {1000, 77}, {4099, 2053}, {2, (std::uint64_t{1} << 24) + 3}};
    gpu::buffer<std::uint32_t> visits(2 * ((std::uint64_t{1} << 24) + 3) + guard);
    gpu::stream s;
    for (const extent& e : extents) {
        const std::uint64_t cells = e.width * e.height;
        visits.poison(0xAB);
        // count_visits_2d loops over both axes (grid_stride_axis), so the plan may clamp its grid.
        const wavefit::work w = wavefit::work::over(dims{e.width, e.height}).kernel_loops();
        const wavefit::launch_result r = wavefit::try_launch(count_visits_2d, w, s.get(), visits.data(), e.width, e.height);
        INFO(e.width << " x " << e.height << ": " << Catch::StringMaker<launch_config>::convert(r.config) << " "
                     << r.message);
        REQUIRE(gpu_test::status_name(r.status) == "launched");
        const wavefit::launch_plan p = wavefit::plan(d, wavefit::kernel_resources_for(count_visits_2d), w);
        if (e.height > (std::uint64_t{1} << 24)) {
            CHECK(p.grid_stride);
            CHECK(r.config.grid.y == d.max_grid.y);
        }
        s.wait();
        const std::vector<std::uint32_t> host = visits.to_host();
        CHECK(mismatches(host, 0, cells, poison_u32 + 1) == "");
        CHECK(mismatches(host, cells, cells + guard, poison_u32) == "");
    }

    // An explicit 2-D grid far smaller than the extent strides along both axes.
    visits.poison(0xAB);
    const wavefit::launch_result r = wavefit::try_launch(count_visits_2d, launch_config{dims{2, 3}, dims{32, 4}}, s.get(),
                                                         visits.data(), std::uint64_t{1000}, std::uint64_t{77});
    REQUIRE(gpu_test::status_name(r.status) == "launched");
    s.wait();
    const std::vector<std::uint32_t> host = visits.to_host();
    CHECK(mismatches(host, 0, 77000, poison_u32 + 1) == "");
    CHECK(mismatches(host, 77000, 77000 + guard, poison_u32) == "");
}
