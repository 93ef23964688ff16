// SPDX-License-Identifier: MIT
// How wavefit::launch behaves beyond the shape checks: the automatic opt-in above 48 KiB of dynamic
// shared memory, argument conversions that must keep working, first launches from many threads at
// once, and what launch_error and try_launch report.
#include "gpu_test.hpp"

// The launch caches themselves (detail::kernel_table, launch_table), which these specifications inspect;
// launch.hpp includes them only in the host pass, and nvcc parses host code in its device pass too.
#include <wavefit/runtime/launch_impl.hpp>

#include <atomic>     // the start line of the threads
#include <stdexcept>  // failures inside the threads
#include <thread>     // concurrent first launches

namespace {

using gpu_test::mismatches;
using wavefit::dims;
using wavefit::launch_config;

}  // namespace

TEST_CASE("dynamic shared memory above 48 KiB is opted in automatically and usable by the kernel", "[behaviour][shared]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const std::uint64_t bytes = 100 * 1024;
    const std::uint32_t words = static_cast<std::uint32_t>(bytes / 4);
    const std::uint64_t blocks = d.compute_units * 2, threads = 256;
    gpu::buffer<std::uint32_t> mismatch_counts(blocks * threads);
    mismatch_counts.poison(0xAB);
    const launch_config cfg{dims{blocks}, dims{threads}, bytes};

    if (d.shared_per_block_optin < bytes) {  // AMD: 64 KiB of LDS and no opt-in
        const wavefit::launch_result r =
            wavefit::try_launch(shared_roundtrip_fresh, cfg, nullptr, mismatch_counts.data(), words);
        INFO(r.message);
        CHECK(gpu_test::code_name(r.diagnostic) == "shared_memory_exceeds_limit");
        return;
    }
    // Whatever earlier specs did to this kernel's limit, start from the runtime's default.
    GPU_REQUIRE_OK(gpu::set_max_dynamic_shared(reinterpret_cast<const void*>(shared_roundtrip_fresh),
                                               static_cast<int>(d.shared_per_block)));
    GPU_RAW_LAUNCH(shared_roundtrip_fresh, dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads)), bytes,
                   nullptr, mismatch_counts.data(), words);
    const gpu::error_t raw = gpu::take_last_error();
    gpu_test::record_runtime_verdict("100 KiB of dynamic shared memory without the opt-in", raw);
    CHECK(gpu::error_text(raw) != gpu_test::success_text());

    gpu::stream s;
    REQUIRE_NOTHROW(wavefit::launch(shared_roundtrip_fresh, cfg, s.get(), mismatch_counts.data(), words));
    s.wait();
    CHECK(mismatches(mismatch_counts.to_host(), 0, blocks * threads, 0u) == "");
    gpu::kernel_attributes a;
    GPU_REQUIRE_OK(gpu::attributes_of(a, reinterpret_cast<const void*>(shared_roundtrip_fresh)));
    CHECK(a.max_dynamic_shared >= static_cast<int>(bytes));

    // A planned launch with the same shared memory per block, and the largest a block may have.
    mismatch_counts.poison(0xAB);
    const wavefit::launch_result planned =
        wavefit::try_launch(shared_roundtrip_fresh, wavefit::work::elements(blocks * threads).shared_bytes(bytes), s.get(),
                            mismatch_counts.data(), words);
    INFO(planned.message);
    REQUIRE(gpu_test::status_name(planned.status) == "launched");
    REQUIRE(planned.config.grid.x * planned.config.block.x <= blocks * threads);
    s.wait();
    CHECK(mismatches(mismatch_counts.to_host(), 0, planned.config.grid.x * planned.config.block.x, 0u) == "");

    const std::uint64_t most = d.shared_per_block_optin;
    mismatch_counts.poison(0xAB);
    REQUIRE_NOTHROW(wavefit::launch(shared_roundtrip_fresh, launch_config{dims{blocks}, dims{threads}, most}, s.get(),
                                    mismatch_counts.data(), static_cast<std::uint32_t>(most / 4)));
    s.wait();
    CHECK(mismatches(mismatch_counts.to_host(), 0, blocks * threads, 0u) == "");
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
}

