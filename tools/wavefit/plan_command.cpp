// SPDX-License-Identifier: MIT
// `wavefit plan`: the block and grid wavefit::plan chooses for the work, with the occupancy it
// reaches and why, plus the same diagnostics `check` would print for that launch.
#include <wavefit/detail/text.hpp>
#include <wavefit/plan.hpp>

#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "json_writer.hpp"
#include "launch_subject.hpp"
#include "occupancy_text.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

void write_dims(json_writer& json, const dims& v) { json.begin_array().value(v.x).value(v.y).value(v.z).end_array(); }

// The table's reason row: plan_reason without what the rows above it say (block, grid, grid-stride,
// occupancy), i.e. only the rule that chose the block and what limited the grid.
std::string reason_row(const launch_plan& p, const device_limits& d, const kernel_resources& k) {
    std::string text = wavefit::detail::block_rule_phrase(p, d);
    if (p.rule == launch_plan::block_rule::spread_small_work)
        text = "smaller than the best-occupancy block (" + std::to_string(p.occupancy_block) + ") " + text;
    if (p.rule == launch_plan::block_rule::best_occupancy_below_min)
        text += "; " + wavefit::detail::larger_blocks_phrase(p, d, k);
    if (p.empty) return text;
    bool clamped = false;
    for (int a = 0; a < 3; ++a) {
        if (p.clamps[a] == launch_plan::grid_clamp::none) continue;
        clamped = true;
        text += "; grid " + std::string(detail::axis_name(a)) + " clamped" + wavefit::detail::grid_clamp_phrase(p, d, a);
    }
    if (clamped) return text;
    return text + (p.kind == work::work_kind::per_block  ? "; one block per unit"
                   : p.kind == work::work_kind::per_wave ? "; one " + std::string(d.wave_word()) + " (or group) per unit"
                                                         : "; one thread per element");
}

// "8589934592 elements", "4096 units, one per block (rows of 768)", "extent (1024, 1024, 1)".
std::string work_text(const work& w) {
    std::string text;
    switch (w.kind) {
        case work::work_kind::elements: text = detail::plural(w.size(), "element"); break;
        case work::work_kind::extent: text = "extent " + detail::dims_text(w.extent); break;
        case work::work_kind::per_block: text = detail::plural(w.size(), "unit") + ", one per block"; break;
        case work::work_kind::per_wave:
            text = detail::plural(w.size(), "unit") + ", one per " +
                   (w.contract.group_threads != 0 ? "group of " + std::to_string(w.contract.group_threads) + " threads"
                                                  : std::string("wave"));
            break;
    }
    if (w.unit_size != 0) text += " of " + std::to_string(w.unit_size) + " elements";
    return text + (w.loops() ? " (the kernel loops)" : " (one pass)");
}

// The contract as the JSON shows it.
void write_contract(json_writer& json, const work& w) {
    json.key("work").value(std::string(to_string(w.kind)));
    json.key("kernel_loops").value(w.loops());
    json.key("powers_of_two").value(w.contract.powers_of_two);
    json.key("block_at_most").value(std::uint64_t{w.contract.max_block});
    json.key("block_fixed");
    write_dims(json, w.contract.fixed_block);
}

}  // namespace

command_output run(const plan_request& r) {
    const launch_subject subject = launch_subject_for(r.device, r.kernel);
    const device_limits& d = subject.device.limits;
    const kernel_resources& k = subject.resources;
    work w = r.work;
    w.options.dynamic_shared = r.kernel.dynamic_shared;
    const launch_plan p = plan(d, k, w);

    std::vector<diagnostic> diagnostics;
    const launch_config diagnosed = detail::problems_config(p, d, k);
    for (const detail::finding& f : p.problems) diagnostics.push_back(detail::describe(f, d, k, diagnosed));
    const bool valid = p.ok();
    const std::string reason = plan_reason(p, d, k);
    const int exit_code = valid ? 0 : 1;

    if (r.json) {
        json_writer json;
        json.begin_object();
        json.key("elements").value(p.elements);
        json.key("empty").value(p.empty);
        json.key("block");
        write_dims(json, p.block);
        json.key("grid");
        write_dims(json, p.grid);
        json.key("grid_stride").value(p.grid_stride);
        json.key("exceeds_one_pass").value(p.exceeds_one_pass);
        write_contract(json, w);
        json.key("occupancy").begin_object();
        write_occupancy_fields(json, p.occupancy);
        json.end_object();
        json.key("reason").value(reason);
        json.key("valid").value(valid);
        write_diagnostics(json, diagnostics);
        write_kernel_json(json, subject);
        json.end_object();
        return {json.finish(), {}, exit_code};
    }

    std::string text = kernel_text(subject) + "plan for " + work_text(w) + " on " + to_string(d) + "\n";
    if (p.exceeds_one_pass) {
        text += "invalid: " + reason.substr(reason.find(':') + 2) + "\n";
        return {text + diagnostics_text(diagnostics), {}, exit_code};
    }
    if (!valid) {
        text += "invalid: no block this kernel's contract allows can run on " + to_string(d) + "\n";
        // The reason repeats the first error's message; it only adds something when no error explains it.
        if (p.problems.first_error() == nullptr) text += "reason: " + reason + "\n";
        return {text + diagnostics_text(diagnostics), {}, exit_code};
    }
    text_table table({align::left, align::left});
    table.add_row({"block", detail::dims_text(p.block)});
    table.add_row({"grid", p.empty ? detail::dims_text(p.grid) + " (nothing to launch)" : detail::dims_text(p.grid)});
    table.add_row({"grid-stride", p.grid_stride ? "yes (the kernel must loop over the work)" : "no"});
    table.add_row({"occupancy", occupancy_summary(d, p.occupancy)});
    table.add_row({"reason", reason_row(p, d, k)});
    return {text + table.render() + diagnostics_text(diagnostics), {}, exit_code};
}

}  // namespace wavefit::cli
