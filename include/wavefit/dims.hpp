// SPDX-License-Identifier: MIT
// A 3-D size in 64 bits: grids, blocks and extents. Kept wider than dim3 on purpose so that user
// sizes (2^33 elements, say) are carried intact until validation decides whether they fit.
#pragma once

#include <cstdint>  // std::uint64_t

#include "detail/arithmetic.hpp"

namespace wavefit {

struct dims {
    std::uint64_t x = 1;
    std::uint64_t y = 1;
    std::uint64_t z = 1;

    constexpr dims() noexcept = default;
    constexpr dims(std::uint64_t x_, std::uint64_t y_ = 1, std::uint64_t z_ = 1) noexcept : x(x_), y(y_), z(z_) {}

    // Product of the three, saturating at 2^64-1 instead of wrapping.
    constexpr std::uint64_t volume() const noexcept { return detail::saturating_mul(detail::saturating_mul(x, y), z); }
    constexpr std::uint64_t operator[](int axis) const noexcept { return axis == 0 ? x : axis == 1 ? y : z; }
    constexpr bool has_zero() const noexcept { return x == 0 || y == 0 || z == 0; }

    friend constexpr bool operator==(const dims& a, const dims& b) noexcept {
        return a.x == b.x && a.y == b.y && a.z == b.z;
    }
    friend constexpr bool operator!=(const dims& a, const dims& b) noexcept { return !(a == b); }
};

// "x", "y" or "z", for messages.
constexpr const char* axis_name(int axis) noexcept { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

}  // namespace wavefit
