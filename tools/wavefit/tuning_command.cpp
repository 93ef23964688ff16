// SPDX-License-Identifier: MIT
// `wavefit tuning show|check|merge`: the tuning files wavefit::tune and WAVEFIT_TUNING=tune write,
// read with the library's own record parser (wavefit/tuning.hpp), so the CLI and the launch path
// accept and refuse exactly the same lines.
#include <algorithm>  // std::find, std::clamp
#include <cmath>      // std::llround, std::isfinite
#include <cerrno>     // rename failures
#include <cstdio>     // the merged file
#include <cstring>    // std::strerror
#include <string>     // text
#include <vector>     // records

#include <wavefit/detail/text.hpp>
#include <wavefit/tuning_records.hpp>

#include "commands.hpp"
#include "demangle.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "table.hpp"
#include "terminal_text.hpp"
#include "text_input.hpp"

namespace wavefit::cli {
namespace {

struct loaded_file {
    detail::tuning_database db;
    detail::tuning_database::load_report report;
    std::string name;
};

// Reads a tuning file as the commands must: unlike the runtime, which ignores what it cannot read
// (a launch must not fail over a cache), a command whose job is to read the file fails on one that
// holds no record at all (usage_error, exit 2, one line naming the first bad line); lines that are
// not records beside good ones are counted for ignored_text and make the command exit 1.
loaded_file load(const std::string& path) {
    loaded_file f;
    text_input in(path);
    in.expect_text("a tuning file (JSON lines)");
    f.name = in.name();
    std::string_view line;
    while (in.next_line(line)) {
        if (in.last_line_truncated()) {
            if (f.report.ignored++ == 0)
                f.report.first_problem = "line " + std::to_string(in.line_number()) + ": longer than 64 KiB";
            continue;
        }
        f.db.add_line(line, static_cast<std::size_t>(in.line_number()), f.report);
    }
    if (f.report.records == 0)
        throw usage_error(
            f.name + ": no tuning record" +
            (f.report.ignored == 0 ? std::string(" (the file is empty)") : ": " + one_line(f.report.first_problem)));
    return f;
}

// 1 when some lines of the files read were not records (named on stderr), else 0.
int exit_for_ignored(const loaded_file& f) { return f.report.ignored > 0 ? 1 : 0; }

// "2 line(s) ignored, the first at line 3: ..." on stderr, empty when every line was a record.
std::string ignored_text(const loaded_file& f) {
    if (f.report.ignored == 0) return {};
    return "wavefit: warning: " + one_line(f.name) + ": " + std::to_string(f.report.ignored) +
           " line(s) are not tuning records and were ignored, the first at " + one_line(f.report.first_problem) + "\n";
}

std::vector<std::string> demangled_kernels(const detail::tuning_database& db) {
    std::vector<std::string> mangled;
    for (const detail::tuning_record& r : db.records()) mangled.push_back(r.key.kernel);
    return demangle_names(mangled);
}

std::string bucket_text(std::uint32_t bucket) { return "2^" + std::to_string(bucket); }

std::string choice_text(const detail::tuned_choice& c) {
    std::string text = "block " + detail::dims_text(c.block) + ", " + std::string(to_string(c.grid));
    if (c.grid != grid_policy::cover) text += " x" + std::to_string(c.factor);
    return text;
}

// `value` with `decimals` digits after the point, rounded; a file's numbers may be anything, so the
// value is clamped to what the text can show (0 to 10^9) before it becomes an integer.
std::string fixed_text(double value, int decimals) {
    const double scale = decimals == 3 ? 1000.0 : 10.0;
    const double clamped = std::isfinite(value) ? std::clamp(value, 0.0, 1e9) : 0.0;
    const long long scaled = std::llround(clamped * scale);
    const long long unit = static_cast<long long>(scale);
    std::string fraction = std::to_string(scaled % unit);
    fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
    return std::to_string(scaled / unit) + "." + fraction;
}

std::string percent(double ratio) { return fixed_text(ratio * 100.0, 1) + "%"; }

std::string speedup_text(const detail::tuning_record& r) { return fixed_text(r.speedup(), 3) + "x"; }
// Against the configuration the launch replaced ("your configuration"); "-" when it replaced none.
std::string speedup_over_yours_text(const detail::tuning_record& r) {
    return r.has_baseline ? fixed_text(r.speedup_over_baseline(), 3) + "x" : std::string("-");
}

std::string device_heading(const detail::tuning_key& k) {
    return terminal_safe(k.device_name) + " (" + terminal_safe(k.device_arch) + ", " + std::to_string(k.compute_units) +
           " CUs/SMs), " + terminal_safe(k.runtime);
}

void write_choice(json_writer& json, const detail::tuned_choice& c) {
    json.begin_object();
    json.key("block").begin_array().value(c.block.x).value(c.block.y).value(c.block.z).end_array();
    json.key("grid").value(to_string(c.grid));
    json.key("factor").value(c.factor);
    json.key("median_ns").value(c.median_ns);
    json.key("spread").value(c.spread);
    json.end_object();
}

void write_record(json_writer& json, const detail::tuning_record& r, const std::string& demangled) {
    json.key("device").begin_object();
    json.key("name").value(r.key.device_name);
    json.key("arch").value(r.key.device_arch);
    json.key("compute_units").value(r.key.compute_units);
    json.end_object();
    json.key("runtime").value(r.key.runtime);
    json.key("kernel").value(r.key.kernel);
    json.key("demangled").value(demangled);
    json.key("work").value(to_string(r.key.kind));
    json.key("bucket").value(r.key.bucket);
    json.key("chosen");
    write_choice(json, r.chosen);
    json.key("plan");
    write_choice(json, r.plan);
    json.key("speedup").value(r.speedup());
    // "your configuration": the one the launch replaced (work::replacing), measured first; null if none.
    json.key("yours");
    if (r.has_baseline)
        write_choice(json, r.baseline);
    else
        json.null();
    json.key("speedup_over_yours");
    if (r.has_baseline)
        json.value(r.speedup_over_baseline());
    else
        json.null();
    json.key("candidates").value(r.candidates);
    json.key("failed").value(r.failed);
    json.key("tuning_ms").value(r.tuning_ms);
}

command_output show(const tuning_request& r) {
    const loaded_file f = load(r.files.front());
    const std::vector<std::string> names = demangled_kernels(f.db);
    const std::vector<detail::tuning_record>& records = f.db.records();
    if (r.json) {
        json_writer json;
        json.begin_object().key("file").value(f.name).key("records").begin_array();
        for (std::size_t i = 0; i < records.size(); ++i) {
            json.begin_object();
            write_record(json, records[i], names[i]);
            json.end_object();
        }
        json.end_array().key("ignored_lines").value(static_cast<std::uint64_t>(f.report.ignored)).end_object();
        return {json.finish(), ignored_text(f), exit_for_ignored(f)};
    }
    std::string text = terminal_safe(f.name) + ": " + detail::plural(records.size(), "record") + "\n";
    // Grouped by device, in file order within a device.
    std::vector<std::string> devices;
    for (const detail::tuning_record& rec : records) {
        const std::string heading = device_heading(rec.key);
        if (std::find(devices.begin(), devices.end(), heading) == devices.end()) devices.push_back(heading);
    }
    for (const std::string& device : devices) {
        text += "\n" + device + "\n";
        text_table table({align::left, align::left, align::right, align::left, align::left, align::right, align::right,
                          align::right, align::right});
        table.add_row({"  kernel", "work", "bucket", "tuned", "plan", "vs plan", "vs yours", "spread", "measured"});
        for (std::size_t i = 0; i < records.size(); ++i) {
            const detail::tuning_record& rec = records[i];
            if (device_heading(rec.key) != device) continue;
            const double spread = rec.chosen.spread > rec.plan.spread ? rec.chosen.spread : rec.plan.spread;
            table.add_row(
                {"  " + terminal_safe(names[i]), std::string(to_string(rec.key.kind)), bucket_text(rec.key.bucket),
                 choice_text(rec.chosen), choice_text(rec.plan), speedup_text(rec), speedup_over_yours_text(rec),
                 percent(spread),
                 std::to_string(rec.candidates) + (rec.failed ? " (" + std::to_string(rec.failed) + " failed)" : "")});
        }
        text += table.render();
    }
    return {text, ignored_text(f), exit_for_ignored(f)};
}

// Whether `rec` may be launched on `d`: what the launch path checks before it uses a record.
std::string problem_on(const device_limits& d, const detail::tuning_record& rec) {
    const std::uint64_t size = rec.key.bucket >= 63 ? ~std::uint64_t{0} : std::uint64_t{1} << rec.key.bucket;
    if (rec.key.kind == work::work_kind::extent || rec.chosen.baseline) {
        // An extent's shape is not recorded, nor the grid of a kept configuration (the launch holds it):
        // the block must be a launch of its own.
        const launch_config one{dims{1}, rec.chosen.block, rec.key.dynamic_shared};
        return detail::is_launchable(d, rec.key.resources, one)
                   ? std::string()
                   : "block " + detail::dims_text(rec.chosen.block) + " is not launchable on " + to_string(d);
    }
    return detail::record_problem(d, rec.key.resources, rec.key.work_at(size), rec.chosen);
}

command_output check(const tuning_request& r) {
    const selected_device device = select_device(r.device);
    const device_limits& d = device.limits;
    const loaded_file f = load(r.files.front());
    const std::vector<std::string> names = demangled_kernels(f.db);
    const std::vector<detail::tuning_record>& records = f.db.records();
    std::size_t invalid = 0, other_device = 0;
    struct verdict {
        std::string problem;
        bool for_this_device = true;
    };
    std::vector<verdict> verdicts;
    for (const detail::tuning_record& rec : records) {
        verdict v;
        v.problem = problem_on(d, rec);
        v.for_this_device = detail::iequals(detail::isa_name(rec.key.device_arch), d.arch.view()) &&
                            (d.compute_units == 0 || rec.key.compute_units == d.compute_units);
        invalid += v.problem.empty() ? 0 : 1;
        other_device += v.for_this_device ? 0 : 1;
        verdicts.push_back(v);
    }
    const int exit_code = invalid == 0 && f.report.ignored == 0 ? 0 : 1;
    if (r.json) {
        json_writer json;
        json.begin_object().key("file").value(f.name).key("device").value(to_string(d));
        json.key("valid").value(exit_code == 0).key("records").begin_array();
        for (std::size_t i = 0; i < records.size(); ++i) {
            json.begin_object();
            write_record(json, records[i], names[i]);
            json.key("valid").value(verdicts[i].problem.empty());
            json.key("problem").text_or_null(verdicts[i].problem);
            json.key("for_this_device").value(verdicts[i].for_this_device);
            json.end_object();
        }
        json.end_array().key("ignored_lines").value(static_cast<std::uint64_t>(f.report.ignored)).end_object();
        return {json.finish(), ignored_text(f), exit_code};
    }
    std::string text = terminal_safe(f.name) + " on " + to_string(d) + ": " + detail::plural(records.size(), "record") +
                       ", " +
                       (invalid == 0 ? "all valid" : std::to_string(invalid) + " invalid (wavefit would not use them)");
    if (other_device > 0) text += "; " + std::to_string(other_device) + " measured on another device (used only there)";
    if (f.report.ignored > 0) text += "; " + std::to_string(f.report.ignored) + " line(s) are not records (named on stderr)";
    text += "\n";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const detail::tuning_record& rec = records[i];
        text += std::string(verdicts[i].problem.empty() ? "  valid    " : "  INVALID  ") + terminal_safe(names[i]) + ", " +
                std::string(to_string(rec.key.kind)) + " " + bucket_text(rec.key.bucket) + ": " + choice_text(rec.chosen);
        if (!verdicts[i].problem.empty()) text += ": " + verdicts[i].problem;
        if (!verdicts[i].for_this_device) text += " (measured on " + terminal_safe(rec.key.device_name) + ")";
        text += "\n";
    }
    return {text, ignored_text(f), exit_code};
}

command_output merge(const tuning_request& r) {
    const loaded_file a = load(r.files[0]);
    const loaded_file b = load(r.files[1]);
    detail::tuning_database merged = a.db;
    std::size_t replaced = 0;
    for (const detail::tuning_record& rec : b.db.records()) replaced += merged.put(rec) ? 1 : 0;
    const std::string contents = merged.to_json_lines();
    const std::string temporary = r.output + ".tmp";
    std::FILE* out = std::fopen(temporary.c_str(), "wb");
    if (out == nullptr) throw usage_error(one_line(r.output) + ": cannot write (" + std::strerror(errno) + ")");
    const bool written = std::fwrite(contents.data(), 1, contents.size(), out) == contents.size();
    const bool closed = std::fclose(out) == 0;
    if (!written || !closed || std::rename(temporary.c_str(), r.output.c_str()) != 0) {
        (void)std::remove(temporary.c_str());
        throw usage_error(one_line(r.output) + ": could not be written");
    }
    const std::string err = ignored_text(a) + ignored_text(b);
    const int exit_code = exit_for_ignored(a) | exit_for_ignored(b);
    if (r.json) {
        json_writer json;
        json.begin_object().key("output").value(r.output).key("records").value(static_cast<std::uint64_t>(merged.size()));
        json.key("from_first")
            .value(static_cast<std::uint64_t>(a.db.size()))
            .key("from_second")
            .value(static_cast<std::uint64_t>(b.db.size()));
        json.key("replaced").value(static_cast<std::uint64_t>(replaced)).end_object();
        return {json.finish(), err, exit_code};
    }
    return {"merged " + std::to_string(a.db.size()) + " record(s) of " + terminal_safe(a.name) + " and " +
                std::to_string(b.db.size()) + " of " + terminal_safe(b.name) + " into " + terminal_safe(r.output) + ": " +
                detail::plural(merged.size(), "record") + " (" + std::to_string(replaced) +
                " of the first replaced by the second)\n",
            err, exit_code};
}

}  // namespace

command_output run(const tuning_request& r) {
    switch (r.what) {
        case tuning_request::action::show: return show(r);
        case tuning_request::action::check: return check(r);
        case tuning_request::action::merge: return merge(r);
    }
    return {};
}

}  // namespace wavefit::cli
