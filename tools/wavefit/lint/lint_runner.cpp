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
#include <optional>    // a unit's leading include
#include <set>         // included files, baseline keys
#include <sstream>     // reading files
#include <thread>      // workers
#include <unistd.h>    // getpid: the temporary directory's name

#include "../json_writer.hpp"
#include "analysis.hpp"
#include "parser_headers.hpp"
#include "report.hpp"
#include "shared_headers.hpp"
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

void write_text(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
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

// A project header that several units include first (shared_headers.hpp), precompiled once on top of the
// parser's declarations; its own findings come from that one parse.
struct shared_header {
    std::vector<std::string> headers; // absolute, in include order
    std::vector<std::string> flags;   // the units' own flags: one shared header per header and flags
    std::vector<std::size_t> units;   // the units that include it first
    std::string pch;                  // empty: it could not be precompiled, and its units parse it themselves
    file_status status;               // its parse: clang's errors in it
    std::vector<finding> findings;    // its findings
    std::vector<std::string> included;
};

// A header is precompiled for three units or more: below that the precompiling costs what it saves.
constexpr std::size_t shared_header_min_units = 3;

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

// The unit's flags: the parser's, then `-include-pch PCH` (or the prelude as text when `pch` is empty),
// then the unit's own and the user's.
std::vector<std::string> parse_flags(const source_unit& unit, const run_setup& setup, const std::string& pch) {
    std::vector<std::string> flags = setup.base_flags;
    flags.emplace_back("-isystem");
    flags.push_back(setup.workspace->include_directory());
    if (!pch.empty()) {
        flags.emplace_back("-include-pch");
        flags.push_back(pch);
    } else {
        flags.emplace_back("-include");
        flags.push_back(setup.workspace->prelude());
    }
    flags.insert(flags.end(), unit.flags.begin(), unit.flags.end());
    flags.insert(flags.end(), setup.user_flags.begin(), setup.user_flags.end());
    return flags;
}

CXTranslationUnit parse(CXIndex index, const std::string& path, const std::vector<std::string>& flags, unsigned extra_options = 0) {
    std::vector<const char*> argv;
    argv.reserve(flags.size());
    for (const std::string& f : flags) argv.push_back(f.c_str());
    CXTranslationUnit tu = nullptr;
    const unsigned options = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing | extra_options;
    const CXErrorCode ec =
        clang_parseTranslationUnit2(index, path.c_str(), argv.data(), static_cast<int>(argv.size()), nullptr, 0, options, &tu);
    if (ec != CXError_Success) return nullptr;
    return tu;
}

// clang's errors in the unit: how many, and the first as clang prints it.
void count_errors(CXTranslationUnit tu, file_status& status) {
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            if (status.errors == 0)
                status.first_error =
                    take(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn));
            ++status.errors;
        }
        clang_disposeDiagnostic(d);
    }
}

// The checks over a parsed unit, reporting into `findings` only in the run's scope; appends the files
// the unit included to `included`.
void check_unit(CXTranslationUnit tu, const std::vector<std::string>& unit_flags, const run_setup& setup,
                std::vector<finding>& findings, std::vector<std::string>& included) {
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
    for (const std::vector<std::string>* list : {&setup.base_flags, &unit_flags, &setup.user_flags})
        for (const std::string& f : *list) {
            if (f.size() < 3 || f.compare(0, 2, "-D") != 0) continue;
            const std::size_t eq = f.find('=');
            defines.emplace_back(f.substr(2, eq == std::string::npos ? std::string::npos : eq - 2),
                                 eq == std::string::npos ? std::string("1") : f.substr(eq + 1));
        }
    analysis a(tu, *setup.target, in_scope, findings, defines);
    analyze_translation_unit(a);
    clang_getInclusions(
        tu,
        [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
            static_cast<std::vector<std::string>*>(data)->push_back(take(clang_File_tryGetRealPathName(file)));
        },
        &included);
}

