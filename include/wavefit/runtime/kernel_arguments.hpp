// SPDX-License-Identifier: MIT
// Kernel arguments checked at compile time and packed for hip/cudaLaunchKernel. The checks are
// stricter than hipLaunchKernelGGL's on purpose: a pointer to another type, or a 64-bit size
// narrowed into a 32-bit parameter (the silent wrap behind several "sizes over 2^31" bugs,
// e.g. ROCm/rocm-libraries#9441), does not compile; an explicit cast says it is intended.
#pragma once

#include <cstddef>      // std::size_t, std::nullptr_t
#include <tuple>        // the converted argument values
#include <type_traits>  // the checks
#include <utility>      // std::index_sequence, std::forward

namespace wavefit::detail {

template <class Param, class Arg>
struct argument_rules {
    using param = std::remove_cv_t<std::remove_reference_t<Param>>;
    using arg = std::decay_t<Arg>;

    static constexpr bool convertible = std::is_convertible_v<Arg, param>;

    // A pointer parameter takes a pointer to the same type (adding const/volatile is fine) or nullptr.
    static constexpr bool pointer_matches = [] {
        if constexpr (!std::is_pointer_v<param> || std::is_same_v<arg, std::nullptr_t>) {
            return true;
        } else if constexpr (std::is_pointer_v<arg>) {
            return std::is_same_v<std::remove_cv_t<std::remove_pointer_t<arg>>,
                                  std::remove_cv_t<std::remove_pointer_t<param>>> &&
                   std::is_convertible_v<arg, param>;
        } else {
            return false;
        }
    }();

    // An integer parameter must not be narrower than the integer passed to it, and a floating
    // value must not be truncated into an integer.
    static constexpr bool integer_kept = [] {
        if constexpr (std::is_integral_v<param> && std::is_integral_v<arg>) {
            return sizeof(arg) <= sizeof(param) || std::is_same_v<arg, bool>;
        } else if constexpr (std::is_integral_v<param> && std::is_floating_point_v<arg>) {
            return false;
        } else {
            return true;
        }
    }();
};

template <class Param, class Arg>
constexpr bool check_argument() {
    using rules = argument_rules<Param, Arg>;
    static_assert(rules::convertible,
                  "wavefit::launch: an argument cannot be converted to the kernel's parameter type "
                  "(the instantiation trace names the parameter and argument types)");
    static_assert(rules::pointer_matches,
                  "wavefit::launch: a pointer argument points to a different type than the kernel's parameter; "
                  "cast it explicitly if that is intended");
    static_assert(rules::integer_kept,
                  "wavefit::launch: an integer argument is wider than the kernel's parameter (or a floating value "
                  "would be truncated): sizes above 2^31 would silently wrap; cast explicitly if that is intended");
    return rules::convertible && rules::pointer_matches && rules::integer_kept;
}

// The kernel's parameters as values, converted from the call's arguments, plus the array of
// addresses hip/cudaLaunchKernel reads them from.
template <class... Params>
class packed_arguments {
public:
    template <class... Args>
    explicit packed_arguments(Args&&... args) : values_(static_cast<stored<Params>>(std::forward<Args>(args))...) {
        static_assert(sizeof...(Params) == sizeof...(Args),
                      "wavefit::launch: the number of arguments differs from the kernel's parameter count");
        static_assert((check_argument<Params, Args>() && ...), "wavefit::launch: argument check failed");
        fill(std::index_sequence_for<Params...>{});
    }
    packed_arguments(const packed_arguments&) = delete;  // addresses_ points into values_
    packed_arguments& operator=(const packed_arguments&) = delete;

    void** addresses() noexcept { return sizeof...(Params) == 0 ? nullptr : addresses_; }

private:
    template <class T>
    using stored = std::remove_cv_t<std::remove_reference_t<T>>;

    template <std::size_t... I>
    void fill(std::index_sequence<I...>) noexcept {
        ((addresses_[I] = static_cast<void*>(&std::get<I>(values_))), ...);
    }

    std::tuple<stored<Params>...> values_;
    void* addresses_[sizeof...(Params) == 0 ? 1 : sizeof...(Params)]{};
};

}  // namespace wavefit::detail
