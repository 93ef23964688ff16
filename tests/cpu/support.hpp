// SPDX-License-Identifier: MIT
// What the CPU specifications share: text and number helpers, kernels described by one resource,
// and the check harness, which runs check() and holds every result to the contract (the same
// findings as find_problems, valid exactly when no error and when is_launchable says so, every
// message naming the device, every fix carrying a number), so that each spec only states its case.
#pragma once

#include <catch2/catch.hpp>

#include <wavefit/diagnostic.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/launch_config.hpp>
#include <wavefit/validate.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace spec {

inline constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

inline bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

inline bool has_digit(std::string_view s) {
    for (char c : s)
        if (c >= '0' && c <= '9') return true;
    return false;
}

inline wavefit::kernel_resources with_registers(std::uint32_t registers) {
    wavefit::kernel_resources k{};
    k.registers = registers;
    return k;
}

inline wavefit::kernel_resources with_static_shared(std::uint64_t bytes) {
    wavefit::kernel_resources k{};
    k.static_shared = bytes;
    return k;
}

inline wavefit::kernel_resources with_bound(std::uint32_t max_threads) {
    wavefit::kernel_resources k{};
    k.max_threads_per_block = max_threads;
    return k;
}

inline wavefit::launch_config cfg(wavefit::dims grid, wavefit::dims block, std::uint64_t dynamic = 0) {
    return wavefit::launch_config{grid, block, dynamic};
}

// No diagnostic is an error (warnings allowed).
inline bool no_error(const std::vector<wavefit::diagnostic>& diagnostics) {
    for (const wavefit::diagnostic& dg : diagnostics)
        if (dg.severity == wavefit::severity::error) return false;
    return true;
}

// check()'s result for one launch, with every diagnostic as text for failure messages.
struct checked_launch {
    std::vector<wavefit::diagnostic> diagnostics;
    bool valid = false;
    std::string text;
};

inline checked_launch check_launch(const wavefit::device_limits& d, const wavefit::kernel_resources& k,
                                   const wavefit::launch_config& c) {
    checked_launch o;
    o.diagnostics = wavefit::check(d, k, c);
    o.valid = no_error(o.diagnostics);
    const wavefit::detail::findings f = wavefit::detail::find_problems(d, k, c);
    for (const wavefit::diagnostic& dg : o.diagnostics)
        o.text += std::string(wavefit::to_string(dg.code)) + " (" + std::string(wavefit::to_string(dg.severity)) +
                  "): " + dg.message + " | fix: " + dg.fix + "\n";
    INFO("device " << wavefit::to_string(d) << ", grid (" << c.grid.x << ", " << c.grid.y << ", " << c.grid.z << "), block ("
                   << c.block.x << ", " << c.block.y << ", " << c.block.z << "), dynamic shared " << c.dynamic_shared << "\n"
                   << o.text);
    REQUIRE(o.diagnostics.size() == f.size());
    REQUIRE(o.valid == !f.has_error());
    REQUIRE(o.valid == wavefit::detail::is_launchable(d, k, c));
    for (const wavefit::diagnostic& dg : o.diagnostics) {
        REQUIRE(dg.severity == wavefit::detail::severity_of(dg.code));
        REQUIRE(contains(dg.message, wavefit::to_string(d)));
        REQUIRE_FALSE(dg.fix.empty());
        REQUIRE(has_digit(dg.fix));
    }
    return o;
}

inline const wavefit::diagnostic* find_code(const checked_launch& o, wavefit::diagnostic_code code) {
    for (const wavefit::diagnostic& dg : o.diagnostics)
        if (dg.code == code) return &dg;
    return nullptr;
}

inline void require_absent(const checked_launch& o, wavefit::diagnostic_code code) {
    INFO("diagnostics:\n" << o.text);
    CAPTURE(wavefit::to_string(code));
    REQUIRE(find_code(o, code) == nullptr);
}

// Requires `code` and that its message contains every string of `in_message` and its fix every
// string of `in_fix`.
inline const wavefit::diagnostic& require_present(const checked_launch& o, wavefit::diagnostic_code code,
                                                  std::initializer_list<std::string> in_message,
                                                  std::initializer_list<std::string> in_fix = {}) {
    INFO("diagnostics:\n" << o.text);
    CAPTURE(wavefit::to_string(code));
    const wavefit::diagnostic* dg = find_code(o, code);
    REQUIRE(dg != nullptr);
    for (const std::string& s : in_message) {
        CAPTURE(s);
        CHECK(contains(dg->message, s));
    }
    for (const std::string& s : in_fix) {
        CAPTURE(s);
        CHECK(contains(dg->fix, s));
    }
    return *dg;
}

// The launch is rejected: not valid, and `code` is present as an error with these texts.
inline const wavefit::diagnostic& require_rejected(const checked_launch& o, wavefit::diagnostic_code code,
                                                   std::initializer_list<std::string> in_message,
                                                   std::initializer_list<std::string> in_fix = {}) {
    INFO("diagnostics:\n" << o.text);
    REQUIRE_FALSE(o.valid);
    const wavefit::diagnostic& dg = require_present(o, code, in_message, in_fix);
    REQUIRE(dg.severity == wavefit::severity::error);
    return dg;
}

}  // namespace spec
