// SPDX-License-Identifier: MIT
// Checks of what the preprocessor and the compiler decide: warp-size macros and constants of 32, macros
// whose value differs between HIP's host and device passes, and warpSize used as a constant (which clang
// itself refuses, since the parser's warpSize is not constexpr, as in ROCm 7).
#include <algorithm>  // std::lower_bound
#include <map>        // functions judged
#include <set>        // diagnostics reported
#include <string>     // messages

#include "analysis.hpp"

namespace wavefit::cli::lint {
namespace {

std::string folded(std::string_view name) {
    std::string s;
    for (const char c : name)
        if (c != '_') s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

// WARP_SIZE, WARPSIZE, kWarpSize, WS, THREADS_PER_WARP, WAVEFRONT_SIZE...: a name for the warp's width
// (and not WARPS_PER_BLOCK or NUM_WARPS, which count warps).
bool names_warp_width(std::string_view name) {
    const std::string f = folded(name);
    if (f == "ws" || f == "kws" || f == "wsize" || f == "wsz") return true;
    static const char* const parts[] = {"warpsize", "warpsz", "warpwidth", "wavesize", "wavefrontsize",
                                        "threadsperwarp", "warpthreads", "lanesperwarp", "warplanes"};
    for (const char* p : parts)
        if (f.find(p) != std::string::npos) return true;
    return false;
}

// Macros only the device pass defines (or defines differently): a definition under them, or built from
// them, has another value in the host pass.
bool is_device_only_macro(std::string_view name) {
    static const char* const names[] = {"__HIP_DEVICE_COMPILE__", "__CUDA_ARCH__", "__AMDGCN_WAVEFRONT_SIZE",
                                        "__AMDGCN_WAVEFRONT_SIZE__", "__AMDGCN__", "__NVPTX__", "__GFX9__",
                                        "__GFX10__", "__GFX11__", "__GFX12__", "__SPIRV__"};
    for (const char* n : names)
        if (name == n) return true;
    return name.size() > 7 && name.substr(0, 5) == "__gfx" && name.substr(name.size() - 2) == "__";
}

// The value the host pass gives a device-only macro used as a number: clang defines
// __AMDGCN_WAVEFRONT_SIZE as 64 in HIP's host pass; the others are undefined there.
std::optional<std::int64_t> host_value_of_device_macro(std::string_view name) {
    if (name == "__AMDGCN_WAVEFRONT_SIZE" || name == "__AMDGCN_WAVEFRONT_SIZE__") return 64;
    return std::nullopt;
}

// Whether a host function reads the device's warp size (cudaDevAttrWarpSize, deviceProp.warpSize).
bool reads_device_warp_size(CXCursor function) {
    return any_in_tree(function, [](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_MemberRefExpr && spelling_of(c) == "warpSize") return true;
        if (k != CXCursor_CallExpr) return false;
        const std::string name = spelling_of(c);
        constexpr std::int64_t warp_size_attribute = 10;  // cudaDevAttrWarpSize, hipDeviceAttributeWarpSize
        return (name == "cudaDeviceGetAttribute" || name == "hipDeviceGetAttribute") &&
               clang_Cursor_getNumArguments(c) > 1 && integer_value(clang_Cursor_getArgument(c, 1)) == warp_size_attribute;
    });
}

// Where a warp-size constant of 32 does harm: a use in device code that also sees the whole wavefront
// (a ballot, an indexed shuffle, warpSize), or in host code that compares it with the device's warp
// size. Empty when every use is a consistent scheme of 32-lane groups.
std::string harmful_use(analysis& a, const std::vector<file_range>& uses) {
    // Each function is judged once, however many uses it holds.
    std::map<std::size_t, std::string> judged;
    const std::vector<CXCursor>& functions = a.functions();
    for (const file_range& u : uses) {
        for (std::size_t i = 0; i < functions.size(); ++i) {
            const CXCursor f = functions[i];
            if (!range_of(f).contains(u)) continue;
            auto found = judged.find(i);
            if (found == judged.end()) {
                std::string verdict;
                if (is_device_function(f)) {
                    const std::string w = a.wave_use(f, true);
                    if (!w.empty()) verdict = "`" + spelling_of(f) + "` uses it with " + w;
                } else if (reads_device_warp_size(f)) {
                    verdict = "`" + spelling_of(f) + "` uses it next to the device's warp size, which is 64 there";
                }
                found = judged.emplace(i, std::move(verdict)).first;
            }
            if (!found->second.empty()) return found->second;
        }
    }
    return {};
}

void report_warp_constant(analysis& a, CXCursor at, const std::string& name, std::int64_t value, bool is_macro,
                          const std::string& use) {
    const lint_target& t = a.target();
    a.report("hardcoded_warp_size", at,
             std::string(is_macro ? "macro `" : "constant `") + name + "` is " + std::to_string(value) +
                 ", but a wavefront of " + t.device_name + " has " + std::to_string(t.wave_size) +
                 " lanes: lane indices, strides, ballot widths and reductions built from it cover " +
                 (value < t.wave_size ? "half a wavefront" : "two wavefronts") + "; " + use,
             "use the hardware's width: wavefit::wave_size() in device code (correct on wave64 and wave32), the "
             "device's warpSize attribute on the host; keep a separate constant where 32 is an algorithm's word size",
             "wavefit::wave_size()");
}

void check_warp_size_macros(analysis& a) {
    for (const CXCursor& c : children_of(clang_getTranslationUnitCursor(a.tu()))) {
        if (clang_getCursorKind(c) != CXCursor_MacroDefinition || !a.in_scope(c)) continue;
        const std::string name = spelling_of(c);
        if (!names_warp_width(name) || clang_Cursor_isMacroFunctionLike(c) != 0) continue;
        const tu_tokens::macro* m = a.tokens().find_macro(name);
        if (m == nullptr) continue;
        const auto v = evaluate_tokens(m->body, a.tokens());
        if (!v || *v != a.target().foreign_warp_size()) continue;
        std::vector<file_range> uses;
        for (const auto& [range, expansion] : a.tokens().expansions())
            if (spelling_of(expansion) == name) uses.push_back(range);
        const std::string use = harmful_use(a, uses);
        if (!use.empty()) report_warp_constant(a, c, name, *v, true, use);
    }
}

void check_warp_size_constant(CXCursor c, analysis& a) {
    const CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_VarDecl && k != CXCursor_EnumConstantDecl) return;
    const std::string name = spelling_of(c);
    if (!names_warp_width(name) || !a.in_scope(c)) return;
    std::optional<std::int64_t> v;
    if (k == CXCursor_EnumConstantDecl) {
        v = clang_getEnumConstantDeclValue(c);
    } else {
        const CXType t = clang_getCursorType(c);
        if (clang_isConstQualifiedType(t) == 0 || !is_integer(t)) return;
        const CXCursor init = initializer_of(c);
        if (clang_Cursor_isNull(init)) return;
        v = integer_value(init);
    }
    if (!v || *v != a.target().foreign_warp_size()) return;
    std::vector<file_range> uses;
    for (const CXCursor& f : a.functions())
        walk(f, [&](CXCursor e) {
            if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && same_cursor(clang_getCursorReferenced(e), c))
                uses.push_back(range_of(e));
            return true;
        });
    const std::string use = harmful_use(a, uses);
    if (!use.empty()) report_warp_constant(a, c, name, *v, false, use);
}

