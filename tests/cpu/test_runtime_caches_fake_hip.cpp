// SPDX-License-Identifier: MIT
// The runtime layer's caches (device limits, kernel attributes, the launch cache, the dynamic shared
// memory opt-in) and its stream-device resolution, exercised through wavefit::try_launch itself with
// many threads racing on first use, without a GPU, on the fake HIP runtime of fake_hip.hpp. The fakes
// count every query; the tests check that each value is queried once however many threads ask at
// once, that every thread sees the same answer, and that a failed query is retried. CI runs this file
// under ThreadSanitizer too. Without HIP's headers the file is empty.
#include "fake_hip.hpp"

#if defined(WAVEFIT_HAS_FAKE_HIP)

#include <wavefit/wavefit.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

namespace {

// Distinct kernels (distinct addresses: each body differs), one per test so that the process-wide
// caches start empty for it.
template <int N>
void kernel(float* data, int n) {
    if (data != nullptr) data[0] = static_cast<float>(n + N);
}

// Runs body(thread index) on `threads` threads released at once.
template <class Body>
void race(int threads, Body body) {
    std::atomic<bool> go{false};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            body(t);
        });
    go.store(true);
    for (std::thread& th : pool) th.join();
}

struct outcome {
    wavefit::launch_status status = wavefit::launch_status::runtime_failed;
    wavefit::launch_config config{wavefit::dims{0}, wavefit::dims{0}};
};

constexpr int threads = 64;
// How many attributes one device query reads (those device_limits_from_attributes uses for AMD),
// measured once on a device no test races on.
int attributes_per_query() {
    static const int n = [] {
        constexpr int quiet_device = fake::device_count - 1;
        (void)wavefit::device_limits_for(quiet_device);
        return fake::count().attribute_calls[quiet_device].load();
    }();
    return n;
}

}  // namespace

TEST_CASE("runtime caches: the caches live in a namespace named after the whole release, so two releases never share one",
          "[runtime][abi]") {
    // What a library built against another release (another patch included) would call its table.
    const std::string release = "v" + std::to_string(WAVEFIT_VERSION_MAJOR) + "_" +
                                std::to_string(WAVEFIT_VERSION_MINOR) + "_" + std::to_string(WAVEFIT_VERSION_PATCH);
    const std::string release_mangled = std::to_string(release.size()) + release;
    const std::string table = typeid(&wavefit::detail::launch_table).name();
    const std::string limits = typeid(wavefit::device_limits).name();
    INFO("release " << WAVEFIT_VERSION_STRING << ", mangled names " << table << " and " << limits);
    CHECK(table.find("7wavefit" + release_mangled) != std::string::npos);
    CHECK(limits.find("7wavefit" + release_mangled) != std::string::npos);
}

TEST_CASE("runtime caches: 64 threads launching a kernel for the first time at once query the device and the kernel once",
          "[runtime][cache][fake-hip]") {
    constexpr int device = 3;
    REQUIRE(attributes_per_query() > 0);
    const int function_calls_before = fake::count().function_attribute_calls.load();
    const int launches_before = fake::count().launches.load();
    std::vector<outcome> seen(threads);
    race(threads, [&](int t) {
        fake::current_device = device;
        const wavefit::launch_result r = wavefit::try_launch(
            kernel<1>, wavefit::work::elements(std::uint64_t{1} << 33).kernel_loops(), nullptr, nullptr, 4099);
        seen[static_cast<std::size_t>(t)] = {r.status, r.config};
    });
    CHECK(fake::count().attribute_calls[device].load() == attributes_per_query());
    CHECK(fake::count().property_calls[device].load() == 1);
    CHECK(fake::count().function_attribute_calls.load() - function_calls_before == 1);
    CHECK(fake::count().launches.load() - launches_before == threads);
    CHECK(fake::count().bad_launches.load() == 0);
    CHECK(fake::count().wrong_arguments.load() == 0);
    for (const outcome& o : seen) {
        REQUIRE(o.status == wavefit::launch_status::launched);
        REQUIRE(o.config == seen[0].config);
    }
    // 2^33 elements on a wave64 device: the grid is clamped by the 2^32-1 work-item cap.
    CHECK(seen[0].config.grid.x * seen[0].config.block.x <= 4294967295u);
    // The cached limits are what the fake reported.
    const wavefit::device_limits& d = wavefit::device_limits_for(device);
    CHECK(d.arch.view() == "gfx942");
    CHECK(d.compute_units == 304);
    CHECK(fake::count().attribute_calls[device].load() == attributes_per_query());
}

