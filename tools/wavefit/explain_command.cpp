// SPDX-License-Identifier: MIT
// `wavefit explain`: the mistake notebook. CODE looks one entry up; --scan reads a whole log and
// reports every known problem once (log_scan.hpp); --check-kb validates a team file (team_file.hpp);
// --export markdown writes the whole notebook as one page. Team entries come from WAVEFIT_KB_PATH,
// then from each --kb FILE in order (notebook.hpp says how they merge).
#include <cstdlib>  // std::getenv
#include <string>
#include <vector>

#include "analysis/explain.hpp"

#include "arguments.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "log_scan.hpp"
#include "notebook.hpp"
#include "team_file.hpp"
#include "text_input.hpp"

namespace wavefit::cli {

using analysis::error_explanation;
using analysis::explanation_kind;
using analysis::no_error_code;

namespace {

// ---------------------------------------------------------------- loading the notebook

team_file_result read_team_file(const std::string& path) {
    text_input in(path, team_file_limits::max_line_bytes);
    in.expect_text("a team entry file");
    team_file_parser parser(in.name());
    std::string_view line;
    while (in.next_line(line)) parser.line(line, in.line_number(), in.last_line_truncated());
    return parser.finish();
}

void append_errors(std::string& err, const team_file_result& r) {
    for (const std::string& e : r.errors) err += "wavefit: " + one_line(e) + "\n";
    if (r.error_count > r.errors.size())
        err += "wavefit: ... and " + std::to_string(r.error_count - r.errors.size()) + " more errors\n";
}

// The built-in notebook plus the team files. A file named by --kb that cannot be read is a usage
// error; one in WAVEFIT_KB_PATH is skipped with a line on stderr (an environment setting must not
// make every explain fail). Rejected entries are named on stderr and leave everything else as it was.
notebook load_notebook(const explain_request& r, std::string& err) {
    notebook book;
    std::vector<std::string> env_files;
    if (const char* path = std::getenv("WAVEFIT_KB_PATH")) {
        const std::string_view list(path);
        std::size_t at = 0;
        while (at <= list.size()) {
            std::size_t colon = list.find(':', at);
            if (colon == std::string_view::npos) colon = list.size();
            if (colon > at) env_files.emplace_back(list.substr(at, colon - at));
            at = colon + 1;
        }
    }
    for (const std::string& f : env_files) {
        try {
            team_file_result parsed = read_team_file(f);
            add_team_entries(book, parsed);
            append_errors(err, parsed);
        } catch (const usage_error& e) {
            err += "wavefit: WAVEFIT_KB_PATH: " + one_line(e.what()) + " (skipped)\n";
        }
    }
    for (const std::string& f : r.kb_files) {
        team_file_result parsed = read_team_file(f);
        add_team_entries(book, parsed);
        append_errors(err, parsed);
    }
    return book;
}

// ---------------------------------------------------------------- one entry as text and JSON

std::string code_list(const notebook_entry& e) {
    std::string text;
    for (const std::int64_t c : e.codes) text += (text.empty() ? "" : ", ") + std::to_string(c);
    return text;
}

// "hipErrorInvalidConfiguration (9, CUDA: cudaErrorInvalidConfiguration)".
std::string heading(const notebook_entry& entry) {
    std::string text = one_line(entry.name);
    if (entry.builtin == nullptr) {
        text += " (a team entry";
        if (!entry.codes.empty()) text += ", code " + code_list(entry);
        return text + ")";
    }
    const error_explanation& e = *entry.builtin;
    switch (e.kind) {
        case explanation_kind::runtime_error:
            text += " (" + (e.code == no_error_code ? std::string("no number") : std::to_string(e.code));
            if (!e.alias.empty()) text += ", formerly " + std::string(e.alias);
            if (!e.cuda_name.empty()) {
                text += ", CUDA: " + std::string(e.cuda_name);
                if (e.cuda_code != no_error_code && e.cuda_code != e.code) text += " " + std::to_string(e.cuda_code);
            }
            text += ")";
            break;
        case explanation_kind::log_line: text += " (a runtime log line without an error code)"; break;
        case explanation_kind::diagnostic: text += " (a wavefit diagnostic code, from `wavefit check`)"; break;
    }
    return text;
}

// The team's additions to an entry: aliases, patterns, links, where it was seen, the files.
std::string team_text(const notebook_entry& e, const std::string& indent) {
    std::string text;
    const auto list = [&](const char* label, const std::vector<std::string>& items) {
        if (items.empty()) return;
        text += indent + label + ":";
        for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? " " : "; ") + one_line(items[i]);
        text += "\n";
    };
    list("aliases", e.aliases);
    list("patterns", e.patterns);
    list("links", e.links);
    list("seen", e.seen);
    list(e.builtin != nullptr ? "extended by" : "from", e.origins);
    return text;
}

std::string causes_text(const notebook_entry& e, const std::string& indent, const found_problem* p = nullptr) {
    std::string text = indent + "causes:\n";
    std::size_t n = 0;
    if (p != nullptr && p->from_line) {
        text += indent + std::to_string(++n) + ". " + p->from_line->cause + "\n";
        text += indent + "   fix: " + p->from_line->fix + "\n";
    }
    for (std::size_t i = 0; i < e.cause_count(); ++i) {
        text += indent + std::to_string(++n) + ". " + one_line(e.cause(i)) + "\n";
        text += indent + "   fix: " + one_line(e.fix(i)) + "\n";
    }
    return text;
}

std::string explanation_text(const notebook_entry& entry) {
    std::string text = heading(entry) + "\n";
    if (const error_explanation* e = entry.builtin) {
        if (!e->message.empty()) text += "message: " + std::string(e->message) + "\n";
        if (!e->cuda_message.empty() && e->cuda_message != e->message)
            text += "CUDA message: " + std::string(e->cuda_message) + "\n";
    }
    text += "\n" + one_line(entry.full_meaning()) + "\n";
    if (const error_explanation* e = entry.builtin) {
        if (!e->on_amd.empty()) text += "\non AMD: " + std::string(e->on_amd) + "\n";
        if (!e->on_nvidia.empty()) text += "\non NVIDIA: " + std::string(e->on_nvidia) + "\n";
    }
    const std::string team = team_text(entry, "");
    if (!team.empty()) text += "\n" + team;
    text += "\n" + causes_text(entry, "");
    return text;
}

void entry_json_fields(json_writer& json, const notebook_entry& e, const found_problem* p = nullptr) {
    json.key("name").value(e.name);
    json.key("code");
    if (const auto code = e.code()) {
        json.value(static_cast<std::uint64_t>(*code));
    } else {
        json.null();
    }
    if (p != nullptr) {
        json.key("lines").begin_array();
        for (const std::uint64_t l : p->lines) json.value(l);
        json.end_array();
        json.key("excerpt").value(p->excerpt);
    }
    json.key("meaning").value(e.full_meaning());
    json.key("causes").begin_array();
    if (p != nullptr && p->from_line) json.value(p->from_line->cause);
    for (std::size_t i = 0; i < e.cause_count(); ++i) json.value(e.cause(i));
    json.end_array();
    json.key("fixes").begin_array();
    if (p != nullptr && p->from_line) json.value(p->from_line->fix);
    for (std::size_t i = 0; i < e.cause_count(); ++i) json.value(e.fix(i));
    json.end_array();
    if (p != nullptr) {
        json.key("numbers").begin_object();
        for (const auto& [name, value] : p->numbers) json.key(name).value(value);
        json.end_object();
    }
}

std::string explanation_json(const notebook_entry& e) {
    json_writer json;
    json.begin_object();
    entry_json_fields(json, e);
    json.end_object();
    return json.finish();
}

// ---------------------------------------------------------------- --scan

std::string line_list(const found_problem& p) {
    std::string text = p.lines.size() == 1 ? "line " : "lines ";
    for (std::size_t i = 0; i < p.lines.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(p.lines[i]);
    if (p.occurrences > p.lines.size()) text += ", ... (" + std::to_string(p.occurrences) + " lines in all)";
    return text;
}

// What a scan shows for a problem: its notebook entry, or for a name shaped like an error name that the
// notebook does not know (log_scan.hpp) an entry made of that name, a meaning and one cause and fix.
notebook_entry shown_entry(const notebook& book, const found_problem& p) {
    if (p.entry != notebook::npos) return book.entries()[p.entry];
    notebook_entry e;
    e.name = p.unknown_name;
    e.meaning =
        "Unknown to the notebook: shaped like a HIP, CUDA or HSA error name, but wavefit has no entry for it (a newer "
        "runtime's error, a library's own status, or a misspelled name), so only the log line tells what happened.";
    e.causes.push_back({"This log names " + p.unknown_name + ", which the notebook does not know.",
                        "look it up in the runtime's own header (hip_runtime_api.h for hipError_t, driver_types.h for "
                        "cudaError_t, hsa.h for hsa_status_t) or in the library that printed it; an entry in a team "
                        "file (`entry: " +
                            p.unknown_name + "` with --kb or WAVEFIT_KB_PATH) explains it next time"});
    return e;
}

std::string problem_heading(const found_problem& p, const notebook_entry& e) {
    return p.entry == notebook::npos ? one_line(e.name) + " (unknown to the notebook)" : heading(e);
}

std::string summary_line(const scan_report& report, const std::string& source) {
    std::string text = std::to_string(report.problems.size()) + (report.problems.size() == 1 ? " problem" : " problems") +
                       " in " + std::to_string(report.lines) + (report.lines == 1 ? " line" : " lines") + " of " +
                       one_line(source);
    if (report.long_lines > 0)
        text += " (" + std::to_string(report.long_lines) + " lines longer than " +
                std::to_string(scan_limits::max_line_bytes) + " bytes: only their start was read)";
    if (report.problems_not_kept > 0)
        text += "; " + std::to_string(report.problems_not_kept) + " more lines with further problems not listed (at most " +
                std::to_string(scan_limits::max_problems) + " problems are kept)";
    return text;
}

std::string scan_text(const notebook& book, const scan_report& report, const std::string& source) {
    std::string text = summary_line(report, source) + "\n";
    std::size_t n = 0;
    for (const found_problem& p : report.problems) {
        const notebook_entry e = shown_entry(book, p);
        text += "\n" + std::to_string(++n) + ". " + problem_heading(p, e) + "\n";
        text += "   " + line_list(p) + "\n";
        text += "   first: " + p.excerpt + "\n";
        text += "   " + one_line(e.full_meaning()) + "\n";
        text += team_text(e, "   ");
        text += causes_text(e, "   ", &p);
    }
    return text;
}

// Markdown of text from logs and team files: a character that could start markup is escaped.
std::string md(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '<' || c == '>' || c == '|' ||
            c == '#')
            out += '\\';
        out += c;
    }
    return out;
}

