// SPDX-License-Identifier: MIT
// Kernel arguments checked at compile time and packed for hip/cudaLaunchKernel. The checks are
// stricter than hipLaunchKernelGGL's on purpose: a pointer to another type, or a 64-bit size
// narrowed into a 32-bit parameter (the silent wrap behind several "sizes over 2^31" bugs,
// e.g. ROCm/rocm-libraries#9441), does not compile; an explicit cast says it is intended. Each
// mistake gives one error, the one that names it: a failed check stops the conversion that would
// otherwise add a screen of template errors after it.
#pragma once

#include <cstddef>      // std::size_t, std::nullptr_t, NULL
#include <type_traits>  // the checks
#include <utility>      // std::index_sequence, std::forward

#include "../config.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// What passing an argument of type Arg to a parameter of type Param amounts to.
enum class argument_kind : unsigned char {
    fine,
    null_constant,     // NULL (an integer constant of NULL's type) for a pointer: nullptr, checked at run time
    const_dropped,     // a pointer to const for a pointer to non-const
    other_pointee,     // a pointer to another type
    not_a_pointer,     // something that is no pointer for a pointer parameter
    integer_narrowed,  // a wider integer for a narrower integer parameter
    float_truncated,   // a floating value for an integer parameter
    not_convertible,   // anything else the parameter's type cannot be made from
};

template <class Param, class Arg>
constexpr argument_kind classify_argument() {
    using param = std::remove_cv_t<std::remove_reference_t<Param>>;
    using arg = std::decay_t<Arg>;
    if constexpr (std::is_pointer_v<param>) {
        using pointee = std::remove_pointer_t<param>;
        if constexpr (std::is_same_v<arg, std::nullptr_t>) {
            return argument_kind::fine;
        } else if constexpr (std::is_same_v<arg, decltype(NULL)> && std::is_integral_v<arg>) {
            return argument_kind::null_constant;
        } else if constexpr (std::is_pointer_v<arg>) {
            using given = std::remove_pointer_t<arg>;
            if constexpr (!std::is_same_v<std::remove_cv_t<given>, std::remove_cv_t<pointee>>)
                return std::is_void_v<pointee> && std::is_convertible_v<arg, param> ? argument_kind::fine
                                                                                   : argument_kind::other_pointee;
            else if constexpr (!std::is_convertible_v<arg, param>)
                return argument_kind::const_dropped;
            else
                return argument_kind::fine;
        } else {
            return std::is_convertible_v<Arg, param> ? argument_kind::fine : argument_kind::not_a_pointer;
        }
    } else if constexpr (std::is_integral_v<param> && std::is_integral_v<arg>) {
        return sizeof(arg) <= sizeof(param) || std::is_same_v<arg, bool> ? argument_kind::fine
                                                                          : argument_kind::integer_narrowed;
    } else if constexpr (std::is_integral_v<param> && std::is_floating_point_v<arg>) {
        return argument_kind::float_truncated;
    } else {
        return std::is_convertible_v<Arg, param> ? argument_kind::fine : argument_kind::not_convertible;
    }
}

// One static_assert fires per wrong argument: the one that names its mistake.
template <class Param, class Arg>
constexpr bool check_argument() {
    constexpr argument_kind kind = classify_argument<Param, Arg>();
    static_assert(kind != argument_kind::const_dropped,
                  "wavefit::launch: a pointer to const is passed for a pointer parameter that is not const (the kernel "
                  "may write through it); pass a non-const pointer, or make the parameter const");
    static_assert(kind != argument_kind::other_pointee,
                  "wavefit::launch: a pointer argument points to a different type than the kernel's parameter; "
                  "cast it explicitly if that is intended");
    static_assert(kind != argument_kind::not_a_pointer,
                  "wavefit::launch: the kernel's parameter is a pointer and the argument is not (pass nullptr for none)");
    static_assert(kind != argument_kind::integer_narrowed,
                  "wavefit::launch: an integer argument is wider than the kernel's parameter: sizes above 2^31 would "
                  "silently wrap; cast explicitly if that is intended");
    static_assert(kind != argument_kind::float_truncated,
                  "wavefit::launch: a floating value is passed for an integer parameter and would be truncated; cast "
                  "explicitly if that is intended");
    static_assert(kind != argument_kind::not_convertible,
                  "wavefit::launch: an argument cannot be converted to the kernel's parameter type "
                  "(the instantiation trace names the parameter and argument types)");
    return kind == argument_kind::fine || kind == argument_kind::null_constant;
}

// One converted argument, told apart from the others of the same type by its position.
template <std::size_t I, class T>
struct argument_slot {
    T value;
};

template <std::size_t I, class T>
constexpr void* slot_address(argument_slot<I, T>& slot) noexcept {
    return static_cast<void*>(&slot.value);
}

// Every converted argument (an aggregate of slots: what std::tuple would hold, without its header in
// every launch's translation unit).
template <class Positions, class... T>
struct argument_values;
template <std::size_t... I, class... T>
struct argument_values<std::index_sequence<I...>, T...> : argument_slot<I, T>... {};

// The kernel's parameters as values, converted from the call's arguments, plus the array of
// addresses hip/cudaLaunchKernel reads them from.
template <class... Params>
class packed_arguments {
public:
    template <class... Args>
    explicit packed_arguments(Args&&... args)
        : values_{{convert<Params, Args>(std::forward<Args>(args), nonzero_null_)}...} {
        fill(std::index_sequence_for<Params...>{});
    }
    packed_arguments(const packed_arguments&) = delete;  // addresses_ points into values_
    packed_arguments& operator=(const packed_arguments&) = delete;

    void** addresses() noexcept { return sizeof...(Params) == 0 ? nullptr : addresses_; }
    // Whether an argument of NULL's type was not 0 for a pointer parameter: the launch is refused.
    bool nonzero_null() const noexcept { return nonzero_null_; }

    // Whether these argument types fit the kernel: the count first, then each argument, whose
    // static_asserts say what is wrong. Launches test this before they construct anything.
    template <class... Args>
    static constexpr bool fits() {
        static_assert(sizeof...(Params) == sizeof...(Args),
                      "wavefit::launch: the number of arguments differs from the kernel's parameter count");
        if constexpr (sizeof...(Params) != sizeof...(Args))
            return false;
        else
            return (check_argument<Params, Args>() && ...);
    }

private:
    template <class T>
    using stored = std::remove_cv_t<std::remove_reference_t<T>>;

    // Converts one argument; NULL for a pointer becomes nullptr (a non-zero value of NULL's type is
    // noted and the launch refused). Only instantiated for arguments that passed fits().
    template <class Param, class Arg>
    static stored<Param> convert(Arg&& arg, bool& nonzero_null) {
        if constexpr (classify_argument<Param, Arg>() == argument_kind::null_constant) {
            if (arg != 0) nonzero_null = true;
            return nullptr;
        } else {
            return static_cast<stored<Param>>(std::forward<Arg>(arg));
        }
    }

    template <std::size_t... I>
    void fill(std::index_sequence<I...>) noexcept {
        ((addresses_[I] = slot_address<I>(values_)), ...);
    }

    bool nonzero_null_ = false;
    argument_values<std::index_sequence_for<Params...>, stored<Params>...> values_;
    void* addresses_[sizeof...(Params) == 0 ? 1 : sizeof...(Params)]{};
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
