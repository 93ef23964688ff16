// SPDX-License-Identifier: MIT
// The tuner cannot change what a kernel computes. Kernels written the way public CUDA code is (a
// guarded elementwise kernel, a row per 32-thread group and per wave, a row per block, a reduction
// through a fixed shared array) are launched raw as written ("the original"), then through wavefit
// with the contract each needs: planned, tuned with wavefit::tune, tuned in place on first use
// (WAVEFIT_TUNING=tune), and launched with the records (WAVEFIT_TUNING=use) with the inputs changed
// between calls. Every output, and a guard region after it, must match the original's bit for bit,
// and every configuration wavefit chose must be one the contract allows. A tuning record made under
// one contract is never used under another.
#include "contract_kernels.hpp"
#include "gpu_test.hpp"

#include <wavefit/tuning.hpp>  // wavefit::tune and the tuning modes: the opt-in tuning tier

#include <cstring>     // std::memcpy
#include <functional>  // per-case launches

namespace {

using wavefit::dims;
using wavefit::launch_config;

// Elements after each output that no launch may write (poisoned, compared like the output).
constexpr std::uint64_t guard = 1024;

// Row lengths: rows per group or wave, rows per block.
constexpr int group_row_length = 1000;
constexpr int block_row_length = 4000;

// Small integers in [-3, 3] from (index, seed): every sum of up to 2^21 of them is exact in fp32.
std::vector<float> small_integers(std::uint64_t n, std::uint32_t seed) {
    std::vector<float> v(n);
    std::uint64_t z = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (std::uint64_t i = 0; i < n; ++i) {
        z += 0x9E3779B97F4A7C15ull;
        std::uint64_t h = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        h ^= h >> 31;
        v[i] = static_cast<float>(static_cast<int>(h % 7) - 3);
    }
    return v;
}

std::uint32_t bits(float f) {
    std::uint32_t b = 0;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// "" when `got` and `want` hold the same bits; else how many words differ and the first.
std::string bit_differences(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size())
        return "sizes differ: " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
    std::uint64_t count = 0, first = 0;
    for (std::uint64_t i = 0; i < got.size(); ++i)
        if (bits(got[i]) != bits(want[i]) && count++ == 0) first = i;
    if (count == 0) return {};
    return std::to_string(count) + " of " + std::to_string(got.size()) + " words differ; the first is [" +
           std::to_string(first) + "] = " + std::to_string(got[first]) + ", the original wrote " +
           std::to_string(want[first]);
}

std::string config_text(const launch_config& c) { return Catch::StringMaker<launch_config>::convert(c); }

bool power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The tuning mode goes back to off, and the process's records stay out of the next spec's way.
struct tuning_mode_guard {
    tuning_mode_guard() { wavefit::set_tuning_mode(wavefit::tuning_mode::off); }
    ~tuning_mode_guard() { wavefit::set_tuning_mode(wavefit::tuning_mode::off); }
    tuning_mode_guard(const tuning_mode_guard&) = delete;
    tuning_mode_guard& operator=(const tuning_mode_guard&) = delete;
};

// One kernel at one size, with its buffers, the launch as written and the contract it needs.
struct contract_case {
    std::string name;
    std::uint64_t inputs = 0;
    std::uint64_t outputs = 0;
    launch_config original{dims{0}, dims{0}};
    wavefit::work work;
    // "" when a configuration respects the kernel's contract for this work; else why it does not.
    std::function<std::string(const launch_config&)> allowed;
    std::function<void(gpu::stream_t)> raw;  // the original configuration
    std::function<wavefit::launch_result(const wavefit::work&, gpu::stream_t)> launch;
    std::function<wavefit::tuning_result(const wavefit::work&, gpu::stream_t)> tune;
};

struct device_data {
    gpu::buffer<float> x;
    gpu::buffer<float> out;
    device_data(std::uint64_t inputs, std::uint64_t outputs) : x(inputs), out(outputs + guard) {}
};

// The outputs of the original launch on inputs of `seed`.
std::vector<float> original_outputs(const contract_case& c, device_data& d, std::uint32_t seed, const gpu::stream& s) {
    d.x.from_host(small_integers(d.x.size(), seed));  // the buffer holds the largest case
    d.out.poison(0xFF);
    c.raw(s.get());
    GPU_REQUIRE_OK(gpu::take_last_error());
    s.wait();
    return d.out.to_host();
}

// Launches through wavefit on inputs of `seed` and compares with the original on the same inputs.
void check_wavefit_launch(const contract_case& c, device_data& d, const wavefit::work& w, std::uint32_t seed,
                          const gpu::stream& s, const std::string& mode, launch_config* used = nullptr) {
    const std::vector<float> want = original_outputs(c, d, seed, s);
    d.out.poison(0xFF);
    const wavefit::launch_result r = c.launch(w, s.get());
    INFO(c.name << " (" << mode << ", inputs " << seed << "): " << gpu_test::status_name(r.status) << " with "
                << config_text(r.config) << " " << r.message);
    REQUIRE(r.ok());
    s.wait();
    CHECK(c.allowed(r.config) == "");
    CHECK(bit_differences(d.out.to_host(), want) == "");
    if (used != nullptr) *used = r.config;
}

// The whole sequence for one kernel: plan; wavefit::tune then use with other inputs; tuned in place
// on first use at a second size, then used.
void check_contract(const std::function<contract_case(device_data&, std::uint64_t)>& make, std::uint64_t size,
                    std::uint64_t other_size, std::uint64_t inputs_max, std::uint64_t outputs_max) {
    REQUIRE_GPU();
    const tuning_mode_guard mode;
    gpu::stream s;
    device_data d(inputs_max, outputs_max);

    contract_case c = make(d, size);
    INFO(c.name << ": original " << config_text(c.original));
    REQUIRE(c.allowed(c.original) == "");  // the original itself respects the contract written for it
    check_wavefit_launch(c, d, c.work, 1, s, "plan");

    // wavefit::tune on the inputs of seed 1, outputs poisoned: every candidate writes them all.
    const wavefit::work ported = c.work.replacing(c.original);
    d.x.from_host(small_integers(d.x.size(), 1));
    d.out.poison(0xFF);
    const wavefit::tuning_result t = c.tune(ported, s.get());
    INFO("tuned: " << (t.ok ? "" : t.message) << " chose " << config_text(t.chosen) << " of " << t.candidates
                   << " candidates");
    REQUIRE(t.ok);
    s.wait();
    CHECK(c.allowed(t.chosen) == "");
    const std::vector<float> after_tuning = d.out.to_host();
    CHECK(bit_differences(after_tuning, original_outputs(c, d, 1, s)) == "");

    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    for (const std::uint32_t seed : {2u, 3u}) {
        launch_config used{dims{0}, dims{0}};
        check_wavefit_launch(c, d, ported, seed, s, "use", &used);
        CHECK(used == t.chosen);
    }

    // A size without a record: WAVEFIT_TUNING=tune measures it on the first launch, with these inputs.
    contract_case other = make(d, other_size);
    wavefit::set_tuning_mode(wavefit::tuning_mode::tune);
    check_wavefit_launch(other, d, other.work.replacing(other.original), 4, s, "tune in place");
    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    check_wavefit_launch(other, d, other.work.replacing(other.original), 5, s, "use after tuning in place");
}

template <class... Params, class... Args>
void bind_launches(contract_case& c, void (*kernel)(Params...), Args... args) {
    const launch_config original = c.original;
    c.raw = [kernel, original, args...](gpu::stream_t s) {
        GPU_RAW_LAUNCH(kernel, dim3(static_cast<unsigned>(original.grid.x)), dim3(static_cast<unsigned>(original.block.x)),
                       static_cast<std::size_t>(original.dynamic_shared), s, args...);
    };
    c.launch = [kernel, args...](const wavefit::work& w, gpu::stream_t s) {
        return wavefit::try_launch(kernel, w, s, args...);
    };
    c.tune = [kernel, args...](const wavefit::work& w, gpu::stream_t s) { return wavefit::tune(kernel, w, s, args...); };
}

std::string block_rule(const launch_config& c, std::uint64_t multiple_of, std::uint64_t at_most, bool powers_of_two) {
    const std::uint64_t b = c.block.volume();
    if (c.block.y != 1 || c.block.z != 1) return "a 2-D block " + config_text(c);
    if (b % multiple_of != 0) return "block " + std::to_string(b) + " is not a multiple of " + std::to_string(multiple_of);
    if (b > at_most) return "block " + std::to_string(b) + " is above " + std::to_string(at_most);
    if (powers_of_two && !power_of_two(b)) return "block " + std::to_string(b) + " is not a power of two";
    return {};
}

std::uint64_t wave() { return wavefit::current_device_limits().wave_size; }

}  // namespace

