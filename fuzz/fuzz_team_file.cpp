// SPDX-License-Identifier: MIT
// libFuzzer target: team notebook files (tools/wavefit/team_file.hpp) and their merge into the
// built-in notebook (notebook.hpp), the input `--kb FILE` and WAVEFIT_KB_PATH read. Invariants:
//   * parsing never traps and every error is one line "fuzz.kb:N: ..." with N a line of the input;
//   * the caps hold (entries, values per key, errors kept);
//   * merging never changes a built-in text and never adds more causes than the file gave;
//   * an accepted entry written back out in the same format parses again to the same entry.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_line_errors.hpp"
#include "notebook.hpp"
#include "team_file.hpp"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz_team_file: invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

std::string written(const wavefit::cli::notebook_entry& e) {
    std::string text = "entry: " + e.name + "\n";
    for (const std::string& a : e.aliases) text += "alias: " + a + "\n";
    for (const std::int64_t c : e.codes) text += "code: " + std::to_string(c) + "\n";
    for (const std::string& p : e.patterns) text += "pattern: " + p + "\n";
    if (!e.meaning.empty()) text += "meaning: " + e.meaning + "\n";
    for (const auto& c : e.causes) text += "cause: " + c.cause + "\nfix: " + c.fix + "\n";
    for (const std::string& l : e.links) text += "link: " + l + "\n";
    for (const std::string& s : e.seen) text += "seen: " + s + "\n";
    return text;
}

bool same(const wavefit::cli::notebook_entry& a, const wavefit::cli::notebook_entry& b) {
    if (a.name != b.name || a.aliases != b.aliases || a.codes != b.codes || a.patterns != b.patterns ||
        a.meaning != b.meaning || a.links != b.links || a.seen != b.seen || a.causes.size() != b.causes.size())
        return false;
    for (std::size_t i = 0; i < a.causes.size(); ++i)
        if (a.causes[i].cause != b.causes[i].cause || a.causes[i].fix != b.causes[i].fix) return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace cli = wavefit::cli;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::uint64_t line_count = 0;
    for (const char c : text) line_count += c == '\n' ? 1 : 0;
    if (!text.empty() && text.back() != '\n') ++line_count;

    cli::team_file_result parsed = cli::parse_team_text(text, "fuzz.kb");
    if (parsed.entries.size() > cli::team_file_limits::max_entries) finding("more entries than the cap");
    fuzz_line_errors::check(parsed, cli::team_file_limits::max_errors_kept, "fuzz.kb", line_count, finding);
    for (const cli::notebook_entry& e : parsed.entries) {
        if (e.name.empty()) finding("an accepted entry without a name");
        for (const auto& c : e.causes)
            if (c.fix.empty()) finding("an accepted cause without its fix", e.name);
        const cli::team_file_result again = cli::parse_team_text(written(e), "fuzz.kb");
        if (again.error_count != 0 || again.entries.size() != 1 || !same(again.entries[0], e))
            finding("an accepted entry does not read back the same", written(e));
    }

    cli::notebook book;
    const cli::notebook pristine;
    std::size_t causes_given = 0;
    for (const cli::notebook_entry& e : parsed.entries) causes_given += e.causes.size();
    cli::add_team_entries(book, parsed);
    std::size_t causes_added = 0;
    for (std::size_t i = 0; i < book.entries().size(); ++i) {
        const cli::notebook_entry& e = book.entries()[i];
        if (i < pristine.builtin_count()) {
            if (e.builtin != pristine.entries()[i].builtin || e.name != pristine.entries()[i].name)
                finding("a built-in entry changed", e.name);
            causes_added += e.causes.size();
        } else {
            if (e.builtin != nullptr) finding("a team entry claims a built-in text", e.name);
            if (e.meaning.empty() || e.causes.empty()) finding("a stand-alone entry without meaning or cause", e.name);
            causes_added += e.causes.size();
        }
    }
    if (book.builtin_count() != pristine.builtin_count()) finding("the built-in count changed");
    if (causes_added > causes_given) finding("more causes merged than the file gave");
    for (const std::string& e : parsed.errors)
        if (e.find('\n') != std::string::npos) finding("a merge error spans lines", e);
    return 0;
}
