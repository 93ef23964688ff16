// SPDX-License-Identifier: MIT
// The trace readers behind `wavefit audit` (trace_reader.hpp). CSV formats are told apart by their
// header's column names (looked up case-insensitively, so rocpd's "Vgpr_Count" is rocprofv3's
// "VGPR_Count"); JSON formats by the arrays they hold, streamed with the pull reader so that only
// one event is in memory at a time.
#include "trace_reader.hpp"

#include <algorithm>      // std::min
#include <cmath>          // std::llround
#include <cstdio>         // std::FILE
#include <memory>         // the timestamps.csv beside a pmc_perf.csv
#include <string>         // cells
#include <unordered_map>  // columns, symbols
#include <utility>        // std::move
#include <vector>         // cells

#include <wavefit/detail/ascii.hpp>       // to_lower
#include <wavefit/detail/enum_names.hpp>  // to_string(trace_format)
#include <wavefit/detail/json_reader.hpp>

#include "analysis/csv_reader.hpp"

#include "arguments.hpp"  // usage_error
#include "text_input.hpp"

namespace wavefit::cli {

using analysis::blocks_from_work_items;
using analysis::kernel_group;
using analysis::parse_csv_scaled;
using analysis::parse_csv_uint;
using analysis::split_csv_line;
using analysis::trace_dispatch;

std::string_view to_string(trace_format f) noexcept {
    constexpr std::string_view names[] = {"rocprofv3_csv",  "rocpd_csv", "rocprof_csv", "omniperf_csv",
                                          "rocprofv3_json", "nsys_csv",  "kineto_json"};
    return wavefit::detail::enum_name(names, f);
}

namespace {

constexpr std::size_t max_line_bytes = std::size_t{256} * 1024;  // C++ kernel names run to a few KiB
constexpr std::size_t max_name_bytes = 4096;                     // longer names are cut (and marked)
constexpr std::size_t header_search_lines = 64;                  // nsys writes preamble lines first
constexpr std::size_t max_symbols = 1000000;

[[noreturn]] void fail(const std::string& name, const std::string& why) { throw usage_error(name + ": " + why); }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = detail::to_lower(c);
    return out;
}

// A kernel name as audit shows it: legacy rocprof's " [clone .kd]" / ".kd" suffix dropped, capped.
std::string kernel_name(std::string_view raw) {
    constexpr std::string_view clone = " [clone .kd]";
    if (raw.size() >= clone.size() && raw.substr(raw.size() - clone.size()) == clone) raw.remove_suffix(clone.size());
    if (raw.size() > 3 && raw.substr(raw.size() - 3) == ".kd") raw.remove_suffix(3);
    if (raw.size() > max_name_bytes) return std::string(raw.substr(0, max_name_bytes)) + "...";
    return std::string(raw);
}

std::uint32_t clamp32(std::uint64_t v) { return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(v); }

// Bytes from a source with a first chunk already read (format detection), split into capped lines.
class line_reader {
public:
    line_reader(const trace_source& source, std::string prefix) : source_(source), buffer_(std::move(prefix)) {}

    // False at the end. A line beyond the cap is returned cut, with truncated() true.
    bool next(std::string& line) {
        line.clear();
        truncated_ = false;
        for (;;) {
            if (pos_ == buffer_.size()) {
                if (at_end_) return !line.empty();
                buffer_.resize(std::size_t{64} * 1024);
                const std::size_t n = source_(buffer_.data(), buffer_.size());
                buffer_.resize(n);
                pos_ = 0;
                if (n == 0) {
                    at_end_ = true;
                    if (!line.empty() && line.back() == '\r') line.pop_back();
                    return !line.empty() || truncated_;
                }
            }
            const std::size_t nl = buffer_.find('\n', pos_);
            const std::size_t stop = nl == std::string::npos ? buffer_.size() : nl;
            const std::size_t room = max_line_bytes - std::min(max_line_bytes, line.size());
            const std::size_t take = std::min(room, stop - pos_);
            line.append(buffer_, pos_, take);
            if (take < stop - pos_) truncated_ = true;
            pos_ = stop;
            if (nl != std::string::npos) {
                ++pos_;
                if (!line.empty() && line.back() == '\r') line.pop_back();
                ++number_;
                return true;
            }
        }
    }
    bool truncated() const noexcept { return truncated_; }
    std::uint64_t number() const noexcept { return number_; }

private:
    const trace_source& source_;
    std::string buffer_;
    std::size_t pos_ = 0;
    bool at_end_ = false;
    bool truncated_ = false;
    std::uint64_t number_ = 0;
};

// --- CSV ------------------------------------------------------------------------------------

struct csv_columns {
    std::unordered_map<std::string, std::size_t> index;  // lower-case name -> column

