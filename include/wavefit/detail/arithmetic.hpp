// SPDX-License-Identifier: MIT
// Saturating 64-bit arithmetic for launch sizes: every size in wavefit is computed in 64 bits and
// clamps at the top instead of wrapping, so a product like grid x block can never silently shrink.
#pragma once

#include "../config.hpp"

#include <cstdint>  // std::uint64_t
#include <limits>   // std::numeric_limits

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

inline constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

// Products of two 64-bit sizes are exact in 128 bits where the compiler has them (GCC, clang: one
// multiply on the launch path instead of a division); elsewhere a division decides.
#if defined(__SIZEOF_INT128__)
__extension__ using u128 = unsigned __int128;
#define WAVEFIT_HAS_U128 1
#endif

constexpr std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) noexcept {
#if defined(WAVEFIT_HAS_U128)
    const u128 p = static_cast<u128>(a) * b;
    return p > u64_max ? u64_max : static_cast<std::uint64_t>(p);
#else
    if (a == 0 || b == 0) return 0;
    return a > u64_max / b ? u64_max : a * b;
#endif
}

// Whether a x b > limit, exactly: a saturated product cannot tell "2^64-1" from "more than that", so a
// limit of 2^64-1 would let any overflowing product through. Never compare a saturating_mul result
// with a limit that may be 2^64-1; use this instead (found by fuzz/fuzz_check_plan).
constexpr bool product_exceeds(std::uint64_t a, std::uint64_t b, std::uint64_t limit) noexcept {
#if defined(WAVEFIT_HAS_U128)
    return static_cast<u128>(a) * b > limit;
#else
    return a != 0 && b > limit / a;
#endif
}

constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
    return a > u64_max - b ? u64_max : a + b;
}

// ceil(a / b); b == 0 yields 0 so that a missing limit never divides by zero.
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept {
    return b == 0 ? 0 : a / b + (a % b != 0 ? 1 : 0);
}

// Smallest multiple of `unit` that is >= a (saturating); unit 0 or 1 returns a.
constexpr std::uint64_t align_up(std::uint64_t a, std::uint64_t unit) noexcept {
    if (unit <= 1) return a;
    const std::uint64_t rem = (unit & (unit - 1)) == 0 ? a & (unit - 1) : a % unit;
    return rem == 0 ? a : saturating_add(a, unit - rem);
}

// A power-of-two unit (a wave) needs no division: the launch path aligns blocks to waves.
constexpr std::uint64_t align_down(std::uint64_t a, std::uint64_t unit) noexcept {
    if (unit <= 1) return a;
    if ((unit & (unit - 1)) == 0) return a & ~(unit - 1);
    return a - a % unit;
}

constexpr std::uint64_t min_u64(std::uint64_t a, std::uint64_t b) noexcept { return a < b ? a : b; }
constexpr std::uint64_t max_u64(std::uint64_t a, std::uint64_t b) noexcept { return a > b ? a : b; }

// Narrow to 32 bits, clamping: counts of blocks or waves per CU are small, but they come out of
// 64-bit divisions whose inputs may be arbitrary.
constexpr std::uint32_t clamp_to_u32(std::uint64_t v) noexcept {
    return v > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(v);
}

// Tuned choices are kept per power-of-two size class: floor(log2(size)), 0 for sizes 0 and 1. A
// choice measured at 2^28 elements serves 2^28 to 2^29-1.
// Computed on every planned launch while tuning is on (launch keys, tuning records), so it is one
// instruction where the compiler has the builtin (constexpr in GCC and clang).
constexpr std::uint32_t size_bucket(std::uint64_t size) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return size <= 1 ? 0 : 63u - static_cast<std::uint32_t>(__builtin_clzll(size));
#else
    std::uint32_t b = 0;
    while (size > 1) {
        size >>= 1;
        ++b;
    }
    return b;
#endif
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
