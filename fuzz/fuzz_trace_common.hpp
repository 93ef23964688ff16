// SPDX-License-Identifier: MIT
// What the trace fuzz targets (fuzz_trace_csv, fuzz_trace_json) share: the bytes go to
// wavefit::cli::read_trace through a source whose chunk size the first byte picks, and every trace
// it accepts is audited on an AMD and an NVIDIA preset. An input holding a line "===" is the trace
// up to that line and, after it, the timestamps.csv joined to a rocprof-compute pmc_perf.csv
// without times. Invariants:
//   * only usage_error escapes, with a one-line message naming the input;
//   * an accepted trace has dispatches, its groups add up to the totals (saturating), every grid
//     is in blocks with a block that is not larger than the work-items it came from;
//   * auditing every group terminates (the hint scans are bounded) and every finding has a code,
//     a severity, a message and a fix.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <wavefit/presets.hpp>

#include "analysis/trace_audit.hpp"

#include "arguments.hpp"
#include "trace_reader.hpp"

namespace fuzz_trace {

[[noreturn]] inline void finding(const char* target, const char* what, const std::string& detail) {
    std::fprintf(stderr, "%s: invariant broken: %s\n%s\n", target, what, detail.c_str());
    std::abort();
}

inline int run(const char* target, const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t chunk = 1 + data[0] % 64;
    std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
    std::string_view stamps;
    bool with_stamps = false;
    if (const std::size_t split = input.find("\n===\n"); split != std::string_view::npos) {
        stamps = input.substr(split + 5);
        input = input.substr(0, split + 1);
        with_stamps = true;
    }
    // A chunked source over `bytes`, as text_input delivers a file.
    const auto chunked = [chunk](std::string_view bytes) {
        return wavefit::cli::trace_source([bytes, chunk, at = std::size_t{0}](char* out, std::size_t capacity) mutable {
            const std::size_t n = std::min({capacity, chunk, bytes.size() - at});
            std::memcpy(out, bytes.data() + at, n);
            at += n;
            return n;
        });
    };
    const wavefit::cli::trace_source source = chunked(input);
    const wavefit::cli::trace_source stamps_source = chunked(stamps);
    wavefit::cli::trace_contents trace;
    try {
        trace = wavefit::cli::read_trace(source, "fuzz input", {}, with_stamps ? &stamps_source : nullptr);
    } catch (const wavefit::cli::usage_error& e) {
        const std::string message = e.what();
        if (message.empty() || message.find('\n') != std::string::npos || message.rfind("fuzz input: ", 0) != 0)
            finding(target, "a refusal is not one line naming the input", message);
        return 0;
    }
    if (trace.kernels.dispatches() == 0) finding(target, "an accepted trace without dispatches", "");
    std::uint64_t dispatches = 0, total = 0;
    for (const wavefit::analysis::kernel_group& g : trace.kernels.groups()) {
        dispatches += g.dispatches;
        total = wavefit::detail::saturating_add(total, g.total_ns);
        if (g.dispatches == 0) finding(target, "an empty group", g.launch.name);
    }
    if (dispatches != trace.kernels.dispatches() || total != trace.kernels.total_ns())
        finding(target, "groups do not add up to the totals",
                std::to_string(dispatches) + " vs " + std::to_string(trace.kernels.dispatches()));
    for (const wavefit::device_limits* d : {&wavefit::presets::detail::mi300x, &wavefit::presets::detail::h200}) {
        for (const wavefit::analysis::kernel_group& g : trace.kernels.groups()) {
            const wavefit::analysis::kernel_audit a = wavefit::analysis::audit_kernel(*d, g);
            for (const wavefit::analysis::audit_finding& f : a.findings)
                if (f.code.empty() || f.message.empty() || f.fix.empty() ||
                    (f.severity != "error" && f.severity != "warning" && f.severity != "info"))
                    finding(target, "a finding without code, severity, message or fix", f.code + ": " + f.message);
            if (a.occupancy.occupancy < 0.0 || a.occupancy.occupancy > 1.0)
                finding(target, "occupancy outside 0..1", g.launch.name);
        }
    }
    return 0;
}

}  // namespace fuzz_trace