void check_warp_size_constants(analysis& a) {
    walk(clang_getTranslationUnitCursor(a.tu()), [&](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion || k == CXCursor_InclusionDirective)
            return false;
        if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0) return false;
        check_warp_size_constant(c, a);
        // Declarations only: expressions hold no constants worth a name.
        return !is_expression(c) && k != CXCursor_TemplateTypeParameter;
    });
}

// ---- host/device mismatches ---------------------------------------------------------------------------

struct directive {
    std::string kind;                // if, ifdef, ifndef, elif, else, endif, define
    std::uint32_t begin = 0;         // offset of '#'
    std::uint32_t end = 0;           // end of the directive's line
    std::vector<const token*> rest;  // the tokens after the directive name, on its line
};

std::vector<directive> directives_of(const std::vector<token>& tokens, std::string_view text) {
    std::vector<directive> result;
    const auto line_end = [&](std::uint32_t offset) {
        std::uint32_t e = offset;
        while (e < text.size()) {
            if (text[e] == '\n' && (e == 0 || text[e - 1] != '\\')) break;
            ++e;
        }
        return e;
    };
    const auto first_on_line = [&](std::uint32_t offset) {
        std::uint32_t i = offset;
        while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
        return i == 0 || text[i - 1] == '\n';
    };
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (tokens[i].text != "#" || tokens[i].begin >= text.size() || !first_on_line(tokens[i].begin)) continue;
        directive d;
        d.kind = tokens[i + 1].text;
        d.begin = tokens[i].begin;
        d.end = line_end(tokens[i].begin);
        std::size_t j = i + 2;
        for (; j < tokens.size() && tokens[j].begin < d.end; ++j) d.rest.push_back(&tokens[j]);
        result.push_back(std::move(d));
        i = j - 1;
    }
    return result;
}

