// SPDX-License-Identifier: MIT
// A 3-D size in 64 bits: grids, blocks and extents. Kept wider than dim3 on purpose so that user
// sizes (2^33 elements, say) are carried intact until validation decides whether they fit. It is
// made from any integer type (a negative one is marked, and refused before a launch) and from dim3
// (or any type with integer members x, y, z), so a `<<<grid, block>>>` port keeps its values.
#pragma once

#include <cstdint>      // std::uint64_t
#include <type_traits>  // the conversions
#include <utility>      // std::declval

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/sizes.hpp"

WAVEFIT_BEGIN_NAMESPACE

namespace detail {
template <class D, class = void>
struct has_xyz : std::false_type {};
template <class D>
struct has_xyz<D, std::void_t<decltype(std::declval<const D&>().x), decltype(std::declval<const D&>().y),
                              decltype(std::declval<const D&>().z)>>
    : std::bool_constant<is_size_type_v<decltype(std::declval<const D&>().x)>> {};
}  // namespace detail

struct dims {
    std::uint64_t x = 1;
    std::uint64_t y = 1;
    std::uint64_t z = 1;
    bool negative = false;  // made from a negative value: find_problems reports negative_size

    constexpr dims() noexcept = default;
    template <class X, class Y = std::uint64_t, class Z = std::uint64_t, detail::if_size_type<X> = 0,
              detail::if_size_type<Y> = 0, detail::if_size_type<Z> = 0>
    constexpr dims(X x_, Y y_ = 1, Z z_ = 1) noexcept {
        bool below_zero = false;
        x = detail::size_from(x_, below_zero);
        y = detail::size_from(y_, below_zero);
        z = detail::size_from(z_, below_zero);
        negative = below_zero;
    }
    // dim3, uint3 or anything with integer x, y, z.
    template <class D, std::enable_if_t<detail::has_xyz<D>::value, int> = 0>
    constexpr dims(const D& d) noexcept  // NOLINT(google-explicit-constructor): dim3 converts as it does for <<<>>>
        : dims(d.x, d.y, d.z) {}

    // Product of the three, saturating at 2^64-1 instead of wrapping.
    constexpr std::uint64_t volume() const noexcept { return detail::saturating_mul(detail::saturating_mul(x, y), z); }
    constexpr std::uint64_t operator[](int axis) const noexcept { return axis == 0 ? x : axis == 1 ? y : z; }
    constexpr bool has_zero() const noexcept { return x == 0 || y == 0 || z == 0; }

    friend constexpr bool operator==(const dims& a, const dims& b) noexcept {
        return a.x == b.x && a.y == b.y && a.z == b.z && a.negative == b.negative;
    }
    friend constexpr bool operator!=(const dims& a, const dims& b) noexcept { return !(a == b); }
};

namespace detail {
// "x", "y" or "z", for messages.
constexpr const char* axis_name(int axis) noexcept { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }
}  // namespace detail

WAVEFIT_END_NAMESPACE
