// SPDX-License-Identifier: MIT
// Profiler traces for `wavefit audit`: the format told from the content (not the name), gzip read
// directly, every line capped and the input streamed, so memory grows with the distinct kernels
// only. Readers turn each kernel dispatch into a wavefit::detail::trace_dispatch (grid in blocks) and group it.
#pragma once

#include <cstddef>      // caps
#include <cstdint>      // counters
#include <functional>   // byte sources
#include <optional>     // what a trace may not say
#include <string>       // names
#include <string_view>  // format names

#include <wavefit/trace_audit.hpp>

namespace wavefit::cli {

enum class trace_format { rocprofv3_csv, rocpd_csv, rocprof_csv, omniperf_csv, rocprofv3_json, nsys_csv, kineto_json };

// The contract's spelling ("rocprofv3_csv", ...).
std::string_view to_string(trace_format f) noexcept;

struct trace_contents {
    trace_format format = trace_format::rocprofv3_csv;
    // The device as the trace (or a file beside it) names it: a product name and/or an ISA.
    std::string device_name;
    std::string device_arch;
    detail::kernel_grouping kernels;
    std::uint64_t skipped_rows = 0;  // rows that are no kernel dispatch or lack a launch configuration
    // Whether the dispatches carry times. rocprof-compute's pmc_perf.csv has none of its own: they are
    // joined by Dispatch_ID from the timestamps.csv of the same workload folder where it is there;
    // without it every dispatch counts 0 ns and kernels rank by dispatch count.
    bool timed = true;
    std::string times_from;                // "timestamps.csv" where the times were joined from it
    std::uint64_t untimed_dispatches = 0;  // joined, but timestamps.csv has no row for their Dispatch_ID
};

// Fills up to `capacity` bytes; 0 at the end. Throws usage_error for unreadable input.
using trace_source = std::function<std::size_t(char*, std::size_t)>;

// Reads a whole trace from `source`; `name` is the input's name for messages and `sibling_prefix` the
// trace's path, beside which to look for the files profilers write (omniperf sysinfo.csv and
// timestamps.csv, rocprofv3 agent_info.csv; empty: none). `timestamps`, when given, is the
// timestamps.csv to join to a pmc_perf.csv without times instead of the one beside it. Throws
// usage_error with one line for anything that is no trace wavefit reads.
trace_contents read_trace(const trace_source& source, const std::string& name, const std::string& sibling_prefix = {},
                          const trace_source* timestamps = nullptr);

// The same for a file (or "-" for standard input), gzip-compressed or not.
trace_contents read_trace_file(const std::string& path);

}  // namespace wavefit::cli