    long find(std::initializer_list<std::string_view> names) const {
        for (std::string_view n : names) {
            const auto it = index.find(std::string(n));
            if (it != index.end()) return static_cast<long>(it->second);
        }
        return -1;
    }
    bool has(std::string_view n) const { return index.count(std::string(n)) != 0; }
};

// The unit of an nsys column from its header "(ns)", "(us)", "(MB)", "(B)": the scale to ns or bytes.
struct unit_column {
    long column = -1;
    int decimal_shift = 0;  // value x 10^shift (MB -> bytes: 6; us -> ns: 3)
};

unit_column nsys_column(const std::vector<std::string>& header, std::string_view stem) {
    unit_column u;
    for (std::size_t i = 0; i < header.size(); ++i) {
        const std::string h = lower(header[i]);
        if (h.compare(0, stem.size(), stem) != 0) continue;
        const std::string unit = h.substr(stem.size());
        if (unit == " (ns)" || unit == " (b)" || unit.empty())
            u.decimal_shift = 0;
        else if (unit == " (us)" || unit == " (kb)")
            u.decimal_shift = 3;
        else if (unit == " (ms)" || unit == " (mb)")
            u.decimal_shift = 6;
        else if (unit == " (s)" || unit == " (gb)")
            u.decimal_shift = 9;
        else
            continue;
        u.column = static_cast<long>(i);
        return u;
    }
    return u;
}

struct csv_layout {
    trace_format format;
    long name = -1, start = -1, end = -1, duration = -1, dispatch_id = -1;
    long grid[3] = {-1, -1, -1}, block[3] = {-1, -1, -1};
    long arch_vgpr = -1, accum_vgpr = -1, vgpr = -1, sgpr = -1, lds = -1, scratch = -1, registers = -1;
    unit_column nsys_duration, nsys_static, nsys_dynamic;
    bool grid_in_work_items = true;
};

std::optional<csv_layout> layout_of(const std::vector<std::string>& header) {
    csv_columns c;
    for (std::size_t i = 0; i < header.size(); ++i) c.index.emplace(lower(header[i]), i);
    csv_layout l{};
    if (c.has("grdx") && c.has("name") && c.has("blkx")) {
        l.format = trace_format::nsys_csv;
        l.grid_in_work_items = false;
        l.name = c.find({"name"});
        l.grid[0] = c.find({"grdx"});
        l.grid[1] = c.find({"grdy"});
        l.grid[2] = c.find({"grdz"});
        l.block[0] = c.find({"blkx"});
        l.block[1] = c.find({"blky"});
        l.block[2] = c.find({"blkz"});
        l.registers = c.find({"reg/trd"});
        l.nsys_duration = nsys_column(header, "duration");
        l.nsys_static = nsys_column(header, "stcsmem");
        l.nsys_dynamic = nsys_column(header, "dymsmem");
        return l;
    }
    if (c.has("kernel_name") && c.has("grid_size_x")) {
        l.format = lower(header.front()) == "guid" ? trace_format::rocpd_csv : trace_format::rocprofv3_csv;
        l.name = c.find({"kernel_name"});
        l.start = c.find({"start_timestamp"});
        l.end = c.find({"end_timestamp"});
        l.grid[0] = c.find({"grid_size_x"});
        l.grid[1] = c.find({"grid_size_y"});
        l.grid[2] = c.find({"grid_size_z"});
        l.block[0] = c.find({"workgroup_size_x"});
        l.block[1] = c.find({"workgroup_size_y"});
        l.block[2] = c.find({"workgroup_size_z"});
        l.arch_vgpr = c.find({"vgpr_count", "arch_vgpr_count"});
        l.accum_vgpr = c.find({"accum_vgpr_count"});
        l.sgpr = c.find({"sgpr_count"});
        l.lds = c.find({"lds_block_size", "group_segment_size"});
        l.scratch = c.find({"scratch_size", "private_segment_size"});
        return l;
    }
    if (c.has("kernelname") && c.has("grd") && c.has("wgr")) {
        l.format = trace_format::rocprof_csv;
        l.name = c.find({"kernelname"});
        l.grid[0] = c.find({"grd"});
        l.block[0] = c.find({"wgr"});
        l.duration = c.find({"durationns"});
        l.start = c.find({"beginns"});
        l.end = c.find({"endns"});
        l.arch_vgpr = c.find({"arch_vgpr"});
        l.accum_vgpr = c.find({"accum_vgpr"});
        l.vgpr = c.find({"vgpr"});
        l.sgpr = c.find({"sgpr"});
        l.lds = c.find({"lds"});
        l.scratch = c.find({"scr"});
        return l;
    }
    if (c.has("kernel_name") && c.has("grid_size") && c.has("workgroup_size")) {
        l.format = trace_format::omniperf_csv;
        l.name = c.find({"kernel_name"});
        l.dispatch_id = c.find({"dispatch_id"});
        l.grid[0] = c.find({"grid_size"});
        l.block[0] = c.find({"workgroup_size"});
        l.start = c.find({"start_timestamp"});
        l.end = c.find({"end_timestamp"});
        l.arch_vgpr = c.find({"arch_vgpr"});
        l.accum_vgpr = c.find({"accum_vgpr"});
        l.sgpr = c.find({"sgpr"});
        l.lds = c.find({"lds_per_workgroup"});
        l.scratch = c.find({"scratch_per_workitem"});
        return l;
    }
    return std::nullopt;
}

std::string missing_columns(const csv_layout& l) {
    std::string missing;
    const auto need = [&missing](long col, const char* what) {
        if (col >= 0) return;
        if (!missing.empty()) missing += ", ";
        missing += what;
    };
    need(l.name, "kernel name");
    need(l.grid[0], "grid size");
    need(l.block[0], "block size");
    if (l.format == trace_format::nsys_csv) {
        need(l.nsys_duration.column, "Duration");
    } else if (l.format == trace_format::omniperf_csv) {
        // rocprof-compute's pmc_perf.csv has no times of its own: timestamps.csv beside it has them.
    } else if (l.duration < 0) {
        need(l.start, "start timestamp");
        need(l.end, "end timestamp");
    }
    return missing;
}

const std::string* cell_at(const std::vector<std::string>& cells, long col) {
    if (col < 0 || static_cast<std::size_t>(col) >= cells.size()) return nullptr;
    return &cells[static_cast<std::size_t>(col)];
}

std::optional<std::uint64_t> uint_at(const std::vector<std::string>& cells, long col) {
    const std::string* cell = cell_at(cells, col);
    if (cell == nullptr) return std::nullopt;
    return parse_csv_uint(*cell);
}

std::optional<std::uint32_t> u32_at(const std::vector<std::string>& cells, long col) {
    const auto v = uint_at(cells, col);
    if (!v) return std::nullopt;
    return clamp32(*v);
}

std::optional<std::uint64_t> scaled_at(const std::vector<std::string>& cells, const unit_column& u) {
    const std::string* cell = cell_at(cells, u.column);
    if (cell == nullptr) return std::nullopt;
    return parse_csv_scaled(*cell, u.decimal_shift);
}

// One data row to a dispatch, or nothing for a row that is no kernel dispatch (nsys memcpy rows)
// or lacks a readable launch configuration or time. `joined_ns`: the dispatch's time from elsewhere
// (timestamps.csv for a pmc_perf.csv), used instead of the row's own columns.
std::optional<trace_dispatch> dispatch_of(const csv_layout& l, const std::vector<std::string>& cells,
                                                  std::optional<std::uint64_t> joined_ns = std::nullopt) {
    trace_dispatch t;
    const std::string* name = cell_at(cells, l.name);
    if (name == nullptr || name->empty()) return std::nullopt;
    t.name = kernel_name(*name);
    dims grid{1, 1, 1}, block{1, 1, 1};
    for (int a = 0; a < 3; ++a) {
        if (l.grid[a] >= 0) {
            const auto g = uint_at(cells, l.grid[a]);
            if (!g) return std::nullopt;
            (a == 0 ? grid.x : a == 1 ? grid.y : grid.z) = *g;
        }
        if (l.block[a] >= 0) {
            const auto b = uint_at(cells, l.block[a]);
            if (!b) return std::nullopt;
            (a == 0 ? block.x : a == 1 ? block.y : block.z) = *b;
        }
    }
    t.block = block;
    t.grid = l.grid_in_work_items ? blocks_from_work_items(grid, block) : grid;

    if (l.format == trace_format::nsys_csv) {
        const auto d = scaled_at(cells, l.nsys_duration);
        if (!d) return std::nullopt;
        t.duration_ns = *d;
        t.registers = u32_at(cells, l.registers);
        const std::uint64_t stat = scaled_at(cells, l.nsys_static).value_or(0);
        const std::uint64_t dyn = scaled_at(cells, l.nsys_dynamic).value_or(0);
        t.shared = detail::saturating_add(stat, dyn);
        return t;
    }
    if (joined_ns) {
        t.duration_ns = *joined_ns;
    } else if (l.duration >= 0 && uint_at(cells, l.duration)) {
        t.duration_ns = *uint_at(cells, l.duration);
    } else {
        const auto s = uint_at(cells, l.start);
        const auto e = uint_at(cells, l.end);
        if (!s || !e) return std::nullopt;
        t.duration_ns = *e >= *s ? *e - *s : 0;  // a clock that ran backwards: a zero-length dispatch
    }
    t.arch_vgpr = u32_at(cells, l.arch_vgpr >= 0 ? l.arch_vgpr : l.vgpr);
    t.accum_vgpr = u32_at(cells, l.accum_vgpr);
    t.sgprs = u32_at(cells, l.sgpr);
    t.shared = uint_at(cells, l.lds).value_or(0);
    t.scratch = uint_at(cells, l.scratch).value_or(0);
    return t;
}

// The times of a rocprof-compute workload's timestamps.csv, found by Dispatch_ID while pmc_perf.csv
// is read. rocprof-compute writes both files in dispatch order (its own join, replace_timestamps,
// goes row by row), so the two are walked in lockstep: memory stays one line, whatever the size.
class timestamp_join {
public:
    timestamp_join(const trace_source& source, std::string name) : lines_(source, {}), name_(std::move(name)) {
        std::string line;
        std::vector<std::string> header;
        while (lines_.next(line) && lines_.number() <= header_search_lines) {
            if (lines_.number() == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
            if (lines_.truncated() || line.empty()) continue;
            split_csv_line(line, header);
            csv_columns c;
            for (std::size_t i = 0; i < header.size(); ++i) c.index.emplace(lower(header[i]), i);
            id_ = c.find({"dispatch_id"});
            start_ = c.find({"start_timestamp"});
            end_ = c.find({"end_timestamp"});
            break;
        }
    }
    // Whether the file has the three columns the join needs.
    bool usable() const noexcept { return id_ >= 0 && start_ >= 0 && end_ >= 0; }
    const std::string& name() const noexcept { return name_; }

    // The duration of dispatch `id`; nullopt when no row has it (rows are read up to the first
    // Dispatch_ID not below `id`, so the dispatches must come in the same, ascending, order).
    std::optional<std::uint64_t> duration_of(std::uint64_t id) {
        while (!current_ || current_->first < id) {
            if (!advance()) return std::nullopt;
        }
        if (current_->first != id) return std::nullopt;
        return current_->second;
    }

private:
    bool advance() {
        std::string line;
        while (lines_.next(line)) {
            if (lines_.truncated() || line.empty()) continue;
            split_csv_line(line, cells_);
            const auto id = uint_at(cells_, id_);
            const auto s = uint_at(cells_, start_);
            const auto e = uint_at(cells_, end_);
            if (!id || !s || !e) continue;
            current_ = std::make_pair(*id, *e >= *s ? *e - *s : 0);
            return true;
        }
        return false;
    }

    line_reader lines_;
    std::string name_;
    std::vector<std::string> cells_;
    long id_ = -1, start_ = -1, end_ = -1;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> current_;  // Dispatch_ID, duration
};

// The directory part of `path` ("" for a bare file name), with its slash.
std::string directory_of(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// What omniperf's sysinfo.csv or rocprofv3's agent_info.csv beside the trace says about the GPU.
void read_sibling_device(const std::string& path, trace_format format, trace_contents& out) {
    if (path.empty() || path == "-") return;
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string sibling;
    if (format == trace_format::omniperf_csv) {
        sibling = dir + "sysinfo.csv";
    } else if (format == trace_format::rocprofv3_csv || format == trace_format::rocpd_csv) {
        const std::string stem = "kernel_trace.csv";
        const std::size_t at = file.rfind(stem);
        if (at == std::string::npos) return;
        sibling = dir + file.substr(0, at) + "agent_info.csv";
    } else {
        return;
    }
    std::FILE* probe = std::fopen(sibling.c_str(), "rb");
    if (probe == nullptr) return;
    (void)std::fclose(probe);
    try {
        text_input in(sibling, max_line_bytes);
        std::string_view line;
        std::vector<std::string> header, cells;
        while (in.next_line(line) && in.line_number() <= 10000) {
            if (in.last_line_truncated()) continue;
            if (header.empty()) {
                split_csv_line(line, header);
                for (std::string& h : header) h = lower(h);
                continue;
            }
            split_csv_line(line, cells);
            // The GPU's row: the one whose ISA column names a gfx target; its product name goes with it.
            std::string arch, product;
            for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) {
                const std::string& h = header[i];
                const std::string& v = cells[i];
                if ((h == "gpu_arch" || h == "name") && v.compare(0, 3, "gfx") == 0 && arch.empty()) arch = v.substr(0, 64);
                if ((h == "gpu_model" || h == "product_name" || h == "marketing_name") && product.empty())
                    product = v.substr(0, 128);
            }
            if (arch.empty()) continue;
            out.device_arch = arch;
            out.device_name = product;
            break;
        }
    } catch (const usage_error&) {
        // A sibling that cannot be read only leaves the device to --preset.
    }
}

void read_csv(line_reader& lines, const std::string& name, const std::string& path, trace_contents& out,
              const trace_source* timestamps) {
    std::string line;
    std::vector<std::string> cells;
    std::optional<csv_layout> layout;
    std::string first_line;
    while (!layout && lines.next(line)) {
        if (lines.number() > header_search_lines) break;
        if (lines.number() == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
        if (lines.truncated() || line.empty()) continue;
        if (first_line.empty()) first_line = line.substr(0, 60);
        split_csv_line(line, cells);
        if (cells.size() >= 2 && lower(cells[0]) == "name" && lower(cells[1]) == "calls")
            fail(name,
                 "this is rocprof's results.stats.csv, a summary without launch configurations; audit the results.csv "
                 "beside it");
        // The other CSVs of a rocprof-compute workload folder, which are no traces.
        csv_columns header;
        for (std::size_t i = 0; i < cells.size(); ++i) header.index.emplace(lower(cells[i]), i);
        if (header.has("dispatch_id") && header.has("kernel_name") && !header.has("grid_size") && !header.has("grid_size_x"))
            fail(name,
                 "this is rocprof-compute's pmc_dispatch_info.csv, a list of dispatches without launch configurations; "
                 "audit the workload's pmc_perf.csv");
        if ((header.has("gpu_model") || header.has("gpu_arch")) && header.has("cu_per_gpu") && !header.has("kernel_name"))
            fail(name,
                 "this is rocprof-compute's sysinfo.csv, a description of the machine; audit pmc_perf.csv or "
                 "timestamps.csv beside it (audit reads the GPU from sysinfo.csv there)");
        layout = layout_of(cells);
    }
    if (!layout) {
        std::string shown;
        for (char c : first_line) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
        fail(name,
             "not a trace wavefit reads (no rocprofv3, rocpd, rocprof, omniperf or nsys cuda_gpu_trace CSV header in the "
             "first " +
                 std::to_string(header_search_lines) + " lines; the first line starts \"" + shown +
                 "\"); see `wavefit audit --help`");
    }
    out.format = layout->format;
    const std::string missing = missing_columns(*layout);
    if (!missing.empty())
        fail(name, "the " + std::string(to_string(out.format)) + " header lacks the column(s): " + missing);
    read_sibling_device(path, out.format, out);

    // A pmc_perf.csv without times: join them from timestamps.csv (given, or beside the file).
    std::unique_ptr<text_input> beside;
    trace_source beside_source;
    std::optional<timestamp_join> times;
    if (layout->format == trace_format::omniperf_csv && (layout->start < 0 || layout->end < 0)) {
        const std::string sibling = path.empty() || path == "-" ? std::string() : directory_of(path) + "timestamps.csv";
        if (timestamps != nullptr) {
            times.emplace(*timestamps, "timestamps.csv");
        } else if (!sibling.empty()) {
            if (std::FILE* probe = std::fopen(sibling.c_str(), "rb")) {
                (void)std::fclose(probe);
                beside = std::make_unique<text_input>(sibling, max_line_bytes);
                beside_source = [&in = *beside](char* buffer, std::size_t capacity) { return in.read(buffer, capacity); };
                times.emplace(beside_source, "timestamps.csv");
            }
        }
        if (times && (layout->dispatch_id < 0 || !times->usable())) times.reset();
        out.timed = times.has_value();
        if (times) out.times_from = times->name();
    }

    while (lines.next(line)) {
        if (lines.truncated()) {
            ++out.skipped_rows;
            continue;
        }
        if (line.empty()) continue;
        split_csv_line(line, cells);
        std::optional<std::uint64_t> joined;
        if (!out.timed) {
            joined = 0;
        } else if (times) {
            const auto id = uint_at(cells, layout->dispatch_id);
            joined = id ? times->duration_of(*id) : std::nullopt;
            if (!joined) {
                ++out.untimed_dispatches;
                joined = 0;
            }
        }
        const std::optional<trace_dispatch> d = dispatch_of(*layout, cells, joined);
        if (!d) {
            ++out.skipped_rows;
            continue;
        }
        if (!out.kernels.add(*d))
            fail(name, "more than " + std::to_string(out.kernels.max_groups()) +
                           " distinct kernel launch configurations (or 128 MiB of their names) (line " +
                           std::to_string(lines.number()) + "); wavefit audit stops here");
    }
}

// --- JSON -----------------------------------------------------------------------------------

// One object of an array, flattened: "args.grid.0" -> 2048. Only scalars; at most max_fields.
struct flat_record {
    struct field {
        std::string key;
        bool is_number = false;
        detail::json_number number;
        std::string text;
    };
    std::vector<field> fields;

    const field* find(std::string_view key) const {
        for (const field& f : fields)
            if (f.key == key) return &f;
        return nullptr;
    }
    std::optional<std::uint64_t> uint(std::string_view key) const {
        const field* f = find(key);
        if (f == nullptr || !f->is_number) return std::nullopt;
        return f->number.as_uint64();
    }
    std::optional<double> real(std::string_view key) const {
        const field* f = find(key);
        if (f == nullptr || !f->is_number) return std::nullopt;
        return f->number.value;
    }
    std::string text(std::string_view key) const {
        const field* f = find(key);
        return f == nullptr || f->is_number ? std::string() : f->text;
    }
};

constexpr std::size_t max_record_fields = 256;
constexpr std::size_t max_record_depth = 4;

[[noreturn]] void json_fail(const std::string& name, const detail::json_pull_reader& r) {
    fail(name, r.error().empty() ? std::string("the JSON document ends early") : "malformed JSON at " + r.error());
}

// After begin_object or begin_array: reads the container into `rec` under `prefix`.
void flatten(detail::json_pull_reader& r, const std::string& name, flat_record& rec, const std::string& prefix,
             std::size_t depth, bool is_array) {
    std::string key;
    std::uint64_t index = 0;
    for (;;) {
        const detail::json_token t = r.next();
        switch (t) {
            case detail::json_token::error:
            case detail::json_token::end_of_input: json_fail(name, r);
            case detail::json_token::end_object:
            case detail::json_token::end_array: return;
            case detail::json_token::key: key.assign(r.text()); continue;
            default: break;
        }
        const std::string full = prefix + (is_array ? std::to_string(index++) : key);
        if (t == detail::json_token::begin_object || t == detail::json_token::begin_array) {
            if (depth + 1 >= max_record_depth) {
                if (!r.skip()) json_fail(name, r);
            } else {
                flatten(r, name, rec, full + ".", depth + 1, t == detail::json_token::begin_array);
            }
            continue;
        }
        if (rec.fields.size() >= max_record_fields) continue;
        flat_record::field f;
        f.key = full;
        if (t == detail::json_token::number) {
            f.is_number = true;
            f.number = r.number();
        } else if (t == detail::json_token::string) {
            f.text.assign(r.text().substr(0, max_line_bytes));
        } else {
            continue;  // true, false, null
        }
        rec.fields.push_back(std::move(f));
    }
}

struct kernel_symbol {
    std::string name;
    std::optional<std::uint32_t> arch_vgpr, accum_vgpr, sgprs;
};

std::optional<std::uint32_t> u32_of(const std::optional<std::uint64_t>& v) {
    if (!v) return std::nullopt;
    return clamp32(*v);
}

void kineto_event(const flat_record& e, trace_contents& out, const std::string& name) {
    if (lower(e.text("cat")) != "kernel") return;
    trace_dispatch t;
    t.name = kernel_name(e.text("name"));
    const std::optional<double> dur = e.real("dur");
    const auto g0 = e.uint("args.grid.0"), b0 = e.uint("args.block.0");
    if (t.name.empty() || !dur || !(*dur >= 0) || *dur > 1e15 || !g0 || !b0) {
        ++out.skipped_rows;
        return;
    }
    t.duration_ns = static_cast<std::uint64_t>(std::llround(*dur * 1000.0));
    t.grid = dims{*g0, e.uint("args.grid.1").value_or(1), e.uint("args.grid.2").value_or(1)};
    t.block = dims{*b0, e.uint("args.block.1").value_or(1), e.uint("args.block.2").value_or(1)};
    t.registers = u32_of(e.uint("args.registers per thread"));
    t.shared = e.uint("args.shared memory").value_or(0);
    const std::optional<double> occ = e.real("args.est. achieved occupancy %");
    if (occ && *occ >= 0 && *occ <= 100) t.trace_occupancy = *occ / 100.0;
    if (!out.kernels.add(t))
        fail(name, "more than " + std::to_string(out.kernels.max_groups()) +
                       " distinct kernel launch configurations (or 128 MiB of their names); wavefit audit stops here");
}

void rocprofv3_dispatch(const flat_record& e, trace_contents& out, const std::string& name) {
    trace_dispatch t;
    const auto id = e.uint("dispatch_info.kernel_id");
    const auto start = e.uint("start_timestamp"), end = e.uint("end_timestamp");
    const auto wx = e.uint("dispatch_info.workgroup_size.x"), gx = e.uint("dispatch_info.grid_size.x");
    if (!id || !start || !end || !wx || !gx) {
        ++out.skipped_rows;
        return;
    }
    t.kernel_id = *id + 1;  // 0 means "none"
    t.duration_ns = *end >= *start ? *end - *start : 0;
    t.block = dims{*wx, e.uint("dispatch_info.workgroup_size.y").value_or(1),
                   e.uint("dispatch_info.workgroup_size.z").value_or(1)};
    const dims items{*gx, e.uint("dispatch_info.grid_size.y").value_or(1), e.uint("dispatch_info.grid_size.z").value_or(1)};
    t.grid = blocks_from_work_items(items, t.block);
    t.shared = e.uint("dispatch_info.group_segment_size").value_or(0);
    t.scratch = e.uint("dispatch_info.private_segment_size").value_or(0);
    if (!out.kernels.add(t))
        fail(name, "more than " + std::to_string(out.kernels.max_groups()) +
                       " distinct kernel launch configurations (or 128 MiB of their names); wavefit audit stops here");
}

void read_json(const trace_source& source, const std::string& prefix, const std::string& name, trace_contents& out) {
    std::size_t prefix_pos = 0;
    const detail::json_pull_reader::byte_source bytes = [&](char* buffer, std::size_t capacity) -> std::size_t {
        if (prefix_pos < prefix.size()) {
            const std::size_t n = std::min(capacity, prefix.size() - prefix_pos);
            prefix.copy(buffer, n, prefix_pos);
            prefix_pos += n;
            return n;
        }
        return source(buffer, capacity);
    };
    detail::json_limits limits;
    limits.max_string_bytes = max_line_bytes;
    limits.replace_invalid_utf8 = true;
    detail::json_pull_reader r(bytes, limits);

    bool kineto = false, rocprofv3 = false;
    std::unordered_map<std::uint64_t, kernel_symbol> symbols;
    std::vector<std::string> path;  // keys of the open containers ("" inside arrays)
    std::string key;
    for (;;) {
        const detail::json_token t = r.next();
        if (t == detail::json_token::error) json_fail(name, r);
        if (t == detail::json_token::end_of_input) break;
        if (t == detail::json_token::key) {
            key.assign(r.text());
            continue;
        }
        if (t == detail::json_token::end_object || t == detail::json_token::end_array) {
            if (!path.empty()) path.pop_back();
            continue;
        }
        if (t != detail::json_token::begin_array && t != detail::json_token::begin_object) {
            key.clear();
            continue;
        }
        const std::string parent = path.empty() ? std::string() : path.back();
        const bool records = t == detail::json_token::begin_array &&
                             (key == "traceEvents" || key == "deviceProperties" || key == "kernel_symbols" ||
                              key == "agents" || (key == "kernel_dispatch" && parent == "buffer_records"));
        if (!records) {
            path.push_back(key);
            key.clear();
            continue;
        }
        const std::string array = key;
        key.clear();
        if (array == "traceEvents") kineto = true;
        if (array == "kernel_symbols" || array == "kernel_dispatch") rocprofv3 = true;
        for (;;) {
            const detail::json_token e = r.next();
            if (e == detail::json_token::error || e == detail::json_token::end_of_input) json_fail(name, r);
            if (e == detail::json_token::end_array) break;
            if (e == detail::json_token::begin_array) {
                if (!r.skip()) json_fail(name, r);
                continue;
            }
            if (e != detail::json_token::begin_object) continue;
            flat_record rec;
            flatten(r, name, rec, std::string(), 0, false);
            if (array == "traceEvents") {
                kineto_event(rec, out, name);
            } else if (array == "deviceProperties") {
                if (out.device_name.empty()) out.device_name = rec.text("name").substr(0, 128);
                const std::string arch = rec.text("gcnArchName");
                if (out.device_arch.empty() && arch.compare(0, 3, "gfx") == 0) out.device_arch = arch.substr(0, 64);
            } else if (array == "agents") {
                const std::string isa = rec.text("name");
                if (out.device_arch.empty() && isa.compare(0, 3, "gfx") == 0) {
                    out.device_arch = isa.substr(0, 64);
                    out.device_name = rec.text("product_name").substr(0, 128);
                }
            } else if (array == "kernel_symbols") {
                const auto id = rec.uint("kernel_id");
                if (!id || symbols.size() >= max_symbols) continue;
                kernel_symbol s;
                std::string n = rec.text("kernel_name");
                if (n.empty()) n = rec.text("formatted_kernel_name");
                s.name = kernel_name(n);
                s.arch_vgpr = u32_of(rec.uint("arch_vgpr_count"));
                s.accum_vgpr = u32_of(rec.uint("accum_vgpr_count"));
                s.sgprs = u32_of(rec.uint("sgpr_count"));
                symbols[*id + 1] = std::move(s);
            } else {
                rocprofv3_dispatch(rec, out, name);
            }
        }
    }
    if (!kineto && !rocprofv3)
        fail(name,
             "JSON without \"traceEvents\" (PyTorch profiler) or rocprofv3 \"kernel_symbols\"/\"kernel_dispatch\": not a "
             "trace wavefit reads");
    out.format = kineto ? trace_format::kineto_json : trace_format::rocprofv3_json;
    // rocprofv3 dispatches name their kernel by id; the symbols may come before or after them.
    for (kernel_group& g : out.kernels.groups()) {
        if (g.launch.kernel_id == 0) continue;
        const auto it = symbols.find(g.launch.kernel_id);
        if (it == symbols.end()) {
            g.launch.name = "kernel " + std::to_string(g.launch.kernel_id - 1);
            continue;
        }
        g.launch.name = it->second.name;
        g.launch.arch_vgpr = it->second.arch_vgpr;
        g.launch.accum_vgpr = it->second.accum_vgpr;
        g.launch.sgprs = it->second.sgprs;
    }
}

}  // namespace

trace_contents read_trace(const trace_source& source, const std::string& name, const std::string& sibling_prefix,
                          const trace_source* timestamps) {
    trace_contents out;
    // The first bytes tell JSON from CSV.
    std::string prefix(std::size_t{64} * 1024, '\0');
    std::size_t got = 0;
    while (got < prefix.size()) {
        const std::size_t n = source(&prefix[got], prefix.size() - got);
        if (n == 0) break;
        got += n;
    }
    prefix.resize(got);
    std::size_t at = prefix.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (at < prefix.size() && (prefix[at] == ' ' || prefix[at] == '\t' || prefix[at] == '\r' || prefix[at] == '\n')) ++at;
    if (at == prefix.size()) fail(name, "the trace is empty");
    if (prefix[at] == '{' || prefix[at] == '[') {
        read_json(source, prefix, name, out);
    } else {
        line_reader lines(source, std::move(prefix));
        read_csv(lines, name, sibling_prefix, out, timestamps);
    }
    if (out.kernels.dispatches() == 0)
        fail(name, "a " + std::string(to_string(out.format)) +
                       " trace without any kernel dispatch that has a launch configuration (" +
                       std::to_string(out.skipped_rows) + " rows skipped)");
    return out;
}

trace_contents read_trace_file(const std::string& path) {
    text_input in(path, max_line_bytes);
    const trace_source source = [&in](char* buffer, std::size_t capacity) { return in.read(buffer, capacity); };
    return read_trace(source, in.name(), path);
}

}  // namespace wavefit::cli