TEST_CASE("an opt-in lowered outside wavefit after wavefit raised it is raised again, and the launch succeeds",
          "[behaviour][shared][stale]") {
    REQUIRE_GPU();
    const wavefit::device_limits& d = wavefit::current_device_limits();
    const std::uint64_t bytes = 200000;  // the issue's case: 200,000 bytes on the H200
    if (d.shared_per_block_optin < bytes) GPU_TEST_SKIP("no opt-in to 200000 bytes of dynamic shared memory on this device");
    const std::uint32_t words = static_cast<std::uint32_t>(bytes / 4);
    const std::uint64_t blocks = d.compute_units, threads = 256;
    const void* address = reinterpret_cast<const void*>(shared_roundtrip_stale);
    gpu::buffer<std::uint32_t> mismatch_counts(blocks * threads);
    const launch_config cfg{dims{blocks}, dims{threads}, bytes};
    gpu::stream s;
    REQUIRE_NOTHROW(wavefit::launch(shared_roundtrip_stale, cfg, s.get(), mismatch_counts.data(), words));
    s.wait();

    // The program lowers the attribute after wavefit raised it.
    GPU_REQUIRE_OK(gpu::set_max_dynamic_shared(address, static_cast<int>(d.shared_per_block)));
    gpu::kernel_attributes lowered;
    GPU_REQUIRE_OK(gpu::attributes_of(lowered, address));
    REQUIRE(lowered.max_dynamic_shared < static_cast<int>(bytes));

    mismatch_counts.poison(0xAB);
    const wavefit::launch_result r =
        wavefit::try_launch(shared_roundtrip_stale, cfg, s.get(), mismatch_counts.data(), words);
    INFO(r.message);
    CHECK(gpu_test::status_name(r.status) == "launched");
    s.wait();
    CHECK(mismatches(mismatch_counts.to_host(), 0, blocks * threads, 0u) == "");
    gpu::kernel_attributes raised;
    GPU_REQUIRE_OK(gpu::attributes_of(raised, address));
    CHECK(raised.max_dynamic_shared >= static_cast<int>(bytes));
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
    gpu_test::note("stale opt-in: attribute lowered to " + std::to_string(lowered.max_dynamic_shared) +
                   " bytes outside wavefit; the next 200000-byte launch " + gpu_test::status_name(r.status) +
                   ", attribute now " + std::to_string(raised.max_dynamic_shared));
}

TEST_CASE("pointers gaining const and integers widening are accepted and arrive intact", "[behaviour][arguments]") {
    REQUIRE_GPU();
    const std::uint32_t n = 100003;  // a 32-bit count into the kernel's std::uint64_t parameter
    std::vector<float> x(n), y(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = static_cast<float>(i % 7);
    }
    gpu::buffer<float> dx(n), dy(n);
    dx.from_host(x);
    dy.from_host(y);
    float* mutable_x = dx.data();  // passed to `const float* x`
    gpu::stream s;
    wavefit::launch(axpy, std::uint64_t{n}, s.get(), 2.0f, mutable_x, dy.data(), n);
    s.wait();
    const std::vector<float> got = dy.to_host();
    std::uint64_t wrong = 0, first_wrong = 0;
    for (std::uint32_t i = 0; i < n; ++i)
        if (got[i] != 2.0f * x[i] + y[i] && wrong++ == 0) first_wrong = i;
    INFO(wrong << " wrong results, the first at " << first_wrong << ": " << got[first_wrong]);
    CHECK(wrong == 0);

    // int -> std::int64_t, unsigned short -> std::uint64_t, float -> double.
    gpu::buffer<std::int64_t> echoed(3);
    echoed.poison(0xAB);
    const int a = -123456789;
    const unsigned short b = 65535;
    const float c = 1.5f;
    wavefit::launch(echo_widened, launch_config{dims{1}, dims{32}}, s.get(), echoed.data(), a, b, c);
    s.wait();
    const std::vector<std::int64_t> values = echoed.to_host();
    CHECK(values[0] == -123456789);
    CHECK(values[1] == 65535);
    CHECK(values[2] == 3);
}

