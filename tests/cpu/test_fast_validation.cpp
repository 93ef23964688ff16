// SPDX-License-Identifier: MIT
// detail::has_launch_errors() is the launch path's cheap verdict; find_problems() is the full one. They must
// never disagree: a launch wavefit lets through must have no error, and one it stops must have one.
#include <catch2/catch.hpp>

#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include <cstdint>
#include <random>

namespace {

std::uint64_t pick(std::mt19937_64& rng, std::initializer_list<std::uint64_t> values) {
    std::uniform_int_distribution<std::size_t> i(0, values.size() - 1);
    return *(values.begin() + static_cast<std::ptrdiff_t>(i(rng)));
}

}  // namespace

TEST_CASE("the fast launch verdict equals find_problems' on every preset and random configurations", "[validate][fast]") {
    const std::uint64_t seed = 20261202;
    std::mt19937_64 rng(seed);
    INFO("seed " << seed);
    std::size_t errors = 0, clean = 0;
    for (const auto& preset : wavefit::presets::all) {
        const wavefit::device_limits& d = preset.limits;
        for (int i = 0; i < 20000; ++i) {
            wavefit::kernel_resources k{};
            k.registers = static_cast<std::uint32_t>(pick(rng, {0, 1, 32, 64, 96, 128, 168, 255, 256, 300, 512, 513}));
            k.scalar_registers = static_cast<std::uint32_t>(pick(rng, {0, 16, 100, 112, 400, 800, 801}));
            k.static_shared = pick(rng, {0, 1024, 40000, 49152, 65536, 65537, 163840, 232448});
            k.max_threads_per_block = static_cast<std::uint32_t>(pick(rng, {0, 64, 128, 256, 257, 1024, 2048}));
            const wavefit::dims grid{pick(rng, {0, 1, 7, 65535, 65536, 4194303, 4194304, 16777216, 2147483647, 2147483648u}),
                                     pick(rng, {0, 1, 2, 65535, 65536, 65537}), pick(rng, {1, 1, 3, 65536, 65537})};
            const wavefit::dims block{pick(rng, {0, 1, 31, 32, 64, 100, 256, 1000, 1024, 1025}), pick(rng, {1, 1, 2, 4, 65}),
                                      pick(rng, {1, 1, 1, 64, 65})};
            const wavefit::launch_config cfg{grid, block, pick(rng, {0, 1, 8192, 49152, 65536, 100000, 232448, 232449})};
            const bool full = wavefit::detail::find_problems(d, k, cfg).has_error();
            const bool fast = wavefit::detail::has_launch_errors(d, k, cfg);
            const bool cached = wavefit::detail::has_launch_errors(d, k, cfg, wavefit::detail::register_bound_threads(d, k));
            if (full != fast || full != cached) {
                CAPTURE(preset.key, k.registers, k.scalar_registers, k.static_shared, k.max_threads_per_block, grid.x,
                        grid.y, grid.z, block.x, block.y, block.z, cfg.dynamic_shared, full, fast, cached);
                REQUIRE(full == fast);
                REQUIRE(full == cached);
            }
            (full ? errors : clean) += 1;
        }
    }
    // Both verdicts must actually occur, or the comparison proves nothing.
    CHECK(errors > 1000);
    CHECK(clean > 1000);
}