TEST_CASE("a guarded elementwise kernel gives the original's bits planned, tuned and in use", "[contract][results]") {
    const std::uint64_t big = (std::uint64_t{1} << 24) + 3, small = 200003;
    check_contract(
        [](device_data& d, std::uint64_t n) {
            contract_case c;
            c.name = "contract_guarded_map over " + std::to_string(n);
            c.inputs = c.outputs = n;
            c.original = launch_config{dims{(n + 255) / 256}, dims{256}};
            c.work = wavefit::work::elements(n);
            c.allowed = [n](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() * cfg.block.volume() < n)
                    return "covers " + std::to_string(cfg.grid.volume() * cfg.block.volume()) + " of " + std::to_string(n) +
                           " elements in one pass";
                return block_rule(cfg, 1, 1024, true);
            };
            bind_launches(c, contract_guarded_map, static_cast<const float*>(d.x.data()), d.out.data(),
                          static_cast<unsigned>(n));
            return c;
        },
        big, small, big, big);
}

TEST_CASE("a grid-stride elementwise kernel gives the original's bits with any grid the tuner picks",
          "[contract][results]") {
    const std::uint64_t big = (std::uint64_t{1} << 24) + 3, small = 200003;
    check_contract(
        [](device_data& d, std::uint64_t n) {
            contract_case c;
            c.name = "contract_strided_map over " + std::to_string(n);
            c.inputs = c.outputs = n;
            c.original = launch_config{dims{1024}, dims{256}};
            c.work = wavefit::work::elements(n).kernel_loops();
            c.allowed = [](const launch_config& cfg) -> std::string { return block_rule(cfg, 1, 1024, true); };
            bind_launches(c, contract_strided_map, static_cast<const float*>(d.x.data()), d.out.data(), n);
            return c;
        },
        big, small, big, big);
}