TEST_CASE("32 threads launching kernels for the first time all succeed, and the caches hold one entry per kernel",
          "[behaviour][threads]") {
    REQUIRE_GPU();
    int device = 0;
    GPU_REQUIRE_OK(gpu::current_device(device));
    (void)wavefit::current_device_limits();  // the device itself may already be known; the kernels must not be
    for (int tag = 0; tag < tagged_kernel_count; ++tag)
        REQUIRE(wavefit::detail::kernel_table().find({device, reinterpret_cast<const void*>(tagged_fill(tag))}) == nullptr);
    const std::size_t kernels_before = wavefit::detail::kernel_table().size();
    const std::size_t choices_before = wavefit::detail::launch_table().size();
    const std::size_t configured_before = wavefit::detail::configured_launch_table().size();

    constexpr int thread_count = 32;
    struct outcome {
        std::string by_count, by_config;  // launch statuses (and messages on failure)
        std::string values;               // mismatches in the output, empty when right
        std::string last_error;           // the runtime's last error after the launches
        std::string failure;              // an exception in the thread
    };
    std::vector<outcome> outcomes(thread_count);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            outcome& o = outcomes[t];
            try {
                int d = 0;
                gpu::check(gpu::current_device(d), "reading the thread's device");
                if (d != device) throw std::runtime_error("the thread runs on device " + std::to_string(d));
                const tagged_kernel_type kernel = tagged_fill(t % tagged_kernel_count);
                const std::uint64_t n = 100000 + 777 * static_cast<std::uint64_t>(t);
                gpu::buffer<std::uint32_t> out(n + 64);
                out.poison(0xAB);
                gpu::stream s;
                ready.fetch_add(1);
                while (ready.load() < thread_count) std::this_thread::yield();  // start together
                const wavefit::launch_result a = wavefit::try_launch(kernel, n / 2, s.get(), out.data(), n / 2);
                const wavefit::launch_result b =
                    wavefit::try_launch(kernel, launch_config{dims{3}, dims{128}}, s.get(), out.data() + n / 2, n - n / 2);
                o.by_count = gpu_test::status_name(a.status) + a.message;
                o.by_config = gpu_test::status_name(b.status) + b.message;
                s.wait();
                const std::vector<std::uint32_t> host = out.to_host();
                const std::uint32_t want = static_cast<std::uint32_t>(t % tagged_kernel_count) + 1;
                o.values = mismatches(host, 0, n, want) + mismatches(host, n, n + 64, gpu_test::poison_u32);
                o.last_error = gpu::error_text(gpu::take_last_error());
            } catch (const std::exception& e) {
                o.failure = e.what();
                ready.fetch_add(thread_count);  // release the others
            }
        });
    }
    for (std::thread& th : threads) th.join();

    for (int t = 0; t < thread_count; ++t) {
        INFO("thread " << t << " (kernel tag " << t % tagged_kernel_count << ")");
        const outcome& o = outcomes[t];
        CHECK(o.failure == "");
        CHECK(o.by_count == "launched");
        CHECK(o.by_config == "launched");
        CHECK(o.values == "");
        CHECK(o.last_error == gpu_test::success_text());
    }
    // One kernel entry per (device, kernel): eight new kernels. The launch caches hold one entry per
    // (device, kernel, launch form): the planned element count in one and the explicit configuration
    // in the other, for each of the eight kernels, however many threads raced to create them.
    for (int tag = 0; tag < tagged_kernel_count; ++tag)
        CHECK(wavefit::detail::kernel_table().find({device, reinterpret_cast<const void*>(tagged_fill(tag))}) != nullptr);
    CHECK(wavefit::detail::kernel_table().size() - kernels_before == static_cast<std::size_t>(tagged_kernel_count));
    CHECK(wavefit::detail::launch_table().size() - choices_before == static_cast<std::size_t>(tagged_kernel_count));
    CHECK(wavefit::detail::configured_launch_table().size() - configured_before ==
          static_cast<std::size_t>(tagged_kernel_count));

    // These kernels are not in suite_kernels() (they had to be new here): their occupancy is compared now.
    const wavefit::device_limits& d = wavefit::current_device_limits();
    for (int tag = 0; tag < tagged_kernel_count; ++tag) {
        for (std::uint64_t block = d.wave_size; block <= d.max_threads_per_block; block += 3 * d.wave_size) {
            int runtime_blocks = -1;
            GPU_REQUIRE_OK(gpu::occupancy_blocks(runtime_blocks, reinterpret_cast<const void*>(tagged_fill(tag)),
                                                 static_cast<int>(block), 0));
            INFO("tag " << tag << " block " << block);
            CHECK(static_cast<int>(wavefit::occupancy(tagged_fill(tag), block).active_blocks_per_cu) == runtime_blocks);
        }
    }
}

