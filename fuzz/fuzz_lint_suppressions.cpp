// SPDX-License-Identifier: MIT
// libFuzzer target: the two readers of accepted lint findings (tools/wavefit/lint/suppressions.hpp), the
// NOLINT comments of a source and a baseline file, and the scan of a source's leading includes and a
// header's guard (tools/wavefit/lint/shared_headers.hpp), fed the same bytes. Invariants:
//   * neither traps, and both finish in time on any input;
//   * every NOLINT rule covers lines inside the text (1 to its line count + 1) and names known codes only;
//   * every baseline error is one line "fuzz.baseline:N: ..." with N a line of the input, within the caps;
//   * an accepted baseline entry written back out (baseline_line) reads back the same, whatever bytes its
//     path holds, and a path percent-encoded and decoded is the path;
//   * fingerprints are 16 lower-case hex digits and depend only on their input;
//   * every leading include is a non-empty name without a quote, backslash or line end, written in the
//     text between quotes, and a prefix of the text has at most one more (the line the cut ends).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_line_errors.hpp"
#include "lint/shared_headers.hpp"
#include "lint/suppressions.hpp"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz_lint_suppressions: invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace lint = wavefit::cli::lint;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::uint64_t lines = 1;
    for (const char c : text) lines += c == '\n' ? 1 : 0;

    for (const lint::nolint_rule& r : lint::scan_nolint(text)) {
        if (r.first_line < 1 || r.first_line > r.last_line || r.last_line > lines + 1) finding("a NOLINT rule outside the text");
        for (const std::string& code : r.codes)
            if (lint::find_rule(code) == nullptr) finding("a NOLINT rule names an unknown code", code);
        (void)lint::suppressed_by({r}, r.first_line, "full_mask_32bit");
    }

    const lint::baseline_file parsed = lint::parse_baseline(text, "fuzz.baseline");
    if (parsed.entries.size() > lint::baseline_limits::max_entries) finding("more entries than the cap");
    fuzz_line_errors::check(parsed, lint::baseline_limits::max_errors_kept, "fuzz.baseline", lines, finding);
    for (const lint::baseline_entry& e : parsed.entries) {
        if (lint::find_rule(e.code) == nullptr || !lint::is_fingerprint(e.fingerprint) || e.path.empty())
            finding("an accepted entry is malformed", e.code + " " + e.path);
        const lint::baseline_file again =
            lint::parse_baseline(lint::baseline_line(e.code, e.path, e.fingerprint), "fuzz.baseline");
        if (again.error_count != 0 || again.entries.size() != 1 || again.entries[0].code != e.code ||
            again.entries[0].path != e.path || again.entries[0].fingerprint != e.fingerprint)
            finding("an accepted entry does not read back the same", lint::baseline_line(e.code, e.path, e.fingerprint));
    }

    std::string decoded;
    if (!lint::decode_path(lint::encode_path(text), decoded) || decoded != text) finding("a path does not round-trip");
    const std::string f = lint::fingerprint_text(lint::fingerprint("full_mask_32bit", text, 0));
    if (!lint::is_fingerprint(f) || f != lint::fingerprint_text(lint::fingerprint("full_mask_32bit", text, 0)))
        finding("a fingerprint is malformed or unstable", f);

    const std::vector<std::string> includes = lint::leading_quoted_includes(text);
    for (const std::string& name : includes)
        if (name.empty() || name.find_first_of("\"\\\n\r") != std::string::npos ||
            text.find('"' + name + '"') == std::string_view::npos)
            finding("a leading include is malformed", name);
    if (lint::leading_quoted_includes(text.substr(0, size / 2)).size() > includes.size() + 1)
        finding("a prefix has more leading includes than the text");
    (void)lint::header_is_guarded(text);
    return 0;
}
