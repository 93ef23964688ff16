// SPDX-License-Identifier: MIT
// The tuner end to end without a GPU: wavefit::tune and WAVEFIT_TUNING's modes on the fake HIP
// runtime (fake_hip.hpp), whose device time comes from a model of launch durations, so that the
// fastest configuration is known and every verdict is deterministic. The tuning file is real (a
// temporary directory): records are written, merged, read back, ignored when corrupt or invalid,
// and two processes tuning into one file lose nothing.
#include "fake_hip.hpp"

#if defined(WAVEFIT_HAS_FAKE_HIP)

#include <wavefit/runtime/kernel_queries.hpp>
#include <wavefit/runtime/launch.hpp>
#include <wavefit/tuning.hpp>

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#if __has_include(<sys/wait.h>) && __has_include(<unistd.h>)
#include <sys/wait.h>
#include <unistd.h>
#define WAVEFIT_TEST_CAN_FORK 1
#endif

namespace {

// Distinct kernels (each test its own, so the process-wide caches and records start empty for it).
template <int N>
void tuned_kernel(float* data, int n) {
    if (data != nullptr) data[0] = static_cast<float>(n + N);
}

// A temporary tuning file, removed with its lock at the end.
struct scratch_file {
    std::filesystem::path path;
    explicit scratch_file(const std::string& name) {
        path = std::filesystem::temp_directory_path() /
               ("wavefit-tuning-" + std::to_string(static_cast<long>(::getpid())) + "-" + name);
        std::filesystem::remove(path);
    }
    ~scratch_file() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::remove(path.string() + ".lock", ec);
    }
    std::string read() const {
        std::ifstream in(path);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    void write(const std::string& text) const { std::ofstream(path) << text; }
};

// Every test leaves the process as it found it: tuning off, no file, 1 us per launch.
struct tuning_scope {
    tuning_scope() { fake::count().check_arguments.store(true); }
    ~tuning_scope() {
        fake::count().check_arguments.store(true);  // a case that let other arguments through gives it back
        wavefit::set_tuning_mode(wavefit::tuning_mode::off);
        wavefit::set_tuning_file("");
        fake::set_duration_model({});
        fake::set_duration_model([](const void*, dim3, dim3) { return 1000.0; });
    }
};

// The configuration a duration model makes fastest: block 512 with a saturated grid of 2 rounds
// (2 x 4 blocks per CU x 304 CUs = 2432 blocks on the fake MI300X), 5% faster than the rest.
double five_percent_faster_at_512x2432(const void*, dim3 grid, dim3 block) {
    return block.x == 512 && grid.x == 2432 ? 950000.0 : 1000000.0;
}

// A duration model: blocks of `block_x` threads in a grid of `grid_x` blocks take `fast_ns`, any other launch `ns`.
fake::duration_model faster_at(unsigned block_x, unsigned grid_x, double fast_ns, double ns) {
    return [=](const void*, dim3 grid, dim3 block) { return block.x == block_x && grid.x == grid_x ? fast_ns : ns; };
}

// 2^26 elements of a kernel that loops: any grid covers them, so tuning may saturate or coarsen it.
wavefit::work looping_work() { return wavefit::work::elements(std::uint64_t{1} << 26).kernel_loops(); }

// What tuning a 2 us kernel that faster_at(512, 2432, 1970.0, 2000.0) times must give, warm or cold: the faster
// configuration, with both times measured exactly.
void require_tuned_to_1970_ns(const wavefit::tuning_result& r) {
    CAPTURE(r.message, r.chosen.block.x, r.chosen.grid.x, r.chosen_ns, r.plan_ns);
    REQUIRE(r.ok);
    CHECK(r.tuned);
    CHECK(r.chosen_ns == Approx(1970.0));
    CHECK(r.plan_ns == Approx(2000.0));
}

// Tune mode with five_percent_faster_at_512x2432 on `device`, the file `file`: the first planned launch
// of tuned_kernel<N>, named `mangled`, over looping_work() tunes it in place and writes the file.
template <int N>
wavefit::launch_result first_launch_in_tune_mode(int device, const std::string& mangled, const scratch_file& file) {
    fake::current_device = device;
    fake::name_kernel(fake::address_of(tuned_kernel<N>), mangled);
    fake::set_duration_model(five_percent_faster_at_512x2432);
    wavefit::set_tuning_file(file.path.string());
    wavefit::set_tuning_mode(wavefit::tuning_mode::tune);
    return wavefit::try_launch(tuned_kernel<N>, looping_work(), nullptr, nullptr, 4099);
}

}  // namespace

