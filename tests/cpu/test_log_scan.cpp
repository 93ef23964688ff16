// SPDX-License-Identifier: MIT
// Specifications of the mistake notebook's parts in tools/wavefit: the log scanner (log_scan.hpp),
// the team file parser (team_file.hpp) and how team entries merge into the built-in notebook
// (notebook.hpp). The CLI tests (tests/cli/test_explain_scan.py) run the same through `wavefit`.
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../tools/wavefit/log_scan.hpp"
#include "../../tools/wavefit/notebook.hpp"
#include "../../tools/wavefit/team_file.hpp"

namespace cli = wavefit::cli;
using namespace std::string_literals;

namespace {

// The problems of `text` (lines split at \n) as (entry name, line numbers).
std::vector<std::pair<std::string, std::vector<std::uint64_t>>> scan(const cli::notebook& book, std::string_view text) {
    cli::log_scanner scanner(book);
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        scanner.line(text.substr(at, end - at));
        at = end + 1;
    }
    std::vector<std::pair<std::string, std::vector<std::uint64_t>>> found;
    for (const cli::found_problem& p : scanner.report().problems)
        found.emplace_back(p.entry == cli::notebook::npos ? "unknown: " + p.unknown_name : book.entries()[p.entry].name,
                           p.lines);
    return found;
}

std::vector<std::pair<std::string, std::vector<std::uint64_t>>> scan(std::string_view text) {
    const cli::notebook book;
    return scan(book, text);
}

// The scanner's whole report on `lines`, scanned in order against `book`.
cli::scan_report report_of(const cli::notebook& book, std::initializer_list<std::string_view> lines) {
    cli::log_scanner scanner(book);
    for (const std::string_view line : lines) scanner.line(line);
    return scanner.report();
}

// Parses `text` as the team file "t.kb", which has no errors of its own, adds its entries to `book`, and requires
// that adding refused `refused` of them (one error each, kept in the result).
cli::team_file_result add_team_text(cli::notebook& book, std::size_t refused, std::string_view text) {
    auto parsed = cli::parse_team_text(text, "t.kb");
    REQUIRE(parsed.error_count == 0);
    cli::add_team_entries(book, parsed);
    REQUIRE(parsed.error_count == refused);
    return parsed;
}

using found = std::vector<std::pair<std::string, std::vector<std::uint64_t>>>;

}  // namespace

TEST_CASE("names, messages and log-line phrases are found once per problem with every line", "[log_scan]") {
    CHECK(scan("RuntimeError: HIP error: invalid device function\nok\nhipErrorInvalidDeviceFunction again\n") ==
          found{{"hipErrorInvalidDeviceFunction", {1, 3}}});
    CHECK(scan("cudaErrorInvalidConfiguration: invalid configuration argument") ==
          found{{"hipErrorInvalidConfiguration", {1}}});
    CHECK(scan("HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f") ==
          found{{"HSA_STATUS_ERROR_INVALID_ISA", {1}}});
    CHECK(scan("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!") ==
          found{{"hipErrorNoBinaryForGpu", {1}}});
    CHECK(scan("x\ny\nwavefit: error registers_exceed_limit on mi300a") == found{{"registers_exceed_limit", {3}}});
    // One line with two problems reports both, in the order they are noted.
    CHECK(scan("hipErrorLaunchFailure after: Launch params (512, 1, 1) are larger than launch bounds (256) for kernel k")
              .size() == 2);
}

TEST_CASE("hipSuccess and lookalike identifiers are no problem", "[log_scan]") {
    CHECK(scan(":3:hip_module.cpp :679 : 0893897958 us: hipLaunchKernel: Returned hipSuccess :").empty());
    CHECK(scan("cudaSuccess").empty());
    CHECK(scan("myhipErrorInvalidValue invalid_configuration_argument hipError_t cudaError_t hipErrorfoo").empty());
    CHECK(scan("Out of memory: Killed process 4242 (python)").empty());  // a generic message needs a GPU word
    CHECK(scan("HIP: out of memory").size() == 1);
}