unit_result lint_unit(CXIndex index, const source_unit& unit, const run_setup& setup, const shared_header* shared) {
    unit_result result;
    result.status.path = unit.path;
    result.status.header = unit.header;
    const auto start = std::chrono::steady_clock::now();
    // The shared header's precompiled form, else the parser's, else none; a precompiled header the unit's
    // flags do not fit is an error that names it, and the next is tried.
    std::vector<std::string> candidates;
    if (shared != nullptr && !shared->pch.empty()) candidates.push_back(shared->pch);
    if (!setup.workspace->precompiled_header().empty()) candidates.push_back(setup.workspace->precompiled_header());
    candidates.emplace_back();
    CXTranslationUnit tu = nullptr;
    std::string used;
    for (const std::string& pch : candidates) {
        tu = parse(index, unit.path, parse_flags(unit, setup, pch));
        used = pch;
        if (tu == nullptr || pch.empty() || !mentions_precompiled_header(tu)) break;
        clang_disposeTranslationUnit(tu);
        tu = nullptr;
    }
    result.status.precompiled = !used.empty();
    const auto parsed_at = std::chrono::steady_clock::now();
    result.status.parse_seconds = std::chrono::duration<double>(parsed_at - start).count();
    if (tu == nullptr) {
        result.status.first_error = "libclang could not parse the file";
        return result;
    }
    result.status.parsed = true;
    // The shared header's errors are the unit's too: it includes the header first.
    if (shared != nullptr && used == shared->pch) {
        result.status.errors = shared->status.errors;
        result.status.first_error = shared->status.first_error;
        result.status.shared_header = shared->headers.back();
    }
    count_errors(tu, result.status);
    check_unit(tu, unit.flags, setup, result.findings, result.included);
    clang_disposeTranslationUnit(tu);
    result.status.check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - parsed_at).count();
    return result;
}

// Runs work(index, i) for i in [0, count) on `jobs` threads, each with its own libclang index.
// Declarations from a precompiled header are never visited: they are the standard library's or a shared
// header's, checked in its own parse. (With this setting libclang visits the unit's own declarations and
// the function templates it instantiated; analyze_translation_unit prefers an instantiation to its template.)
template <typename Work>
void in_parallel(std::size_t count, unsigned jobs, const Work& work) {
    std::atomic<std::size_t> next{0};
    const auto worker = [&]() {
        CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/1, /*displayDiagnostics=*/0);
        for (std::size_t i = next++; i < count; i = next++) work(index, i);
        clang_disposeIndex(index);
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(std::min<std::size_t>(count, 1024))));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
}

// The guarded project headers that open a file, in include order (shared_headers.hpp): each quoted
// leading include found beside its includer and guarded, or, for one that is not guarded, the headers
// that open it, which end the list.
class leading_headers {
public:
    std::vector<std::string> of(const std::string& path, int depth = 0) {
        std::vector<std::string> headers;
        const fs::path file(path);
        for (const std::string& name : leading_quoted_includes(read_file(file, scanned))) {
            const std::string header = (file.parent_path() / name).lexically_normal().string();
            if (header.find_first_of("\"\n") != std::string::npos) break;
            const int guard = guarded(header);
            if (guard < 0) break;
            if (guard == 0) {
                if (depth < 4)
                    for (std::string& h : of(header, depth + 1)) headers.push_back(std::move(h));
                break;
            }
            headers.push_back(header);
        }
        return headers;
    }

private:
    static constexpr std::uint64_t scanned = std::uint64_t{64} << 10;
    std::map<std::string, int> known_;

    // 1 guarded, 0 a header without a guard, -1 no such file.
    int guarded(const std::string& header) {
        const auto found = known_.find(header);
        if (found != known_.end()) return found->second;
        std::error_code ec;
        const int answer = !fs::is_regular_file(header, ec) ? -1 : header_is_guarded(read_file(header, scanned)) ? 1 : 0;
        known_.emplace(header, answer);
        return answer;
    }
};