TEST_CASE("tuning: WAVEFIT_TUNING without a registered tuner is reported; a registered tuner turned off is not",
          "[tuning][fake-hip]") {
    using wavefit::detail::tuning_requested_without_tuner;
    // This program includes <wavefit/tuning.hpp>: its tuner is registered whatever the mode.
    const tuning_scope scope;
    wavefit::set_tuning_mode(wavefit::tuning_mode::off);
    CHECK(wavefit::detail::tuning_switch::get().has_tuner());
    CHECK(wavefit::detail::tuning_switch::get().active() == nullptr);
    CHECK_FALSE(tuning_requested_without_tuner("use", wavefit::detail::tuning_switch::get().has_tuner()));
    // A program without one.
    CHECK(tuning_requested_without_tuner("use", false));
    CHECK(tuning_requested_without_tuner("tune", false));
    CHECK_FALSE(tuning_requested_without_tuner("off", false));
    CHECK_FALSE(tuning_requested_without_tuner(nullptr, false));
}

TEST_CASE("tune: the fastest candidate replaces the plan when it beats it by more than the noise", "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<1>), "_Z12tuned_kernelILi1EEvPfi");
    fake::set_duration_model(five_percent_faster_at_512x2432);
    const std::uint64_t n = std::uint64_t{1} << 26;
    // A saturated grid covers the work only because the kernel loops, and says so.
    const wavefit::work w = wavefit::work::elements(n).kernel_loops();
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<1>, w, nullptr, nullptr, 4099);
    CAPTURE(r.message, r.chosen.block.x, r.chosen.grid.x, r.plan.block.x, r.plan.grid.x, r.candidates, r.tuning_ms);
    REQUIRE(r.ok);
    CHECK(r.tuned);
    CHECK(r.chosen == wavefit::launch_config{wavefit::dims{2432}, wavefit::dims{512}});
    CHECK(r.plan.block.x == 256);
    CHECK(r.chosen_ns == Approx(950000.0));
    CHECK(r.plan_ns == Approx(1000000.0));
    CHECK(r.candidates >= 30);  // 5 power-of-two blocks x 7 grid policies
    CHECK(r.candidates <= 64);
    CHECK(r.failed == 0);
    CHECK(fake::count().wrong_arguments.load() == 0);

    // With tuning on, planned launches of this kernel in this process use the record; off, the plan.
    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    const wavefit::launch_result tuned = wavefit::try_launch(tuned_kernel<1>, w, nullptr, nullptr, 4099);
    CHECK(tuned.status == wavefit::launch_status::launched);
    CHECK(tuned.config == r.chosen);
    // The same bucket (2^26 to 2^27-1) gets the same choice, scaled by the work.
    CHECK(wavefit::try_launch(tuned_kernel<1>, wavefit::work::elements(n + 12345).kernel_loops(), nullptr, nullptr, 4099)
              .config.block.x == 512);
    // The record was made for a kernel that loops: the same kernel launched one pass (a guarded
    // kernel) never gets it, and its grid covers every element.
    const wavefit::launch_result guarded = wavefit::try_launch(tuned_kernel<1>, n, nullptr, nullptr, 4099);
    CHECK(guarded.config == wavefit::launch_config{wavefit::dims{n / 256}, wavefit::dims{256}});
    wavefit::set_tuning_mode(wavefit::tuning_mode::off);
    CHECK(wavefit::try_launch(tuned_kernel<1>, w, nullptr, nullptr, 4099).config == r.plan);
}

