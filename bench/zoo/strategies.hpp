// SPDX-License-Identifier: MIT
// The launch strategies every zoo kernel is measured under. A strategy's name is the middle part of
// a benchmark's name (`triad/sweep_b256_g1x/2^28`):
//   b256, b1024      hard-coded blocks (256: the common default; 1024: BabelStream's HIP default),
//                    grid = one work item per thread
//   occupancy_api    the block cudaOccupancyMaxPotentialBlockSize / hipOccupancyMaxPotentialBlockSize
//                    suggests, grid = one work item per thread (the runtime's documented use)
//   wavefit          wavefit::launch with the work (its plan: block and grid), plan_options defaults
//   tuned            wavefit::launch with the work and WAVEFIT_TUNING=use, after wavefit::tune measured the
//                    kernel at this size in the run's tuning phase (its cost is the benchmark's tuning_ms)
//   original         external kernels only: the configuration the kernel's own benchmark launches
//   sweep_bB_gP      every wave-aligned block B with grid policy P:
//                      cover  one work item per thread
//                      1x     occupancy-saturated: active blocks per SM/CU (the runtime's answer) x SMs/CUs
//                      2x 4x  multiples of it (never more than cover)
//   runtime          the device-to-device copy (memcpy rows only)
// "Work item" is what the kernel's grid-stride loop counts: U vectors of V elements for the STREAM
// kernels, an element for the register-heavy kernel; for block-granular kernels (transpose: tiles,
// softmax: rows) "cover" is one block per unit, whatever the block size.
#pragma once

#include <cstdint>  // sizes
#include <string>   // names
#include <vector>   // lists

namespace wavefit_bench::zoo {

enum class strategy_kind : std::uint8_t {
    fixed_block,
    runtime_suggestion,
    wavefit_plan,
    wavefit_tuned,
    sweep,
    device_copy,
    original
};

struct strategy {
    std::string name;
    strategy_kind kind = strategy_kind::fixed_block;
    std::uint32_t block = 0;   // fixed_block, sweep
    std::uint32_t factor = 0;  // sweep: 0 = cover, k = k x occupancy-saturated grid
};

inline std::vector<strategy> fixed_strategies() {
    return {{"b256", strategy_kind::fixed_block, 256, 0},
            {"b1024", strategy_kind::fixed_block, 1024, 0},
            {"occupancy_api", strategy_kind::runtime_suggestion, 0, 0},
            {"wavefit", strategy_kind::wavefit_plan, 0, 0}};
}

inline const strategy& tuned_strategy() {
    static const strategy s{"tuned", strategy_kind::wavefit_tuned, 0, 0};
    return s;
}

// The external kernels: as their benchmark launches them, as wavefit plans them, tuned.
inline std::vector<strategy> external_strategies() {
    return {{"original", strategy_kind::original, 0, 0}, {"wavefit", strategy_kind::wavefit_plan, 0, 0}, tuned_strategy()};
}

inline const std::vector<std::uint32_t>& grid_factors() {
    static const std::vector<std::uint32_t> factors{0, 1, 2, 4};
    return factors;
}

inline std::string sweep_name(std::uint32_t block, std::uint32_t factor) {
    return "sweep_b" + std::to_string(block) + "_g" + (factor == 0 ? std::string("cover") : std::to_string(factor) + "x");
}

// Every grid policy at each block of `blocks` the kernel can run with.
inline std::vector<strategy> sweep_strategies(const std::vector<std::uint32_t>& blocks, int kernel_max_threads,
                                              const std::vector<std::uint32_t>& factors = grid_factors()) {
    std::vector<strategy> out;
    for (const std::uint32_t b : blocks) {
        if (static_cast<int>(b) > kernel_max_threads) continue;
        for (const std::uint32_t f : factors) out.push_back({sweep_name(b, f), strategy_kind::sweep, b, f});
    }
    return out;
}

// Every multiple of the wave size up to 1024: the full sweep (STREAM kernels at their large size).
inline std::vector<std::uint32_t> every_wave_block(int wave_size) {
    std::vector<std::uint32_t> blocks;
    const std::uint32_t step = wave_size > 0 ? static_cast<std::uint32_t>(wave_size) : 32;
    for (std::uint32_t b = step; b <= 1024; b += step) blocks.push_back(b);
    return blocks;
}

// The coarse sweep: whole waves on wave32 and wave64 alike.
inline std::vector<std::uint32_t> coarse_blocks() { return {64, 128, 192, 256, 384, 512, 768, 1024}; }

}  // namespace wavefit_bench::zoo
