// SPDX-License-Identifier: MIT
// The lint run (lint_runner.hpp). The parser's declarations are written to a private temporary directory
// and precompiled once per run, with the C and C++ standard headers sources commonly include, so that each
// source then costs only its own text; a source whose flags the precompiled header does not fit is parsed
// without it. Each worker thread owns one libclang index; results are kept in unit order, so the report
// does not depend on the thread count.
#include "lint_runner.hpp"

#include <clang-c/Index.h>

#include <algorithm>   // std::sort, std::min
#include <atomic>      // the next unit
#include <chrono>      // timing
#include <filesystem>  // paths, the temporary directory
#include <fstream>     // files
#include <map>         // per-file caches
#include <set>         // included files, baseline keys
#include <sstream>     // reading files
#include <thread>      // workers
#include <unistd.h>    // getpid: the temporary directory's name

#include "../json_writer.hpp"
#include "analysis.hpp"
#include "parser_headers.hpp"
#include "report.hpp"
#include "source_set.hpp"
#include "suppressions.hpp"

namespace wavefit::cli::lint {
namespace fs = std::filesystem;

namespace {

// Vendor header names sources include; the prelude already declares what they would.
const char* const forwarding_headers[] = {
    "cuda_runtime.h",        "cuda_runtime_api.h",    "cuda.h",                "device_launch_parameters.h",
    "cuda_fp16.h",           "cuda_bf16.h",           "cuda_fp8.h",            "device_functions.h",
    "cuda_profiler_api.h",   "driver_types.h",        "vector_types.h",        "cuda_device_runtime_api.h",
    "sm_20_intrinsics.h",    "sm_30_intrinsics.h",    "sm_32_intrinsics.h",    "sm_35_intrinsics.h",
    "sm_60_atomic_functions.h", "hip/hip_runtime.h",  "hip/hip_runtime_api.h", "hip/hip_fp16.h",
    "hip/hip_bf16.h",        "hip/hip_bfloat16.h",    "hip/hip_fp8.h",         "hip/hip_vector_types.h",
    "hip/device_functions.h", "hip/hip_common.h",     "hip/amd_detail/amd_warp_functions.h", "hip/hip_version.h",
    "hip/amd_detail/amd_warp_sync_functions.h",
};

// Standard headers the precompiled header holds: what CUDA samples and benchmarks include most.
const char* const precompiled_standard_headers[] = {
    "algorithm", "array",    "atomic",  "cassert",      "cfloat",   "chrono",        "climits", "cmath",
    "complex",   "cstdint",  "cstdio",  "cstdlib",      "cstring",  "fstream",       "functional", "iomanip",
    "iostream",  "limits",   "map",     "memory",       "numeric",  "random",        "set",     "sstream",
    "string",    "thread",   "tuple",   "type_traits",  "unordered_map", "unordered_set", "utility", "vector",
    "sys/time.h",
};

std::string read_file(const fs::path& p, std::uint64_t max_bytes) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    std::string text;
    char buffer[65536];
    while (in && text.size() < max_bytes) {
        in.read(buffer, sizeof buffer);
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    }
    if (text.size() > max_bytes) text.resize(max_bytes);
    return text;
}

bool under(const std::string& path, const std::string& root) {
    if (path == root) return true;
    return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
           (root.back() == '/' || path[root.size()] == '/');
}

// The private directory the parser reads its declarations from; removed when the run ends.
class parser_workspace {
public:
    explicit parser_workspace(const std::vector<std::string>& base_flags) {
        std::error_code ec;
        const fs::path tmp = fs::temp_directory_path(ec);
        if (ec) throw usage_error("lint: no temporary directory for the parser (" + ec.message() + ")");
        for (int attempt = 0; attempt < 1000 && root_.empty(); ++attempt) {
            const fs::path candidate = tmp / ("wavefit-lint-" + std::to_string(::getpid()) + "-" + std::to_string(attempt));
            if (fs::create_directory(candidate, ec)) root_ = candidate;
        }
        if (root_.empty()) throw usage_error("lint: cannot create a directory under " + tmp.string());
        include_ = root_ / "include";
        fs::create_directories(include_ / "hip" / "amd_detail", ec);
        fs::create_directories(include_ / "cooperative_groups", ec);
        for (std::size_t i = 0; i < parser_header_file_count; ++i) write(include_ / parser_header_files[i].name, parser_header_files[i].text);
        for (const char* name : forwarding_headers)
            write(include_ / name, "// SPDX-License-Identifier: MIT\n// wavefit lint: declared by its prelude\n#pragma once\n");
        write(include_ / "hip" / "hip_cooperative_groups.h", "#pragma once\n#include <cooperative_groups.h>\n");
        write(include_ / "cooperative_groups" / "reduce.h", "#pragma once\n#include <cooperative_groups.h>\n");
        write(include_ / "hip" / "hip_math_constants.h", "#pragma once\n#include <math_constants.h>\n");
        prelude_ = (include_ / parser_prelude_name).string();
        build_precompiled_header(base_flags);
    }
    ~parser_workspace() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    parser_workspace(const parser_workspace&) = delete;
    parser_workspace& operator=(const parser_workspace&) = delete;