TEST_CASE("tune: a one-pass kernel is only measured with grids that reach every element, whatever is faster",
          "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<9>), "_Z12tuned_kernelILi9EEvPfi");
    // Fewer blocks look faster (a guarded kernel that skipped work would be): none may be measured.
    constexpr std::uint64_t n = (std::uint64_t{1} << 22) + 7;
    const int launches_before = fake::count().launches.load();
    std::uint64_t smallest_cover = ~std::uint64_t{0};
    fake::set_duration_model([&smallest_cover](const void*, dim3 grid, dim3 block) {
        const std::uint64_t covered = std::uint64_t{grid.x} * block.x;
        if (covered < n) smallest_cover = 0;  // a launch that skips elements: must never happen
        return 1000.0 * static_cast<double>(grid.x);
    });
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<9>, n, nullptr, nullptr, 4099);
    REQUIRE(r.ok);
    CHECK(smallest_cover != 0);
    CHECK(fake::count().launches.load() - launches_before > 10);
    CHECK(std::uint64_t{r.chosen.grid.x} * r.chosen.block.x >= n);
}

TEST_CASE("tune: rows of another length are tuned and looked up apart", "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<7>), "_Z12tuned_kernelILi7EEvPfi");
    // 4096 rows of 8192 run fastest with blocks of 1024, 4096 rows of 512 with blocks of 128 (the
    // model cannot see the row length, so each tune gets its own model).
    fake::set_duration_model([](const void*, dim3, dim3 block) { return block.x == 1024 ? 900000.0 : 1000000.0; });
    const wavefit::tuning_result long_rows =
        wavefit::tune(tuned_kernel<7>, wavefit::work::per_block(4096, 8192), nullptr, nullptr, 4099);
    fake::set_duration_model([](const void*, dim3, dim3 block) { return block.x == 128 ? 900000.0 : 1000000.0; });
    const wavefit::tuning_result short_rows =
        wavefit::tune(tuned_kernel<7>, wavefit::work::per_block(4096, 512), nullptr, nullptr, 4099);
    CAPTURE(long_rows.message, short_rows.message, long_rows.chosen.block.x, short_rows.chosen.block.x);
    REQUIRE(long_rows.tuned);
    REQUIRE(short_rows.tuned);
    CHECK(long_rows.chosen.block.x == 1024);
    CHECK(short_rows.chosen.block.x == 128);
    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    CHECK(
        wavefit::try_launch(tuned_kernel<7>, wavefit::work::per_block(4096, 8192), nullptr, nullptr, 4099).config.block.x ==
        1024);
    CHECK(wavefit::try_launch(tuned_kernel<7>, wavefit::work::per_block(4096, 512), nullptr, nullptr, 4099).config.block.x ==
          128);
    // Rows of a length never tuned get the plan, not the nearest length's choice.
    const wavefit::work unknown_rows = wavefit::work::per_block(4096, 100000);
    const wavefit::launch_result unknown = wavefit::try_launch(tuned_kernel<7>, unknown_rows, nullptr, nullptr, 4099);
    CHECK(unknown.config == wavefit::plan(tuned_kernel<7>, unknown_rows).config());
}

TEST_CASE("tune: every timed launch follows a flush of the L2, as the application runs it", "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<8>), "_Z12tuned_kernelILi8EEvPfi");
    fake::set_duration_model(faster_at(512, 2432, 1970.0, 2000.0));
    const int launches_before = fake::count().launches.load();
    const int flushes_before = fake::count().cache_flushes.load();
    const int held_before = fake::count().allocations.load();
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<8>, looping_work(), nullptr, nullptr, 4099);
    require_tuned_to_1970_ns(r);
    CHECK(r.cold_cache);
    // One launch per sample, each after a flush (the warm-ups are the only launches without one).
    const int launches = fake::count().launches.load() - launches_before;
    const int flushes = fake::count().cache_flushes.load() - flushes_before;
    CAPTURE(launches, flushes);
    CHECK(flushes > 100);
    CHECK(launches - flushes <= static_cast<int>(r.candidates) + 1);
    // The flush buffer is released.
    CHECK(fake::count().allocations.load() == held_before);
}

