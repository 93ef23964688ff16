// Occupancy in words, shared by `plan` and `occupancy` so that both print the same numbers alike.
#pragma once

#include <cstdint>  // counts
#include <string>   // text

#include <wavefit/occupancy.hpp>

namespace wavefit::cli {

// "94%": rounded to whole percent, as plan_reason() rounds.
inline std::string percent_text(double ratio) {
    return std::to_string(static_cast<std::uint64_t>(ratio * 100.0 + 0.5)) + "%";
}

// "100% (32 of 32 waves per CU, 8 blocks per CU, limited by waves)".
inline std::string occupancy_summary(const device_limits& d, const occupancy_report& o) {
    return percent_text(o.occupancy) + " (" + std::to_string(o.active_waves_per_cu) + " of " + std::to_string(o.max_waves_per_cu) +
           " " + std::string(d.wave_word()) + "s per " + std::string(d.cu_word()) + ", " +
           std::to_string(o.active_blocks_per_cu) + " block" + (o.active_blocks_per_cu == 1 ? "" : "s") + " per " +
           std::string(d.cu_word()) + ", limited by " + std::string(to_string(o.limited_by)) + ")";
}

}  // namespace wavefit::cli