TEST_CASE("HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008) is in the notebook, with its public sources", "[log_scan]") {
    // The line HIP prints when a dispatch's scratch cannot be allocated (format of ROCm/hip#3253 and
    // StanfordLegion/legion#1339; the numbers here are made up).
    CHECK(scan(":0:rocdevice.cpp :2652: 123 us: 4: [tid:0x7f] Device::callbackQueue aborting with error : "
               "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. code: 0x1008") ==
          found{{"HSA_STATUS_ERROR_OUT_OF_RESOURCES", {1}}});
    const wavefit::analysis::error_explanation* e = wavefit::analysis::find_explanation("HSA_STATUS_ERROR_OUT_OF_RESOURCES");
    REQUIRE(e != nullptr);
    CHECK(e->kind == wavefit::analysis::explanation_kind::log_line);
    for (const char* source : {"ROCm/hip#3253", "StanfordLegion/legion#1339", "amd_aql_queue.cpp", "0x1008"})
        CHECK(std::string_view(e->source).find(source) != std::string_view::npos);
}

TEST_CASE("a name shaped like an error name that the notebook does not know is reported as unknown, not dropped",
          "[log_scan]") {
    // Issue 20: such a line was skipped without a word.
    CHECK(scan("fatal: HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION\nx\ncudaErrorNotARealOne (and again "
               "cudaErrorNotARealOne)\nHSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") ==
          found{{"unknown: HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", {1, 4}}, {"unknown: cudaErrorNotARealOne", {3}}});
    // Beside a known problem both are reported; a number on the line is then not looked up.
    CHECK(scan("hipErrorLaunchFailure then hipErrorFrobnicated (error 209)") ==
          found{{"hipErrorLaunchFailure", {1}}, {"unknown: hipErrorFrobnicated", {1}}});
    CHECK(scan("HIP error: hipErrorFrobnicated, error code 209") == found{{"unknown: hipErrorFrobnicated", {1}}});
}

TEST_CASE("a number counts only in an error context, and only when nothing else on the line matched", "[log_scan]") {
    CHECK(scan("took 209 ms").empty());
    CHECK(scan("error code: 209") == found{{"hipErrorNoBinaryForGpu", {1}}});
    CHECK(scan("error code=0xd1") == found{{"hipErrorNoBinaryForGpu", {1}}});
    CHECK(scan("hipError_t 9") == found{{"hipErrorInvalidConfiguration", {1}}});
    CHECK(scan("cudaError_t(700)") == found{{"hipErrorIllegalAddress", {1}}});
    CHECK(scan("HIP error 700") == found{{"hipErrorIllegalAddress", {1}}});
    CHECK(scan("error 700") == found{{"hipErrorIllegalAddress", {1}}});
    CHECK(scan("error 1").empty());  // small and no GPU word: too ambiguous
    CHECK(scan("GPU launch: error 1") == found{{"hipErrorInvalidValue", {1}}});
    CHECK(scan("make: *** [gpu.hip.o] Error 2").empty());  // make's exit status
    CHECK(scan("exit code 1, error count 3, code 9").empty());
    CHECK(scan("error code: 12345").empty());    // no such code
    CHECK(scan("error code:     209").empty());  // too far from its keyword
    // The porting guide's mislabel: the name on the line wins over the number.
    CHECK(scan("hipErrorInvalidConfiguration (error code 209)") == found{{"hipErrorInvalidConfiguration", {1}}});
}

