// SPDX-License-Identifier: MIT
// Test driver: prints what wavefit::analysis::read_kernels_from_file sees, so the Python test can compare it
// with llvm-readobj and with the core's occupancy. One JSON object per kernel per line:
//   {"target":..., "target_id":..., "name":..., "symbol":..., "vgpr_count":N, ..., "code_object_offset":N,
//    "occupancy":[{"block":N,"active_blocks_per_cu":N,"active_waves_per_cu":N,"limiter":str}...]}
// occupancy rows (block sizes of one wave up to the kernel's bound) use presets::find(target).
// Exit 0 after printing; exit 1 with the error's one line on stderr when the file is rejected;
// exit 2 on usage errors. `--quiet` reads without printing (the corruption test only needs the
// verdict).
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "analysis/code_object.hpp"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

namespace {

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string field(const char* key, std::uint64_t v) { return std::string(",\"") + key + "\":" + std::to_string(v); }

void print_kernel(const wavefit::analysis::code_object_kernel& k) {
    std::string line = "{\"target\":" + json_string(k.target) + ",\"target_id\":" + json_string(k.target_id) +
                       ",\"name\":" + json_string(k.name) + ",\"symbol\":" + json_string(k.symbol);
    line += field("vgpr_count", k.vgpr_count) + field("agpr_count", k.agpr_count) + field("sgpr_count", k.sgpr_count);
    line += field("vgpr_spill_count", k.vgpr_spill_count) + field("sgpr_spill_count", k.sgpr_spill_count);
    line += field("wavefront_size", k.wavefront_size) + field("max_flat_workgroup_size", k.max_flat_workgroup_size);
    line += field("group_segment_fixed_size", k.group_segment_fixed_size);
    line += field("private_segment_fixed_size", k.private_segment_fixed_size);
    line += std::string(",\"uses_dynamic_stack\":") + (k.uses_dynamic_stack ? "true" : "false");
    line += field("code_object_offset", k.code_object_offset);
    line += ",\"occupancy\":[";
    if (const wavefit::device_limits* d = wavefit::presets::find(k.target)) {
        const wavefit::kernel_resources r = k.resources();
        const std::uint64_t bound = r.max_threads_per_block == 0 ? d->max_threads_per_block : r.max_threads_per_block;
        bool first = true;
        for (std::uint64_t block = d->wave_size; block <= bound && block <= d->max_threads_per_block;
             block += d->wave_size) {
            const wavefit::occupancy_report o = wavefit::occupancy(*d, r, block);
            line += first ? "" : ",";
            first = false;
            line += "{\"block\":" + std::to_string(block) + field("active_blocks_per_cu", o.active_blocks_per_cu) +
                    field("active_waves_per_cu", o.active_waves_per_cu) +
                    ",\"limiter\":" + json_string(wavefit::to_string(o.limited_by)) + "}";
        }
    }
    line += "]}";
    std::puts(line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    bool quiet = false;
    std::string path;
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--quiet") {
            quiet = true;
        } else {
            path = argv[i];
            ++files;
        }
    }
    if (files != 1) {
        std::fputs("usage: dump_kernels [--quiet] FILE\n", stderr);
        return 2;
    }
    try {
        const auto kernels = wavefit::analysis::read_kernels_from_file(path);
        if (!quiet)
            for (const auto& k : kernels) print_kernel(k);
        return 0;
    } catch (const wavefit::analysis::code_object_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
