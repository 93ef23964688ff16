// SPDX-License-Identifier: MIT
// libclang helpers (clang_tree.hpp). Everything here reads the AST clang built; tokens are clang's own
// lexer output, used only where clang 15's C API has no accessor (an operator, an attribute argument).
#include "clang_tree.hpp"

#include <algorithm>  // std::find
#include <cstddef>    // std::size_t
#include <limits>     // value ranges
#include <set>        // candidate operators

namespace wavefit::cli::lint {

std::string take(CXString s) {
    const char* text = clang_getCString(s);
    std::string result = text != nullptr ? text : "";
    clang_disposeString(s);
    return result;
}

std::string spelling_of(CXCursor c) { return take(clang_getCursorSpelling(c)); }

std::vector<CXCursor> children_of(CXCursor c) {
    std::vector<CXCursor> result;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData data) {
            static_cast<std::vector<CXCursor>*>(data)->push_back(child);
            return CXChildVisit_Continue;
        },
        &result);
    return result;
}

bool same_cursor(CXCursor a, CXCursor b) { return clang_equalCursors(a, b) != 0; }

bool is_expression(CXCursor c) { return clang_isExpression(clang_getCursorKind(c)) != 0; }

CXCursor stripped(CXCursor c) {
    for (int depth = 0; depth < 64; ++depth) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        const std::vector<CXCursor> kids = children_of(c);
        if (kids.size() != 1 || !is_expression(kids.front())) return c;
        c = kids.front();
    }
    return c;
}

bool operands(CXCursor op, CXCursor& lhs, CXCursor& rhs) {
    std::vector<CXCursor> kids;
    for (const CXCursor& k : children_of(op))
        if (is_expression(k)) kids.push_back(k);
    if (kids.size() != 2) return false;
    lhs = kids[0];
    rhs = kids[1];
    return true;
}

bool is_integer(CXType t) {
    if (is_signed_integer(t)) return true;
    switch (clang_getCanonicalType(t).kind) {
        case CXType_Char_U:
        case CXType_UChar:
        case CXType_UShort:
        case CXType_UInt:
        case CXType_ULong:
        case CXType_ULongLong:
        case CXType_UInt128: return true;
        default: return false;
    }
}

unsigned integer_bits(CXType t) {
    if (!is_integer(t)) return 0;
    const long long bytes = clang_Type_getSizeOf(clang_getCanonicalType(t));
    return bytes > 0 ? static_cast<unsigned>(bytes * 8) : 0;
}

bool is_signed_integer(CXType t) {
    switch (clang_getCanonicalType(t).kind) {
        case CXType_Char_S:
        case CXType_SChar:
        case CXType_Short:
        case CXType_Int:
        case CXType_Long:
        case CXType_LongLong:
        case CXType_Int128: return true;
        default: return false;
    }
}

bool has_attribute(CXCursor declaration, CXCursorKind attribute) {
    for (const CXCursor& k : children_of(declaration))
        if (clang_getCursorKind(k) == attribute) return true;
    return false;
}

bool is_kernel(CXCursor function) { return has_attribute(function, CXCursor_CUDAGlobalAttr); }

bool is_device_function(CXCursor function) {
    bool device = false;
    for (const CXCursor& k : children_of(function)) {
        const CXCursorKind kind = clang_getCursorKind(k);
        device = device || kind == CXCursor_CUDAGlobalAttr || kind == CXCursor_CUDADeviceAttr;
    }
    return device;
}

bool is_host_only(CXCursor function) { return !is_device_function(function); }

position position_of(CXSourceLocation l) {
    position p;
    unsigned line = 0;
    unsigned column = 0;
    unsigned offset = 0;
    clang_getFileLocation(l, &p.file, &line, &column, &offset);
    p.line = line;
    p.column = column;
    p.offset = offset;
    return p;
}

position start_of(CXCursor c) { return position_of(clang_getRangeStart(clang_getCursorExtent(c))); }

file_range range_of(CXCursor c) {
    const CXSourceRange extent = clang_getCursorExtent(c);
    const position b = position_of(clang_getRangeStart(extent));
    const position e = position_of(clang_getRangeEnd(extent));
    file_range r;
    if (b.file == nullptr || e.file == nullptr || !clang_File_isEqual(b.file, e.file)) return r;
    r.file = b.file;
    r.begin = b.offset;
    r.end = e.offset;
    return r;
}

