// SPDX-License-Identifier: MIT
// Specification of how wavefit spells its enums (detail/enum_names.hpp): each enumerator reads as the
// CLI and the JSON write it (docs/cli.md), and a value beyond the last enumerator (a byte cast from bad
// input) reads as "unknown" rather than as some other enumerator's name. The names sit in tables in
// enumerator order, so a moved or renamed enumerator fails here; a new one needs its row in the
// table, here, and a new past-the-end count (no compiler warns of a missing row, as one did of a
// switch's missing case).
#include <catch2/catch.hpp>

#include <wavefit/detail/json_reader.hpp>
#include <wavefit/detail/planning.hpp>
#include <wavefit/diagnostic.hpp>
#include <wavefit/device_limits.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/runtime/launch_error.hpp>
#include <wavefit/tuning_mode.hpp>
#include <wavefit/work_names.hpp>

#include <cstddef>
#include <string_view>

namespace {

// One enumerator of any of the enums: how it reads, and the name the CLI and JSON give it.
struct spelling {
    std::string_view reads;
    std::string_view expected;
    std::size_t value;
};

template <class Enum>
spelling enumerator(Enum value, std::string_view expected) {
    return {to_string(value), expected, static_cast<std::size_t>(value)};
}

// How the value one past an enum's last enumerator reads.
template <class Enum>
std::string_view past_the_end(std::size_t enumerators) {
    return to_string(static_cast<Enum>(enumerators));
}

using rule = wavefit::launch_plan::block_rule;
using clamp = wavefit::launch_plan::grid_clamp;
using limiter = wavefit::occupancy_report::limiter;
using status = wavefit::launch_status;
using vendor = wavefit::device_limits::vendor_kind;
using mode = wavefit::tuning_mode;
using kind = wavefit::work::work_kind;
using coverage = wavefit::work::coverage;
using policy = wavefit::grid_policy;
using json_type = wavefit::detail::json_type;
using severity = wavefit::severity;

}  // namespace

TEST_CASE("enum names: every enumerator reads as the CLI and the JSON write it") {
    const spelling rows[] = {
        enumerator(rule::best_occupancy, "best_occupancy"),
        enumerator(rule::best_occupancy_below_min, "best_occupancy_below_min"),
        enumerator(rule::spread_small_work, "spread_small_work"),
        enumerator(rule::kernel_bound_below_wave, "kernel_bound_below_wave"),
        enumerator(rule::tuned, "tuned"),
        enumerator(rule::fixed_by_contract, "fixed_by_contract"),
        enumerator(rule::long_units, "long_units"),
        enumerator(rule::few_units, "few_units"),
        enumerator(rule::baseline, "baseline"),
        enumerator(clamp::none, "none"),
        enumerator(clamp::device_grid_limit, "device_grid_limit"),
        enumerator(clamp::dispatch_work_item_limit, "dispatch_work_item_limit"),
        enumerator(clamp::saturated, "saturated"),
        enumerator(clamp::coarsened, "coarsened"),
        enumerator(clamp::saturated_short_units, "saturated_short_units"),
        enumerator(limiter::waves, "waves"),
        enumerator(limiter::blocks, "blocks"),
        enumerator(limiter::registers, "registers"),
        enumerator(limiter::scalar_registers, "scalar_registers"),
        enumerator(limiter::shared_memory, "shared_memory"),
        enumerator(limiter::block_size, "block_size"),
        enumerator(status::not_attempted, "not_attempted"),
        enumerator(status::launched, "launched"),
        enumerator(status::nothing_to_launch, "nothing_to_launch"),
        enumerator(status::rejected, "rejected"),
        enumerator(status::runtime_failed, "runtime_failed"),
        enumerator(vendor::amd, "amd"),
        enumerator(vendor::nvidia, "nvidia"),
        enumerator(severity::error, "error"),
        enumerator(severity::warning, "warning"),
        enumerator(mode::off, "off"),
        enumerator(mode::use, "use"),
        enumerator(mode::tune, "tune"),
        enumerator(kind::elements, "elements"),
        enumerator(kind::extent, "extent"),
        enumerator(kind::per_block, "per_block"),
        enumerator(kind::per_wave, "per_wave"),
        enumerator(coverage::one_pass, "one_pass"),
        enumerator(coverage::kernel_loops, "kernel_loops"),
        enumerator(policy::cover, "cover"),
        enumerator(policy::saturate, "saturate"),
        enumerator(policy::coarsen, "coarsen"),
        // A JSON value's type reads as a message's noun ("expected a number, got a string").
        enumerator(json_type::null, "null"),
        enumerator(json_type::boolean, "a boolean"),
        enumerator(json_type::number, "a number"),
        enumerator(json_type::string, "a string"),
        enumerator(json_type::array, "an array"),
        enumerator(json_type::object, "an object"),
    };
    for (const spelling& row : rows) {
        INFO("the enumerator of value " << row.value << " should read \"" << row.expected << "\"");
        CHECK(row.reads == row.expected);
    }
}

TEST_CASE("enum names: a value past the last enumerator reads as no enumerator's name") {
    CHECK(past_the_end<rule>(9) == "unknown");
    CHECK(past_the_end<clamp>(6) == "unknown");
    CHECK(past_the_end<limiter>(6) == "unknown");
    CHECK(past_the_end<status>(5) == "unknown");
    CHECK(past_the_end<vendor>(2) == "unknown");
    CHECK(past_the_end<severity>(2) == "unknown");
    CHECK(past_the_end<mode>(3) == "unknown");
    CHECK(past_the_end<kind>(4) == "unknown");
    CHECK(past_the_end<coverage>(2) == "unknown");
    CHECK(past_the_end<policy>(3) == "unknown");
    CHECK(past_the_end<json_type>(6) == "a value");
}