// Each unit's longest list of leading headers that at least shared_header_min_units units with the same
// flags open with; one shared header per such list.
std::vector<shared_header> find_shared_headers(const std::vector<source_unit>& units) {
    leading_headers leading;
    std::vector<std::vector<std::string>> lists(units.size());
    std::map<std::pair<std::vector<std::string>, std::vector<std::string>>, std::size_t> count;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (units[i].header) continue;
        lists[i] = leading.of(units[i].path);
        for (std::size_t n = 1; n <= lists[i].size(); ++n)
            ++count[{std::vector<std::string>(lists[i].begin(), lists[i].begin() + static_cast<std::ptrdiff_t>(n)), units[i].flags}];
    }
    std::map<std::pair<std::vector<std::string>, std::vector<std::string>>, std::size_t> index;
    std::vector<shared_header> found;
    for (std::size_t i = 0; i < units.size(); ++i) {
        for (std::size_t n = lists[i].size(); n > 0; --n) {
            std::pair<std::vector<std::string>, std::vector<std::string>> key{
                std::vector<std::string>(lists[i].begin(), lists[i].begin() + static_cast<std::ptrdiff_t>(n)), units[i].flags};
            if (count[key] < shared_header_min_units) continue;
            const auto [at, fresh] = index.emplace(key, found.size());
            if (fresh) found.push_back({key.first, key.second, {}, {}, {}, {}, {}});
            found[at->second].units.push_back(i);
            break;
        }
    }
    return found;
}

void precompile_shared_header(CXIndex index, shared_header& shared, std::size_t number, const run_setup& setup) {
    const auto start = std::chrono::steady_clock::now();
    const fs::path base = fs::path(setup.workspace->root()) / ("shared_" + std::to_string(number));
    const std::string file = base.string() + ".h";
    std::string text;
    for (const std::string& h : shared.headers) text += "#include \"" + h + "\"\n";
    write_text(file, text);
    const source_unit unit{file, shared.flags, false};
    CXTranslationUnit tu = nullptr;
    for (const std::string& pch : {setup.workspace->precompiled_header(), std::string()}) {
        tu = parse(index, file, parse_flags(unit, setup, pch), CXTranslationUnit_ForSerialization);
        if (tu == nullptr || pch.empty() || !mentions_precompiled_header(tu)) break;
        clang_disposeTranslationUnit(tu);
        tu = nullptr;
    }
    if (tu == nullptr) return;
    shared.status.parsed = true;
    count_errors(tu, shared.status);
    check_unit(tu, shared.flags, setup, shared.findings, shared.included);
    const std::string pch = base.string() + ".pch";
    if (clang_saveTranslationUnit(tu, pch.c_str(), CXSaveTranslationUnit_None) == CXSaveError_None) shared.pch = pch;
    clang_disposeTranslationUnit(tu);
    shared.status.parse_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<unit_result> lint_units(const std::vector<source_unit>& units, const run_setup& setup, unsigned jobs,
                                    const std::vector<const shared_header*>& shared_of = {}) {
    std::vector<unit_result> results(units.size());
    in_parallel(units.size(), jobs, [&](CXIndex index, std::size_t i) {
        results[i] = lint_unit(index, units[i], setup, i < shared_of.size() ? shared_of[i] : nullptr);
    });
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
    const double base_precompile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - precompile_start).count();
    setup.workspace = &workspace;
    const unsigned jobs = request.jobs > 0 ? static_cast<unsigned>(request.jobs)
                                           : std::max(1u, std::min(64u, std::thread::hardware_concurrency()));

    // Headers many units include first are parsed once, precompiled, and their units parsed on top.
    const auto shared_start = std::chrono::steady_clock::now();
    std::vector<shared_header> shared = find_shared_headers(sources.units);
    in_parallel(shared.size(), jobs, [&](CXIndex index, std::size_t i) { precompile_shared_header(index, shared[i], i, setup); });
    std::vector<const shared_header*> shared_of(sources.units.size(), nullptr);
    for (const shared_header& s : shared)
        for (const std::size_t u : s.units) shared_of[u] = &s;
    const double precompile_seconds =
        base_precompile_seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - shared_start).count();

    std::vector<unit_result> results = lint_units(sources.units, setup, jobs, shared_of);
    // Headers no unit included are parsed on their own, so that a header-only library is linted too.
    std::set<std::string> included;
    for (const unit_result& r : results) included.insert(r.included.begin(), r.included.end());
    for (const shared_header& s : shared) included.insert(s.included.begin(), s.included.end());
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
        if (!r.status.shared_header.empty()) r.status.shared_header = display_path(r.status.shared_header, cwd);
        report.files.push_back(r.status);
        for (finding& f : r.findings) all.push_back(std::move(f));
    }
    for (shared_header& s : shared)
        for (finding& f : s.findings) all.push_back(std::move(f));
    report.shared_headers = 0;
    for (const shared_header& s : shared) report.shared_headers += s.pch.empty() ? 0 : 1;
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