TEST_CASE("the launch-bounds line gives its numbers and a fix made of them", "[log_scan]") {
    const cli::notebook book;
    const cli::scan_report report =
        report_of(book, {":1:hip_module.cpp :91 : 1885938529 us: [pid:4242] Launch params (1024, 1, 1) are larger than "
                         "launch bounds (256) for kernel _ZL12rms_norm_f32ILi1024EEvPKfPfif please add __launch_bounds__",
                         "Launch params (64, 4, 1) are larger than launch bounds (128) for kernel k2",
                         "Launch params (1024, 1, 1) are larger than launch bounds (256) for kernel _ZL12rms_norm_f32"});
    const auto& problems = report.problems;
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].lines == std::vector<std::uint64_t>{1, 3});
    CHECK(problems[0].numbers == std::vector<std::pair<std::string, std::uint64_t>>{
                                     {"block_x", 1024}, {"block_y", 1}, {"block_z", 1}, {"bound", 256}, {"block", 1024}});
    REQUIRE(problems[0].from_line.has_value());
    CHECK(problems[0].from_line->fix ==
          "the block of 1024 exceeds this kernel's bound of 256; rebuild with `__launch_bounds__(1024)` or launch at "
          "most 256 threads per block");
    CHECK(problems[0].from_line->cause.find("kernel _ZL12rms_norm_f32ILi1024EEvPKfPfif whose") != std::string::npos);
    CHECK(problems[1].numbers[4] == std::pair<std::string, std::uint64_t>{"block", 256});
    CHECK(problems[1].from_line->fix.find("`__launch_bounds__(256)` or launch at most 128") != std::string::npos);
}

TEST_CASE("a malformed launch-bounds line is still the problem, without numbers", "[log_scan]") {
    const cli::notebook book;
    for (const std::string_view line :
         {"are larger than launch bounds", "Launch params (1024, 1 are larger than launch bounds (256)",
          "Launch params (99999999999999999999, 1, 1) are larger than launch bounds (256)",
          "Launch params (1024, 1, 1) are larger than launch bounds (",
          "Launch params () are larger than launch bounds ()"}) {
        CAPTURE(line);
        const cli::scan_report report = report_of(book, {line});
        REQUIRE(report.problems.size() == 1);
        CHECK(report.problems[0].numbers.empty());
        CHECK_FALSE(report.problems[0].from_line.has_value());
    }
    // Huge dimensions are clamped, never wrapped.
    const cli::scan_report huge =
        report_of(book, {"Launch params (999999999999999999, 999999999999999999, 9) are larger than launch bounds (1)"});
    CHECK(huge.problems.at(0).numbers.at(4).second == (std::uint64_t{1} << 62));
}

TEST_CASE("the memory fault line gives its node and reason", "[log_scan]") {
    const cli::notebook book;
    const cli::found_problem p = report_of(book, {"Memory access fault by GPU node-4 (Agent handle: 0x152e220) on address "
                                                  "(nil). Reason: Page not present or supervisor privilege."})
                                     .problems.at(0);
    CHECK(book.entries()[p.entry].name == "hipErrorIllegalAddress");
    CHECK(p.numbers == std::vector<std::pair<std::string, std::uint64_t>>{{"node", 4}, {"address", 0}});
    // Issue 20: an address of (nil), 0x0 or 0x1000 is a null pointer, and the cause says so.
    CHECK(p.from_line->cause ==
          "This log: the GPU node-4 faulted on address (nil) (Reason: Page not present or "
          "supervisor privilege), in the first pages of the address space, which nothing maps: "
          "a null pointer.");
    CHECK(p.from_line->fix.find("dereferenced a null pointer: a buffer never allocated") != std::string::npos);
}

