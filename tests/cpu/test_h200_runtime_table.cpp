// SPDX-License-Identifier: MIT
// The h200 preset against the real GPU: tests/data/h200 holds what the CUDA runtime reported on the
// test H200 (device attributes, and cudaOccupancyMaxActiveBlocksPerMultiprocessor for a zoo of our
// kernels, every block size and several dynamic shared sizes; see tests/data/h200/README.md). The
// model must reproduce every recorded row exactly.
#include <catch2/catch.hpp>

#include <wavefit/device_attributes.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cells_in(line);
        std::string cell;
        while (std::getline(cells_in, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

const std::string data_dir = std::string(WAVEFIT_TEST_DATA_DIR) + "/h200/";

std::map<std::string, std::string> recorded_attributes() {
    std::map<std::string, std::string> attributes;
    for (const auto& row : read_csv(data_dir + "h200_device.csv"))
        if (row.size() == 2 && row[0] != "attribute") attributes[row[0]] = row[1];
    return attributes;
}

int attribute_value(const std::map<std::string, std::string>& attributes, wavefit::detail::device_attribute a) {
    using wavefit::detail::device_attribute;
    const char* key = "";
    switch (a) {
        case device_attribute::warp_size: key = "warp_size"; break;
        case device_attribute::max_threads_per_block: key = "max_threads_per_block"; break;
        case device_attribute::max_block_dim_x: key = "max_block_dim_x"; break;
        case device_attribute::max_block_dim_y: key = "max_block_dim_y"; break;
        case device_attribute::max_block_dim_z: key = "max_block_dim_z"; break;
        case device_attribute::max_grid_dim_x: key = "max_grid_dim_x"; break;
        case device_attribute::max_grid_dim_y: key = "max_grid_dim_y"; break;
        case device_attribute::max_grid_dim_z: key = "max_grid_dim_z"; break;
        case device_attribute::multiprocessor_count: key = "multiprocessor_count"; break;
        case device_attribute::max_shared_memory_per_block: key = "max_shared_memory_per_block"; break;
        case device_attribute::max_shared_memory_per_block_optin: key = "max_shared_memory_per_block_optin"; break;
        case device_attribute::max_shared_memory_per_multiprocessor: key = "max_shared_memory_per_multiprocessor"; break;
        case device_attribute::reserved_shared_memory_per_block: key = "reserved_shared_memory_per_block"; break;
        case device_attribute::max_threads_per_multiprocessor: key = "max_threads_per_multiprocessor"; break;
        case device_attribute::max_blocks_per_multiprocessor: key = "max_blocks_per_multiprocessor"; break;
        case device_attribute::max_registers_per_block: key = "max_registers_per_block"; break;
        case device_attribute::max_registers_per_multiprocessor: key = "max_registers_per_multiprocessor"; break;
    }
    const auto it = attributes.find(key);
    REQUIRE(it != attributes.end());
    return std::stoi(it->second);
}

}  // namespace

TEST_CASE("the H200's recorded runtime attributes map to exactly the h200 preset", "[h200][runtime-table]") {
    const auto attributes = recorded_attributes();
    const wavefit::device_limits from_runtime = wavefit::detail::device_limits_from_attributes(
        wavefit::device_limits::vendor_kind::nvidia, attributes.at("name"), "sm_90",
        [&](wavefit::detail::device_attribute a) { return attribute_value(attributes, a); });
    const wavefit::device_limits& preset = wavefit::presets::detail::h200;

    CHECK(from_runtime.name.view() == preset.name.view());
    CHECK(from_runtime.arch.view() == preset.arch.view());
    CHECK(from_runtime.wave_size == preset.wave_size);
    CHECK(from_runtime.max_threads_per_block == preset.max_threads_per_block);
    CHECK(from_runtime.max_block == preset.max_block);
    CHECK(from_runtime.max_grid == preset.max_grid);
    CHECK(from_runtime.max_work_items_per_dimension == preset.max_work_items_per_dimension);
    CHECK(from_runtime.compute_units == preset.compute_units);
    CHECK(from_runtime.shared_per_block == preset.shared_per_block);
    CHECK(from_runtime.shared_per_block_optin == preset.shared_per_block_optin);
    CHECK(from_runtime.shared_per_cu == preset.shared_per_cu);
    CHECK(from_runtime.shared_reserved_per_block == preset.shared_reserved_per_block);
    CHECK(from_runtime.shared_allocation_unit == preset.shared_allocation_unit);
    CHECK(from_runtime.simds_per_cu == preset.simds_per_cu);
    CHECK(from_runtime.max_waves_per_simd == preset.max_waves_per_simd);
    CHECK(from_runtime.max_blocks_per_cu == preset.max_blocks_per_cu);
    CHECK(from_runtime.registers_per_simd_lane == preset.registers_per_simd_lane);
    CHECK(from_runtime.register_granule == preset.register_granule);
    CHECK(from_runtime.max_registers_per_thread == preset.max_registers_per_thread);
    CHECK(from_runtime.max_registers_per_block == preset.max_registers_per_block);
    CHECK(from_runtime.scalar_registers_per_simd == preset.scalar_registers_per_simd);
}

TEST_CASE("device_attribute_count covers exactly the attributes device_limits_from_attributes reads",
          "[h200][runtime-table]") {
    using wavefit::detail::device_attribute;
    using wavefit::detail::device_attribute_count;
    // The reader asks by value; an attribute added past the count (or a count left behind) shows here.
    std::vector<int> asked(256, 0);
    const auto record = [&](device_attribute a) {
        ++asked[static_cast<std::size_t>(a)];
        return 64;
    };
    (void)wavefit::detail::device_limits_from_attributes(wavefit::device_limits::vendor_kind::nvidia, "", "sm_90", record);
    (void)wavefit::detail::device_limits_from_attributes(wavefit::device_limits::vendor_kind::amd, "", "gfx942", record);
    for (std::size_t a = 0; a < asked.size(); ++a) {
        INFO("attribute " << a << " of " << device_attribute_count << " was read " << asked[a] << " times");
        if (a < device_attribute_count)
            CHECK(asked[a] > 0);
        else
            CHECK(asked[a] == 0);
    }
}

TEST_CASE("the h200 preset reproduces every recorded cudaOccupancyMaxActiveBlocksPerMultiprocessor row",
          "[h200][runtime-table][occupancy]") {
    const auto rows = read_csv(data_dir + "h200_occupancy.csv");
    REQUIRE(rows.size() > 1);
    REQUIRE(rows[0] == std::vector<std::string>{"kernel", "num_regs", "static_shared", "max_threads_per_block",
                                                "local_bytes", "block", "dynamic_shared", "active_blocks"});

    std::size_t compared = 0;
    std::map<std::string, int> kernels;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto& row = rows[i];
        REQUIRE(row.size() == 8);
        wavefit::kernel_resources k{};
        k.registers = static_cast<std::uint32_t>(std::stoul(row[1]));
        k.static_shared = std::stoull(row[2]);
        k.max_threads_per_block = static_cast<std::uint32_t>(std::stoul(row[3]));
        k.local_bytes_per_thread = std::stoull(row[4]);
        const std::uint64_t block = std::stoull(row[5]);
        const std::uint64_t dynamic_shared = std::stoull(row[6]);
        const std::uint32_t runtime_blocks = static_cast<std::uint32_t>(std::stoul(row[7]));

        const wavefit::occupancy_report model = wavefit::occupancy(wavefit::presets::detail::h200, k, block, dynamic_shared);
        INFO("row " << i << ": kernel " << row[0] << ", " << k.registers << " registers, static " << k.static_shared
                    << " B, bound " << k.max_threads_per_block << ", block " << block << ", dynamic " << dynamic_shared
                    << " B: runtime " << runtime_blocks << " blocks, model " << model.active_blocks_per_cu << " (limited by "
                    << wavefit::to_string(model.limited_by) << ")");
        REQUIRE(model.active_blocks_per_cu == runtime_blocks);
        ++kernels[row[0]];
        ++compared;
    }
    // The issue asks for a zoo of at least 12 kernels; the recorded table has more.
    CHECK(kernels.size() >= 12);
    CHECK(compared == rows.size() - 1);
}