    std::string include_directory() const { return include_.string(); }
    const std::string& prelude() const { return prelude_; }
    const std::string& precompiled_header() const { return pch_; }
    std::string root() const { return root_.string(); }

private:
    fs::path root_;
    fs::path include_;
    std::string prelude_;
    std::string pch_;

    static void write(const fs::path& p, const std::string& text) {
        std::ofstream out(p, std::ios::binary);
        out << text;
    }

    void build_precompiled_header(const std::vector<std::string>& base_flags) {
        std::string source = "#include \"" + prelude_ + "\"\n";
        for (const char* h : precompiled_standard_headers) source += std::string("#include <") + h + ">\n";
        const fs::path header = root_ / "wavefit_lint_pch.h";
        write(header, source);
        std::vector<std::string> flags = base_flags;
        flags.emplace_back("-isystem");
        flags.push_back(include_.string());
        std::vector<const char*> argv;
        argv.reserve(flags.size());
        for (const std::string& f : flags) argv.push_back(f.c_str());
        CXIndex index = clang_createIndex(0, 0);
        CXTranslationUnit tu = nullptr;
        const CXErrorCode ec = clang_parseTranslationUnit2(index, header.string().c_str(), argv.data(),
                                                           static_cast<int>(argv.size()), nullptr, 0,
                                                           CXTranslationUnit_DetailedPreprocessingRecord, &tu);
        bool clean = ec == CXError_Success && tu != nullptr;
        for (unsigned i = 0; clean && i < clang_getNumDiagnostics(tu); ++i) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            clean = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
            clang_disposeDiagnostic(d);
        }
        const std::string pch = (root_ / "wavefit_lint.pch").string();
        if (clean && clang_saveTranslationUnit(tu, pch.c_str(), CXSaveTranslationUnit_None) == CXSaveError_None) pch_ = pch;
        if (tu != nullptr) clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
    }
};

struct unit_result {
    file_status status;
    std::vector<finding> findings;
    std::vector<std::string> included;  // files the unit included (absolute), for the header pass
};

struct run_setup {
    const lint_target* target = nullptr;
    std::vector<std::string> base_flags;   // language, target, the parser's include directory
    std::vector<std::string> user_flags;   // after --
    const parser_workspace* workspace = nullptr;
    std::vector<std::string> scope;
};

bool mentions_precompiled_header(CXTranslationUnit tu) {
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        const std::string text = take(clang_getDiagnosticSpelling(d));
        const bool pch = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
                         (text.find("precompiled header") != std::string::npos || text.find("PCH") != std::string::npos);
        clang_disposeDiagnostic(d);
        if (pch) return true;
    }
    return false;
}