TEST_CASE("runtime caches: threads racing over devices, kernels and shared memory sizes compute each entry once",
          "[runtime][cache][fake-hip]") {
    constexpr int first_device = 4;
    REQUIRE(attributes_per_query() > 0);
    constexpr int devices = 3;
    const int function_calls_before = fake::count().function_attribute_calls.load();
    const int launches_before = fake::count().launches.load();
    // One configuration per (device, kernel, shared memory): all threads must agree on it.
    constexpr int kernels = 4;
    constexpr int shared_sizes = 3;
    std::mutex first_mutex;  // guards the three vectors
    std::vector<int> disagreements(devices * kernels * shared_sizes, 0);
    std::vector<outcome> first(devices * kernels * shared_sizes);
    std::vector<bool> have_first(devices * kernels * shared_sizes, false);
    std::atomic<int> failures{0};
    using kernel_type = void (*)(float*, int);
    const kernel_type kernel_list[kernels] = {kernel<10>, kernel<11>, kernel<12>, kernel<13>};
    race(threads, [&](int t) {
        for (int round = 0; round < 24; ++round) {
            const int dev = (t + round) % devices;
            const int k = (t * 7 + round) % kernels;
            const int s = (t + round * 5) % shared_sizes;
            fake::current_device = first_device + dev;
            wavefit::plan_options options;
            options.dynamic_shared = std::uint64_t{1024} * static_cast<std::uint64_t>(s * 8);
            const wavefit::launch_result r = wavefit::try_launch(
                kernel_list[k], wavefit::work::elements(1000000 + static_cast<std::uint64_t>(s), options), nullptr, nullptr,
                4099);
            if (r.status != wavefit::launch_status::launched) {
                failures.fetch_add(1);
                continue;
            }
            const std::size_t slot = static_cast<std::size_t>((dev * kernels + k) * shared_sizes + s);
            std::lock_guard<std::mutex> lock(first_mutex);
            if (!have_first[slot]) {
                have_first[slot] = true;
                first[slot] = {r.status, r.config};
            } else if (first[slot].config != r.config) {
                ++disagreements[slot];
            }
        }
    });
    CHECK(failures.load() == 0);
    for (int dev = 0; dev < devices; ++dev) {
        CHECK(fake::count().attribute_calls[first_device + dev].load() == attributes_per_query());
        CHECK(fake::count().property_calls[first_device + dev].load() == 1);
    }
    // Kernel attributes are cached per (device, kernel).
    CHECK(fake::count().function_attribute_calls.load() - function_calls_before == devices * kernels);
    CHECK(fake::count().launches.load() - launches_before == threads * 24);
    CHECK(fake::count().bad_launches.load() == 0);
    CHECK(fake::count().wrong_arguments.load() == 0);
    for (const int d : disagreements) CHECK(d == 0);
    CHECK(wavefit::detail::launch_table().size() >= static_cast<std::size_t>(devices * kernels * shared_sizes));
}

TEST_CASE("runtime caches: racing launches above the default LDS opt in once per kernel and size",
          "[runtime][cache][fake-hip]") {
    constexpr int device = 8;
    const int set_before = fake::count().set_attribute_calls.load();
    std::atomic<int> launched{0};
    race(threads, [&](int) {
        fake::current_device = device;
        // 96 KiB of dynamic LDS: above the default 64 KiB, within the fake's 128 KiB opt-in.
        const wavefit::launch_config cfg{wavefit::dims{1000}, wavefit::dims{256}, std::uint64_t{96} * 1024};
        if (wavefit::try_launch(kernel<20>, cfg, nullptr, nullptr, 4099).status == wavefit::launch_status::launched)
            launched.fetch_add(1);
    });
    CHECK(launched.load() == threads);
    CHECK(fake::count().set_attribute_calls.load() - set_before == 1);
    CHECK(fake::count().bad_launches.load() == 0);
}