std::optional<std::uint64_t> integer_literal_value(std::string_view text) {
    std::string digits;
    for (const char c : text)
        if (c != '\'') digits += c;
    std::size_t end = digits.size();
    while (end > 0 && (digits[end - 1] == 'u' || digits[end - 1] == 'U' || digits[end - 1] == 'l' ||
                       digits[end - 1] == 'L' || digits[end - 1] == 'z' || digits[end - 1] == 'Z'))
        --end;
    digits.resize(end);
    if (digits.empty()) return std::nullopt;
    unsigned base = 10;
    std::size_t i = 0;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
        base = 2;
        i = 2;
    } else if (digits.size() > 1 && digits[0] == '0') {
        base = 8;
        i = 1;
    }
    std::uint64_t value = 0;
    for (; i < digits.size(); ++i) {
        const char c = digits[i];
        unsigned d = 0;
        if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
        else return std::nullopt;
        if (d >= base) return std::nullopt;
        if (value > (std::numeric_limits<std::uint64_t>::max() - d) / base) return std::nullopt;
        value = value * base + d;
    }
    return value;
}

// ---- tokens ------------------------------------------------------------------------------------------

namespace {

std::vector<token> tokenize(CXTranslationUnit tu, CXSourceRange range, const file_range& limit) {
    CXToken* raw = nullptr;
    unsigned count = 0;
    clang_tokenize(tu, range, &raw, &count);
    std::vector<token> result;
    result.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        const CXSourceRange extent = clang_getTokenExtent(tu, raw[i]);
        const position b = position_of(clang_getRangeStart(extent));
        const position e = position_of(clang_getRangeEnd(extent));
        if (limit.valid() && (b.offset < limit.begin || b.offset >= limit.end)) continue;
        token t;
        t.begin = b.offset;
        t.end = e.offset;
        t.kind = clang_getTokenKind(raw[i]);
        t.text = take(clang_getTokenSpelling(tu, raw[i]));
        result.push_back(std::move(t));
    }
    clang_disposeTokens(tu, raw, count);
    return result;
}

}  // namespace

std::string_view tu_tokens::file_text(CXFile file) const {
    std::size_t size = 0;
    const char* text = clang_getFileContents(tu_, file, &size);
    return text != nullptr ? std::string_view(text, size) : std::string_view();
}

const std::vector<token>& tu_tokens::file_tokens(CXFile file) {
    const auto found = file_tokens_.find(file);
    if (found != file_tokens_.end()) return found->second;
    const std::string_view text = file_text(file);
    std::vector<token> tokens;
    if (!text.empty()) {
        const CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu_, file, 0),
                                                 clang_getLocationForOffset(tu_, file, static_cast<unsigned>(text.size())));
        tokens = tokenize(tu_, all, file_range{});
    }
    return file_tokens_.emplace(file, std::move(tokens)).first->second;
}

std::vector<token> tu_tokens::cursor_tokens(CXCursor c) const {
    const file_range r = range_of(c);
    if (!r.valid()) return {};
    // The extent as file offsets: an attribute written through a macro (__launch_bounds__) has a macro
    // extent, which clang_tokenize does not lex; its file range is the macro's invocation as written.
    const CXSourceRange written = clang_getRange(clang_getLocationForOffset(tu_, r.file, r.begin),
                                                 clang_getLocationForOffset(tu_, r.file, r.end));
    return tokenize(tu_, written, r);
}

void tu_tokens::record_macro(CXCursor c) {
    const CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_MacroExpansion) {
        const file_range r = range_of(c);
        if (r.valid()) expansions_.emplace_back(r, c);
        return;
    }
    if (k != CXCursor_MacroDefinition) return;
    macro m;
    m.definition = c;
    m.function_like = clang_Cursor_isMacroFunctionLike(c) != 0;
    std::vector<token> tokens = cursor_tokens(c);
    std::size_t i = 1;  // tokens[0] is the name
    if (m.function_like && tokens.size() > 1 && tokens[1].text == "(") {
        for (i = 2; i < tokens.size() && tokens[i].text != ")"; ++i)
            if (tokens[i].kind == CXToken_Identifier || tokens[i].text == "...") m.parameters.push_back(tokens[i].text);
        ++i;
    }
    if (i < tokens.size()) m.body.assign(tokens.begin() + static_cast<std::ptrdiff_t>(i), tokens.end());
    // Macros defined on the command line have no tokens in any file; their values come from
    // record_command_line_macro and are kept.
    if (tokens.empty() && macros_.count(spelling_of(c)) != 0) return;
    macros_[spelling_of(c)] = std::move(m);
}

