// SPDX-License-Identifier: MIT
// `wavefit occupancy`: residency per block size, with what each resource alone would allow, so
// that a user sees not only the limiter but how far the next resource is.
#include <algorithm>  // std::max

#include <wavefit/occupancy.hpp>
#include <wavefit/validate.hpp>

#include "analysis/occupancy_hint.hpp"

#include "commands.hpp"
#include "json_writer.hpp"
#include "launch_subject.hpp"
#include "occupancy_text.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

std::string blocks_text(std::uint32_t blocks) {
    return blocks == detail::block_limits::unlimited ? "-" : std::to_string(blocks);
}

// A block above the kernel's own maximum (its launch bound) cannot run: wavefit says 0 blocks. The
// runtimes' occupancy APIs (hipOccupancyMaxActiveBlocksPerMultiprocessor, and NVIDIA's too) do not
// look at the bound and report the residency the block would have without it; the launch then fails.
// This is that figure, for saying so next to wavefit's answer (0 when the block is above the device's
// own maximum too, where the runtime refuses the query).
std::uint32_t runtime_api_blocks(const device_limits& d, const kernel_resources& k, const occupancy_report& o,
                                 std::uint64_t dynamic_shared) {
    if (o.limited_by != occupancy_report::limiter::block_size || o.block_threads > d.max_threads_per_block) return 0;
    kernel_resources unbounded = k;
    unbounded.max_threads_per_block = 0;  // 0: the device's maximum
    return occupancy(d, unbounded, o.block_threads, dynamic_shared).active_blocks_per_cu;
}

}  // namespace

command_output run(const occupancy_request& r) {
    const launch_subject subject = launch_subject_for(r.device, r.kernel);
    const device_limits& d = subject.device.limits;
    std::vector<occupancy_report> rows;
    for (std::uint64_t b : occupancy_block_sizes(d, subject.resources, r.block)) {
        // The rows a kernel with this contract takes (--powers-of-two, --block-at-most); --block is shown as asked.
        if (!r.block && r.powers_of_two && (b & (b - 1)) != 0) continue;
        if (!r.block && r.at_most && b > *r.at_most) continue;
        rows.push_back(occupancy(d, subject.resources, b, r.kernel.dynamic_shared));
    }

    if (r.json) {
        json_writer json;
        json.begin_object().key("rows").begin_array();
        for (const occupancy_report& o : rows) {
            const std::uint32_t api = runtime_api_blocks(d, subject.resources, o, r.kernel.dynamic_shared);
            write_occupancy_row(json, o, api);
        }
        json.end_array();
        write_kernel_json(json, subject);
        json.end_object();
        return {json.finish(), {}, 0};
    }

    std::uint32_t best_waves = 0;
    for (const occupancy_report& o : rows) best_waves = std::max(best_waves, o.active_waves_per_cu);

    const std::string cu(d.cu_word());
    const std::string wave(d.wave_word());
    text_table table({align::right, align::right, align::right, align::right, align::left, align::right, align::right,
                      align::right, align::right, align::right, align::left});
    table.add_row({"block", "blocks/" + cu, wave + "s/" + cu, "occupancy", "limiter", "by " + wave + "s", "by blocks",
                   "by registers", "by sgprs", "by shared", ""});
    for (const occupancy_report& o : rows) {
        const detail::block_limits& l = o.limits;
        table.add_row({std::to_string(o.block_threads), std::to_string(o.active_blocks_per_cu),
                       std::to_string(o.active_waves_per_cu), percent_text(o.occupancy),
                       std::string(to_string(o.limited_by)), blocks_text(l.waves), blocks_text(l.blocks),
                       blocks_text(l.registers), blocks_text(l.scalar_registers), blocks_text(l.shared_memory),
                       best_waves > 0 && o.active_waves_per_cu == best_waves ? "*" : ""});
    }
    std::string text = kernel_text(subject) + "occupancy on " + to_string(d) + ": at most " +
                       std::to_string(d.max_waves_per_cu()) + " " + wave + "s per " + cu + "\n";
    text += table.render();
    text += "\n\"by ...\": blocks per " + cu + " each resource alone allows (- = not limiting); * = best occupancy\n";
    // Every row limited by the block's size says which maximum it exceeds: the device's (no runtime
    // launches it) or the kernel's own (the runtime's occupancy API still reports a residency there).
    for (const occupancy_report& o : rows) {
        if (o.limited_by != occupancy_report::limiter::block_size) continue;
        text += "block " + std::to_string(o.block_threads) + ": 0 blocks, because it exceeds ";
        if (o.block_threads > d.max_threads_per_block) {
            text += "the maximum of " + std::to_string(d.max_threads_per_block) + " threads per block of " + to_string(d) +
                    "; no launch of it can run there\n";
            continue;
        }
        text +=
            "this kernel's own maximum of " + std::to_string(detail::kernel_max_threads(d, subject.resources)) + " threads";
        const std::uint32_t api = runtime_api_blocks(d, subject.resources, o, r.kernel.dynamic_shared);
        if (api > 0) text += "; the runtime's occupancy API reports " + std::to_string(api) + " here, but the launch fails";
        text += "\n";
    }
    // What would gain one more wave: at --block, else at the smallest block of the best occupancy.
    std::uint64_t hint_block = 0;
    for (const occupancy_report& o : rows)
        if (o.active_waves_per_cu == best_waves && best_waves > 0) {
            hint_block = o.block_threads;
            break;
        }
    if (hint_block != 0) {
        const analysis::occupancy_hint hint =
            analysis::hint_for_more_waves(d, subject.resources, hint_block, r.kernel.dynamic_shared);
        if (hint.found()) text += "to gain a " + wave + " at block " + std::to_string(hint_block) + ": " + hint.text + "\n";
    }
    return {text, {}, 0};
}

}  // namespace wavefit::cli