TEST_CASE("runtime caches: a failed device query is not cached; racing threads see the failure or the value, then the value",
          "[runtime][cache][fake-hip]") {
    constexpr int device = 9;
    constexpr int failures = 3;
    fake::count().property_failures_left.store(failures);
    fake::count().fail_properties_for.store(device);
    std::atomic<int> launched{0};
    std::atomic<int> runtime_failed{0};
    std::atomic<int> other{0};
    race(threads, [&](int) {
        fake::current_device = device;
        const wavefit::launch_result r = wavefit::try_launch(kernel<30>, std::uint64_t{4096}, nullptr, nullptr, 4099);
        if (r.status == wavefit::launch_status::launched)
            launched.fetch_add(1);
        else if (r.status == wavefit::launch_status::runtime_failed && r.message.find("hipErrorFake") != std::string::npos)
            runtime_failed.fetch_add(1);
        else
            other.fetch_add(1);
    });
    fake::count().fail_properties_for.store(-1);
    CHECK(other.load() == 0);
    CHECK(runtime_failed.load() <= failures);
    CHECK(launched.load() + runtime_failed.load() == threads);
    // Each failed attempt was retried by the next one (a launch's quiet run, then its explaining run,
    // or a later launch); once the value exists nobody queries again: every failure, then one success.
    CHECK(fake::count().property_calls[device].load() == failures + 1);
    fake::current_device = device;
    CHECK(wavefit::try_launch(kernel<30>, std::uint64_t{4096}, nullptr, nullptr, 4099).status ==
          wavefit::launch_status::launched);
    CHECK(fake::count().property_calls[device].load() == failures + 1);
}

TEST_CASE("streams: a launch into a stream of device 13 while device 12 is current is validated, planned and run on 13",
          "[runtime][streams][fake-hip]") {
    constexpr int current = 12;
    constexpr int small = fake::small_device;  // 104 CUs, 32 KiB of LDS, at most 256 threads per block
    const wavefit::launch_config block_512{wavefit::dims{10}, wavefit::dims{512}};
    fake::current_device = current;
    fake::expected_device = small;
    const int wrong_launches = fake::count().wrong_device_launches.load();
    const int wrong_attributes = fake::count().wrong_device_attributes.load();

    SECTION("an explicit block of 512 is refused by device 13's limit of 256, and names device 13") {
        const wavefit::launch_result r = wavefit::try_launch(kernel<40>, block_512, fake::stream_of(small), nullptr, 4099);
        CAPTURE(r.message);
        CHECK(r.status == wavefit::launch_status::rejected);
        CHECK(r.diagnostic == wavefit::diagnostic_code::block_exceeds_device_max_threads);
        CHECK(r.device == "Fake small GPU 13 (gfx942)");
        CHECK(r.kernel == "fake(float*, int)");
        CHECK(r.message.find("256 threads per block on Fake small GPU 13") != std::string::npos);
        CHECK(fake::current_device == current);
        // The same launch into device 12's stream runs: the limits are the stream's device's.
        fake::expected_device = current;
        CHECK(wavefit::try_launch(kernel<40>, block_512, fake::stream_of(current), nullptr, 4099).status ==
              wavefit::launch_status::launched);
    }
    SECTION("a planned launch of 2^20 elements is planned for device 13 and launched with device 13 current") {
        const wavefit::launch_result r =
            wavefit::try_launch(kernel<41>, std::uint64_t{1} << 20, fake::stream_of(small), nullptr, 4099);
        CAPTURE(r.message, r.config.block.x, r.config.grid.x);
        REQUIRE(r.status == wavefit::launch_status::launched);
        const wavefit::device_limits& small_limits = wavefit::device_limits_for(small);
        CHECK(small_limits.max_threads_per_block == 256);
        CHECK(small_limits.compute_units == 104);
        wavefit::kernel_resources k{};
        k.registers = 32;
        k.max_threads_per_block = 1024;
        CHECK(r.config == wavefit::plan(small_limits, k, std::uint64_t{1} << 20).config());
        CHECK(r.config.block.x <= 256);
        CHECK(fake::current_device == current);  // restored after the launch
        CHECK(fake::count().wrong_device_launches.load() == wrong_launches);
        CHECK(fake::count().wrong_device_attributes.load() == wrong_attributes);
    }
    SECTION("dynamic shared memory is judged against device 13's 32 KiB") {
        const wavefit::launch_config lds_48k{wavefit::dims{10}, wavefit::dims{256}, std::uint64_t{48} * 1024};
        const wavefit::launch_result on_small =
            wavefit::try_launch(kernel<42>, lds_48k, fake::stream_of(small), nullptr, 4099);
        CAPTURE(on_small.message);
        CHECK(on_small.diagnostic == wavefit::diagnostic_code::shared_memory_exceeds_limit);
        fake::expected_device = current;
        CHECK(wavefit::try_launch(kernel<42>, lds_48k, fake::stream_of(current), nullptr, 4099).status ==
              wavefit::launch_status::launched);
    }
    SECTION("the reverse: with device 13 current, a stream of device 12 takes blocks of 512") {
        fake::current_device = small;
        fake::expected_device = current;
        const wavefit::launch_result r = wavefit::try_launch(kernel<43>, block_512, fake::stream_of(current), nullptr, 4099);
        CAPTURE(r.message);
        CHECK(r.status == wavefit::launch_status::launched);
        CHECK(fake::current_device == small);
        CHECK(fake::count().wrong_device_launches.load() == wrong_launches);
        // The null stream belongs to the current device, 13, where 512 is too many.
        fake::expected_device = small;
        CHECK(wavefit::try_launch(kernel<43>, block_512, nullptr, nullptr, 4099).diagnostic ==
              wavefit::diagnostic_code::block_exceeds_device_max_threads);
    }
    fake::expected_device = -1;
    CHECK(fake::count().bad_launches.load() == 0);
}