TEST_CASE("launch_error and try_launch report the runtime code, the diagnostic, the kernel and the device",
          "[behaviour][errors]") {
    REQUIRE_GPU();
    const std::string device_name = gpu_test::current_device_name();
    const launch_config cfg{dims{1}, dims{32, 33, 1}};  // 1056 threads
    std::uint32_t* const no_visits = nullptr;

    const wavefit::launch_result r = wavefit::try_launch(count_visits, cfg, nullptr, no_visits, std::uint64_t{0});
    gpu_test::note("try_launch message: " + r.message);
    CHECK(gpu_test::status_name(r.status) == "rejected");
    CHECK_FALSE(r.ok());
    bool thrown = false;
    try {
        wavefit::launch(count_visits, cfg, nullptr, no_visits, std::uint64_t{0});
    } catch (const wavefit::launch_error& e) {
        thrown = true;
        gpu_test::note("launch_error: kernel '" + e.kernel() + "', device '" + e.device() + "'");
        CHECK(gpu_test::status_name(e.status()) == "rejected");
        CHECK(e.runtime_code() == 0);
        CHECK(gpu_test::code_name(e.diagnostic()) == "block_exceeds_device_max_threads");
        CHECK_THAT(e.kernel(), Catch::Contains("count_visits") && !Catch::StartsWith("_Z"));  // demangled
        CHECK_THAT(e.device(), Catch::Contains(device_name));
        if (gpu_test::on_h200()) CHECK_THAT(e.device(), Catch::Contains("NVIDIA H200"));
        CHECK_THAT(std::string(e.what()), Catch::Contains("1056") && Catch::Contains("1024") &&
                                              Catch::Contains(device_name) && Catch::Contains("count_visits"));
        CHECK(e.config() == cfg);
        // try_launch tells the same facts without throwing.
        CHECK(gpu_test::status_name(r.status) == gpu_test::status_name(e.status()));
        CHECK(r.runtime_code == e.runtime_code());
        CHECK(gpu_test::code_name(r.diagnostic) == gpu_test::code_name(e.diagnostic()));
        CHECK(r.config == e.config());
        CHECK(r.message == std::string(e.what()));
    }
    CHECK(thrown);

    // A runtime failure carries the runtime's code and names it: a device index past the last one.
    const int past_last = gpu::device_count();
    bool runtime_thrown = false;
    try {
        (void)wavefit::device_limits_for(past_last);
    } catch (const wavefit::launch_error& e) {
        runtime_thrown = true;
        gpu_test::note("device_limits_for(" + std::to_string(past_last) + "): " + e.what());
        CHECK(gpu_test::status_name(e.status()) == "runtime_failed");
        CHECK(e.runtime_code() == static_cast<int>(gpu::invalid_device));
        CHECK_FALSE(e.diagnostic().has_value());
        CHECK_THAT(std::string(e.what()), Catch::Contains(gpu::error_name(gpu::invalid_device)));
    }
    CHECK(runtime_thrown);
    CHECK(gpu_test::last_error_text() == gpu_test::success_text());
}
