// SPDX-License-Identifier: MIT
// `wavefit audit FILE`: where a profiler trace's GPU time goes, kernel by kernel, and what is wrong
// with each launch (docs/cli.md, "wavefit audit").
#include <algorithm>  // std::min
#include <cmath>      // std::lround
#include <string>     // output
#include <vector>     // rows

#include <wavefit/device_attributes.hpp>
#include <wavefit/presets.hpp>

#include "analysis/trace_audit.hpp"

#include "commands.hpp"
#include "demangle.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "occupancy_text.hpp"
#include "table.hpp"
#include "terminal_text.hpp"
#include "trace_reader.hpp"

namespace wavefit::cli {

using analysis::audit_finding;
using analysis::audit_kernel;
using analysis::kernel_audit;
using analysis::kernel_group;
using analysis::trace_dispatch;
using analysis::work_items_of;

namespace {

std::string normalized(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c >= 'A' && c <= 'Z')
            out.push_back(static_cast<char>(c - 'A' + 'a'));
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out.push_back(c);
    }
    return out;
}

// The preset a trace's device name ("NVIDIA H200", "AMD Instinct MI300X") or ISA ("gfx942") names:
// the longest preset key inside the name, else the ISA's representative preset.
std::string preset_for_trace(const trace_contents& t) {
    const std::string name = normalized(t.device_name);
    std::string best;
    for (const presets::detail::preset& p : presets::all)
        if (!name.empty() && name.find(p.key) != std::string::npos && p.key.size() > best.size()) best = std::string(p.key);
    if (!best.empty()) return best;
    if (!t.device_arch.empty()) {
        if (const device_limits* d = presets::find(t.device_arch))
            if (const presets::detail::preset* p = presets::detail::preset_of(*d)) return std::string(p->key);
    }
    return {};
}

std::string time_text(std::uint64_t ns) {
    char buffer[32];
    if (ns >= 1000000000ull)
        (void)std::snprintf(buffer, sizeof buffer, "%.2f s", static_cast<double>(ns) / 1e9);
    else if (ns >= 1000000ull)
        (void)std::snprintf(buffer, sizeof buffer, "%.2f ms", static_cast<double>(ns) / 1e6);
    else if (ns >= 1000ull)
        (void)std::snprintf(buffer, sizeof buffer, "%.1f us", static_cast<double>(ns) / 1e3);
    else
        (void)std::snprintf(buffer, sizeof buffer, "%llu ns", static_cast<unsigned long long>(ns));
    return buffer;
}

std::string dims_short(const dims& d) {
    std::string s = std::to_string(d.x);
    if (d.y != 1 || d.z != 1) s += "x" + std::to_string(d.y);
    if (d.z != 1) s += "x" + std::to_string(d.z);
    return s;
}

std::string registers_text(const device_limits& d, const kernel_group& g, const kernel_audit& a) {
    const trace_dispatch& t = g.launch;
    if (!t.arch_vgpr && !t.accum_vgpr && !t.registers) return "-";
    std::string s = std::to_string(a.resources.registers);
    if (t.accum_vgpr && *t.accum_vgpr > 0)
        s += " (" + std::to_string(t.arch_vgpr.value_or(0)) + "+" + std::to_string(*t.accum_vgpr) +
             (detail::has_unified_vector_registers(d.arch.view()) ? "a" : "") + ")";
    return s;
}

// Names in a table cell: the demangled name cut to its function, at most 60 characters.
std::string cell_name(const std::string& demangled) {
    std::string s = demangled;
    if (s.size() > 60) {
        s.resize(57);
        s += "...";
    }
    return one_line(s);
}

struct audited {
    kernel_group group;
    kernel_audit audit;
    std::string demangled;
};

void write_dims(json_writer& json, const dims& d) { json.begin_array().value(d.x).value(d.y).value(d.z).end_array(); }

}  // namespace