std::string scan_markdown(const notebook& book, const scan_report& report, const std::string& source) {
    std::string text = "# Problems found by wavefit explain --scan\n\n" + md(summary_line(report, source)) + ".\n";
    for (const found_problem& p : report.problems) {
        const notebook_entry e = shown_entry(book, p);
        text += "\n## " + md(problem_heading(p, e)) + "\n\n";
        text += md(line_list(p)) + ". First:\n\n    " + p.excerpt + "\n\n";
        text += md(one_line(e.full_meaning())) + "\n\n";
        std::size_t n = 0;
        if (p.from_line) {
            text += std::to_string(++n) + ". " + md(p.from_line->cause) + "  \n   **Fix:** " + md(p.from_line->fix) + "\n";
        }
        for (std::size_t i = 0; i < e.cause_count(); ++i)
            text +=
                std::to_string(++n) + ". " + md(one_line(e.cause(i))) + "  \n   **Fix:** " + md(one_line(e.fix(i))) + "\n";
        if (!e.seen.empty()) {
            text += "\nSeen by the team:";
            for (const std::string& s : e.seen) text += " " + md(one_line(s)) + ";";
            text.pop_back();
            text += "\n";
        }
        for (const std::string& l : e.links) text += "\n- <" + one_line(l) + ">";
        if (!e.links.empty()) text += "\n";
    }
    return text;
}

