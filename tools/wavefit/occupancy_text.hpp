// SPDX-License-Identifier: MIT
// Occupancy in words and rows, shared by `plan`, `occupancy` and `inspect` so that all print the
// same numbers alike.
#pragma once

#include <algorithm>  // std::min
#include <cmath>      // std::lround
#include <cstdint>    // counts
#include <optional>   // one block size or the range
#include <string>     // text
#include <vector>     // block sizes

#include <wavefit/occupancy.hpp>
#include <wavefit/validate.hpp>

#include "json_writer.hpp"

namespace wavefit::cli {

// "94%": rounded to whole percent, as plan_reason() rounds.
inline std::string percent_text(double ratio) {
    return std::to_string(static_cast<std::uint64_t>(std::lround(ratio * 100.0))) + "%";
}

// "100% (32 of 32 waves per CU, 8 blocks per CU, limited by waves)".
inline std::string occupancy_summary(const device_limits& d, const occupancy_report& o) {
    return percent_text(o.occupancy) + " (" + std::to_string(o.active_waves_per_cu) + " of " +
           std::to_string(o.max_waves_per_cu) + " " + std::string(d.wave_word()) + "s per " + std::string(d.cu_word()) +
           ", " + std::to_string(o.active_blocks_per_cu) + " block" + (o.active_blocks_per_cu == 1 ? "" : "s") + " per " +
           std::string(d.cu_word()) + ", limited by " + std::string(to_string(o.limited_by)) + ")";
}

// The rows `occupancy` prints: one wave to the smaller of the device's and the kernel's maximum, in
// steps of one wave; a kernel bound below one wave is a single row at the bound, since no whole wave
// can run. `only`: that block size alone.
inline std::vector<std::uint64_t> occupancy_block_sizes(const device_limits& d, const kernel_resources& k,
                                                        std::optional<std::uint64_t> only = std::nullopt) {
    if (only) return {*only};
    const std::uint64_t bound = std::min<std::uint64_t>(d.max_threads_per_block, detail::kernel_max_threads(d, k));
    if (bound < d.wave_size || d.wave_size == 0) return {bound};  // wave 0: a broken device must not loop forever
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size) sizes.push_back(b);
    return sizes;
}

// One row as `occupancy --json` writes it (docs/cli.md).
// The four residency fields every occupancy object of the JSON output has (plan, occupancy rows, audit).
inline void write_occupancy_fields(json_writer& json, const occupancy_report& o) {
    json.key("active_blocks_per_cu").value(o.active_blocks_per_cu);
    json.key("active_waves_per_cu").value(o.active_waves_per_cu);
    json.key("occupancy").value(o.occupancy);
    json.key("limiter").value(to_string(o.limited_by));
}

// `runtime_api_blocks`: for a block above the kernel's own maximum, what the runtime's occupancy API
// would report (it ignores the bound; the launch fails); 0 leaves the field out.
inline void write_occupancy_row(json_writer& json, const occupancy_report& o, std::uint32_t runtime_api_blocks = 0) {
    json.begin_object();
    json.key("block").value(o.block_threads);
    write_occupancy_fields(json, o);
    if (runtime_api_blocks != 0) json.key("runtime_api_active_blocks_per_cu").value(runtime_api_blocks);
    json.end_object();
}

}  // namespace wavefit::cli