TEST_CASE("a memory fault near address 0 is a null pointer plus an offset; a high address is not", "[log_scan]") {
    const cli::notebook book;
    const auto fault = [&](const std::string& address) {
        const std::string line = "Memory access fault by GPU node-2 (Agent handle: 0x5646) on address " + address +
                                 ". Reason: Page not present or supervisor privilege.";
        return report_of(book, {line}).problems.at(0);
    };
    const cli::found_problem zero = fault("0x0");
    CHECK(zero.from_line->cause.find("on address 0x0 (Reason") != std::string::npos);
    CHECK(zero.from_line->cause.find("a null pointer.") != std::string::npos);
    const cli::found_problem page = fault("0x1000");
    CHECK(page.from_line->fix.find("a null pointer plus an offset of 4096 bytes") != std::string::npos);
    CHECK(page.numbers.back() == std::pair<std::string, std::uint64_t>{"address", 4096});
    const cli::found_problem high = fault("0x7fe55fb03000");
    CHECK(high.from_line->cause ==
          "This log: the GPU node-2 faulted with Reason: Page not present or supervisor privilege.");
    CHECK(high.from_line->fix.find("null pointer") == std::string::npos);
    // An address that does not fit 64 bits is no number at all.
    CHECK(fault("0x1234567890abcdef0").numbers.size() == 1);
}

TEST_CASE("the scanner keeps bounded state: line numbers, problems and excerpts are capped", "[log_scan]") {
    const cli::notebook book;
    cli::log_scanner scanner(book);
    for (int i = 0; i < 1000; ++i) scanner.line("HIP error 700");
    for (int i = 0; i < 400; ++i)
        scanner.line("Launch params (" + std::to_string(2000 + i) + ", 1, 1) are larger than launch bounds (64)");
    scanner.line(std::string(100000, 'x') + " hipErrorInvalidValue " + std::string(100000, 'y'));
    const cli::scan_report& r = scanner.report();
    CHECK(r.lines == 1401);
    CHECK(r.problems.size() == cli::scan_limits::max_problems);
    CHECK(r.problems_not_kept == 400 - (cli::scan_limits::max_problems - 1));
    CHECK(r.problems[0].occurrences == 1000);
    CHECK(r.problems[0].lines.size() == cli::scan_limits::max_lines_per_problem);
    // The line was cut at 4096 bytes, so the name at byte 100000 was never read.
    for (const auto& p : r.problems) CHECK(book.entries()[p.entry].name != "hipErrorInvalidValue");
    for (const auto& p : r.problems) CHECK(p.excerpt.size() <= cli::scan_limits::max_excerpt_bytes + 6);
}

TEST_CASE("excerpts are terminal-safe and show the match of a long line", "[log_scan]") {
    const cli::notebook book;
    cli::log_scanner scanner(book);
    scanner.line(std::string(2000, 'a') + "\x1b[2J hipErrorInvalidValue \xc3\xa9" + std::string(2000, 'b'));
    const std::string& e = scanner.report().problems.at(0).excerpt;
    CHECK(e.find("hipErrorInvalidValue") != std::string::npos);
    CHECK(e.find("\\x1b[2J") != std::string::npos);
    CHECK(e.find("\\xc3\\xa9") != std::string::npos);
    CHECK(e.substr(0, 3) == "...");
    for (const char c : e) CHECK((c >= 0x20 && c < 0x7f));
}

TEST_CASE("the Aho-Corasick automaton finds exactly what a naive search finds", "[log_scan]") {
    // Overlapping patterns, patterns inside patterns, repeated letters: the cases automata get wrong.
    const std::vector<std::string> patterns = {"abab", "bab", "aab", "ab", "babb", "b", "aaaa", "abba"};
    cli::scan_detail::automaton a;
    for (const std::string& p : patterns) a.add(p);
    a.build();
    std::uint32_t state = 12345;
    for (int round = 0; round < 500; ++round) {
        std::string text;
        for (int i = 0; i < 40; ++i) {
            state = state * 1103515245u + 12345u;  // a fixed sequence: the same texts on every run
            text += "abAB"[(state >> 16) % 4];
        }
        std::vector<bool> seen(patterns.size(), false);
        std::string lower = text;
        for (char& c : lower) c = wavefit::detail::to_lower(c);
        a.match(lower, [&](std::size_t id, std::size_t) { seen[id] = true; });
        for (std::size_t i = 0; i < patterns.size(); ++i) {
            CAPTURE(text, patterns[i]);
            CHECK(seen[i] == (wavefit::detail::ifind(text, patterns[i]) != std::string_view::npos));
        }
    }
}

