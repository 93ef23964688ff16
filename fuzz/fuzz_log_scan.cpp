// SPDX-License-Identifier: MIT
// libFuzzer target: `wavefit explain --scan` (tools/wavefit/log_scan.hpp) on arbitrary bytes as a log.
// An input holding a line "===" is a team file (team_file.hpp) up to that line and the log after it,
// so team patterns, names and codes reach the automaton too. Invariants:
//   * scanning never traps (ASan/UBSan) and the findings stay within their caps;
//   * every problem names an entry, or is a name shaped like an error name that no entry knows;
//   * every problem's line numbers are increasing, inside the log, and counted (occurrences >= lines);
//   * excerpts are printable ASCII of bounded length; launch-bounds numbers are the line's, the block
//     their product (clamped, never wrapped);
//   * the first line of a problem, scanned on its own, shows the same entry (findings do not depend
//     on the lines before them).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "log_scan.hpp"
#include "notebook.hpp"
#include "team_file.hpp"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz_log_scan: invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// Splits `text` as text_input does: at \n, each line capped at the scanner's limit.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        const bool truncated = line.size() > wavefit::cli::scan_limits::max_line_bytes;
        if (truncated) line = line.substr(0, wavefit::cli::scan_limits::max_line_bytes);
        if (!truncated && !line.empty() && line.back() == '\r') line.remove_suffix(1);
        f(line, truncated);
        at = end + 1;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace cli = wavefit::cli;
    std::string_view input(reinterpret_cast<const char*>(data), size);
    // The built-in notebook's scanners are built once; an input with a team file builds its own.
    static const cli::notebook builtin_book;
    static cli::log_scanner builtin_scanner(builtin_book);
    std::unique_ptr<cli::notebook> team_book;
    std::unique_ptr<cli::log_scanner> team_scanner;
    const std::size_t split = input.find("\n===\n");
    if (split != std::string_view::npos) {
        team_book = std::make_unique<cli::notebook>();
        cli::team_file_result team = cli::parse_team_text(input.substr(0, split), "fuzz.kb");
        cli::add_team_entries(*team_book, team);
        input = input.substr(split + 5);
        team_scanner = std::make_unique<cli::log_scanner>(*team_book);
    }
    const cli::notebook& book = team_book ? *team_book : builtin_book;
    cli::log_scanner& scanner = team_book ? *team_scanner : builtin_scanner;
    scanner.reset();

    std::vector<std::string> kept_lines;  // the first line of each problem, to rescan alone
    for_each_line(input, [&](std::string_view line, bool truncated) {
        const std::size_t before = scanner.report().problems.size();
        scanner.line(line, truncated);
        if (scanner.report().problems.size() > before && kept_lines.size() < 8) kept_lines.emplace_back(line);
    });
    const cli::scan_report r = scanner.report();  // a copy: the scanner rescans lines alone below
    if (r.problems.size() > cli::scan_limits::max_problems) finding("more problems than the cap");
    for (const cli::found_problem& p : r.problems) {
        if (p.entry == cli::notebook::npos) {
            // A name unknown to the notebook: shaped like an error name, as the log wrote it.
            if (!cli::scan_detail::looks_like_error_name(p.unknown_name)) finding("an unknown name of another shape", p.unknown_name);
        } else if (p.entry >= book.entries().size() || !p.unknown_name.empty()) {
            finding("a problem names no entry");
        }
        if (p.lines.empty() || p.lines.size() > cli::scan_limits::max_lines_per_problem) finding("line list size");
        if (p.occurrences < p.lines.size()) finding("occurrences below the lines listed");
        for (std::size_t i = 0; i < p.lines.size(); ++i) {
            if (p.lines[i] < 1 || p.lines[i] > r.lines) finding("a line number outside the log");
            if (i > 0 && p.lines[i] <= p.lines[i - 1]) finding("line numbers not increasing");
        }
        if (p.excerpt.size() > cli::scan_limits::max_excerpt_bytes + 6) finding("excerpt too long", p.excerpt);
        for (const char c : p.excerpt)
            if (c < 0x20 || c >= 0x7f) finding("excerpt not printable ASCII", p.excerpt);
        if (p.from_line) {
            for (const std::string* s : {&p.from_line->cause, &p.from_line->fix})
                for (const char c : *s)
                    if (c < 0x20 || c >= 0x7f) finding("a cause or fix from the line is not printable ASCII", *s);
        }
        if (p.numbers.size() == 5) {
            std::uint64_t product = 1;
            for (std::size_t k = 0; k < 3; ++k) {
                const std::uint64_t d = p.numbers[k].second;
                product = d != 0 && product > (std::uint64_t{1} << 62) / d ? (std::uint64_t{1} << 62) : product * d;
            }
            if (p.numbers[4].first != "block" || p.numbers[4].second != product) finding("block is not the product");
        }
    }
    // Each kept line alone shows the problem first found on it. Problems first found on one line are
    // adjacent (they are kept in order of first appearance), and kept_lines has one line per such group.
    std::size_t k = 0;
    for (std::size_t i = 0; i < r.problems.size() && k < kept_lines.size(); ++i) {
        const cli::found_problem& p = r.problems[i];
        if (i > 0 && r.problems[i - 1].lines.front() == p.lines.front()) continue;
        cli::log_scanner& alone = scanner;
        alone.reset();
        alone.line(kept_lines[k]);
        bool same = false;
        for (const cli::found_problem& q : alone.report().problems)
            same = same || (q.entry == p.entry && q.unknown_name == p.unknown_name);
        if (!same) finding("a line scanned alone does not show its problem", kept_lines[k]);
        ++k;
    }
    return 0;
}
