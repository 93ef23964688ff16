// SPDX-License-Identifier: MIT
// What one entry of wavefit's knowledge base holds: a runtime status (a hipError_t and its
// cudaError_t twin), a runtime log line without a code, or a wavefit diagnostic code, with what it
// means and the causes that produce it, each with its fix. The entries themselves are data
// (detail/explanation_table.hpp); the lookup is explain.hpp. Every text views static storage.
#pragma once

#include "config.hpp"

#include <cstddef>      // std::size_t: entry counts and indices
#include <string_view>  // std::string_view: every text is a view of a string literal in static storage

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The `code` of entries that are not HIP error codes (wavefit diagnostics, pasted log lines).
inline constexpr int no_error_code = -1;

// The most cause/fix pairs one entry holds.
inline constexpr std::size_t max_explanation_causes = 8;

enum class explanation_kind : unsigned char {
    runtime_error,  // a hipError_t value (and its cudaError_t twin)
    log_line,       // a line the runtime prints without an error code of its own
    diagnostic,     // one of wavefit's stable diagnostic codes (docs/cli.md)
};

// One explained error. All views point into static storage and never dangle.
struct error_explanation {
    explanation_kind kind = explanation_kind::runtime_error;
    std::string_view name{};          // hipError* name, diagnostic code, or the log line's text
    int code = no_error_code;         // HIP numeric code; no_error_code for diagnostics and log lines
    std::string_view alias{};         // deprecated HIP name with the same number, empty if none
    std::string_view cuda_name{};     // matching cudaError* name, empty if none
    int cuda_code = no_error_code;    // its CUDA number (driver_types.h), no_error_code if none
    std::string_view message{};       // hipGetErrorString text (current ROCm) or the runtime's log line; may be empty
    std::string_view cuda_message{};  // cudaGetErrorString text, empty if none
    std::string_view meaning{};       // one or two sentences
    std::string_view on_amd{};        // which runtime error / behaviour this becomes on AMD (may be empty)
    std::string_view on_nvidia{};     // the same on NVIDIA (may be empty)
    std::string_view source{};        // the public documents or code the entry's numbers and texts come from
    // causes[i] pairs with fixes[i], i < cause_count; the rest are empty.
    std::size_t cause_count = 0;
    std::string_view causes[max_explanation_causes]{};
    std::string_view fixes[max_explanation_causes]{};

    constexpr std::string_view cause(std::size_t i) const noexcept {
        // The second bound is redundant for table entries but lets compilers prove the access safe.
        return i < cause_count && i < max_explanation_causes ? causes[i] : std::string_view{};
    }
    constexpr std::string_view fix(std::size_t i) const noexcept {
        return i < cause_count && i < max_explanation_causes ? fixes[i] : std::string_view{};
    }
};

// A read-only view of the whole table, usable in a range-for.
class explanation_list {
public:
    constexpr explanation_list(const error_explanation* first, std::size_t count) noexcept : first_(first), count_(count) {}
    constexpr const error_explanation* begin() const noexcept { return first_; }
    constexpr const error_explanation* end() const noexcept { return first_ + count_; }
    constexpr const error_explanation* data() const noexcept { return first_; }
    constexpr std::size_t size() const noexcept { return count_; }
    constexpr bool empty() const noexcept { return count_ == 0; }
    constexpr const error_explanation& operator[](std::size_t i) const noexcept { return first_[i]; }

private:
    const error_explanation* first_;
    std::size_t count_;
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
