// SPDX-License-Identifier: MIT
// A small vocabulary over libclang's C API (clang-c/Index.h) for the checks: children of a cursor,
// the expression under implicit conversions, positions, integer values, and what the C API of clang 15
// does not expose directly: the operator of a binary expression (read from the file's tokens, or from
// the macro body the expression was expanded from) and the value of an integer expression written with
// macros, template-free constants and local variables that are never changed.
#pragma once

#include <clang-c/Index.h>

#include <cstdint>      // values, offsets
#include <map>          // caches
#include <optional>     // values that may be unknown
#include <string>       // spellings
#include <string_view>  // names
#include <vector>       // children, tokens

namespace wavefit::cli::lint {

// Takes ownership of a CXString.
std::string take(CXString s);
std::string spelling_of(CXCursor c);
std::vector<CXCursor> children_of(CXCursor c);
bool same_cursor(CXCursor a, CXCursor b);

// Pre-order walk; `visit` returns false to skip a cursor's children.
template <class Visit> void walk(CXCursor c, Visit&& visit) {
    for (const CXCursor& child : children_of(c))
        if (visit(child)) walk(child, visit);
}

// Whether `matches` holds for `c` or a cursor below it; the walk stops at the first match.
template <class Matches> bool any_in_tree(CXCursor c, Matches&& matches) {
    if (matches(c)) return true;
    bool found = false;
    walk(c, [&](CXCursor below) {
        if (found) return false;
        found = matches(below);
        return !found;
    });
    return found;
}

// The first non-null cursor `find` returns for `c` or a cursor below it, in pre-order; null if none.
template <class Find> CXCursor first_in_tree(CXCursor c, Find&& find) {
    CXCursor found = find(c);
    if (!clang_Cursor_isNull(found)) return found;
    walk(c, [&](CXCursor below) {
        if (!clang_Cursor_isNull(found)) return false;
        found = find(below);
        return clang_Cursor_isNull(found) != 0;
    });
    return found;
}

bool is_expression(CXCursor c);
// The expression under implicit conversions, parentheses and temporaries (UnexposedExpr with one child,
// ParenExpr): what the user wrote, as the type checker saw it.
CXCursor stripped(CXCursor c);
// The first and second operand of a BinaryOperator or CompoundAssignOperator.
bool operands(CXCursor op, CXCursor& lhs, CXCursor& rhs);

// Integer type facts of an expression's or declaration's type: bits (0 when not an integer type).
unsigned integer_bits(CXType t);
bool is_signed_integer(CXType t);
bool is_integer(CXType t);

// The function, method, template or lambda a cursor is declared in (CXCursor_NoDeclFound: none).
bool has_attribute(CXCursor declaration, CXCursorKind attribute);
bool is_kernel(CXCursor function);         // __global__
bool is_device_function(CXCursor function);  // __device__ or __global__ (also __host__ __device__)
bool is_host_only(CXCursor function);      // neither __device__ nor __global__

// A file position where the user wrote the code: macro arguments map to where they were written,
// macro bodies to the macro's use.
struct position {
    CXFile file = nullptr;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint32_t offset = 0;
};
position position_of(CXSourceLocation l);
position start_of(CXCursor c);
// The extent of a cursor in file offsets (both ends mapped as position_of does).
struct file_range {
    CXFile file = nullptr;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    bool valid() const noexcept { return file != nullptr && begin <= end; }
    bool contains(const file_range& inner) const noexcept {
        return valid() && inner.valid() && clang_File_isEqual(file, inner.file) && begin <= inner.begin &&
               inner.end <= end;
    }
};
file_range range_of(CXCursor c);

struct token {
    std::uint32_t begin = 0;  // file offset
    std::uint32_t end = 0;
    CXTokenKind kind = CXToken_Punctuation;
    std::string text;
};
// A C integer literal's value (0x1F, 31u, 0b11, 1'000); nullopt for anything else.
std::optional<std::uint64_t> integer_literal_value(std::string_view text);

// Per translation unit: tokens of files, macro definitions and expansions, constant variables.
class tu_tokens {
public:
    explicit tu_tokens(CXTranslationUnit tu) : tu_(tu) {}

    const std::vector<token>& file_tokens(CXFile file);
    // Tokens of a cursor's extent (tokenized on demand; for declarations and macro definitions).
    std::vector<token> cursor_tokens(CXCursor c) const;
    std::string_view file_text(CXFile file) const;

    // Macro definitions by name (the last one seen) and expansions in file order, from a walk of the
    // translation unit's preprocessing record (record_macro is called for each).
    void record_macro(CXCursor c);
    struct macro {
        CXCursor definition;
        bool function_like = false;
        std::vector<std::string> parameters;
        std::vector<token> body;
    };
    const macro* find_macro(std::string_view name) const;
    // A macro given on the command line (-DNAME=VALUE): it has no definition cursor, only its value.
    void record_command_line_macro(const std::string& name, const std::string& value);
    // The macro expansion cursors whose range contains `r`, innermost last.
    std::vector<CXCursor> expansions_containing(const file_range& r) const;
    // Every recorded expansion, in file order: its range and cursor.
    const std::vector<std::pair<file_range, CXCursor>>& expansions() const noexcept { return expansions_; }

    // Integer constants visible by name: const/constexpr variables with a constant initializer.
    void record_constant(const std::string& name, std::int64_t value) { constants_[name] = value; }
    std::optional<std::int64_t> find_constant(std::string_view name) const;

private:
    CXTranslationUnit tu_;
    std::map<CXFile, std::vector<token>> file_tokens_;
    std::map<std::string, macro, std::less<>> macros_;
    std::vector<std::pair<file_range, CXCursor>> expansions_;
    std::map<std::string, std::int64_t, std::less<>> constants_;
};

// The operator of a BinaryOperator or CompoundAssignOperator ("%", "&", ">>=", ...); empty when it
// cannot be read (an operator inside a macro body that the anchoring below cannot place).
std::string operator_of(CXCursor op, tu_tokens& tokens);

// The value of an integer expression: a constant expression, a macro-expanded literal, or a local
// variable that has a constant initializer and is never assigned, incremented or taken the address of
// in `scope` (the function body). nullopt when unknown.
std::optional<std::int64_t> integer_value(CXCursor expression, CXCursor scope = clang_getNullCursor());

// The value of an integer expression written as tokens (a __launch_bounds__ argument, a macro body):
// integer literals, macros, named constants, parentheses and the arithmetic, shift, bitwise and
// comparison operators. nullopt when any part is unknown (a template parameter, a function call).
std::optional<std::int64_t> evaluate_tokens(const std::vector<token>& tokens, const tu_tokens& context);

// The variable a (stripped) expression names: a DeclRefExpr to a VarDecl or ParmDecl; else null cursor.
CXCursor referenced_variable(CXCursor expression);
// Whether `variable` is assigned, incremented, decremented or has its address taken anywhere in `scope`.
bool is_modified_in(CXCursor variable, CXCursor scope);
// The initializer of a VarDecl (null cursor when none).
CXCursor initializer_of(CXCursor variable);

// Source text of a cursor as written in its file (for messages: the kernel's name, an argument); empty
// for code inside a macro body.
std::string source_text(CXCursor c, tu_tokens& tokens);

}  // namespace wavefit::cli::lint