void tu_tokens::record_command_line_macro(const std::string& name, const std::string& value) {
    macro m;
    m.definition = clang_getNullCursor();
    if (!value.empty()) {
        token t;
        t.kind = integer_literal_value(value) ? CXToken_Literal : CXToken_Identifier;
        t.text = value;
        m.body.push_back(t);
    }
    macros_[name] = std::move(m);
}

const tu_tokens::macro* tu_tokens::find_macro(std::string_view name) const {
    const auto found = macros_.find(name);
    return found != macros_.end() ? &found->second : nullptr;
}

std::vector<CXCursor> tu_tokens::expansions_containing(const file_range& r) const {
    std::vector<std::pair<std::uint32_t, CXCursor>> found;
    for (const auto& [range, cursor] : expansions_)
        if (range.contains(r)) found.emplace_back(range.end - range.begin, cursor);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<CXCursor> result;
    result.reserve(found.size());
    for (const auto& f : found) result.push_back(f.second);
    return result;
}

std::optional<std::int64_t> tu_tokens::find_constant(std::string_view name) const {
    const auto found = constants_.find(name);
    if (found == constants_.end()) return std::nullopt;
    return found->second;
}

// ---- operators -------------------------------------------------------------------------------------

namespace {

bool is_binary_operator_spelling(std::string_view t) {
    static const char* const ops[] = {"*",  "/",  "%",  "+",  "-",  "<<",  ">>",  "<",  ">",  "<=", ">=",
                                      "==", "!=", "&",  "^",  "|",  "&&",  "||",  "=",  "*=", "/=", "%=",
                                      "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ",", "->*", ".*"};
    for (const char* op : ops)
        if (t == op) return true;
    return false;
}

// An operand's outermost token on one side: a name or an integer value (what matches a token of a
// macro body). `known` is false where the side ends in punctuation (a call's ')').
struct leaf {
    bool known = false;
    bool number = false;
    std::string name;
    std::int64_t value = 0;
};

leaf number_leaf(std::int64_t v) {
    leaf l;
    l.known = true;
    l.number = true;
    l.value = v;
    return l;
}

leaf name_leaf(std::string n) {
    leaf l;
    l.known = !n.empty();
    l.name = std::move(n);
    return l;
}

leaf edge_leaf(CXCursor e, bool first, int depth) {
    if (depth > 32) return {};
    const CXCursor s = stripped(e);
    switch (clang_getCursorKind(s)) {
        case CXCursor_IntegerLiteral:
            if (const auto v = integer_value(s)) return number_leaf(*v);
            return {};
        case CXCursor_DeclRefExpr: return name_leaf(spelling_of(s));
        case CXCursor_MemberRefExpr: {
            if (!first) return name_leaf(spelling_of(s));
            for (const CXCursor& k : children_of(s))
                if (is_expression(k)) return edge_leaf(k, true, depth + 1);
            return name_leaf(spelling_of(s));
        }
        case CXCursor_BinaryOperator:
        case CXCursor_CompoundAssignOperator: {
            CXCursor lhs;
            CXCursor rhs;
            if (!operands(s, lhs, rhs)) return {};
            return edge_leaf(first ? lhs : rhs, first, depth + 1);
        }
        case CXCursor_CallExpr: return first ? name_leaf(spelling_of(s)) : leaf{};
        default: return {};
    }
}

bool token_matches(const token& t, const leaf& l, const std::vector<std::string>& parameters, const tu_tokens& context) {
    if (!l.known) return false;
    if (t.kind == CXToken_Identifier &&
        std::find(parameters.begin(), parameters.end(), t.text) != parameters.end())
        return true;  // a macro parameter stands for whatever the argument was
    if (l.number) {
        if (t.kind == CXToken_Literal) {
            const auto v = integer_literal_value(t.text);
            return v && static_cast<std::int64_t>(*v) == l.value;
        }
        if (t.kind == CXToken_Identifier) {
            const auto v = evaluate_tokens({t}, context);
            return v && *v == l.value;
        }
        return false;
    }
    return (t.kind == CXToken_Identifier || t.kind == CXToken_Keyword) && t.text == l.name;
}

// The operator between `lhs` and `rhs` in a macro body, found by the operands' edge tokens.
std::string operator_in_macro(const tu_tokens::macro& m, const leaf& lhs, const leaf& rhs, const tu_tokens& context) {
    std::set<std::string> candidates;
    const std::vector<token>& body = m.body;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (!token_matches(body[i], lhs, m.parameters, context)) continue;
        std::size_t j = i + 1;
        while (j < body.size() && body[j].text == ")") ++j;
        if (j >= body.size() || !is_binary_operator_spelling(body[j].text)) continue;
        std::size_t k = j + 1;
        while (k < body.size() && body[k].text == "(") ++k;
        if (k < body.size() && token_matches(body[k], rhs, m.parameters, context)) candidates.insert(body[j].text);
    }
    return candidates.size() == 1 ? *candidates.begin() : std::string();
}

}  // namespace