command_output run(const audit_request& r) {
    trace_contents trace = read_trace_file(r.file);
    device_choice choice;
    std::string key = r.preset ? *r.preset : preset_for_trace(trace);
    if (key.empty()) {
        std::string said;
        if (!trace.device_name.empty() || !trace.device_arch.empty())
            said = " (it names \"" + one_line(trace.device_name.empty() ? trace.device_arch : trace.device_name) +
                   "\", which no preset models)";
        throw usage_error(r.file + ": the " + std::string(to_string(trace.format)) +
                          " trace does not say which GPU it ran on" + said + "; give --preset NAME (one of " +
                          preset_names() + ")");
    }
    choice.preset = key;
    const selected_device device = select_device(choice);
    const device_limits& d = device.limits;

    std::vector<kernel_group> groups = trace.kernels.sorted();
    const std::size_t shown =
        r.top == 0 ? groups.size() : static_cast<std::size_t>(std::min<std::uint64_t>(r.top, groups.size()));
    groups.resize(shown);
    std::vector<std::string> names;
    names.reserve(groups.size());
    for (const kernel_group& g : groups) names.push_back(g.launch.name);
    const std::vector<std::string> demangled = demangle_names(names);
    std::vector<audited> rows;
    for (std::size_t i = 0; i < groups.size(); ++i)
        rows.push_back({groups[i], audit_kernel(d, groups[i]), demangled[i]});
    const std::uint64_t total = trace.kernels.total_ns();
    const auto fraction = [total](const kernel_group& g) {
        return total == 0 ? 0.0 : static_cast<double>(g.total_ns) / static_cast<double>(total);
    };
    const std::string trace_device = trace.device_name.empty() ? trace.device_arch : trace.device_name;
    // Without times (a pmc_perf.csv alone) the time columns say "-" and kernels rank by dispatch count
    // (kernel_grouping::sorted ranks by time, then dispatches: all times are 0 then).
    const auto time_cell = [&trace](const std::string& text) { return trace.timed ? text : std::string("-"); };

    if (r.json) {
        json_writer json;
        json.begin_object().key("source").begin_object();
        json.key("format").value(to_string(trace.format));
        json.key("device").text_or_null(trace_device);
        json.key("preset").value(device.preset);
        json.key("dispatches").value(trace.kernels.dispatches());
        json.key("kernel_time_ns").value(total);
        json.end_object();
        json.key("summary").begin_object();
        json.key("kernels").value(static_cast<std::uint64_t>(trace.kernels.groups().size()));
        json.key("shown").value(static_cast<std::uint64_t>(rows.size()));
        json.key("skipped_rows").value(trace.skipped_rows);
        // Beyond the contract: whether the times are known, and where they came from.
        json.key("timed").value(trace.timed);
        json.key("ranked_by").value(trace.timed ? "gpu_time" : "dispatches");
        json.key("times_from").text_or_null(trace.times_from);
        json.key("untimed_dispatches").value(trace.untimed_dispatches);
        json.end_object();
        json.key("kernels").begin_array();
        for (const audited& row : rows) {
            const kernel_group& g = row.group;
            const kernel_audit& a = row.audit;
            json.begin_object();
            json.key("name").value(g.launch.name);
            json.key("demangled").value(row.demangled);
            json.key("dispatches").value(g.dispatches);
            json.key("total_ns").value(g.total_ns);
            json.key("mean_ns").value(g.mean_ns());
            json.key("time_fraction").value(fraction(g));
            json.key("grid");
            write_dims(json, g.launch.grid);
            json.key("block");
            write_dims(json, g.launch.block);
            json.key("work_items");
            write_dims(json, work_items_of(g.launch.grid, g.launch.block));
            json.key("registers").value(a.resources.registers);
            json.key("arch_vgpr").value_or_null(g.launch.arch_vgpr);
            json.key("accum_vgpr").value_or_null(g.launch.accum_vgpr);
            json.key("sgprs").value_or_null(g.launch.sgprs);
            json.key("shared").value(g.launch.shared);
            json.key("scratch").value(g.launch.scratch);
            json.key("occupancy").begin_object();
            write_occupancy_fields(json, a.occupancy);
            json.end_object();
            // Beyond the contract's fields: the grid-capped estimate, the trace's own, each resource's limit, the hint.
            json.key("estimated_achieved_occupancy").value(a.estimated_achieved);
            json.key("trace_occupancy").value_or_null(g.trace_occupancy());
            json.key("occupancy_limits").begin_object();
            const auto limit = [&json](const char* k, std::uint32_t v) {
                json.key(k);
                if (v == detail::block_limits::unlimited)
                    json.null();
                else
                    json.value(v);
            };
            limit("waves", a.occupancy.limits.waves);
            limit("blocks", a.occupancy.limits.blocks);
            limit("registers", a.occupancy.limits.registers);
            limit("scalar_registers", a.occupancy.limits.scalar_registers);
            limit("shared_memory", a.occupancy.limits.shared_memory);
            json.end_object();
            json.key("hint").text_or_null(a.hint.text);
            json.key("findings").begin_array();
            for (const audit_finding& f : a.findings) {
                json.begin_object();
                json.key("code").value(f.code);
                json.key("severity").value(f.severity);
                json.key("message").value(f.message);
                json.key("fix").value(f.fix);
                json.end_object();
            }
            json.end_array();
            json.key("recommended");
            if (a.has_recommendation) {
                json.begin_object();
                json.key("block");
                write_dims(json, a.recommended.block);
                json.key("grid");
                write_dims(json, a.recommended.grid);
                json.key("occupancy").value(a.recommended.occupancy.occupancy);
                json.end_object();
            } else {
                json.null();
            }
            json.end_object();
        }
        json.end_array().end_object();
        return {json.finish(), {}, 0};
    }

    const std::string cu(d.cu_word());
    const bool any_trace_estimate =
        std::any_of(rows.begin(), rows.end(), [](const audited& a) { return a.group.trace_occupancy().has_value(); });
    std::string header = std::string(to_string(trace.format)) + " trace " + one_line(r.file) + ": " +
                         std::to_string(trace.kernels.dispatches()) + " kernel dispatches, " +
                         (trace.timed ? time_text(total) + " of kernel time, " : std::string()) +
                         std::to_string(trace.kernels.groups().size()) + " kernels (name and launch configuration)";
    if (trace.skipped_rows > 0) header += ", " + std::to_string(trace.skipped_rows) + " rows skipped";
    header += "\ndevice: " + to_string(d) + " (" + device.label +
              (trace_device.empty() ? "" : ", trace says \"" + one_line(trace_device) + "\"") + ")\n";
    if (!trace.timed)
        header +=
            "times unknown: the trace has no timestamps and no timestamps.csv is beside it, so the share of "
            "GPU time per kernel is unknown\n";
    if (!trace.times_from.empty()) {
        header += "times joined by Dispatch_ID from " + trace.times_from + " beside the trace";
        if (trace.untimed_dispatches > 0)
            header += " (" + std::to_string(trace.untimed_dispatches) + " dispatches without a row there count 0 ns)";
        header += "\n";
    }
    header += "top " + std::to_string(rows.size()) + (trace.timed ? " by GPU time" : " by dispatch count") +
              "; occupancy = modelled (resident " + std::string(d.wave_word()) + "s / maximum)";
    // The grid-capped estimate for every format; beside the trace's own where the trace has one (Kineto).
    header += any_trace_estimate ? ", grid-capped estimate beside the trace's own"
                                 : "; est. = capped by the grid (blocks per " + cu + " the grid can supply)";
    header += "\n\n";

    if (r.markdown) {
        std::string md = "## wavefit audit: " + one_line(r.file) + "\n\n";
        md +=
            "`" + std::string(to_string(trace.format)) + "`, " + std::to_string(trace.kernels.dispatches()) +
            " dispatches, " +
            (trace.timed ? time_text(total) + " of kernel time" : std::string("times unknown (ranked by dispatch count)")) +
            ", on " + to_string(d) + ".\n\n";
        md += "| # | time | calls | mean | grid | block | regs | shared | occupancy | limiter |";
        md += any_trace_estimate ? " est. / trace |" : " est. |";
        md += " kernel |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        std::string details;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const audited& row = rows[i];
            const kernel_group& g = row.group;
            std::string name = row.demangled;
            for (char& c : name)
                if (c == '|' || c == '`') c = '\'';
            md += "| " + std::to_string(i + 1) + " | " + time_cell(percent_text(fraction(g)) + " " + time_text(g.total_ns)) +
                  " | " + std::to_string(g.dispatches) + " | " + time_cell(time_text(g.mean_ns())) + " | " +
                  dims_short(g.launch.grid) + " | " + dims_short(g.launch.block) + " | " + registers_text(d, g, row.audit) +
                  " | " + std::to_string(g.launch.shared) + " | " + percent_text(row.audit.occupancy.occupancy) + " | " +
                  std::string(to_string(row.audit.occupancy.limited_by)) + " |";
            md += " " + percent_text(row.audit.estimated_achieved);
            if (any_trace_estimate) md += " / " + (g.trace_occupancy() ? percent_text(*g.trace_occupancy()) : "-");
            md += " |";
            md += " `" + cell_name(name) + "` |\n";
            if (!row.audit.findings.empty()) {
                details += "\n**" + std::to_string(i + 1) + ". `" + cell_name(name) + "`**\n\n";
                for (const audit_finding& f : row.audit.findings)
                    details += "- **" + f.code + "** (" + f.severity + "): " + f.message + ". *Fix:* " + f.fix + "\n";
            }
        }
        md += details;
        return {md, {}, 0};
    }

    // SGPR and scratch columns only where the trace has them (AMD traces with register columns).
    const bool any_sgprs =
        std::any_of(rows.begin(), rows.end(), [](const audited& a) { return a.group.launch.sgprs.has_value(); });
    const bool any_scratch =
        std::any_of(rows.begin(), rows.end(), [](const audited& a) { return a.group.launch.scratch > 0; });
    std::vector<align> columns;
    std::vector<std::string> head;
    const auto column = [&columns, &head](const char* name, align a) {
        head.emplace_back(name);
        columns.push_back(a);
    };
    for (const char* name : {"#", "time", "total", "calls", "mean", "grid", "block", "regs"}) column(name, align::right);
    if (any_sgprs) column("sgprs", align::right);
    column("shared", align::right);
    if (any_scratch) column("scratch", align::right);
    column("occupancy", align::right);
    column("limiter", align::left);
    column(any_trace_estimate ? "est./trace" : "est.", align::right);
    column("kernel", align::left);
    text_table table(columns);
    table.add_row(head);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const audited& row = rows[i];
        const kernel_group& g = row.group;
        std::vector<std::string> cells{
            std::to_string(i + 1),        time_cell(percent_text(fraction(g))), time_cell(time_text(g.total_ns)),
            std::to_string(g.dispatches), time_cell(time_text(g.mean_ns())),    dims_short(g.launch.grid),
            dims_short(g.launch.block),   registers_text(d, g, row.audit)};
        if (any_sgprs) cells.push_back(g.launch.sgprs ? std::to_string(*g.launch.sgprs) : "-");
        cells.push_back(std::to_string(g.launch.shared));
        if (any_scratch) cells.push_back(std::to_string(g.launch.scratch));
        cells.push_back(percent_text(row.audit.occupancy.occupancy));
        cells.emplace_back(to_string(row.audit.occupancy.limited_by));
        cells.push_back(
            percent_text(row.audit.estimated_achieved) +
            (any_trace_estimate ? "/" + (g.trace_occupancy() ? percent_text(*g.trace_occupancy()) : "-") : std::string()));
        cells.push_back(cell_name(row.demangled));
        table.add_row(cells);
    }
    // The findings go under their kernel's row.
    const std::string rendered = table.render();
    std::string text = header;
    std::size_t line_start = 0;
    std::size_t line_index = 0;
    while (line_start < rendered.size()) {
        std::size_t nl = rendered.find('\n', line_start);
        if (nl == std::string::npos) nl = rendered.size();
        text += rendered.substr(line_start, nl - line_start) + "\n";
        if (line_index > 0 && line_index <= rows.size()) {
            const kernel_audit& a = rows[line_index - 1].audit;
            if (a.hint.found() && a.occupancy.occupancy < 1.0) text += "    hint: " + one_line(a.hint.text) + "\n";
            for (const audit_finding& f : a.findings) {
                text += "    " + f.severity + " " + f.code + ": " + one_line(f.message) + "\n";
                text += "      fix: " + one_line(f.fix) + "\n";
            }
        }
        line_start = nl + 1;
        ++line_index;
    }
    if (rows.size() < trace.kernels.groups().size())
        text += "(" + std::to_string(trace.kernels.groups().size() - rows.size()) + " more kernels; --top 0 shows all)\n";
    return {text, {}, 0};
}

}  // namespace wavefit::cli