TEST_CASE("planned launches: a repeated launch finds its entry and launches what plan() says, for counts, blocks "
          "of units and waves of units, with one entry per kernel and work shape",
          "[runtime][launch-path][fake-hip]") {
    constexpr int device = 5;
    fake::current_device = device;
    fake::expected_device = device;
    std::vector<wavefit::launch_config> launched;
    fake::set_duration_model([&](const void*, dim3 grid, dim3 block) {
        launched.push_back(wavefit::launch_config{wavefit::dims{grid.x, grid.y, grid.z},
                                                  wavefit::dims{block.x, block.y, block.z}});
        return 1000.0;
    });
    const wavefit::device_limits& d = wavefit::device_limits_for(device);
    wavefit::kernel_resources k{};
    k.registers = 32;
    k.max_threads_per_block = 1024;
    const hipStream_t stream = fake::stream_of(device);
    const std::size_t entries_before = wavefit::detail::launch_table().size();
    // Each form twice: the first launch makes the entry, the second finds it (the closed form above a
    // few items, configure() below). The element count and work::elements share one entry.
    const auto twice = [&](auto&& launch_once, const wavefit::work& w, const void* kernel_address) {
        const wavefit::launch_config planned = wavefit::plan(d, k, w).config();
        CAPTURE(wavefit::to_string(w.kind), w.extent.x, planned.grid.x, planned.block.x, planned.dynamic_shared);
        for (int i = 0; i < 2; ++i) {
            launched.clear();
            launch_once();
            REQUIRE(launched.size() == 1);
            CAPTURE(i, launched[0].grid.x, launched[0].block.x);
            CHECK(launched[0].grid == planned.grid);
            CHECK(launched[0].block == planned.block);
        }
        // The key the quiet path looks up (the work's words packed at the call site, or the constant
        // words of an element count) is the key of the entry the first launch made: else every launch
        // would miss and take the slow path, launching the same configuration.
        using wavefit::detail::elements_work_words;
        const wavefit::detail::launch_key words =
            w.kind == wavefit::work::work_kind::elements ? elements_work_words : wavefit::detail::work_key(w);
        CHECK(wavefit::detail::launch_table().find(
                  wavefit::detail::finished_key(words, device, kernel_address, w.size(), 0)) != nullptr);
    };
    for (const std::uint64_t n : {std::uint64_t{1000}, std::uint64_t{1} << 24, (std::uint64_t{1} << 31) + 5}) {
        const wavefit::work w = wavefit::work::elements(n);
        twice([&] { wavefit::launch(kernel<50>, n, stream, nullptr, 4099); }, w, fake::address_of(kernel<50>));
        twice([&] { wavefit::launch(kernel<50>, w, stream, nullptr, 4099); }, w, fake::address_of(kernel<50>));
        CHECK(wavefit::try_launch(kernel<50>, n, stream, nullptr, 4099).config == wavefit::plan(d, k, w).config());
    }
    for (const std::uint64_t units : {std::uint64_t{50}, std::uint64_t{1} << 20}) {
        const wavefit::work w = wavefit::work::per_block(units);
        twice([&] { wavefit::launch(kernel<51>, w, stream, nullptr, 4099); }, w, fake::address_of(kernel<51>));
    }
    for (const std::uint64_t units : {std::uint64_t{100}, std::uint64_t{1} << 22, std::uint64_t{1} << 40}) {
        const wavefit::work w = wavefit::work::per_wave(units).kernel_loops().grid_saturated(2).shared_bytes(1024);
        twice([&] { wavefit::launch(kernel<52>, w, stream, nullptr, 4099); }, w, fake::address_of(kernel<52>));
    }
    // A key built without the work that differed from key_for's would add entries here.
    CHECK(wavefit::detail::launch_table().size() == entries_before + 3);
    fake::set_duration_model([](const void*, dim3, dim3) { return 1000.0; });
    fake::expected_device = -1;
    CHECK(fake::count().bad_launches.load() == 0);
}