std::string operator_of(CXCursor op, tu_tokens& tokens) {
    CXCursor lhs;
    CXCursor rhs;
    if (!operands(op, lhs, rhs)) return {};
    const file_range left = range_of(lhs);
    const file_range right = range_of(rhs);
    if (left.valid() && right.valid() && clang_File_isEqual(left.file, right.file) && left.end <= right.begin) {
        const std::vector<token>& all = tokens.file_tokens(left.file);
        auto it = std::lower_bound(all.begin(), all.end(), left.end,
                                   [](const token& t, std::uint32_t offset) { return t.begin < offset; });
        for (; it != all.end() && it->end <= right.begin; ++it) {
            if (it->text == "(" || it->text == ")") continue;
            if (is_binary_operator_spelling(it->text) && it->text != ",") return it->text;
            break;
        }
    }
    // Written inside a macro body: find the operator between the operands' edge tokens in the body of
    // the innermost macro that contains it.
    const leaf l = edge_leaf(lhs, false, 0);
    const leaf r = edge_leaf(rhs, true, 0);
    if (!l.known || !r.known) return {};
    const file_range whole = range_of(op);
    const std::vector<CXCursor> expansions = tokens.expansions_containing(whole);
    for (auto it = expansions.rbegin(); it != expansions.rend(); ++it) {
        const tu_tokens::macro* m = tokens.find_macro(spelling_of(*it));
        if (m == nullptr) continue;
        std::string found = operator_in_macro(*m, l, r, tokens);
        if (!found.empty()) return found;
    }
    return {};
}

// ---- values ------------------------------------------------------------------------------------------

CXCursor referenced_variable(CXCursor expression) {
    const CXCursor s = stripped(expression);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    const CXCursor ref = clang_getCursorReferenced(s);
    const CXCursorKind k = clang_getCursorKind(ref);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? ref : clang_getNullCursor();
}

CXCursor initializer_of(CXCursor variable) { return clang_Cursor_getVarDeclInitializer(variable); }

namespace {

bool refers_to(CXCursor expression, CXCursor variable) {
    const CXCursorKind k = clang_getCursorKind(expression);
    if (k == CXCursor_DeclRefExpr) return same_cursor(clang_getCursorReferenced(expression), variable);
    if (k == CXCursor_MemberRefExpr)
        for (const CXCursor& base : children_of(expression))
            if (is_expression(base)) return refers_to(stripped(base), variable);
    return false;
}

}  // namespace

