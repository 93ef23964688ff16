// SPDX-License-Identifier: MIT
// The one diagnostic type of wavefit. Detection produces `finding`s: plain numbers, no strings, no
// allocation, cheap enough for the launch hot path. Only when something is wrong is a finding
// rendered into a `diagnostic` with a message (the limit, the value, the device) and a fix.
#pragma once

#include "config.hpp"
#include "detail/enum_names.hpp"

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width values
#include <string>       // diagnostic text
#include <string_view>  // code names

WAVEFIT_BEGIN_NAMESPACE

// The one list of diagnostic codes: name and severity. Adding a line here adds the code to the enum,
// to its spellings and severities, and to diagnostic_code_count; the compiler then asks for its
// message (the switch in describe(), validate.hpp), and a static_assert (tools/analysis/explain.hpp)
// for its entry in the explanation table (tools/analysis/explanation_table.hpp, in the CLI's analysis
// library). The spellings are stable: they are part of the CLI's JSON (docs/cli.md).
#define WAVEFIT_DIAGNOSTIC_CODES(X)            \
    X(zero_dimension, error)                   \
    X(block_exceeds_device_max_threads, error) \
    X(block_dim_exceeds_device_limit, error)   \
    X(block_exceeds_kernel_max_threads, error) \
    X(registers_exceed_limit, error)           \
    X(shared_memory_exceeds_limit, error)      \
    X(shared_memory_requires_opt_in, warning)  \
    X(grid_dim_exceeds_device_limit, error)    \
    X(work_items_exceed_dispatch_limit, error) \
    X(block_not_wave_multiple, warning)        \
    X(grid_underfills_device, warning)         \
    X(negative_size, error)                    \
    X(contract_allows_no_block, error)

enum class diagnostic_code : std::uint8_t {
#define WAVEFIT_DIAGNOSTIC_ENUMERATOR(name, level) name,
    WAVEFIT_DIAGNOSTIC_CODES(WAVEFIT_DIAGNOSTIC_ENUMERATOR)
#undef WAVEFIT_DIAGNOSTIC_ENUMERATOR
};

enum class severity : std::uint8_t { error, warning };

constexpr std::string_view to_string(severity s) noexcept {
    constexpr std::string_view names[] = {"error", "warning"};
    return detail::enum_name(names, s);
}

namespace detail {
struct code_info {
    diagnostic_code code;
    std::string_view name;
    wavefit::severity severity;
};
inline constexpr code_info code_table[] = {
#define WAVEFIT_DIAGNOSTIC_INFO(name, level) {diagnostic_code::name, #name, severity::level},
    WAVEFIT_DIAGNOSTIC_CODES(WAVEFIT_DIAGNOSTIC_INFO)
#undef WAVEFIT_DIAGNOSTIC_INFO
};
}  // namespace detail

constexpr std::string_view to_string(diagnostic_code c) noexcept {
    for (const auto& info : detail::code_table)
        if (info.code == c) return info.name;
    return "unknown";
}

namespace detail {

inline constexpr std::size_t diagnostic_code_count = sizeof(code_table) / sizeof(code_table[0]);

constexpr severity severity_of(diagnostic_code c) noexcept {
    for (const auto& info : code_table)
        if (info.code == c) return info.severity;
    return severity::error;
}

// Parses a code's spelling; false if `name` is not one of the stable codes.
constexpr bool parse_diagnostic_code(std::string_view name, diagnostic_code& out) noexcept {
    for (const auto& info : code_table)
        if (info.name == name) {
            out = info.code;
            return true;
        }
    return false;
}

// One problem as numbers. `value` broke `limit`; `axis` names the dimension for per-dimension codes.
struct finding {
    diagnostic_code code = diagnostic_code::zero_dimension;
    int axis = -1;         // 0/1/2 for x/y/z, -1 when the finding is about the whole block
    bool in_grid = false;  // zero_dimension: whether the zero is in the grid (else the block)
    std::uint64_t value = 0;
    std::uint64_t limit = 0;
    bool scalar = false;  // registers_exceed_limit: the scalar (SGPR) budget, not the vector registers

    constexpr wavefit::severity severity() const noexcept { return severity_of(code); }
};

// A fixed-capacity list of findings: validation must not allocate on the launch path.
class findings {
public:
    static constexpr std::size_t capacity = 24;  // more than every check can report at once

    constexpr void add(const finding& f) noexcept {
        if (count_ < capacity) items_[count_++] = f;
    }
    constexpr std::size_t size() const noexcept { return count_; }
    constexpr bool empty() const noexcept { return count_ == 0; }
    constexpr const finding* begin() const noexcept { return items_; }
    constexpr const finding* end() const noexcept { return items_ + count_; }
    constexpr const finding& operator[](std::size_t i) const noexcept { return items_[i]; }

    constexpr bool has_error() const noexcept {
        for (const finding& f : *this)
            if (f.severity() == severity::error) return true;
        return false;
    }
    constexpr bool contains(diagnostic_code c) const noexcept {
        for (const finding& f : *this)
            if (f.code == c) return true;
        return false;
    }
    // The first error, or nullptr: what an exception reports first.
    constexpr const finding* first_error() const noexcept {
        for (const finding& f : *this)
            if (f.severity() == severity::error) return &f;
        return nullptr;
    }

private:
    finding items_[capacity]{};
    std::size_t count_ = 0;
};

}  // namespace detail

// A finding rendered for people: what is wrong (naming the limit, the value and the device) and
// what to change.
struct diagnostic {
    diagnostic_code code;
    wavefit::severity severity;
    std::string message;
    std::string fix;
};

WAVEFIT_END_NAMESPACE