// The chain of #if/#elif/#else branches around `offset`: for each enclosing conditional, the branch that
// holds the offset and its siblings, as [begin, end) ranges with their condition tokens.
struct branch {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    const directive* opened_by = nullptr;
};
struct conditional {
    std::vector<branch> branches;
    std::size_t holding = 0;  // index of the branch that contains the offset
};

std::vector<conditional> conditionals_around(const std::vector<directive>& directives, std::uint32_t offset) {
    std::vector<conditional> result;
    std::vector<conditional> stack;
    for (const directive& d : directives) {
        if (d.kind == "if" || d.kind == "ifdef" || d.kind == "ifndef") {
            conditional c;
            c.branches.push_back({d.end, d.end, &d});
            stack.push_back(std::move(c));
        } else if ((d.kind == "elif" || d.kind == "else") && !stack.empty()) {
            stack.back().branches.back().end = d.begin;
            stack.back().branches.push_back({d.end, d.end, &d});
        } else if (d.kind == "endif" && !stack.empty()) {
            conditional c = std::move(stack.back());
            stack.pop_back();
            c.branches.back().end = d.begin;
            for (std::size_t i = 0; i < c.branches.size(); ++i)
                if (c.branches[i].begin <= offset && offset < c.branches[i].end) {
                    c.holding = i;
                    result.push_back(c);
                }
        }
    }
    return result;
}

bool condition_is_device_only(const directive& d) {
    for (const token* t : d.rest)
        if (t->kind == CXToken_Identifier && is_device_only_macro(t->text)) return true;
    return false;
}

// The value `name` has in the host pass, when this definition sits in a device-only branch: the other
// branches' definition of the same name (the host takes the #else). nullopt: unknown or undefined.
std::optional<std::int64_t> host_value(const std::string& name, const tu_tokens::macro& m, analysis& a, int depth);

std::optional<std::int64_t> host_value_of_tokens(const std::vector<token>& body, analysis& a, int depth) {
    // Device-only macros in the body take their host value; other macros their host value in turn.
    std::vector<token> substituted;
    for (const token& t : body) {
        bool is_macro = false;
        std::optional<std::int64_t> v;
        if (t.kind == CXToken_Identifier && is_device_only_macro(t.text)) {
            is_macro = true;
            v = host_value_of_device_macro(t.text);
        } else if (t.kind == CXToken_Identifier && depth < 4) {
            const tu_tokens::macro* inner = a.tokens().find_macro(t.text);
            if (inner != nullptr && !inner->function_like) {
                is_macro = true;
                v = host_value(t.text, *inner, a, depth + 1);
            }
        }
        if (!is_macro) {
            substituted.push_back(t);
            continue;
        }
        if (!v) return std::nullopt;  // one macro without a host value leaves the whole body unknown
        token n = t;
        n.kind = CXToken_Literal;
        n.text = std::to_string(*v);
        substituted.push_back(n);
    }
    return evaluate_tokens(substituted, a.tokens());
}

std::optional<std::int64_t> host_value(const std::string& name, const tu_tokens::macro& m, analysis& a, int depth) {
    const position where = start_of(m.definition);
    if (where.file == nullptr) return std::nullopt;
    const std::vector<token>& tokens = a.tokens().file_tokens(where.file);
    const std::vector<directive> directives = directives_of(tokens, a.tokens().file_text(where.file));
    for (const conditional& c : conditionals_around(directives, where.offset)) {
        bool device_only = false;
        for (const branch& b : c.branches) device_only = device_only || condition_is_device_only(*b.opened_by);
        if (!device_only) continue;
        // The host pass takes another branch: find this name's definition there.
        for (std::size_t i = 0; i < c.branches.size(); ++i) {
            if (i == c.holding) continue;
            for (const directive& d : directives) {
                if (d.kind != "define" || d.begin < c.branches[i].begin || d.begin >= c.branches[i].end) continue;
                if (d.rest.empty() || d.rest.front()->text != name) continue;
                std::vector<token> body;
                for (std::size_t j = 1; j < d.rest.size(); ++j) body.push_back(*d.rest[j]);
                return host_value_of_tokens(body, a, depth);
            }
        }
        return std::nullopt;
    }
    return host_value_of_tokens(m.body, a, depth);
}

