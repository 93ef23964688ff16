// SPDX-License-Identifier: MIT
// A downstream program: it only includes the umbrella header and links wavefit::wavefit. Built by
// the packaging tests through find_package, add_subdirectory and FetchContent.
#include <wavefit/wavefit.hpp>

#include <cstdio>

// The planning core must stay usable in constant expressions for downstream code too.
static_assert(wavefit::presets::find("mi300x")->wave_size == 64, "preset lookup is constexpr");

int main() {
    // A kernel that loops over 2^33 elements gets a grid clamped to AMD's 2^32-1 work-items.
    const wavefit::launch_plan p = wavefit::plan(wavefit::presets::by_name("mi300x"), wavefit::kernel_resources{},
                                                 wavefit::work::elements(std::uint64_t{1} << 33).kernel_loops());
    std::printf("wavefit %s: block %llu grid %llu grid_stride %d\n", WAVEFIT_VERSION_STRING,
                static_cast<unsigned long long>(p.block.x), static_cast<unsigned long long>(p.grid.x), p.grid_stride ? 1 : 0);
    return p.ok() && p.grid_stride ? 0 : 1;
}
