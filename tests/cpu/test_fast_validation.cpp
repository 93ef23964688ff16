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

namespace {

// cuda_occupancy.h's shared memory test in exact arithmetic: the allocation, reservation included and
// rounded up to the unit, against opt-in + reservation rounded down. A size of 2^64 - 1 stands for a
// saturated sum and fits nothing.
bool fits_by_rounding(const wavefit::detail::shared_fit_limits& s, std::uint64_t total) {
    using u128 = wavefit::detail::u128;
    if (total > s.optin || total == wavefit::detail::u64_max) return false;
    if (s.unit <= 1) return true;
    const u128 u = s.unit;
    const u128 need = (u128{total} + s.reserved + u - 1) / u;
    const u128 have = (u128{s.optin} + s.reserved) / u;
    return need <= have;
}

}  // namespace

TEST_CASE("the shared memory room of a block is exactly the sizes the allocation rounding lets through",
          "[validate][fast][shared]") {
    // The launch path compares static + dynamic shared memory with shared_room() instead of rounding
    // the allocation at every launch: every size below the room must fit, the room itself must not.
    constexpr std::uint64_t max = wavefit::detail::u64_max;
    const std::uint64_t optins[] = {0, 1, 127, 128, 1023, 49152, 65536, 232448, 233472, max / 2, max - 1025, max - 1, max};
    const std::uint64_t units[] = {0, 1, 2, 3, 128, 256, 1024, 4096, max / 3, max};
    const std::uint64_t reserved[] = {0, 1, 2, 127, 1024, 1025, 4095, max / 2, max - 1, max};
    std::size_t rooms = 0, empty = 0;
    for (const std::uint64_t optin : optins) {
        for (const std::uint64_t unit : units) {
            for (const std::uint64_t r : reserved) {
                const wavefit::detail::shared_fit_limits s{optin, unit, r};
                const std::uint64_t room = wavefit::detail::shared_room(s);
                CAPTURE(optin, unit, r, room);
                // The sizes around the room and around every bound the rule has (opt-in, the unit, 2^64).
                for (const std::uint64_t base : {std::uint64_t{0}, room, optin, unit, max}) {
                    for (std::uint64_t delta = 0; delta <= 4; ++delta) {
                        for (const std::uint64_t total : {base - delta, base + delta}) {
                            CAPTURE(total);
                            REQUIRE(wavefit::detail::shared_fits_one_block(s, total) == fits_by_rounding(s, total));
                        }
                    }
                }
                (room == 0 ? empty : rooms) += 1;
            }
        }
    }
    // Both kinds of limits occur: ones where some block fits and ones where none does.
    CHECK(rooms > 100);
    CHECK(empty > 10);
    // H200 (228 KiB opt-in, 1 KiB reserved, 128-byte units): 232448 bytes fit, one more does not.
    const wavefit::detail::shared_fit_limits h200{232448, 128, 1024};
    CHECK(wavefit::detail::shared_room(h200) == 232449);
}
