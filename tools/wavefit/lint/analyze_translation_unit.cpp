// SPDX-License-Identifier: MIT
// One translation unit: what it defines (macros, constants, functions, kernels with their
// __launch_bounds__ and shapes), then every group of checks over it (analysis.hpp).
#include <algorithm>  // std::remove_if
#include <cstddef>    // std::size_t
#include <set>        // instantiated templates
#include <utility>  // std::move

#include "analysis.hpp"

namespace wavefit::cli::lint {

analysis::analysis(CXTranslationUnit tu, const lint_target& target, std::function<bool(CXFile)> in_scope,
                   std::vector<finding>& out, const std::vector<std::pair<std::string, std::string>>& command_line_macros)
    : tu_(tu), target_(target), in_scope_(std::move(in_scope)), out_(out), tokens_(tu) {
    for (const auto& [name, value] : command_line_macros) tokens_.record_command_line_macro(name, value);
}

const kernel_info* analysis::kernel_of(CXCursor callee_declaration) const {
    if (clang_Cursor_isNull(callee_declaration)) return nullptr;
    CXCursor primary = callee_declaration;
    // A call of a template specialization names the specialization; its template carries the attributes.
    const CXCursor from_template = clang_getSpecializedCursorTemplate(callee_declaration);
    if (!clang_Cursor_isNull(from_template)) primary = from_template;
    const auto found = kernels_.find(take(clang_getCursorUSR(primary)));
    return found != kernels_.end() ? &found->second : nullptr;
}

void analysis::report(std::string_view code, CXCursor at, std::string message, std::string fix,
                      std::string replacement) {
    report_at(code, start_of(at), std::move(message), std::move(fix), std::move(replacement));
}

void analysis::report_at(std::string_view code, const position& where, std::string message, std::string fix,
                         std::string replacement) {
    if (!in_scope(where.file)) return;
    finding f;
    f.kind = find_rule(code);
    if (f.kind == nullptr) return;  // a check names a code the rule table lacks: caught by the tests
    f.file = take(clang_File_tryGetRealPathName(where.file));
    if (f.file.empty()) f.file = take(clang_getFileName(where.file));
    f.line = where.line;
    f.column = where.column;
    f.message = std::move(message);
    f.fix = std::move(fix);
    f.replacement = std::move(replacement);
    const std::string_view text = tokens_.file_text(where.file);
    if (where.offset <= text.size()) {
        std::size_t begin = text.rfind('\n', where.offset == 0 ? 0 : where.offset - 1);
        begin = begin == std::string_view::npos ? 0 : begin + 1;
        if (where.offset == 0) begin = 0;
        std::size_t end = text.find('\n', where.offset);
        if (end == std::string_view::npos) end = text.size();
        f.source_line = std::string(text.substr(begin, end - begin));
        if (!f.source_line.empty() && f.source_line.back() == '\r') f.source_line.pop_back();
    }
    out_.push_back(std::move(f));
}

namespace {

bool is_function_kind(CXCursorKind k) {
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
           k == CXCursor_Constructor || k == CXCursor_Destructor;
}

bool is_container_kind(CXCursorKind k) {
    return k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
           k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate ||
           k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnionDecl;
}

CXCursor body_of(CXCursor function) {
    for (const CXCursor& k : children_of(function))
        if (clang_getCursorKind(k) == CXCursor_CompoundStmt) return k;
    return clang_getNullCursor();
}

// The arguments of __launch_bounds__(MAX[, MIN]) as token lists, from the attribute's tokens (the
// macro's name and its parenthesised arguments as written), expanding a macro that wraps the attribute.
std::vector<std::vector<token>> launch_bounds_arguments(CXCursor attribute, analysis& a) {
    std::vector<token> tokens = a.tokens().cursor_tokens(attribute);
    for (int depth = 0; depth < 4 && tokens.size() == 1 && tokens[0].kind == CXToken_Identifier; ++depth) {
        const tu_tokens::macro* m = a.tokens().find_macro(tokens[0].text);
        if (m == nullptr || m->function_like) break;
        tokens = m->body;
    }
    if (tokens.size() < 3 || (tokens[0].text != "__launch_bounds__" && tokens[0].text != "launch_bounds") ||
        tokens[1].text != "(")
        return {};
    std::vector<std::vector<token>> arguments(1);
    int depth = 0;
    for (std::size_t i = 2; i < tokens.size(); ++i) {
        const std::string& t = tokens[i].text;
        if (t == "(") ++depth;
        if (t == ")") {
            if (depth == 0) return arguments;
            --depth;
        }
        if (t == "," && depth == 0) {
            arguments.emplace_back();
            continue;
        }
        arguments.back().push_back(tokens[i]);
    }
    return {};
}

void read_launch_bounds(kernel_info& k, CXCursor declaration, analysis& a) {
    for (const CXCursor& attr : children_of(declaration)) {
        if (clang_getCursorKind(attr) != CXCursor_UnexposedAttr) continue;
        const std::vector<std::vector<token>> args = launch_bounds_arguments(attr, a);
        if (args.empty() || args[0].empty()) continue;
        k.has_launch_bounds = true;
        k.launch_bounds_attribute = attr;
        k.max_threads = evaluate_tokens(args[0], a.tokens());
        if (args.size() > 1) k.min_blocks = evaluate_tokens(args[1], a.tokens());
    }
}

void record_kernel(CXCursor declaration, analysis& a) {
    CXCursor primary = declaration;
    const CXCursor from_template = clang_getSpecializedCursorTemplate(declaration);
    if (!clang_Cursor_isNull(from_template)) primary = from_template;
    const std::string usr = take(clang_getCursorUSR(primary));
    if (usr.empty()) return;
    kernel_info& k = a.kernels()[usr];
    const bool has_body = !clang_Cursor_isNull(body_of(declaration));
    if (k.name.empty() || (has_body && !k.has_body)) {
        k.definition = declaration;
        k.name = spelling_of(declaration);
    }
    if (!k.has_launch_bounds) read_launch_bounds(k, declaration, a);
    if (has_body && !k.has_body) {
        k.has_body = true;
        k.shape = read_kernel_shape(declaration, a);
    }
}

void collect(const std::vector<CXCursor>& children, analysis& a) {
    for (const CXCursor& c : children) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion || k == CXCursor_InclusionDirective)
            continue;
        if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0) continue;
        if (k == CXCursor_VarDecl) {
            // Named integer constants, for the token evaluator (__launch_bounds__(kThreads)).
            const CXType type = clang_getCursorType(c);
            if (clang_isConstQualifiedType(type) != 0 && is_integer(type)) {
                const CXCursor init = initializer_of(c);
                if (!clang_Cursor_isNull(init))
                    if (const auto v = integer_value(init)) a.tokens().record_constant(spelling_of(c), *v);
            }
            continue;
        }
        if (is_container_kind(k)) {
            collect(children_of(c), a);
            continue;
        }
        if (!is_function_kind(k)) continue;
        if (is_kernel(c)) record_kernel(c, a);
        if (!clang_Cursor_isNull(body_of(c)) && a.in_scope(c)) a.mutable_functions().push_back(c);
    }
}