TEST_CASE("tune: where a GPU-compiled file registered the reading flush, every timed launch follows a read of the "
          "flush buffer, and the buffer is written once", "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<16>), "_Z13tuned_kernelILi16EEvPfi");
    // tuned_kernel<17> stands in for the reader that <wavefit/tuning.hpp> registers under hipcc or nvcc
    // (this file is built by a plain C++ compiler, so none is registered here).
    const void* reader = fake::address_of(tuned_kernel<17>);
    const fake::duration_model timed = faster_at(512, 2432, 1970.0, 2000.0);
    int reads = 0;
    int bad_read_shapes = 0;
    fake::set_duration_model([&](const void* kernel, dim3 grid, dim3 block) {
        if (kernel != reader) return timed(kernel, grid, block);
        ++reads;
        if (grid.x != 1024 || block.x != 256) ++bad_read_shapes;
        return 60000.0;  // outside every timed pair: must not reach a measurement
    });
    std::atomic<const void*>& registered = wavefit::detail::cache_flush_reader();
    const void* before = registered.exchange(reader);
    fake::count().check_arguments.store(false);  // the reader's arguments are not the test kernels' (float*, int)
    const int launches_before = fake::count().launches.load();
    const int writes_before = fake::count().cache_flushes.load();
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<16>, looping_work(), nullptr, nullptr, 4099);
    registered.store(before);
    const int launches = fake::count().launches.load() - launches_before;
    const int writes = fake::count().cache_flushes.load() - writes_before;
    CAPTURE(launches, reads, writes);
    require_tuned_to_1970_ns(r);  // no read's 60 us inside a timed pair
    CHECK(r.cold_cache);
    CHECK(writes == 1);  // the buffer zeroed once, so that the reader's store never runs
    CHECK(reads > 100);
    CHECK(bad_read_shapes == 0);
    CHECK(launches - 2 * reads <= static_cast<int>(r.candidates) + 1);  // a read before each timed launch
}

TEST_CASE("tune: without memory for the flush, a kernel of a few microseconds is timed warm in batches",
          "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<10>), "_Z13tuned_kernelILi10EEvPfi");
    // 2 us a launch, 1.5% faster at block 512 with 2 rounds: one event pair per launch would see 2 us
    // of device time and the fake's exact clock either way; batches must divide back to 2 us.
    fake::set_duration_model(faster_at(512, 2432, 1970.0, 2000.0));
    fake::count().refuse_allocations.store(true);
    const int launches_before = fake::count().launches.load();
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<10>, looping_work(), nullptr, nullptr, 4099);
    fake::count().refuse_allocations.store(false);
    require_tuned_to_1970_ns(r);
    CHECK_FALSE(r.cold_cache);
    // 25 launches a sample (50 us / 2 us): far more launches than samples.
    CHECK(fake::count().launches.load() - launches_before > 25 * 100);
}