CXTranslationUnit parse(CXIndex index, const source_unit& unit, const run_setup& setup, bool with_pch) {
    std::vector<std::string> flags = setup.base_flags;
    flags.emplace_back("-isystem");
    flags.push_back(setup.workspace->include_directory());
    if (with_pch) {
        flags.emplace_back("-include-pch");
        flags.push_back(setup.workspace->precompiled_header());
    } else {
        flags.emplace_back("-include");
        flags.push_back(setup.workspace->prelude());
    }
    flags.insert(flags.end(), unit.flags.begin(), unit.flags.end());
    flags.insert(flags.end(), setup.user_flags.begin(), setup.user_flags.end());
    std::vector<const char*> argv;
    argv.reserve(flags.size());
    for (const std::string& f : flags) argv.push_back(f.c_str());
    CXTranslationUnit tu = nullptr;
    const unsigned options = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing;
    const CXErrorCode ec = clang_parseTranslationUnit2(index, unit.path.c_str(), argv.data(), static_cast<int>(argv.size()),
                                                       nullptr, 0, options, &tu);
    if (ec != CXError_Success) return nullptr;
    return tu;
}

unit_result lint_unit(CXIndex index, const source_unit& unit, const run_setup& setup) {
    unit_result result;
    result.status.path = unit.path;
    result.status.header = unit.header;
    const auto start = std::chrono::steady_clock::now();
    const bool have_pch = !setup.workspace->precompiled_header().empty();
    result.status.precompiled = have_pch;
    CXTranslationUnit tu = parse(index, unit, setup, have_pch);
    if (tu != nullptr && have_pch && mentions_precompiled_header(tu)) {
        clang_disposeTranslationUnit(tu);
        result.status.precompiled = false;
        tu = parse(index, unit, setup, false);
    }
    const auto parsed_at = std::chrono::steady_clock::now();
    result.status.parse_seconds = std::chrono::duration<double>(parsed_at - start).count();
    if (tu == nullptr) {
        result.status.first_error = "libclang could not parse the file";
        return result;
    }
    result.status.parsed = true;
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            if (result.status.errors == 0)
                result.status.first_error =
                    take(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn));
            ++result.status.errors;
        }
        clang_disposeDiagnostic(d);
    }
    // Which files findings may be reported in, decided once per file of the unit.
    std::map<std::string, bool> decided;
    const std::string workspace = setup.workspace->root();
    const auto in_scope = [&](CXFile file) {
        const std::string path = take(clang_File_tryGetRealPathName(file));
        const auto found = decided.find(path);
        if (found != decided.end()) return found->second;
        bool inside = !path.empty() && !under(path, workspace);
        if (inside) {
            bool any = false;
            for (const std::string& root : setup.scope) any = any || under(path, root);
            inside = any;
        }
        decided.emplace(path, inside);
        return inside;
    };
    // The -D flags, so that a macro defined on the command line has its value in the checks.
    std::vector<std::pair<std::string, std::string>> defines = setup.target->predefined;
    for (const std::vector<std::string>* list : {&setup.base_flags, &unit.flags, &setup.user_flags})
        for (const std::string& f : *list) {
            if (f.size() < 3 || f.compare(0, 2, "-D") != 0) continue;
            const std::size_t eq = f.find('=');
            defines.emplace_back(f.substr(2, eq == std::string::npos ? std::string::npos : eq - 2),
                                 eq == std::string::npos ? std::string("1") : f.substr(eq + 1));
        }
    analysis a(tu, *setup.target, in_scope, result.findings, defines);
    analyze_translation_unit(a);
    clang_getInclusions(
        tu,
        [](CXFile included, CXSourceLocation*, unsigned, CXClientData data) {
            static_cast<std::vector<std::string>*>(data)->push_back(take(clang_File_tryGetRealPathName(included)));
        },
        &result.included);
    clang_disposeTranslationUnit(tu);
    result.status.check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - parsed_at).count();
    return result;
}