TEST_CASE("team files: every error is one line FILE:LINE and rejects only its entry", "[team_file]") {
    const auto r = cli::parse_team_text(
        "entry: team_ok\nmeaning: m\ncause: c\nfix: f\n"
        "entry: team_bad\nmeaning: m\ncause: c\n"
        "entry: team_ok2\nmeaning: m2\ncause: c2\nfix: f2\nseen: CI\n"
        "stray line\n",
        "t.kb");
    REQUIRE(r.entries.size() == 1);
    CHECK(r.entries[0].name == "team_ok");
    CHECK(r.errors ==
          std::vector<std::string>{"t.kb:7: 'cause:' without its 'fix:' on a following line (entry 'team_bad', rejected)",
                                   "t.kb:13: expected 'key: value' (keys: entry, alias, code, pattern, meaning, cause, fix, "
                                   "link, seen) (entry 'team_ok2', rejected)"});
    const auto before = cli::parse_team_text("meaning: before any entry\n# comment\n\n", "t.kb");
    CHECK(before.errors == std::vector<std::string>{"t.kb:1: 'meaning:' before the first 'entry:' line"});
}

TEST_CASE("team files: limits on lines, values and entries", "[team_file]") {
    const auto long_line = cli::parse_team_text("entry: team_x\nmeaning: " + std::string(5000, 'm') + "\n", "t.kb");
    CHECK(long_line.errors.at(0).rfind("t.kb:2: line longer than 4096 bytes", 0) == 0);
    std::string many = "entry: team_x\nmeaning: m\n";
    for (int i = 0; i < 70; ++i) many += "cause: c\nfix: f\n";
    CHECK(cli::parse_team_text(many, "t.kb").errors.at(0).find("more than 64 'cause:' lines") != std::string::npos);
    std::string entries;
    for (int i = 0; i < 1100; ++i) entries += "entry: team_" + std::to_string(i) + "\nmeaning: m\ncause: c\nfix: f\n";
    const auto r = cli::parse_team_text(entries, "t.kb");
    CHECK(r.entries.size() == cli::team_file_limits::max_entries);
    CHECK(r.error_count == 1);
    // Patterns and aliases become automaton states: 16 KiB of them per file.
    std::string patterns = "entry: team_p\nmeaning: m\ncause: c\nfix: f\n";
    for (int i = 0; i < 20; ++i) patterns += "pattern: " + std::string(1000, static_cast<char>('a' + i)) + "\n";
    const auto p = cli::parse_team_text(patterns, "t.kb");
    CHECK(p.entries.empty());
    CHECK(p.errors.at(0).rfind("t.kb:21: more than 16 KiB of patterns and aliases in one file", 0) == 0);
    // 4 MiB of text per file; the rest of the file is ignored, malformed or not.
    std::string big;
    for (int i = 0; i < 600; ++i)
        big += "entry: team_" + std::to_string(i) + "\nmeaning: " + std::string(4000, 'm') +
               "\ncause: " + std::string(4000, 'c') + "\nfix: f\n";
    big += "entry: team_after\nbad line\n";
    const auto b = cli::parse_team_text(big, "t.kb");
    CHECK(b.error_count == 1);
    CHECK(b.errors.at(0).find("more than 4 MiB of entry text in one file; the rest is ignored") != std::string::npos);
    CHECK(b.entries.size() == 524);  // 8001 bytes of values each: the 525th passes 4 MiB
    for (const auto& e : b.entries) CHECK(e.name != "team_after");
    CHECK(cli::parse_team_text("entry: team_x\ncode: 0\n", "t.kb").error_count == 1);
    CHECK(cli::parse_team_text("entry: team_x\ncode: 2147483648\n", "t.kb").error_count == 1);
    CHECK(cli::parse_team_text("entry: team_x\nlink: a\x01"
                               "b\n",
                               "t.kb")
              .error_count == 1);
    CHECK(cli::parse_team_text("entry:\n", "t.kb").error_count == 1);
}