TEST_CASE("tune: the configuration a launch replaces is measured first and kept unless a confirmation round beats it",
          "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    const std::uint64_t n = std::uint64_t{1} << 24;
    const wavefit::launch_config original{wavefit::dims{n / 128}, wavefit::dims{128}};
    const wavefit::work w = wavefit::work::elements(n).block_powers_of_two().replacing(original);
    // Tunes `kernel` (named `mangled` at `address`) where blocks of `fast_block` threads take `ns` and others 1 ms,
    // and requires that tuning ran (its message printed if not).
    const auto tune_with_block_at = [&](auto kernel, const char* mangled, unsigned fast_block, double ns) {
        fake::name_kernel(fake::address_of(kernel), mangled);
        fake::set_duration_model(
            [fast_block, ns](const void*, dim3, dim3 block) { return block.x == fast_block ? ns : 1000000.0; });
        const wavefit::tuning_result r = wavefit::tune(kernel, w, nullptr, nullptr, 4099);
        INFO(r.message);
        REQUIRE(r.ok);
        return r;
    };
    SECTION("the user's block 128 is the fastest: it is kept, and `use` launches it") {
        const wavefit::tuning_result r = tune_with_block_at(tuned_kernel<11>, "_Z13tuned_kernelILi11EEvPfi", 128, 900000.0);
        CAPTURE(r.message, r.chosen.block.x, r.baseline_ns, r.plan_ns);
        CHECK(r.has_baseline);
        CHECK_FALSE(r.tuned);
        CHECK(r.chosen == original);
        CHECK(r.baseline_ns == Approx(900000.0));
        CHECK(r.plan_ns == Approx(1000000.0));
        wavefit::set_tuning_mode(wavefit::tuning_mode::use);
        CHECK(wavefit::try_launch(tuned_kernel<11>, w, nullptr, nullptr, 4099).config == original);
    }
    SECTION("the plan beats it by 10%: the record replaces it, and `use` launches the plan") {
        const wavefit::tuning_result r = tune_with_block_at(tuned_kernel<12>, "_Z13tuned_kernelILi12EEvPfi", 256, 900000.0);
        CAPTURE(r.message, r.chosen.block.x, r.baseline_ns, r.plan_ns);
        CHECK(r.tuned);
        CHECK(r.chosen.block.x == 256);
        CHECK(r.baseline_ns == Approx(1000000.0));
        // Without tuning the launch keeps the user's configuration.
        CHECK(wavefit::try_launch(tuned_kernel<12>, w, nullptr, nullptr, 4099).config == original);
        wavefit::set_tuning_mode(wavefit::tuning_mode::use);
        CHECK(wavefit::try_launch(tuned_kernel<12>, w, nullptr, nullptr, 4099).config.block.x == 256);
    }
    SECTION("the floor: block 256 faster by 0.4% (the noise) keeps the user's block, faster by 0.7% replaces it") {
        const wavefit::tuning_result kept =
            tune_with_block_at(tuned_kernel<13>, "_Z13tuned_kernelILi13EEvPfi", 256, 996000.0);
        CHECK_FALSE(kept.tuned);
        CHECK(kept.chosen == original);
        const wavefit::tuning_result replaced =
            tune_with_block_at(tuned_kernel<15>, "_Z13tuned_kernelILi15EEvPfi", 256, 993000.0);
        CHECK(replaced.tuned);
        CHECK(replaced.chosen.block.x == 256);
    }
    SECTION("blocks not stated: the replaced configuration's block is the only one tried, however fast another is") {
        fake::name_kernel(fake::address_of(tuned_kernel<14>), "_Z13tuned_kernelILi14EEvPfi");
        fake::set_duration_model([](const void*, dim3, dim3 block) {
            if (block.x != 128) fake::count().bad_launches.fetch_add(1);  // a block the kernel was not written for
            return 1000000.0;
        });
        const int bad_before = fake::count().bad_launches.load();
        const wavefit::tuning_result r =
            wavefit::tune(tuned_kernel<14>, wavefit::work::elements(n).replacing(original), nullptr, nullptr, 4099);
        REQUIRE(r.ok);
        CHECK_FALSE(r.tuned);
        CHECK(r.chosen == original);
        CHECK(fake::count().bad_launches.load() == bad_before);
    }
}

TEST_CASE("tune: a tie keeps the plan", "[tuning][fake-hip]") {
    tuning_scope scope;
    fake::current_device = 2;
    fake::name_kernel(fake::address_of(tuned_kernel<2>), "_Z12tuned_kernelILi2EEvPfi");
    // Every configuration runs in the same 1 ms, but for one that is 0.1% faster: inside the noise floor.
    fake::set_duration_model(faster_at(1024, 1216, 999000.0, 1000000.0));
    const wavefit::tuning_result r = wavefit::tune(tuned_kernel<2>, looping_work(), nullptr, nullptr, 4099);
    REQUIRE(r.ok);
    CAPTURE(r.chosen.block.x, r.chosen.grid.x);
    CHECK_FALSE(r.tuned);
    CHECK(r.chosen == r.plan);
}