TEST_CASE("stale opt-in: an attribute lowered outside wavefit is raised again once and the launch retried",
          "[runtime][shared][fake-hip]") {
    fake::current_device = 15;
    const void* address = fake::address_of(kernel<50>);
    const wavefit::launch_config cfg{wavefit::dims{100}, wavefit::dims{256}, std::uint64_t{96} * 1024};
    REQUIRE(wavefit::try_launch(kernel<50>, cfg, nullptr, nullptr, 4099).status == wavefit::launch_status::launched);
    CHECK(fake::dynamic_shared_of(address) == 96 * 1024);

    // The program lowers the attribute behind wavefit's back (seen on the H200): the next launch
    // is refused by the runtime, wavefit re-reads the attribute, raises it and retries.
    REQUIRE(hipFuncSetAttribute(address, hipFuncAttributeMaxDynamicSharedMemorySize, 65536) == hipSuccess);
    const wavefit::launch_result again = wavefit::try_launch(kernel<50>, cfg, nullptr, nullptr, 4099);
    CAPTURE(again.message);
    CHECK(again.status == wavefit::launch_status::launched);
    CHECK(fake::dynamic_shared_of(address) == 96 * 1024);
    // The refusals wavefit recovered from are not left for the program's next error check.
    CHECK(hipGetLastError() == hipSuccess);

    // When raising it again fails too, the message says the attribute was changed outside wavefit.
    REQUIRE(hipFuncSetAttribute(address, hipFuncAttributeMaxDynamicSharedMemorySize, 65536) == hipSuccess);
    fake::count().refuse_set_attribute.store(true);
    const wavefit::launch_result refused = wavefit::try_launch(kernel<50>, cfg, nullptr, nullptr, 4099);
    fake::count().refuse_set_attribute.store(false);
    CAPTURE(refused.message);
    CHECK(refused.status == wavefit::launch_status::runtime_failed);
    CHECK(refused.message.find("changed outside wavefit") != std::string::npos);
    CHECK(refused.message.find("65536 bytes (64 KiB)") != std::string::npos);
    CHECK(refused.message.find("raising it again failed") != std::string::npos);
    CHECK(refused.kernel == "fake(float*, int)");
    CHECK(hipGetLastError() == hipSuccess);  // reported in the result, so not a second time
}

TEST_CASE("launch results: a default result is not a success, and a failure carries the kernel and the device",
          "[runtime][fake-hip]") {
    const wavefit::launch_result nothing{};
    CHECK(nothing.status == wavefit::launch_status::not_attempted);
    CHECK_FALSE(nothing.ok());
    CHECK_FALSE(static_cast<bool>(nothing));
    fake::current_device = 14;
    const wavefit::launch_config too_big{wavefit::dims{1}, wavefit::dims{2048}};
    try {
        wavefit::launch(kernel<44>, too_big, nullptr, nullptr, 4099);
        FAIL("a block of 2048 threads must throw");
    } catch (const wavefit::launch_error& e) {
        CAPTURE(e.what());
        CHECK(e.status() == wavefit::launch_status::rejected);
        CHECK(e.kernel() == "fake(float*, int)");
        CHECK(e.device() == "Fake MI300X 14 (gfx942)");
    }
}

TEST_CASE("kernel names: launches that go well never ask the runtime for the kernel's name; the first failure asks once",
          "[runtime][fake-hip]") {
    fake::current_device = 9;
    const int before = fake::count().name_queries.load();
    wavefit::launch(kernel<45>, std::uint64_t{4096}, nullptr, nullptr, 4099);  // the first: its entry is made
    wavefit::launch(kernel<45>, std::uint64_t{4096}, nullptr, nullptr, 4099);
    wavefit::launch(kernel<45>, wavefit::launch_config{wavefit::dims{1}, wavefit::dims{256}}, nullptr, nullptr, 4099);
    CHECK(fake::count().name_queries.load() - before == 0);
    const wavefit::launch_config too_big{wavefit::dims{1}, wavefit::dims{2048}};
    for (int i = 0; i < 2; ++i) {
        const wavefit::launch_result r = wavefit::try_launch(kernel<45>, too_big, nullptr, nullptr, 4099);
        CHECK(r.status == wavefit::launch_status::rejected);
        CHECK(r.kernel == "fake(float*, int)");
    }
    CHECK(fake::count().name_queries.load() - before == 1);
}