bool is_modified_in(CXCursor variable, CXCursor scope) {
    // A const variable cannot change (and binds to const references without a conversion node).
    if (clang_isConstQualifiedType(clang_getCursorType(variable)) != 0) return false;
    bool modified = false;
    walk(scope, [&](CXCursor c) {
        if (modified) return false;
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator ||
            k == CXCursor_CallExpr) {
            // An lvalue use without an lvalue-to-rvalue conversion: assigned, incremented, address taken or
            // bound to a non-const reference. Reads are wrapped in an implicit conversion.
            const std::vector<CXCursor> kids = children_of(c);
            for (std::size_t i = 0; i < kids.size(); ++i) {
                if (k == CXCursor_BinaryOperator && i > 0) break;  // only the assigned side
                if (refers_to(kids[i], variable)) modified = true;
            }
        }
        return true;
    });
    return modified;
}

namespace {

std::optional<std::int64_t> evaluated(CXCursor c) {
    CXEvalResult result = clang_Cursor_Evaluate(c);
    if (result == nullptr) return std::nullopt;
    std::optional<std::int64_t> value;
    if (clang_EvalResult_getKind(result) == CXEval_Int) {
        if (clang_EvalResult_isUnsignedInt(result) != 0) {
            const unsigned long long u = clang_EvalResult_getAsUnsigned(result);
            value = u > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())
                        ? std::numeric_limits<std::int64_t>::max()
                        : static_cast<std::int64_t>(u);
        } else {
            value = clang_EvalResult_getAsLongLong(result);
        }
    }
    clang_EvalResult_dispose(result);
    return value;
}

std::optional<std::int64_t> integer_value_at(CXCursor expression, CXCursor scope, int depth) {
    if (depth > 8 || !is_expression(expression)) return std::nullopt;
    // Value-dependent expressions (inside templates) are left alone: clang cannot evaluate them.
    const CXType type = clang_getCursorType(expression);
    if (type.kind == CXType_Dependent || type.kind == CXType_Unexposed) {
        const CXCursor s = stripped(expression);
        if (clang_getCursorKind(s) != CXCursor_IntegerLiteral) return std::nullopt;
    }
    if (const auto v = evaluated(expression)) return v;
    const CXCursor variable = referenced_variable(expression);
    if (clang_Cursor_isNull(variable) || clang_getCursorKind(variable) != CXCursor_VarDecl ||
        clang_Cursor_isNull(scope))
        return std::nullopt;
    if (!is_integer(clang_getCursorType(variable))) return std::nullopt;
    const CXCursor init = initializer_of(variable);
    if (clang_Cursor_isNull(init) || is_modified_in(variable, scope)) return std::nullopt;
    return integer_value_at(init, scope, depth + 1);
}

}  // namespace

std::optional<std::int64_t> integer_value(CXCursor expression, CXCursor scope) {
    return integer_value_at(expression, scope, 0);
}

// ---- token expressions -------------------------------------------------------------------------------

namespace {

class token_evaluator {
public:
    token_evaluator(const std::vector<token>& tokens, const tu_tokens& context, int depth)
        : tokens_(tokens), context_(context), depth_(depth) {}

    std::optional<std::int64_t> run() {
        const auto v = expression(0);
        if (!v || i_ != tokens_.size()) return std::nullopt;
        return v;
    }

private:
    const std::vector<token>& tokens_;
    const tu_tokens& context_;
    int depth_;
    std::size_t i_ = 0;

    const std::string* peek() const { return i_ < tokens_.size() ? &tokens_[i_].text : nullptr; }

    static int precedence(const std::string& op) {
        if (op == "*" || op == "/" || op == "%") return 10;
        if (op == "+" || op == "-") return 9;
        if (op == "<<" || op == ">>") return 8;
        if (op == "<" || op == ">" || op == "<=" || op == ">=") return 7;
        if (op == "==" || op == "!=") return 6;
        if (op == "&") return 5;
        if (op == "^") return 4;
        if (op == "|") return 3;
        if (op == "&&") return 2;
        if (op == "||") return 1;
        return -1;
    }