TEST_CASE("tune mode: the first planned launch of a kernel and size tunes in place and writes the file",
          "[tuning][fake-hip]") {
    tuning_scope scope;
    scratch_file file("in-place");
    const int launches_before = fake::count().launches.load();
    const wavefit::launch_result first = first_launch_in_tune_mode<3>(3, "_Z12tuned_kernelILi3EEvPfi", file);
    CAPTURE(first.message);
    CHECK(first.status == wavefit::launch_status::launched);
    CHECK(first.config == wavefit::launch_config{wavefit::dims{2432}, wavefit::dims{512}});
    const int tuning_launches = fake::count().launches.load() - launches_before;
    CHECK(tuning_launches > 64);
    // The next launch of the same bucket measures nothing.
    const int before_second = fake::count().launches.load();
    CHECK(wavefit::try_launch(tuned_kernel<3>, wavefit::work::elements((std::uint64_t{1} << 26) + 1).kernel_loops(), nullptr,
                              nullptr, 4099)
              .config.block.x == 512);
    CHECK(fake::count().launches.load() - before_second == 1);
    const std::string text = file.read();
    CAPTURE(text);
    CHECK(spec::contains(text, "\"kernel\":\"_Z12tuned_kernelILi3EEvPfi\""));
    CHECK(spec::contains(text, "\"chosen\":{\"block\":[512,1,1],\"grid\":\"saturate\",\"factor\":2"));
    CHECK(spec::contains(text, "\"device\":\"Fake MI300X 3\",\"arch\":\"gfx942:sramecc+:xnack-\",\"compute_units\":304"));
    CHECK(spec::contains(text, "\"coverage\":\"kernel_loops\""));
    CHECK(spec::contains(text, "\"runtime\":\"HIP 60443483\""));
}

TEST_CASE("tune mode: a kernel whose name is not well-formed UTF-8 gets a record its file reads back",
          "[tuning][fake-hip]") {
    tuning_scope scope;
    scratch_file file("ill-formed-name");
    const wavefit::launch_result first = first_launch_in_tune_mode<18>(6, "_Z12tuned_kernelILi18EEvPfi\xFF", file);
    CAPTURE(first.message);
    CHECK(first.config == wavefit::launch_config{wavefit::dims{2432}, wavefit::dims{512}});
    const std::string text = file.read();
    CAPTURE(text);
    // Before, the name's byte went into the file as it was, and no reader took that line back.
    wavefit::detail::tuning_database reread;
    const auto report = reread.add_lines(text);
    CHECK(report.ignored == 0);
    REQUIRE(reread.size() == 1);
    CHECK(reread.records().front().key.kernel == "_Z12tuned_kernelILi18EEvPfi\xEF\xBF\xBD");
    CHECK(reread.records().front().chosen.block.x == 512);
}