TEST_CASE("a kernel with a row per 32-thread group gives the original's bits planned, tuned and in use",
          "[contract][results]") {
    constexpr int cols = group_row_length;
    check_contract(
        [](device_data& d, std::uint64_t rows) {
            contract_case c;
            c.name = "contract_row_sum_per_32, " + std::to_string(rows) + " rows of " + std::to_string(cols);
            c.inputs = rows * cols;
            c.outputs = rows;
            c.original = launch_config{dims{(rows * 32 + 511) / 512}, dims{512}};
            c.work = wavefit::work::per_group(rows, 32, cols);
            c.allowed = [rows](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() * (cfg.block.volume() / 32) < rows) return "covers fewer groups than rows in one pass";
                return block_rule(cfg, 32, 1024, true);
            };
            bind_launches(c, contract_row_sum_per_32, static_cast<const float*>(d.x.data()), d.out.data(),
                          static_cast<int>(rows), cols);
            return c;
        },
        16384, 1001, std::uint64_t{16384} * cols, 16384);
}

TEST_CASE("a kernel with a row per wave gives the original's bits planned, tuned and in use", "[contract][results]") {
    constexpr int cols = group_row_length;
    check_contract(
        [](device_data& d, std::uint64_t rows) {
            const std::uint64_t w = wave();
            contract_case c;
            c.name = "contract_row_sum_per_wave, " + std::to_string(rows) + " rows of " + std::to_string(cols);
            c.inputs = rows * cols;
            c.outputs = rows;
            c.original = launch_config{dims{(rows * w + 255) / 256}, dims{256}};
            c.work = wavefit::work::per_wave(rows, cols);
            c.allowed = [rows, w](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() * (cfg.block.volume() / w) < rows) return "covers fewer waves than rows in one pass";
                return block_rule(cfg, w, 1024, true);
            };
            bind_launches(c, contract_row_sum_per_wave, static_cast<const float*>(d.x.data()), d.out.data(),
                          static_cast<int>(rows), cols);
            return c;
        },
        16384, 1001, std::uint64_t{16384} * cols, 16384);
}

