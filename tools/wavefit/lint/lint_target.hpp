// SPDX-License-Identifier: MIT
// The AMD target a lint run checks against (--target): its wave size and LDS come from the project's
// presets (one fact, one place), and the parser is told which ISA to compile the device side for, so
// that `#if defined(__GFX9__)` and __AMDGCN_WAVEFRONT_SIZE read as the real compiler reads them.
#pragma once

#include <cstdint>      // sizes
#include <string>       // names
#include <string_view>  // the flag's value
#include <utility>      // std::pair
#include <vector>       // parser flags

namespace wavefit::cli::lint {

struct lint_target {
    std::string arch;         // the ISA: gfx90a, gfx942, gfx950, gfx1100
    std::string device_name;  // the preset's device, for messages: "MI300X (gfx942)"
    std::uint32_t wave_size = 64;
    std::uint64_t lds_per_block = 0;            // bytes a block may use
    std::uint64_t max_threads_per_block = 1024;
    std::uint64_t max_grid_y = 65535;            // the portable limit: min(HIP's 65536, CUDA's 65535)
    std::uint64_t max_work_items_per_dimension = 0;
    std::uint64_t compute_units = 0;
    std::vector<std::string> parser_flags;       // --offload-arch and the ISA's predefined macros
    // Macros the device compiler predefines for this ISA, with their values, for the checks that evaluate
    // macros themselves (clang's predefined macros have no definition in any file).
    std::vector<std::pair<std::string, std::string>> predefined;

    // The wave size a hard-coded warp width is wrong against: 32 on wave64 targets, 64 on wave32.
    std::uint32_t foreign_warp_size() const noexcept { return wave_size == 64 ? 32 : 64; }
};

// `--target` as typed: gfx90a, gfx942, gfx950, gfx1100 (target features after ':' are ignored), or an
// AMD preset name (mi300x, mi250x, ...). Throws usage_error for anything else, naming what is accepted.
lint_target resolve_lint_target(std::string_view name);

inline constexpr std::string_view default_lint_target = "gfx942";

}  // namespace wavefit::cli::lint