    static std::optional<std::int64_t> apply(const std::string& op, std::int64_t a, std::int64_t b) {
        // Values of launch configurations and warp widths: small; anything that would overflow is unknown.
        constexpr std::int64_t limit = std::int64_t{1} << 40;
        if (a > limit || a < -limit || b > limit || b < -limit) return std::nullopt;
        if (op == "*") return a * b;
        if (op == "/") return b == 0 ? std::nullopt : std::optional<std::int64_t>(a / b);
        if (op == "%") return b == 0 ? std::nullopt : std::optional<std::int64_t>(a % b);
        if (op == "+") return a + b;
        if (op == "-") return a - b;
        if (op == "<<") return b < 0 || b > 40 ? std::nullopt : std::optional<std::int64_t>(a * (std::int64_t{1} << b));
        if (op == ">>") return b < 0 || b > 62 ? std::nullopt : std::optional<std::int64_t>(a >> b);
        if (op == "<") return a < b;
        if (op == ">") return a > b;
        if (op == "<=") return a <= b;
        if (op == ">=") return a >= b;
        if (op == "==") return a == b;
        if (op == "!=") return a != b;
        if (op == "&") return a & b;
        if (op == "^") return a ^ b;
        if (op == "|") return a | b;
        if (op == "&&") return a != 0 && b != 0;
        if (op == "||") return a != 0 || b != 0;
        return std::nullopt;
    }

    std::optional<std::int64_t> expression(int min_precedence) {
        auto left = unary();
        if (!left) return std::nullopt;
        while (const std::string* op = peek()) {
            if (*op == "?" && min_precedence == 0) {
                ++i_;
                auto yes = expression(0);
                if (!yes || peek() == nullptr || *peek() != ":") return std::nullopt;
                ++i_;
                auto no = expression(0);
                if (!no) return std::nullopt;
                left = *left != 0 ? yes : no;
                continue;
            }
            const int p = precedence(*op);
            if (p < 0 || p < min_precedence) break;
            const std::string name = *op;
            ++i_;
            const auto right = expression(p + 1);
            if (!right) return std::nullopt;
            left = apply(name, *left, *right);
            if (!left) return std::nullopt;
        }
        return left;
    }

    std::optional<std::int64_t> unary() {
        const std::string* t = peek();
        if (t == nullptr) return std::nullopt;
        if (*t == "-" || *t == "+" || *t == "~" || *t == "!") {
            const std::string op = *t;
            ++i_;
            const auto v = unary();
            if (!v) return std::nullopt;
            if (op == "-") return -*v;
            if (op == "~") return ~*v;
            if (op == "!") return *v == 0;
            return v;
        }
        if (*t == "(") {
            ++i_;
            const auto v = expression(0);
            if (!v || peek() == nullptr || *peek() != ")") return std::nullopt;
            ++i_;
            return v;
        }
        const token& tok = tokens_[i_++];
        if (tok.kind == CXToken_Literal) {
            const auto v = integer_literal_value(tok.text);
            if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
            return static_cast<std::int64_t>(*v);
        }
        if (tok.kind == CXToken_Keyword && (tok.text == "true" || tok.text == "false")) return tok.text == "true";
        if (tok.kind != CXToken_Identifier) return std::nullopt;
        if (const tu_tokens::macro* m = context_.find_macro(tok.text)) {
            if (m->function_like || depth_ > 16 || m->body.empty()) return std::nullopt;
            return token_evaluator(m->body, context_, depth_ + 1).run();
        }
        return context_.find_constant(tok.text);
    }
};

}  // namespace

std::optional<std::int64_t> evaluate_tokens(const std::vector<token>& tokens, const tu_tokens& context) {
    if (tokens.empty()) return std::nullopt;
    return token_evaluator(tokens, context, 0).run();
}

std::string source_text(CXCursor c, tu_tokens& tokens) {
    c = stripped(c);
    const file_range r = range_of(c);
    if (!r.valid() || r.end <= r.begin) return {};
    // A range that is a whole function-like macro invocation belongs to code of the macro's body (its
    // arguments have ranges of their own): the invocation is not this expression's text.
    for (const CXCursor& e : tokens.expansions_containing(r)) {
        const file_range er = range_of(e);
        if (er.begin == r.begin && er.end == r.end) {
            const tu_tokens::macro* m = tokens.find_macro(spelling_of(e));
            if (m != nullptr && m->function_like) return {};
        }
    }
    const std::string_view text = tokens.file_text(r.file);
    if (r.end > text.size()) return {};
    std::string out;
    bool space = false;
    for (const char ch : text.substr(r.begin, r.end - r.begin)) {
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += ch;
    }
    return out.size() > 200 ? out.substr(0, 197) + "..." : out;
}

}  // namespace wavefit::cli::lint