TEST_CASE("explanations: wavefit.hpp registers the full messages; a program of launch.hpp files gets the short one",
          "[runtime][fake-hip]") {
    fake::current_device = 14;  // Fake MI300X 14: at most 1024 threads per block
    const wavefit::launch_config too_big{wavefit::dims{3}, wavefit::dims{64, 32}};
    const wavefit::work fixed_2048 = wavefit::work::elements(4096).block_fixed(wavefit::dims{2048});
    // This file includes <wavefit/wavefit.hpp>: the message is check()'s.
    const wavefit::launch_result full = wavefit::try_launch(kernel<45>, too_big, nullptr, nullptr, 4099);
    CAPTURE(full.message);
    CHECK(full.message.find("block (64, 32, 1) = 2048 threads exceeds the maximum of 1024 threads per block on Fake "
                            "MI300X 14 (gfx942)") != std::string::npos);
    const wavefit::launch_result full_unplannable = wavefit::try_launch(kernel<45>, fixed_2048, nullptr, nullptr, 4099);
    CAPTURE(full_unplannable.message);
    CHECK(full_unplannable.diagnostic == wavefit::diagnostic_code::contract_allows_no_block);
    CHECK(full_unplannable.message.find("no block the kernel's contract allows") != std::string::npos);

    // As in a program none of whose files includes wavefit.hpp: no explainer is registered.
    const wavefit::detail::launch_explainer* registered = wavefit::detail::register_launch_explainer(nullptr);
    REQUIRE(registered != nullptr);
    const wavefit::launch_result brief = wavefit::try_launch(kernel<45>, too_big, nullptr, nullptr, 4099);
    const wavefit::launch_result brief_unplannable = wavefit::try_launch(kernel<45>, fixed_2048, nullptr, nullptr, 4099);
    const wavefit::launch_result brief_axis =
        wavefit::try_launch(kernel<45>, wavefit::launch_config{wavefit::dims{3}, wavefit::dims{2048}}, nullptr, nullptr, 4099);
    std::string thrown;
    try {
        wavefit::launch(kernel<45>, too_big, nullptr, nullptr, 4099);
    } catch (const wavefit::launch_error& e) {
        thrown = e.what();
    }
    wavefit::detail::register_launch_explainer(registered);

    CAPTURE(brief.message, brief_unplannable.message);
    CHECK(brief.status == wavefit::launch_status::rejected);
    CHECK(brief.diagnostic == wavefit::diagnostic_code::block_exceeds_device_max_threads);
    CHECK(brief.device == "Fake MI300X 14 (gfx942)");
    // The code, the value, the limit, the device and the configuration that fixes it, in numbers.
    CHECK(brief.message ==
          "wavefit rejected launching fake(float*, int) with grid (3, 1, 1), block (64, 32, 1) on Fake MI300X 14 "
          "(gfx942) [block_exceeds_device_max_threads]: value 2048, limit 1024. Fix: launch grid (6, 1, 1) x block "
          "(32, 32, 1) (`wavefit explain block_exceeds_device_max_threads` says more; every message is in full once "
          "a file of the program includes <wavefit/wavefit.hpp>) (and 1 more error; `wavefit check` lists them all)");
    CHECK(thrown == brief.message);
    // A finding about one axis names it.
    CAPTURE(brief_axis.message);
    CHECK(brief_axis.message.find("[block_dim_exceeds_device_limit]: block x: value 2048, limit 1024. Fix: launch ") !=
          std::string::npos);
    CHECK(brief_unplannable.status == wavefit::launch_status::rejected);
    CHECK(brief_unplannable.diagnostic == wavefit::diagnostic_code::contract_allows_no_block);
    CHECK(brief_unplannable.message.find("[contract_allows_no_block]") != std::string::npos);
    CHECK(brief_unplannable.message.find("Fake MI300X 14") != std::string::npos);
    CHECK(brief_unplannable.message.find("no block the work's contract allows can run this kernel") != std::string::npos);
    CHECK(brief_unplannable.message.find("(its bound, registers or shared memory") == std::string::npos);
    // Registered again: the full message is back.
    CHECK(wavefit::try_launch(kernel<45>, too_big, nullptr, nullptr, 4099).message == full.message);
}

#endif  // WAVEFIT_HAS_FAKE_HIP
