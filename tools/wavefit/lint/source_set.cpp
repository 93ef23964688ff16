// SPDX-License-Identifier: MIT
// PATH arguments and compile_commands.json into translation units and a reporting scope (source_set.hpp).
#include "source_set.hpp"

#include <clang-c/CXCompilationDatabase.h>

#include <algorithm>     // std::sort, std::unique
#include <filesystem>    // directory walks, absolute paths
#include <system_error>  // std::error_code

#include "../arguments.hpp"  // usage_error, quoted
#include "clang_tree.hpp"    // take

namespace wavefit::cli::lint {
namespace fs = std::filesystem;

namespace {

std::string absolute_path(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(fs::path(path), ec), ec);
    if (ec) p = fs::absolute(fs::path(path), ec).lexically_normal();
    return p.string();
}

bool has_suffix(const fs::path& p, std::initializer_list<const char*> suffixes) {
    const std::string ext = p.extension().string();
    for (const char* s : suffixes)
        if (ext == s) return true;
    return false;
}

void walk_directory(const fs::path& root, source_set& out) {
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) throw usage_error(cli::quoted(root.string()) + ": cannot read the directory: " + ec.message());
    std::vector<std::string> units;
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec) break;
        const fs::path& p = it->path();
        const std::string name = p.filename().string();
        if (!name.empty() && name[0] == '.') {
            if (it->is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(ec)) continue;
        if (has_suffix(p, {".cu", ".hip"})) units.push_back(absolute_path(p.string()));
        else if (has_suffix(p, {".cuh"})) out.headers.push_back(absolute_path(p.string()));
    }
    std::sort(units.begin(), units.end());
    for (const std::string& u : units) out.units.push_back({u, {}, false});
}

bool under(const std::string& path, const std::string& root) {
    if (path == root) return true;
    return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
           (root.back() == '/' || path[root.size()] == '/');
}

std::string common_directory(const std::vector<source_unit>& units) {
    if (units.empty()) return "/";
    fs::path common = fs::path(units.front().path).parent_path();
    for (const source_unit& u : units) {
        const fs::path dir = fs::path(u.path).parent_path();
        while (!common.empty() && !under(dir.string(), common.string())) common = common.parent_path();
    }
    return common.empty() ? "/" : common.string();
}

}  // namespace

std::vector<std::string> parse_relevant_flags(const std::vector<std::string>& arguments, const std::string& directory) {
    std::vector<std::string> flags;
    const auto resolved = [&](const std::string& p) {
        if (p.empty() || fs::path(p).is_absolute()) return p;
        return (fs::path(directory) / p).lexically_normal().string();
    };
    // Options whose value follows as the next argument (or is attached): -I dir, -Idir.
    static const char* const path_options[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include"};
    static const char* const value_options[] = {"-D", "-U"};
    for (std::size_t i = 1; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        bool used = false;
        for (const char* o : path_options) {
            const std::string opt = o;
            if (a == opt && i + 1 < arguments.size()) {
                flags.push_back(opt);
                flags.push_back(resolved(arguments[++i]));
                used = true;
            } else if (a.size() > opt.size() && a.compare(0, opt.size(), opt) == 0 && opt != "-include" &&
                       opt != "-isystem" && opt != "-iquote" && opt != "-idirafter") {
                flags.push_back(opt + resolved(a.substr(opt.size())));
                used = true;
            }
            if (used) break;
        }
        if (used) continue;
        for (const char* o : value_options) {
            const std::string opt = o;
            if (a == opt && i + 1 < arguments.size()) {
                flags.push_back(opt + arguments[++i]);
                used = true;
            } else if (a.size() > opt.size() && a.compare(0, opt.size(), opt) == 0) {
                flags.push_back(a);
                used = true;
            }
            if (used) break;
        }
        if (used) continue;
        if (a.compare(0, 5, "-std=") == 0 || a.compare(0, 5, "--std") == 0) {
            const std::string value = a.substr(a.find('=') == std::string::npos ? a.size() : a.find('=') + 1);
            // nvcc and hipcc accept c++17; clang needs the same; gnu++17 and c++17 both parse.
            if (value.compare(0, 3, "c++") == 0 || value.compare(0, 5, "gnu++") == 0) flags.push_back("-std=" + value);
        }
    }
    return flags;
}

source_set collect_sources(const std::vector<std::string>& paths, const std::string& build_directory) {
    source_set out;
    std::vector<std::string> roots;
    for (const std::string& p : paths) {
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec || !fs::exists(st)) throw usage_error(cli::quoted(p) + ": no such file or directory");
        roots.push_back(absolute_path(p));
    }
    if (!build_directory.empty()) {
        std::error_code ec;
        if (!fs::is_regular_file(fs::path(build_directory) / "compile_commands.json", ec))
            throw usage_error("-p " + cli::quoted(build_directory) + ": no compile_commands.json there (CMake writes it with "
                              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
        CXCompilationDatabase_Error error = CXCompilationDatabase_NoError;
        CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_directory.c_str(), &error);
        if (error != CXCompilationDatabase_NoError || db == nullptr)
            throw usage_error("-p " + cli::quoted(build_directory) + ": compile_commands.json cannot be read");
        CXCompileCommands commands = clang_CompilationDatabase_getAllCompileCommands(db);
        const unsigned count = commands != nullptr ? clang_CompileCommands_getSize(commands) : 0;
        std::vector<std::string> seen;
        for (unsigned i = 0; i < count; ++i) {
            CXCompileCommand command = clang_CompileCommands_getCommand(commands, i);
            const std::string directory = take(clang_CompileCommand_getDirectory(command));
            std::string file = take(clang_CompileCommand_getFilename(command));
            if (!fs::path(file).is_absolute()) file = (fs::path(directory) / file).string();
            file = absolute_path(file);
            bool wanted = roots.empty();
            for (const std::string& r : roots) wanted = wanted || under(file, r);
            if (!wanted || std::find(seen.begin(), seen.end(), file) != seen.end()) continue;
            seen.push_back(file);
            std::vector<std::string> arguments;
            const unsigned n = clang_CompileCommand_getNumArgs(command);
            for (unsigned a = 0; a < n; ++a) arguments.push_back(take(clang_CompileCommand_getArg(command, a)));
            out.units.push_back({file, parse_relevant_flags(arguments, directory), false});
        }
        if (commands != nullptr) clang_CompileCommands_dispose(commands);
        clang_CompilationDatabase_dispose(db);
        if (out.units.empty())
            throw usage_error("-p " + cli::quoted(build_directory) + ": no compile command" +
                              (roots.empty() ? std::string() : " under the given PATHs"));
        std::sort(out.units.begin(), out.units.end(), [](const source_unit& a, const source_unit& b) { return a.path < b.path; });
        out.scope = roots.empty() ? std::vector<std::string>{common_directory(out.units)} : roots;
        return out;
    }
    if (roots.empty()) throw usage_error("`wavefit lint` needs PATH... (files or directories) or -p BUILD_DIR");
    for (const std::string& r : roots) {
        std::error_code ec;
        if (fs::is_directory(r, ec)) walk_directory(r, out);
        else out.units.push_back({r, {}, false});
    }
    std::sort(out.headers.begin(), out.headers.end());
    out.headers.erase(std::unique(out.headers.begin(), out.headers.end()), out.headers.end());
    if (out.units.empty() && out.headers.empty())
        throw usage_error("no CUDA or HIP source (.cu, .hip, .cuh) under " + cli::quoted(paths.front()));
    out.scope = roots;
    return out;
}

}  // namespace wavefit::cli::lint
