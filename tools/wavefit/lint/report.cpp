// SPDX-License-Identifier: MIT
// Text, JSON and SARIF for a lint run (report.hpp).
#include "report.hpp"

#include <wavefit/detail/ascii.hpp>
#include <wavefit/version.hpp>

#include "../json_writer.hpp"
#include "../terminal_text.hpp"

namespace wavefit::cli::lint {
namespace {

struct counts {
    std::uint64_t errors = 0, warnings = 0, notes = 0, parsed = 0, failed = 0, with_errors = 0;
};

counts count(const lint_report& r) {
    counts c;
    for (const finding& f : r.findings) {
        if (f.level() == level::error) ++c.errors;
        else if (f.level() == level::warning) ++c.warnings;
        else ++c.notes;
    }
    for (const file_status& s : r.files) {
        if (!s.parsed) ++c.failed;
        else ++c.parsed;
        if (s.parsed && s.errors > 0) ++c.with_errors;
    }
    return c;
}

std::string plural(std::uint64_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string uri_reference(const std::string& path) {
    std::string s;
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                                c == '.' || c == '_' || c == '~' || c == '/';
        if (unreserved) {
            s += ch;
        } else {
            s += '%';
            wavefit::detail::append_hex_byte(s, c, true);
        }
    }
    return s;
}

std::string render_text(const lint_report& r) {
    std::string out;
    for (const finding& f : r.findings) {
        out += terminal_safe(f.file) + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + ": " +
               std::string(to_string(f.level())) + " [" + std::string(f.code()) + "] " + terminal_safe(f.message) + "\n";
        if (!f.source_line.empty()) {
            const std::string number = std::to_string(f.line);
            out += "  " + number + " | " + terminal_safe(f.source_line) + "\n";
        }
        out += "  fix: " + terminal_safe(f.fix) + "\n";
        if (!f.replacement.empty()) out += "  wavefit: " + terminal_safe(f.replacement) + "\n";
    }
    const counts c = count(r);
    const std::string device = r.target != nullptr ? r.target->device_name : std::string("?");
    if (r.findings.empty())
        out += "no findings";
    else
        out += plural(r.findings.size(), "finding") + " (" + plural(c.errors, "error") + ", " + plural(c.warnings, "warning") +
               ", " + plural(c.notes, "note") + ")";
    out += " for " + device + " in " + plural(r.files.size(), "file") + ": " + std::to_string(c.parsed) + " parsed (" +
           std::to_string(c.with_errors) + " with errors), " + std::to_string(c.failed) + " failed";
    if (r.suppressed_by_comment + r.suppressed_by_baseline > 0)
        out += "; " + std::to_string(r.suppressed_by_comment) + " suppressed by NOLINT, " +
               std::to_string(r.suppressed_by_baseline) + " by the baseline";
    out += "\n";
    return out;
}

std::string render_json(const lint_report& r) {
    const counts c = count(r);
    json_writer j;
    j.begin_object();
    j.key("target").begin_object();
    if (r.target != nullptr) {
        j.key("arch").value(r.target->arch);
        j.key("device").value(r.target->device_name);
        j.key("wave_size").value(r.target->wave_size);
        j.key("lds_per_block").value(r.target->lds_per_block);
    }
    j.end_object();
    j.key("summary").begin_object();
    j.key("findings").value(static_cast<std::uint64_t>(r.findings.size()));
    j.key("errors").value(c.errors);
    j.key("warnings").value(c.warnings);
    j.key("notes").value(c.notes);
    j.key("files").value(static_cast<std::uint64_t>(r.files.size()));
    j.key("parsed").value(c.parsed);
    j.key("parsed_with_errors").value(c.with_errors);
    j.key("failed").value(c.failed);
    j.key("suppressed_by_comment").value(r.suppressed_by_comment);
    j.key("suppressed_by_baseline").value(r.suppressed_by_baseline);
    j.key("seconds").value(r.seconds);
    j.key("precompile_seconds").value(r.precompile_seconds);
    j.key("shared_headers").value(r.shared_headers);
    j.key("jobs").value(static_cast<std::uint64_t>(r.jobs));
    j.end_object();
    j.key("findings").begin_array();
    for (std::size_t i = 0; i < r.findings.size(); ++i) {
        const finding& f = r.findings[i];
        j.begin_object();
        j.key("code").value(f.code());
        j.key("group").value(to_string(f.kind->group));
        j.key("severity").value(to_string(f.level()));
        j.key("file").value(f.file);
        j.key("line").value(f.line);
        j.key("column").value(f.column);
        j.key("message").value(f.message);
        j.key("why").value(f.kind->why);
        j.key("fix").value(f.fix);
        j.key("replacement").value(f.replacement);
        j.key("fingerprint").value(i < r.fingerprints.size() ? r.fingerprints[i] : std::string());
        j.end_object();
    }
    j.end_array();
    j.key("files").begin_array();
    for (const file_status& s : r.files) {
        j.begin_object();
        j.key("path").value(s.path);
        j.key("status").value(s.parsed ? "parsed" : "failed");
        j.key("header").value(s.header);
        j.key("errors").value(s.errors);
        j.key("first_error").value(s.first_error);
        j.key("precompiled").value(s.precompiled);
        j.key("shared_header").text_or_null(s.shared_header);
        j.key("parse_seconds").value(s.parse_seconds);
        j.key("check_seconds").value(s.check_seconds);
        j.end_object();
    }
    j.end_array();
    j.end_object();
    return j.finish();
}

std::string render_sarif(const lint_report& r, const std::string& working_directory) {
    json_writer j;
    j.begin_object();
    j.key("$schema").value("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
    j.key("version").value("2.1.0");
    j.key("runs").begin_array().begin_object();
    j.key("tool").begin_object().key("driver").begin_object();
    j.key("name").value("wavefit lint");
    j.key("version").value(WAVEFIT_VERSION_STRING);
    j.key("rules").begin_array();
    for (const rule& rl : rules) {
        j.begin_object();
        j.key("id").value(rl.code);
        j.key("name").value(rl.code);
        j.key("shortDescription").begin_object().key("text").value(rl.title).end_object();
        j.key("fullDescription").begin_object().key("text").value(rl.why).end_object();
        j.key("defaultConfiguration").begin_object().key("level").value(to_string(rl.level)).end_object();
        j.key("properties").begin_object().key("tags").begin_array().value("amd").value(to_string(rl.group)).end_array().end_object();
        j.end_object();
    }
    j.end_array();
    j.end_object().end_object();  // driver, tool
    j.key("originalUriBaseIds").begin_object().key("SRCROOT").begin_object();
    std::string root = working_directory;
    if (root.empty() || root.back() != '/') root += '/';
    j.key("uri").value("file://" + uri_reference(root));
    j.end_object().end_object();
    j.key("results").begin_array();
    for (std::size_t i = 0; i < r.findings.size(); ++i) {
        const finding& f = r.findings[i];
        std::size_t rule_index = 0;
        for (std::size_t k = 0; k < rule_count; ++k)
            if (&rules[k] == f.kind) rule_index = k;
        j.begin_object();
        j.key("ruleId").value(f.code());
        j.key("ruleIndex").value(static_cast<std::uint64_t>(rule_index));
        j.key("level").value(to_string(f.level()));
        std::string text = f.message + ". Fix: " + f.fix;
        if (!f.replacement.empty()) text += " (wavefit: " + f.replacement + ")";
        j.key("message").begin_object().key("text").value(text).end_object();
        j.key("locations").begin_array().begin_object();
        j.key("physicalLocation").begin_object();
        j.key("artifactLocation").begin_object();
        const bool absolute = !f.file.empty() && f.file.front() == '/';
        j.key("uri").value(absolute ? "file://" + uri_reference(f.file) : uri_reference(f.file));
        if (!absolute) j.key("uriBaseId").value("SRCROOT");
        j.end_object();
        j.key("region").begin_object();
        j.key("startLine").value(f.line);
        if (f.column > 0) j.key("startColumn").value(f.column);
        j.end_object();
        j.end_object();  // physicalLocation
        j.end_object().end_array();
        j.key("partialFingerprints").begin_object().key("wavefitLint/v1").value(i < r.fingerprints.size() ? r.fingerprints[i] : std::string()).end_object();
        j.key("properties").begin_object();
        j.key("fix").value(f.fix);
        j.key("replacement").value(f.replacement);
        j.key("group").value(to_string(f.kind->group));
        j.end_object();
        j.end_object();
    }
    j.end_array();
    j.key("invocations").begin_array().begin_object().key("executionSuccessful").value(true).end_object().end_array();
    j.end_object().end_array();  // run, runs
    j.end_object();
    return j.finish();
}

}  // namespace wavefit::cli::lint
