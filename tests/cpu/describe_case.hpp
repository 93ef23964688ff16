// SPDX-License-Identifier: MIT
// A device's limits and a kernel's resources as one line each, for the failure messages of the
// randomized specifications (test_properties.cpp) and of fuzz/fuzz_check_plan.cpp: their devices are
// drawn, not presets, so a failure has to print every field to be reproduced. No test framework here,
// since the fuzz target includes this too.
#pragma once

#include <wavefit/device_limits.hpp>
#include <wavefit/kernel_resources.hpp>

#include <sstream>
#include <string>

namespace spec {

inline std::string describe_device(const wavefit::device_limits& d) {
    std::ostringstream s;
    s << wavefit::to_string(d.vendor) << " wave " << d.wave_size << ", max threads " << d.max_threads_per_block
      << ", max block (" << d.max_block.x << ", " << d.max_block.y << ", " << d.max_block.z << "), max grid ("
      << d.max_grid.x << ", " << d.max_grid.y << ", " << d.max_grid.z << "), work-item cap "
      << d.max_work_items_per_dimension << ", CUs " << d.compute_units << ", simds " << d.simds_per_cu << " x "
      << d.max_waves_per_simd << " waves, block slots " << d.max_blocks_per_cu << ", shared " << d.shared_per_block << "/"
      << d.shared_per_block_optin << "/" << d.shared_per_cu << " reserved " << d.shared_reserved_per_block << " unit "
      << d.shared_allocation_unit << ", registers " << d.registers_per_simd_lane << " per lane, granule "
      << d.register_granule << ", max/thread " << d.max_registers_per_thread << ", max/block " << d.max_registers_per_block
      << ", SGPRs " << d.scalar_registers_per_simd;
    return s.str();
}

inline std::string describe_kernel(const wavefit::kernel_resources& k) {
    std::ostringstream s;
    s << "registers " << k.registers << ", sgprs " << k.scalar_registers << ", static shared " << k.static_shared
      << ", bound " << k.max_threads_per_block;
    return s.str();
}

}  // namespace spec