std::vector<unit_result> lint_units(const std::vector<source_unit>& units, const run_setup& setup, unsigned jobs) {
    std::vector<unit_result> results(units.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&]() {
        // Declarations from the precompiled header are never visited: they are the standard library's.
        // (With this setting libclang visits the unit's own declarations and the function templates it
        // instantiated; analyze_translation_unit prefers an instantiation to its template.)
        CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/1, /*displayDiagnostics=*/0);
        for (std::size_t i = next++; i < units.size(); i = next++) results[i] = lint_unit(index, units[i], setup);
        clang_disposeIndex(index);
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(units.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    return results;
}

std::string display_path(const std::string& absolute, const std::string& cwd) {
    if (under(absolute, cwd) && absolute.size() > cwd.size()) return absolute.substr(cwd.size() + (cwd.back() == '/' ? 0 : 1));
    return absolute;
}

std::string one_line_of(const std::vector<std::string>& errors, std::uint64_t count) {
    std::string s = errors.empty() ? std::string("malformed") : errors.front();
    if (count > 1) s += " (and " + std::to_string(count - 1) + " more)";
    return s;
}

}  // namespace

command_output run_lint(const lint_request& request) {
    const auto started = std::chrono::steady_clock::now();
    const lint_target target = resolve_lint_target(request.target);
    std::error_code ec;
    const std::string cwd = fs::current_path(ec).string();

    // The baseline first: a malformed one is a usage error before any parsing.
    std::set<std::tuple<std::string, std::string, std::string>> accepted;
    if (request.baseline) {
        const fs::path file = fs::absolute(*request.baseline, ec);
        if (!fs::is_regular_file(file, ec)) throw usage_error("--baseline " + cli::quoted(*request.baseline) + ": no such file");
        const std::string text = read_file(file, std::uint64_t{256} << 20);
        const baseline_file parsed = parse_baseline(text, *request.baseline);
        if (parsed.error_count > 0) throw usage_error(one_line_of(parsed.errors, parsed.error_count));
        for (const baseline_entry& e : parsed.entries)
            accepted.emplace(e.code, (file.parent_path() / e.path).lexically_normal().string(), e.fingerprint);
    }

    source_set sources = collect_sources(request.paths, request.build_directory.value_or(""));
    run_setup setup;
    setup.target = &target;
    setup.base_flags = {"-x", "hip", "-std=c++17", "--cuda-device-only", "-nogpuinc", "-nogpulib",
                        "-D__HIP_PLATFORM_AMD__=1", "-D__HIP_PLATFORM_HCC__=1", "-w", "-ferror-limit=0",
                        "-fno-spell-checking"};
    for (const std::string& f : target.parser_flags) setup.base_flags.push_back(f);
    setup.user_flags = request.compiler_flags;
    setup.scope = sources.scope;
    std::vector<std::string> pch_flags = setup.base_flags;
    for (const std::string& f : setup.user_flags) pch_flags.push_back(f);
    const auto precompile_start = std::chrono::steady_clock::now();
    const parser_workspace workspace(pch_flags);
    const double precompile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - precompile_start).count();
    setup.workspace = &workspace;
    const unsigned jobs = request.jobs > 0 ? static_cast<unsigned>(request.jobs)
                                           : std::max(1u, std::min(64u, std::thread::hardware_concurrency()));

    std::vector<unit_result> results = lint_units(sources.units, setup, jobs);
    // Headers no unit included are parsed on their own, so that a header-only library is linted too.
    std::set<std::string> included;
    for (const unit_result& r : results) included.insert(r.included.begin(), r.included.end());
    std::vector<source_unit> headers;
    for (const std::string& h : sources.headers)
        if (included.count(h) == 0) headers.push_back({h, {}, true});
    if (!headers.empty()) {
        std::vector<unit_result> more = lint_units(headers, setup, jobs);
        for (unit_result& r : more) results.push_back(std::move(r));
    }

    lint_report report;
    report.target = &target;
    report.jobs = jobs;
    report.precompile_seconds = precompile_seconds;
    std::size_t parsed = 0;
    std::string first_failure;
    std::vector<finding> all;
    for (unit_result& r : results) {
        parsed += r.status.parsed ? 1 : 0;
        if (!r.status.parsed && first_failure.empty()) first_failure = r.status.path + ": " + r.status.first_error;
        r.status.path = display_path(r.status.path, cwd);
        report.files.push_back(r.status);
        for (finding& f : r.findings) all.push_back(std::move(f));
    }
    if (parsed == 0)
        throw usage_error("nothing could be parsed (" + std::to_string(results.size()) + " file" +
                          (results.size() == 1 ? "" : "s") + "; " + first_failure + ")");

    // One finding per place and code: a header's findings arrive once per unit that includes it, and a
    // launch line shared by two kernels, or a template's instantiations, once for each (the first in
    // message order is kept, so the choice does not depend on the order of the units).
    std::sort(all.begin(), all.end(), reported_before);
    all.erase(std::unique(all.begin(), all.end(),
                          [](const finding& a, const finding& b) {
                              return a.file == b.file && a.line == b.line && a.column == b.column && a.kind == b.kind;
                          }),
              all.end());

    // NOLINT comments, read once per file.
    std::map<std::string, std::vector<nolint_rule>> comments;
    std::vector<finding> kept;
    for (finding& f : all) {
        auto found = comments.find(f.file);
        if (found == comments.end()) found = comments.emplace(f.file, scan_nolint(read_file(f.file, std::uint64_t{64} << 20))).first;
        if (suppressed_by(found->second, f.line, f.code())) {
            ++report.suppressed_by_comment;
            continue;
        }
        kept.push_back(std::move(f));
    }

    // Fingerprints: the code and the line's text, numbered among equal ones of the file.
    std::map<std::tuple<std::string, std::string_view, std::string>, std::uint32_t> occurrences;
    std::vector<std::string> fingerprints;
    for (const finding& f : kept) {
        std::string text;
        bool space = false;
        for (const char c : f.source_line) {
            if (c == ' ' || c == '\t' || c == '\r') {
                space = !text.empty();
                continue;
            }
            if (space) text += ' ';
            space = false;
            text += c;
        }
        const std::uint32_t n = occurrences[{f.file, f.code(), text}]++;
        fingerprints.push_back(fingerprint_text(fingerprint(f.code(), f.source_line, n)));
    }

    if (request.write_baseline) {
        const fs::path file = fs::absolute(*request.write_baseline, ec);
        const fs::path directory = file.parent_path();
        std::string text = "# wavefit lint baseline: accepted findings, one per line: CODE PATH FINGERPRINT\n"
                           "# (PATH relative to this file). Written by wavefit lint --write-baseline; read with --baseline.\n";
        for (std::size_t i = 0; i < kept.size(); ++i) {
            const fs::path relative = fs::path(kept[i].file).lexically_relative(directory);
            text += baseline_line(kept[i].code(), relative.empty() ? kept[i].file : relative.generic_string(), fingerprints[i]);
        }
        const fs::path temporary = file.string() + ".tmp";
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            out << text;
            if (!out) throw usage_error("--write-baseline " + cli::quoted(*request.write_baseline) + ": cannot write the file");
        }
        fs::rename(temporary, file, ec);
        if (ec) throw usage_error("--write-baseline " + cli::quoted(*request.write_baseline) + ": " + ec.message());
        command_output out;
        if (request.format == lint_request::output::text)
            out.out = "wrote " + std::to_string(kept.size()) + " accepted finding" + (kept.size() == 1 ? "" : "s") + " to " +
                      *request.write_baseline + "\n";
        else
            out.out = "{\"baseline\":" + [&] {
                std::string s;
                json_writer::append_string(s, *request.write_baseline);
                return s;
            }() + ",\"written\":" + std::to_string(kept.size()) + "}\n";
        return out;
    }

    for (std::size_t i = 0; i < kept.size(); ++i) {
        if (accepted.count({std::string(kept[i].code()), kept[i].file, fingerprints[i]}) != 0) {
            ++report.suppressed_by_baseline;
            continue;
        }
        kept[i].file = display_path(kept[i].file, cwd);
        report.findings.push_back(std::move(kept[i]));
        report.fingerprints.push_back(fingerprints[i]);
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    command_output out;
    switch (request.format) {
        case lint_request::output::text: out.out = render_text(report); break;
        case lint_request::output::json: out.out = render_json(report); break;
        case lint_request::output::sarif: out.out = render_sarif(report, cwd); break;
    }
    out.exit_code = report.findings.empty() ? 0 : 1;
    return out;
}

}  // namespace wavefit::cli::lint