std::string scan_json(const notebook& book, const scan_report& report) {
    json_writer json;
    json.begin_object();
    json.key("problems").begin_array();
    for (const found_problem& p : report.problems) {
        json.begin_object();
        entry_json_fields(json, shown_entry(book, p), &p);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    return json.finish();
}

command_output scan(const explain_request& r) {
    command_output result;
    const notebook book = load_notebook(r, result.err);
    log_scanner scanner(book);
    text_input in(r.file, scan_limits::max_line_bytes);
    std::string_view line;
    while (in.next_line(line)) scanner.line(line, in.last_line_truncated());
    const scan_report& report = scanner.report();
    const std::string source = in.name();
    result.out = r.json       ? scan_json(book, report)
                 : r.markdown ? scan_markdown(book, report, source)
                              : scan_text(book, report, source);
    result.exit_code = report.problems.empty() && report.problems_not_kept == 0 ? 1 : 0;
    return result;
}

// ---------------------------------------------------------------- --check-kb

command_output check_kb(const explain_request& r) {
    command_output result;
    team_file_result parsed = read_team_file(r.file);
    notebook book;
    add_team_entries(book, parsed);
    const std::string name = r.file == "-" ? "standard input" : one_line(r.file);
    if (r.json) {
        json_writer json;
        json.begin_object();
        json.key("file").value(r.file);
        json.key("valid").value(parsed.error_count == 0);
        json.key("entries").value(static_cast<std::uint64_t>(parsed.entries.size()));
        json.key("extending").value(static_cast<std::uint64_t>(book.extended_count()));
        json.key("standing_alone").value(static_cast<std::uint64_t>(book.team_entry_count()));
        json.key("errors").begin_array();
        for (const std::string& e : parsed.errors) json.value(e);
        json.end_array();
        json.end_object();
        result.out = json.finish();
    }
    if (parsed.error_count > 0) {
        // Like a compiler's: "FILE:LINE: what is wrong", one line each.
        for (const std::string& e : parsed.errors) result.err += one_line(e) + "\n";
        if (parsed.error_count > parsed.errors.size())
            result.err += name + ": ... and " + std::to_string(parsed.error_count - parsed.errors.size()) + " more errors\n";
        result.exit_code = 2;
        return result;
    }
    if (!r.json)
        result.out = name + ": " + std::to_string(parsed.entries.size()) + " valid entries (" +
                     std::to_string(book.extended_count()) + " extending built-in entries, " +
                     std::to_string(book.team_entry_count()) + " standing alone)\n";
    return result;
}

// ---------------------------------------------------------------- --export markdown

std::string kind_name(const notebook_entry& e) {
    if (e.builtin == nullptr) return "team entry";
    switch (e.builtin->kind) {
        case explanation_kind::runtime_error: return "runtime error";
        case explanation_kind::log_line: return "runtime log line";
        case explanation_kind::diagnostic: return "wavefit diagnostic";
    }
    return "entry";
}

std::string export_markdown(const notebook& book) {
    // Anchors are the entry names made lower-case words; a clash (rare) gets -2, -3 in table order.
    std::vector<std::string> anchors;
    for (const notebook_entry& e : book.entries()) {
        std::string a = anchor_of(e.name);
        std::size_t same = 0;
        for (const std::string& other : anchors) same += other == a || other.rfind(a + "-", 0) == 0 ? 1 : 0;
        if (same > 0) a += "-" + std::to_string(same + 1);
        anchors.push_back(a);
    }
    std::string text = "# The wavefit mistake notebook\n\n";
    text +=
        "Every error wavefit knows: what it means, the launch-configuration causes behind it and the fix for each, "
        "and where the facts come from. Generated by `wavefit explain --export markdown` (" +
        std::to_string(book.builtin_count()) + " built-in entries";
    if (book.extended_count() > 0) text += ", " + std::to_string(book.extended_count()) + " of them extended by the team";
    if (book.team_entry_count() > 0)
        text += ", " + std::to_string(book.team_entry_count()) +
                (book.team_entry_count() == 1 ? " team entry" : " team entries");
    text += ").\n\n## Contents\n\n";
    for (std::size_t i = 0; i < book.entries().size(); ++i)
        text += "- [" + md(heading(book.entries()[i])) + "](#" + anchors[i] + ")\n";
    for (std::size_t i = 0; i < book.entries().size(); ++i) {
        const notebook_entry& e = book.entries()[i];
        text += "\n<a id=\"" + anchors[i] + "\"></a>\n\n## " + md(one_line(e.name)) + "\n\n";
        text += "- Kind: " + kind_name(e);
        if (const auto code = e.code()) text += ", code " + std::to_string(*code);
        text += "\n";
        if (const error_explanation* b = e.builtin) {
            if (!b->cuda_name.empty()) text += "- CUDA: " + md(b->cuda_name) + "\n";
            if (!b->alias.empty()) text += "- Formerly: " + md(b->alias) + "\n";
            if (!b->message.empty()) text += "- Message: `" + std::string(b->message) + "`\n";
            if (!b->cuda_message.empty() && b->cuda_message != b->message)
                text += "- CUDA message: `" + std::string(b->cuda_message) + "`\n";
        }
        if (e.builtin == nullptr && e.codes.size() > 1) text += "- Codes: " + code_list(e) + "\n";
        for (const std::string& a : e.aliases) text += "- Alias (team): " + md(one_line(a)) + "\n";
        for (const std::string& p : e.patterns) text += "- Message pattern (team): " + md(one_line(p)) + "\n";
        text += "\n" + md(one_line(e.full_meaning())) + "\n";
        if (const error_explanation* b = e.builtin) {
            if (!b->on_amd.empty()) text += "\n**On AMD.** " + md(b->on_amd) + "\n";
            if (!b->on_nvidia.empty()) text += "\n**On NVIDIA.** " + md(b->on_nvidia) + "\n";
        }
        text += "\n**Causes and fixes.**\n\n";
        const std::size_t own = e.builtin != nullptr ? e.builtin->cause_count : 0;
        for (std::size_t k = 0; k < e.cause_count(); ++k)
            text += std::to_string(k + 1) + ". " + (k >= own && e.builtin != nullptr ? "(team) " : "") +
                    md(one_line(e.cause(k))) + "  \n   **Fix:** " + md(one_line(e.fix(k))) + "\n";
        if (!e.seen.empty()) {
            text += "\n**Seen by the team.**\n\n";
            for (const std::string& s : e.seen) text += "- " + md(one_line(s)) + "\n";
        }
        if (!e.links.empty()) {
            text += "\n**Links.**\n\n";
            for (const std::string& l : e.links) text += "- <" + one_line(l) + ">\n";
        }
        text += "\n**Source.** ";
        if (e.builtin != nullptr) {
            text += md(e.builtin->source);
            const std::vector<std::string> issues = cited_issues(e);
            if (!issues.empty()) {
                text += ". Seen in:";
                for (std::size_t k = 0; k < issues.size(); ++k) text += (k == 0 ? " " : ", ") + md(issues[k]);
            }
            text += ".";
            if (!e.origins.empty()) {
                text += " Team additions from";
                for (const std::string& o : e.origins) text += " " + md(one_line(o));
                text += ".";
            }
        } else {
            text += "the team's notebook:";
            for (const std::string& o : e.origins) text += " " + md(one_line(o));
            text += ".";
        }
        text += "\n";
    }
    return text;
}

// ---------------------------------------------------------------- CODE

command_output lookup(const explain_request& r) {
    command_output result;
    const notebook book = load_notebook(r, result.err);
    const std::size_t i = book.find(r.query);
    if (i != notebook::npos) {
        const notebook_entry& e = book.entries()[i];
        result.out = r.json ? explanation_json(e) : explanation_text(e);
        return result;
    }
    // Unknown is a verdict, not a usage error: exit 1, with the query echoed on one line.
    result.exit_code = 1;
    result.err += "wavefit: unknown error code or name: " + escaped(r.query) +
                  " (try a number such as 9, a name such as hipErrorInvalidConfiguration, a message text, or a "
                  "diagnostic code)\n";
    if (r.json) {
        json_writer json;
        json.begin_object().key("error").value("unknown error code or name").key("query").value(r.query).end_object();
        result.out = json.finish();
    }
    return result;
}

}  // namespace

command_output run(const explain_request& r) {
    switch (r.what) {
        case explain_request::action::scan: return scan(r);
        case explain_request::action::check_kb: return check_kb(r);
        case explain_request::action::export_notebook: {
            command_output result;
            const notebook book = load_notebook(r, result.err);
            result.out = export_markdown(book);
            return result;
        }
        case explain_request::action::lookup: break;
    }
    return lookup(r);
}

}  // namespace wavefit::cli