// A function template's instantiations have concrete types and values where the template has dependent
// ones: where the unit instantiated a template, its first instantiation is checked instead of the
// template. (Every instantiation has the template's source positions, so one stands for all; checking a
// hundred instantiations of one kernel would only repeat the same findings at a hundred times the cost.)
void prefer_instantiations(analysis& a) {
    std::set<std::string> instantiated;
    std::vector<CXCursor>& functions = a.mutable_functions();
    std::vector<CXCursor> kept;
    for (const CXCursor& f : functions) {
        if (clang_getCursorKind(f) == CXCursor_FunctionTemplate) continue;
        const CXCursor pattern = clang_getSpecializedCursorTemplate(f);
        if (clang_Cursor_isNull(pattern)) continue;
        if (instantiated.insert(take(clang_getCursorUSR(pattern))).second) kept.push_back(f);
    }
    functions.erase(std::remove_if(functions.begin(), functions.end(),
                                   [&](CXCursor f) {
                                       const CXCursor pattern = clang_getSpecializedCursorTemplate(f);
                                       const std::string key = take(clang_getCursorUSR(
                                           clang_getCursorKind(f) == CXCursor_FunctionTemplate || clang_Cursor_isNull(pattern) ? f : pattern));
                                       if (instantiated.count(key) == 0) return false;
                                       // The template itself and every instantiation but the first go.
                                       for (const CXCursor& k : kept)
                                           if (same_cursor(k, f)) return false;
                                       return true;
                                   }),
                    functions.end());
}

}  // namespace

void analyze_translation_unit(analysis& a) {
    // Macros first: kernels' __launch_bounds__ and operators written in macro bodies are read through them.
    const std::vector<CXCursor> top = children_of(clang_getTranslationUnitCursor(a.tu()));
    for (const CXCursor& c : top) {
        const CXCursorKind k = clang_getCursorKind(c);
        if ((k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion) &&
            clang_Location_isInSystemHeader(clang_getCursorLocation(c)) == 0)
            a.tokens().record_macro(c);
    }
    collect(top, a);
    prefer_instantiations(a);
    check_preprocessor(a);
    check_diagnostics(a);
    check_kernel_declarations(a);
    check_device_code(a);
    check_launches(a);
}

}  // namespace wavefit::cli::lint