TEST_CASE("a tuning file: a record from another run is used, an invalid or foreign one never is", "[tuning][fake-hip]") {
    tuning_scope scope;
    scratch_file file("hostile");
    fake::current_device = 4;
    fake::name_kernel(fake::address_of(tuned_kernel<4>), "_Z12tuned_kernelILi4EEvPfi");
    // A record written by a previous run: block 768 covering, on this device, runtime and kernel.
    wavefit::detail::tuning_record r;
    r.key.device_name = "Fake MI300X 4";
    r.key.device_arch = "gfx942:sramecc+:xnack-";
    r.key.compute_units = 304;
    r.key.runtime = "HIP 60443483";
    r.key.kernel = "_Z12tuned_kernelILi4EEvPfi";
    r.key.resources.registers = 32;
    r.key.resources.max_threads_per_block = 1024;
    r.key.describe_work(wavefit::work::elements(std::uint64_t{1} << 20));
    r.chosen.block = wavefit::dims{512};
    r.plan.block = wavefit::dims{256};
    wavefit::detail::tuning_record invalid = r;  // a block no device has, in another bucket
    invalid.key.bucket = 24;
    invalid.chosen.block = wavefit::dims{4096};
    wavefit::detail::tuning_record foreign = r;  // a recompiled kernel with more registers
    foreign.key.resources.registers = 64;
    foreign.key.bucket = 22;
    foreign.chosen.block = wavefit::dims{64};
    file.write("garbage\n" + wavefit::detail::to_json_line(r) + "\n" + wavefit::detail::to_json_line(invalid) +
               "\n{\"wavefit_tuning\":99}\n" + wavefit::detail::to_json_line(foreign) + "\n" + std::string(100, '{') + "\n");
    wavefit::set_tuning_file(file.path.string());
    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    const int bad_before = fake::count().bad_launches.load();

    CHECK(wavefit::try_launch(tuned_kernel<4>, std::uint64_t{1} << 20, nullptr, nullptr, 4099).config.block.x == 512);
    // Bucket 24's record asks for block 4096: refused by validation, the plan runs instead.
    const wavefit::launch_result at_24 =
        wavefit::try_launch(tuned_kernel<4>, std::uint64_t{1} << 24, nullptr, nullptr, 4099);
    CHECK(at_24.status == wavefit::launch_status::launched);
    CHECK(at_24.config.block.x == 256);
    // Bucket 22 has only the other fingerprint's record: the nearest valid record (bucket 20) serves.
    CHECK(wavefit::try_launch(tuned_kernel<4>, std::uint64_t{1} << 22, nullptr, nullptr, 4099).config.block.x == 512);
    // The same record under another contract (a kernel that loops) is not this launch's record.
    CHECK(wavefit::try_launch(tuned_kernel<4>, wavefit::work::elements(std::uint64_t{1} << 20).kernel_loops(), nullptr,
                              nullptr, 4099)
              .config.block.x == 256);
    CHECK(fake::count().bad_launches.load() == bad_before);
}

#if defined(WAVEFIT_TEST_CAN_FORK)
TEST_CASE("two processes tuning into one file at once lose nothing", "[tuning][fake-hip]") {
    tuning_scope scope;
    scratch_file file("two-processes");
    fake::set_duration_model(five_percent_faster_at_512x2432);
    const auto child = [&](auto kernel, const char* name, int device) {
        fake::current_device = device;
        fake::name_kernel(fake::address_of(kernel), name);
        wavefit::set_tuning_file(file.path.string());
        for (int round = 0; round < 5; ++round) {
            const wavefit::tuning_result r = wavefit::tune(kernel, std::uint64_t{1} << (20 + round), nullptr, nullptr, 4099);
            if (!r.ok) ::_exit(1);
        }
        ::_exit(0);
    };
    const pid_t a = ::fork();
    if (a == 0) child(tuned_kernel<5>, "_Z12tuned_kernelILi5EEvPfi", 5);
    const pid_t b = ::fork();
    if (b == 0) child(tuned_kernel<6>, "_Z12tuned_kernelILi6EEvPfi", 6);
    int status_a = -1, status_b = -1;
    REQUIRE(::waitpid(a, &status_a, 0) == a);
    REQUIRE(::waitpid(b, &status_b, 0) == b);
    CHECK(WIFEXITED(status_a));
    CHECK(WEXITSTATUS(status_a) == 0);
    CHECK(WEXITSTATUS(status_b) == 0);
    wavefit::detail::tuning_database db;
    const auto report = db.add_lines(file.read());
    CAPTURE(report.first_problem);
    CHECK(report.ignored == 0);
    CHECK(db.size() == 10);  // five buckets of each kernel
}
#endif

#endif  // WAVEFIT_HAS_FAKE_HIP