void check_host_device_mismatch(analysis& a) {
    // Host functions' ranges: a use of the macro there sees the host pass's value.
    std::vector<std::pair<file_range, CXCursor>> host_functions;
    for (const CXCursor& f : a.functions())
        if (is_host_only(f)) host_functions.emplace_back(range_of(f), f);
    if (host_functions.empty()) return;
    std::set<std::string> reported;
    for (const CXCursor& c : children_of(clang_getTranslationUnitCursor(a.tu()))) {
        if (clang_getCursorKind(c) != CXCursor_MacroExpansion || !a.in_scope(c)) continue;
        const std::string name = spelling_of(c);
        const tu_tokens::macro* m = a.tokens().find_macro(name);
        if (m == nullptr || m->function_like) continue;
        const file_range use = range_of(c);
        const CXCursor* host = nullptr;
        for (const auto& [range, function] : host_functions)
            if (range.contains(use)) host = &function;
        if (host == nullptr) continue;
        const auto device = evaluate_tokens(m->body, a.tokens());
        if (!device) continue;
        const auto on_host = host_value(name, *m, a, 0);
        if (!on_host || *on_host == *device) continue;
        const std::string key = name + "@" + std::to_string(use.begin);
        if (!reported.insert(key).second) continue;
        a.report("wave_size_host_device_mismatch", c,
                 "`" + name + "` is " + std::to_string(*device) + " in the device pass for " + a.target().device_name +
                     " but " + std::to_string(*on_host) + " in the host pass, and `" + spelling_of(*host) +
                     "` runs on the host: a launch sized with it disagrees with kernels compiled with it (a block "
                     "above the kernel's __launch_bounds__ fails with hipErrorLaunchFailure)",
                 "on the host, read the device's wavefront size at run time (hipDeviceAttributeWarpSize) or let "
                 "wavefit size the launch; keep compile-time wave sizes to device code (wavefit::wave_size())",
                 "wavefit::launch(kernel, work, stream, args...)");
    }
}

// ---- what clang refused --------------------------------------------------------------------------------

bool mentions_warp_size(const std::string& text) { return text.find("warpSize") != std::string::npos; }

}  // namespace

void check_preprocessor(analysis& a) {
    check_warp_size_macros(a);
    check_warp_size_constants(a);
    check_host_device_mismatch(a);
}

void check_diagnostics(analysis& a) {
    const unsigned count = clang_getNumDiagnostics(a.tu());
    std::set<std::pair<std::uint32_t, std::uint32_t>> reported;
    for (unsigned i = 0; i < count; ++i) {
        CXDiagnostic d = clang_getDiagnostic(a.tu(), i);
        const bool error = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
        const position where = position_of(clang_getDiagnosticLocation(d));
        bool about_warp_size = false;
        std::string message;
        if (error && a.in_scope(where.file)) {
            message = take(clang_getDiagnosticSpelling(d));
            about_warp_size = mentions_warp_size(message);
            CXDiagnosticSet notes = clang_getChildDiagnostics(d);
            for (unsigned n = 0; notes != nullptr && n < clang_getNumDiagnosticsInSet(notes) && !about_warp_size; ++n) {
                CXDiagnostic note = clang_getDiagnosticInSet(notes, n);
                about_warp_size = mentions_warp_size(take(clang_getDiagnosticSpelling(note)));
                clang_disposeDiagnostic(note);
            }
            if (!about_warp_size) {
                // A refused template argument or attribute: is warpSize written in the rest of the statement?
                const bool constant_needed =
                    message.find("constant") != std::string::npos || message.find("no matching function") != std::string::npos ||
                    message.find("launch_bounds") != std::string::npos || message.find("variable length") != std::string::npos;
                if (constant_needed) {
                    const std::vector<token>& tokens = a.tokens().file_tokens(where.file);
                    auto t = std::lower_bound(tokens.begin(), tokens.end(), where.offset,
                                              [](const token& k, std::uint32_t offset) { return k.begin < offset; });
                    for (; t != tokens.end() && t->text != ";" && t->text != "{"; ++t)
                        if (t->text == "warpSize") {
                            about_warp_size = true;
                            break;
                        }
                }
            }
        }
        clang_disposeDiagnostic(d);
        if (!about_warp_size || !reported.insert({where.line, where.column}).second) continue;
        a.report_at("warp_size_not_constexpr", where,
                    "warpSize is used where a constant expression is needed (" + message +
                        "): it is not constexpr since ROCm 7, and never was in CUDA",
                    "use wavefit::wave_size() for a value in device code, or a constant chosen per target "
                    "(64 for gfx9, 32 for gfx10+) where a compile-time value is required",
                    "wavefit::wave_size()");
    }
}

}  // namespace wavefit::cli::lint