TEST_CASE("a kernel with a row per block gives the original's bits planned, tuned and in use", "[contract][results]") {
    constexpr int cols = block_row_length;
    check_contract(
        [](device_data& d, std::uint64_t rows) {
            contract_case c;
            c.name = "contract_row_max_per_block, " + std::to_string(rows) + " rows of " + std::to_string(cols);
            c.inputs = rows * cols;
            c.outputs = rows;
            c.original = launch_config{dims{rows}, dims{1024}};
            c.work = wavefit::work::per_block(rows, cols);
            c.allowed = [rows](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() < rows) return "fewer blocks than rows in one pass";
                return block_rule(cfg, 32, 1024, true);
            };
            bind_launches(c, contract_row_max_per_block, static_cast<const float*>(d.x.data()), d.out.data(), cols);
            return c;
        },
        8192, 300, std::uint64_t{8192} * cols, 8192);
}

TEST_CASE("a row reduction through a shared array of 256 keeps its blocks at most 256, powers of two",
          "[contract][results]") {
    constexpr int cols = block_row_length;
    check_contract(
        [](device_data& d, std::uint64_t rows) {
            contract_case c;
            c.name = "contract_row_sum_shared_256, " + std::to_string(rows) + " rows of " + std::to_string(cols);
            c.inputs = rows * cols;
            c.outputs = rows;
            c.original = launch_config{dims{rows}, dims{contract_shared_capacity}};
            c.work = wavefit::work::per_block(rows, cols).block_at_most(contract_shared_capacity);
            c.allowed = [rows](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() < rows) return "fewer blocks than rows in one pass";
                return block_rule(cfg, 1, contract_shared_capacity, true);
            };
            bind_launches(c, contract_row_sum_shared_256, static_cast<const float*>(d.x.data()), d.out.data(), cols);
            return c;
        },
        8192, 300, std::uint64_t{8192} * cols, 8192);
}

TEST_CASE("a reduction with a fixed shared array of 256 keeps exactly its block and one partial per tile",
          "[contract][results]") {
    check_contract(
        [](device_data& d, std::uint64_t n) {
            const std::uint64_t tiles = (n + contract_tile - 1) / contract_tile;
            contract_case c;
            c.name = "contract_tile_sum_fixed_256 over " + std::to_string(n);
            c.inputs = n;
            c.outputs = tiles;
            c.original = launch_config{dims{tiles}, dims{contract_tile}};
            c.work = wavefit::work::per_block(tiles, contract_tile).block_fixed(dims{contract_tile});
            // More blocks than tiles would write past the partials: the guard region would show it.
            c.allowed = [tiles](const launch_config& cfg) -> std::string {
                if (cfg.grid.volume() != tiles)
                    return "grid " + std::to_string(cfg.grid.volume()) + " for " + std::to_string(tiles) + " tiles";
                return cfg.block == dims{contract_tile} ? std::string() : "block " + config_text(cfg) + " is not 256";
            };
            bind_launches(c, contract_tile_sum_fixed_256, static_cast<const float*>(d.x.data()), d.out.data(),
                          static_cast<unsigned>(n));
            return c;
        },
        (std::uint64_t{1} << 24) + 77, 100003, (std::uint64_t{1} << 24) + 77, ((std::uint64_t{1} << 24) + 77 + 255) / 256);
}