TEST_CASE("team entries extend built-in ones after their own texts, or stand alone", "[team_file]") {
    cli::notebook book;
    add_team_text(book, 0,
                  "entry: CUDAERRORILLEGALADDRESS\ncause: our c\nfix: our f\nseen: CI\n"
                  "entry: team_new\nalias: TEAM_NEW_ALIAS\ncode: 77777\npattern: the widget broke\n"
                  "meaning: m\ncause: c\nfix: f\n"
                  "entry: team_new\ncause: c2\nfix: f2\n");
    const std::size_t illegal = book.find("hipErrorIllegalAddress");
    const cli::notebook_entry& e = book.entries().at(illegal);
    const std::size_t own = e.builtin->cause_count;
    CHECK(e.cause_count() == own + 1);
    CHECK(e.cause(own) == "our c");
    CHECK(e.fix(own) == "our f");
    CHECK(e.full_meaning() == e.builtin->meaning);
    CHECK(book.team_entry_count() == 1);
    CHECK(book.extended_count() == 1);
    const std::size_t team = book.find("team_new");
    CHECK(team == book.builtin_count());
    CHECK(book.find("team_new_alias") == team);
    CHECK(book.find("77777") == team);
    CHECK(book.find("why: The Widget Broke again") == team);
    CHECK(book.entries()[team].cause_count() == 2);
    CHECK(scan(book, "x\nthe widget broke\nerror code 77777\n") == found{{"team_new", {2, 3}}});
}

TEST_CASE("a team entry that would take a built-in name or code is refused and changes nothing", "[team_file]") {
    cli::notebook book;
    const cli::notebook pristine;
    const auto added = add_team_text(book, 4,
                                     "entry: team_a\nalias: hipErrorInvalidValue\nmeaning: m\ncause: c\nfix: f\n"
                                     "entry: team_b\ncode: 9\nmeaning: m\ncause: c\nfix: f\n"
                                     "entry: hipErrorInvalidValue\ncode: 5\ncause: c\nfix: f\n"
                                     "entry: team_c\npattern: some text\n");
    CHECK(added.errors.at(3) ==
          "t.kb:15: 'team_c' is no built-in entry, so it stands alone and needs meaning: and at least one cause:/fix: "
          "pair (entry rejected)");
    REQUIRE(book.entries().size() == pristine.entries().size());
    for (std::size_t i = 0; i < book.entries().size(); ++i) {
        CHECK(book.entries()[i].cause_count() == pristine.entries()[i].cause_count());
        CHECK(book.entries()[i].origins.empty());
    }
}

TEST_CASE("anchors and cited issues for the exported page", "[team_file]") {
    CHECK(cli::anchor_of("hipErrorInvalidConfiguration") == "hiperrorinvalidconfiguration");
    CHECK(cli::anchor_of("Launch params (x, y, z) are larger than launch bounds (N)") ==
          "launch-params-x-y-z-are-larger-than-launch-bounds-n");
    CHECK(cli::anchor_of("HSA_STATUS_ERROR_INVALID_ISA") == "hsa-status-error-invalid-isa");
    CHECK(cli::anchor_of("!!!") == "entry");
    CHECK(cli::cited_issues("(seen in ggml-org/llama.cpp#10610: x) and pytorch/pytorch#168806, #12 or a/b/c#3") ==
          std::vector<std::string>{"ggml-org/llama.cpp#10610", "pytorch/pytorch#168806"});
    // Every built-in entry names a source.
    for (const wavefit::analysis::error_explanation& e : wavefit::analysis::all_error_explanations()) {
        CAPTURE(e.name);
        CHECK_FALSE(e.source.empty());
    }
}
