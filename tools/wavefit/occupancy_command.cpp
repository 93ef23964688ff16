// `wavefit occupancy`: residency per block size, with what each resource alone would allow, so
// that a user sees not only the limiter but how far the next resource is.
#include <algorithm>  // std::max

#include <wavefit/occupancy.hpp>
#include <wavefit/validate.hpp>

#include "commands.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "occupancy_text.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

// One wave to the smaller of the device's and the kernel's maximum, in steps of one wave; a kernel
// bound below one wave is a single row at the bound, since no whole wave can run.
std::vector<std::uint64_t> block_sizes(const device_limits& d, const kernel_resources& k, std::optional<std::uint64_t> only) {
    if (only) return {*only};
    const std::uint64_t bound = std::min<std::uint64_t>(d.max_threads_per_block, kernel_max_threads(d, k));
    if (bound < d.wave_size || d.wave_size == 0) return {bound};  // wave 0: a broken device must not loop forever
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size) sizes.push_back(b);
    return sizes;
}

std::string blocks_text(std::uint32_t blocks) {
    return blocks == block_limits::unlimited ? "-" : std::to_string(blocks);
}

}  // namespace

command_output run(const occupancy_request& r) {
    const selected_device device = select_device(r.device);
    const device_limits& d = device.limits;
    std::vector<occupancy_report> rows;
    for (std::uint64_t b : block_sizes(d, r.kernel.resources, r.block))
        rows.push_back(occupancy(d, r.kernel.resources, b, r.kernel.dynamic_shared));

    if (r.json) {
        json_writer json;
        json.begin_object().key("rows").begin_array();
        for (const occupancy_report& o : rows) {
            json.begin_object();
            json.key("block").value(o.block_threads);
            json.key("active_blocks_per_cu").value(o.active_blocks_per_cu);
            json.key("active_waves_per_cu").value(o.active_waves_per_cu);
            json.key("occupancy").value(o.occupancy);
            json.key("limiter").value(to_string(o.limited_by));
            json.end_object();
        }
        json.end_array().end_object();
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
        const block_limits& l = o.limits;
        table.add_row({std::to_string(o.block_threads), std::to_string(o.active_blocks_per_cu),
                       std::to_string(o.active_waves_per_cu), percent_text(o.occupancy), std::string(to_string(o.limited_by)),
                       blocks_text(l.waves), blocks_text(l.blocks), blocks_text(l.registers),
                       blocks_text(l.scalar_registers), blocks_text(l.shared_memory),
                       best_waves > 0 && o.active_waves_per_cu == best_waves ? "*" : ""});
    }
    std::string text = "occupancy on " + device_text(d) + ": at most " + std::to_string(d.max_waves_per_cu()) + " " + wave +
                       "s per " + cu + "\n";
    text += table.render();
    text += "\n\"by ...\": blocks per " + cu + " each resource alone allows (- = not limiting); * = best occupancy\n";
    return {text, {}, 0};
}

}  // namespace wavefit::cli