TEST_CASE("a looping reduction with a fixed shared array keeps its block whatever grid the tuner picks",
          "[contract][results]") {
    check_contract(
        [](device_data& d, std::uint64_t n) {
            const std::uint64_t tiles = (n + contract_tile - 1) / contract_tile;
            contract_case c;
            c.name = "contract_tile_sum_fixed_256_loop over " + std::to_string(n);
            c.inputs = n;
            c.outputs = tiles;
            c.original = launch_config{dims{264}, dims{contract_tile}};
            c.work = wavefit::work::per_block(tiles, contract_tile).block_fixed(dims{contract_tile}).kernel_loops();
            c.allowed = [](const launch_config& cfg) -> std::string {
                return cfg.block == dims{contract_tile} ? std::string() : "block " + config_text(cfg) + " is not 256";
            };
            bind_launches(c, contract_tile_sum_fixed_256_loop, static_cast<const float*>(d.x.data()), d.out.data(), n);
            return c;
        },
        (std::uint64_t{1} << 24) + 77, 100003, (std::uint64_t{1} << 24) + 77, ((std::uint64_t{1} << 24) + 77 + 255) / 256);
}

TEST_CASE("a tuning record made under one contract is never used under another", "[contract][tuning]") {
    REQUIRE_GPU();
    const tuning_mode_guard mode;
    gpu::stream s;
    // A size of its own (another size class than the other specs'), so no other spec's record fits it.
    const std::uint64_t n = (std::uint64_t{1} << 25) + 5;
    gpu::buffer<float> x(n), out(n);
    x.from_host(small_integers(n, 9));
    const auto launch = [&](const wavefit::work& w) {
        const wavefit::launch_result r = wavefit::try_launch(
            contract_guarded_map, w, s.get(), static_cast<const float*>(x.data()), out.data(), static_cast<unsigned>(n));
        INFO(gpu_test::status_name(r.status) << " " << r.message);
        REQUIRE(r.ok());
        return r.config;
    };

    // Only block 64 is allowed here, so the record says 64.
    const wavefit::work fixed_64 = wavefit::work::elements(n).block_fixed(dims{64});
    const wavefit::tuning_result t = wavefit::tune(
        contract_guarded_map, fixed_64, s.get(), static_cast<const float*>(x.data()), out.data(), static_cast<unsigned>(n));
    INFO("tuned under block_fixed(64): " << t.message << " chose " << config_text(t.chosen));
    REQUIRE(t.ok);
    REQUIRE(t.chosen.block == dims{64});

    wavefit::set_tuning_mode(wavefit::tuning_mode::use);
    SECTION("the same contract uses it") { CHECK(launch(fixed_64) == t.chosen); }
    SECTION("another fixed block never gets the record's block") {
        CHECK(launch(wavefit::work::elements(n).block_fixed(dims{128})).block == dims{128});
    }
    SECTION("the default contract plans as if there were no record") {
        const launch_config planned = wavefit::plan(contract_guarded_map, wavefit::work::elements(n)).config();
        CHECK(planned.block != dims{64});
        CHECK(launch(wavefit::work::elements(n)) == planned);
    }
    SECTION("a record made for a kernel that loops is not used by a one-pass launch") {
        const wavefit::work loops = wavefit::work::elements(n).kernel_loops();
        const wavefit::tuning_result l =
            wavefit::tune(contract_strided_map, loops, s.get(), static_cast<const float*>(x.data()), out.data(), n);
        INFO("tuned the looping kernel: " << l.message << " chose " << config_text(l.chosen));
        REQUIRE(l.ok);
        const wavefit::launch_result one_pass = wavefit::try_launch(
            contract_strided_map, wavefit::work::elements(n), s.get(), static_cast<const float*>(x.data()), out.data(), n);
        REQUIRE(one_pass.ok());
        CHECK(one_pass.config == wavefit::plan(contract_strided_map, wavefit::work::elements(n)).config());
        CHECK(one_pass.config.grid.volume() * one_pass.config.block.volume() >= n);
    }
}
