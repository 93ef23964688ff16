// SPDX-License-Identifier: MIT
// Checks inside __device__ and __global__ code: lane and warp arithmetic with a 32-wide warp, 32-bit
// masks, truncated ballots, shuffle reductions that start at 16, per-warp arrays, and global indices
// kept in an int while the kernel is given a 64-bit count.
#include <algorithm>  // std::any_of
#include <functional>  // the unrolled-shuffle walk
#include <set>        // reported cursors
#include <string>     // messages

#include "analysis.hpp"

namespace wavefit::cli::lint {

bool is_builtin_index(CXCursor expression, std::string_view variable, char axis) {
    const CXCursor s = stripped(expression);
    if (clang_getCursorKind(s) != CXCursor_MemberRefExpr) return false;
    const std::string member = spelling_of(s);
    if (member.size() != 1 || (member[0] != 'x' && member[0] != 'y' && member[0] != 'z')) return false;
    if (axis != 0 && member[0] != axis) return false;
    for (const CXCursor& base : children_of(s)) {
        const CXCursor b = stripped(base);
        if (clang_getCursorKind(b) == CXCursor_DeclRefExpr) return spelling_of(b) == variable;
    }
    return false;
}

std::string callee_name(CXCursor call) {
    if (clang_getCursorKind(call) != CXCursor_CallExpr) return {};
    return spelling_of(call);
}

bool contains_product(CXCursor expression, std::string_view first, std::string_view second) {
    const auto is_product = [&](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        CXCursor a;
        CXCursor b;
        if (k == CXCursor_BinaryOperator) {
            if (!operands(c, a, b)) return false;
        } else if (k == CXCursor_CallExpr && (spelling_of(c) == "__umul24" || spelling_of(c) == "__mul24") &&
                   clang_Cursor_getNumArguments(c) == 2) {
            a = clang_Cursor_getArgument(c, 0);
            b = clang_Cursor_getArgument(c, 1);
        } else {
            return false;
        }
        return (is_builtin_index(a, first) && is_builtin_index(b, second)) ||
               (is_builtin_index(a, second) && is_builtin_index(b, first));
    };
    return any_in_tree(expression, is_product);
}

bool contains_global_index_product(CXCursor expression) {
    return contains_product(expression, "blockIdx", "blockDim");
}

bool depends_on_thread_index(CXCursor expression, CXCursor scope, int depth) {
    if (depth > 4) return false;
    const auto check = [&](CXCursor c) {
        if (is_builtin_index(c, "threadIdx")) return true;
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_CallExpr) {
            const std::string name = spelling_of(c);
            if (name == "__lane_id" || name == "thread_rank") return true;
        }
        if (k == CXCursor_DeclRefExpr) {
            const CXCursor var = clang_getCursorReferenced(c);
            if (clang_getCursorKind(var) == CXCursor_VarDecl) {
                const CXCursor init = initializer_of(var);
                if (!clang_Cursor_isNull(init) && depends_on_thread_index(init, scope, depth + 1)) return true;
            }
        }
        return false;
    };
    return any_in_tree(expression, check);
}

std::string function_key(CXCursor function) {
    const CXCursor from_template = clang_getSpecializedCursorTemplate(function);
    return take(clang_getCursorUSR(clang_Cursor_isNull(from_template) ? function : from_template));
}

namespace {

// A use that sees the whole wavefront, described for a message; empty if `call` is none.
std::string wave_level_use(CXCursor c) {
    const CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr && spelling_of(c) == "warpSize") return "warpSize";
    if (k != CXCursor_CallExpr) return {};
    const std::string name = spelling_of(c);
    static const char* const whole_wave[] = {"__ballot", "__ballot_sync", "__activemask", "__any", "__all", "__any_sync",
                                             "__all_sync", "__uni_sync", "__match_any_sync", "__match_all_sync",
                                             "__lane_id"};
    for (const char* w : whole_wave)
        if (name == w) return "`" + name + "`";
    // Indexed and upward shuffles read lanes by absolute position: without a width of 32 they cross from
    // one 32-lane group into the other. (Down and xor reductions stay inside the groups' leaders.)
    int width_index = -1;
    if (name == "__shfl" || name == "__shfl_up") width_index = 2;
    if (name == "__shfl_sync" || name == "__shfl_up_sync") width_index = 3;
    if (width_index < 0) return {};
    if (clang_Cursor_getNumArguments(c) > width_index) {
        const auto width = integer_value(clang_Cursor_getArgument(c, static_cast<unsigned>(width_index)));
        if (width && *width <= 32) return {};
    }
    return "`" + name + "` without a width of 32";
}

bool is_sync_intrinsic(const std::string& name) {
    static const char* const names[] = {"__shfl_sync",      "__shfl_up_sync",    "__shfl_down_sync", "__shfl_xor_sync",
                                        "__ballot_sync",    "__any_sync",        "__all_sync",       "__uni_sync",
                                        "__syncwarp",       "__match_any_sync",  "__match_all_sync", "__reduce_add_sync",
                                        "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
                                        "__reduce_xor_sync"};
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return name == n; });
}

bool is_ballot(const std::string& name) {
    return name == "__ballot" || name == "__ballot_sync" || name == "__activemask" || name == "ballot";
}

// Shuffles whose offset halves in a reduction; returns the index of the offset argument, or -1.
int shuffle_offset_argument(const std::string& name) {
    if (name == "__shfl_xor_sync" || name == "__shfl_down_sync") return 2;
    if (name == "__shfl_xor" || name == "__shfl_down" || name == "shfl_xor" || name == "shfl_down") return 1;
    return -1;
}

// The explicit width argument of a shuffle (the argument after the offset), when given and constant.
std::optional<std::int64_t> shuffle_width(CXCursor call, int offset_index) {
    const int count = clang_Cursor_getNumArguments(call);
    if (count <= offset_index + 1) return std::nullopt;
    const CXCursor width = clang_Cursor_getArgument(call, static_cast<unsigned>(offset_index + 1));
    // The default argument (warpSize) is not written by the user and has no value.
    return integer_value(width);
}

bool is_warp_name(std::string_view name) {
    std::string lower;
    for (const char c : name) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return lower.find("warp") != std::string::npos || lower.find("wave") != std::string::npos ||
           lower.find("lane") != std::string::npos || lower == "ws" || lower == "wsize" || lower == "kws" ||
           lower.find("simd") != std::string::npos;
}

// Whether the constant operand is written as a literal or a warp-named constant (WARP_SIZE - 1), and not
// as a named constant about something else (TILE_DIM, BLOCK_X): tiles of 32 are not warps.
bool spelled_as_warp_width(CXCursor operand, CXCursor whole, std::int64_t value, analysis& a) {
    const file_range r = range_of(operand);
    const file_range w = range_of(whole);
    if (!r.valid() || !w.valid()) return true;
    if (r.begin == w.begin && r.end == w.end) {
        // Written inside a macro body: judge by the body's named constants of this value (OFFSET(n) is
        // `((n) >> LOG_NUM_BANKS)`: banks, not warps).
        const std::vector<CXCursor> expansions = a.tokens().expansions_containing(w);
        if (expansions.empty()) return true;
        const tu_tokens::macro* m = a.tokens().find_macro(spelling_of(expansions.back()));
        if (m == nullptr) return true;
        bool named = false;
        for (const token& t : m->body) {
            if (t.kind != CXToken_Identifier || a.tokens().find_macro(t.text) == nullptr) continue;
            const auto v = evaluate_tokens({t}, a.tokens());
            if (!v || *v != value) continue;
            if (is_warp_name(t.text)) return true;
            named = true;
        }
        return !named;
    }
    bool any_identifier = false;
    for (const token& t : a.tokens().file_tokens(r.file)) {
        if (t.begin < r.begin) continue;
        if (t.end > r.end) break;
        if (t.kind != CXToken_Identifier) continue;
        any_identifier = true;
        if (is_warp_name(t.text)) return true;
    }
    return !any_identifier;
}

struct lane_pattern {
    const char* op;
    std::int64_t value;
    bool lane;  // true: a lane within the warp; false: a warp index
};

void check_lane_math(CXCursor op_cursor, CXCursor function, analysis& a) {
    CXCursor lhs;
    CXCursor rhs;
    if (!operands(op_cursor, lhs, rhs)) return;
    const auto v = integer_value(rhs);
    if (!v) return;
    const std::int64_t w = a.target().foreign_warp_size();
    const std::int64_t shift = w == 32 ? 5 : 6;
    if (*v != w && *v != w - 1 && *v != shift) return;  // before reading the operator: most constants are not
    const lane_pattern patterns[] = {{"%", w, true}, {"&", w - 1, true}, {">>", shift, false}, {"/", w, false}};
    const std::string op = operator_of(op_cursor, a.tokens());
    const lane_pattern* match = nullptr;
    for (const lane_pattern& p : patterns)
        if (op == p.op && *v == p.value) match = &p;
    if (match == nullptr || integer_value(lhs) || !depends_on_thread_index(lhs, function)) return;
    if (!spelled_as_warp_width(rhs, op_cursor, *v, a)) return;
    // Lanes and warps of 32 are a consistent scheme inside a 64-lane wavefront until something sees the
    // hardware's wavefront: only then is the arithmetic a hazard.
    const std::string use = a.wave_use(function, false);
    if (use.empty()) return;
    const std::string text = source_text(op_cursor, a.tokens());
    const std::string shown = text.empty() ? std::string("thread index ") + op + " " + std::to_string(*v) : text;
    const std::string wave = std::to_string(a.target().wave_size);
    if (match->lane)
        a.report("lane_math_assumes_warp32", op_cursor,
                 "`" + shown + "` computes a lane of a " + std::to_string(w) + "-wide warp; a wavefront of " +
                     a.target().device_name + " has " + wave + " lanes, so lanes " + std::to_string(w) + "-" +
                     std::to_string(a.target().wave_size - 1) + " alias lanes 0-" + std::to_string(w - 1) +
                     ", while " + use + " works on the whole wavefront",
                 "take the lane from the hardware: wavefit::lane_id() (or threadIdx.x % wavefit::wave_size())",
                 "wavefit::lane_id()");
    else
        a.report("lane_math_assumes_warp32", op_cursor,
                 "`" + shown + "` computes a warp index for " + std::to_string(w) + "-wide warps; on " +
                     a.target().device_name + " a wavefront has " + wave + " lanes, so two such 'warps' share one "
                     "wavefront, and " + use + " spans both",
                 "divide by the wavefront size: threadIdx.x / wavefit::wave_size()",
                 "threadIdx.x / wavefit::wave_size()");
}

void check_sync_mask(CXCursor call, const std::string& name, analysis& a) {
    if (clang_Cursor_getNumArguments(call) < 1) return;
    // HIP's intrinsic, not a wrapper of the project's own with the same name and a 32-bit mask.
    const CXCursor callee = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(callee) && a.in_scope(callee)) return;
    const CXCursor mask = stripped(clang_Cursor_getArgument(call, 0));
    const CXType type = clang_getCursorType(mask);
    const unsigned bits = integer_bits(type);
    if (bits == 0 || bits > 32) return;
    const auto v = integer_value(mask);
    const std::string text = source_text(mask, a.tokens());
    const bool full = v && (*v == 0xffffffffLL || *v == -1);
    std::string what = full ? "the 32-bit full mask `" + (text.empty() ? std::string("0xffffffff") : text) + "`"
                            : "a 32-bit mask `" + (text.empty() ? std::string("mask") : text) + "` (" +
                                  take(clang_getTypeSpelling(type)) + ")";
    std::string lanes = a.target().wave_size == 64 ? " names lanes 0-31 of a 64-lane wavefront on " +
                                                         a.target().device_name + ", and"
                                                   : "";
    a.report("full_mask_32bit", mask,
             "`" + name + "` is given " + what + ": it" + lanes +
                 " ROCm 7's headers refuse a 32-bit mask type at compile time (the mask must be a 64-bit integer)",
             "pass a 64-bit mask: __activemask() for the active lanes, or ~0ull for the whole wavefront",
             "~0ull");
}

// A conversion node (implicit or explicit) to an integer of at most 32 bits over a 64-bit ballot.
void check_ballot_truncation(CXCursor cast, analysis& a, std::set<unsigned>& reported) {
    if (a.target().wave_size != 64) return;  // on wave32 a ballot has 32 meaningful bits
    const CXType to = clang_getCursorType(cast);
    const unsigned bits = integer_bits(to);
    if (bits == 0 || bits > 32) return;
    CXCursor inner = clang_getNullCursor();
    for (const CXCursor& k : children_of(cast))
        if (is_expression(k)) inner = k;
    if (clang_Cursor_isNull(inner)) return;
    CXCursor source = stripped(inner);
    std::string via;
    if (clang_getCursorKind(source) == CXCursor_DeclRefExpr) {
        // A 64-bit variable that holds a ballot, narrowed where it is used (__popc(bits)).
        const CXCursor var = clang_getCursorReferenced(source);
        if (clang_getCursorKind(var) != CXCursor_VarDecl || integer_bits(clang_getCursorType(var)) != 64) return;
        const CXCursor init = initializer_of(var);
        if (clang_Cursor_isNull(init)) return;
        via = spelling_of(var);
        source = stripped(init);
    }
    if (clang_getCursorKind(source) != CXCursor_CallExpr || !is_ballot(spelling_of(source))) return;
    if (integer_bits(clang_getCursorType(source)) != 64) return;
    const unsigned key = start_of(source).offset;  // one finding per ballot, however many casts wrap it
    if (!reported.insert(key).second) return;
    const std::string name = spelling_of(source);
    a.report("ballot_truncated", cast,
             "the 64-bit result of `" + name + "`" + (via.empty() ? std::string() : " (held in `" + via + "`)") +
                 " is converted to " + take(clang_getTypeSpelling(to)) + ": lanes 32-63 of each 64-lane wavefront on " +
                 a.target().device_name + " are dropped",
             "keep ballots in 64 bits (unsigned long long / uint64_t) and count them with __popcll",
             "unsigned long long");
}

// for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset);
void check_shuffle_loop(CXCursor loop, CXCursor function, analysis& a, std::set<unsigned>& flagged_shuffles) {
    const std::int64_t start = a.target().foreign_warp_size() / 2;
    CXCursor var = clang_getNullCursor();
    for (const CXCursor& k : children_of(loop)) {
        if (clang_getCursorKind(k) != CXCursor_DeclStmt) continue;
        for (const CXCursor& d : children_of(k)) {
            if (clang_getCursorKind(d) != CXCursor_VarDecl) continue;
            const CXCursor init = initializer_of(d);
            if (!clang_Cursor_isNull(init) && integer_value(init) == start) var = d;
        }
    }
    if (clang_Cursor_isNull(var)) return;
    // The offset must shrink: /= 2, >>= 1, = offset / 2, = offset >> 1.
    bool halves = false;
    for (const CXCursor& k : children_of(loop)) {
        const CXCursorKind kind = clang_getCursorKind(k);
        if (kind != CXCursor_CompoundAssignOperator && kind != CXCursor_BinaryOperator) continue;
        CXCursor lhs;
        CXCursor rhs;
        if (!operands(k, lhs, rhs) || !same_cursor(referenced_variable(lhs), var)) continue;
        const std::string op = operator_of(k, a.tokens());
        const auto v = integer_value(rhs);
        if ((op == "/=" && v == 2) || (op == ">>=" && v == 1)) halves = true;
        if (op == "=") {
            const CXCursor r = stripped(rhs);
            CXCursor l2;
            CXCursor r2;
            if (clang_getCursorKind(r) == CXCursor_BinaryOperator && operands(r, l2, r2) &&
                same_cursor(referenced_variable(l2), var)) {
                const std::string op2 = operator_of(r, a.tokens());
                const auto v2 = integer_value(r2);
                halves = halves || (op2 == "/" && v2 == 2) || (op2 == ">>" && v2 == 1);
            }
        }
    }
    if (!halves) return;
    CXCursor shuffle = clang_getNullCursor();
    walk(loop, [&](CXCursor c) {
        if (!clang_Cursor_isNull(shuffle)) return false;
        if (clang_getCursorKind(c) != CXCursor_CallExpr) return true;
        const int index = shuffle_offset_argument(spelling_of(c));
        if (index < 0 || clang_Cursor_getNumArguments(c) <= index) return true;
        if (!same_cursor(referenced_variable(clang_Cursor_getArgument(c, static_cast<unsigned>(index))), var)) return true;
        const auto width = shuffle_width(c, index);
        if (width && *width <= a.target().foreign_warp_size()) return true;  // explicit groups of 32: deliberate
        shuffle = c;
        return false;
    });
    if (clang_Cursor_isNull(shuffle)) return;
    flagged_shuffles.insert(start_of(shuffle).offset);
    // Two 32-lane partial results per wavefront are what code built on 32-lane warps expects; they are
    // wrong only where the result is read as the wavefront's.
    const std::string use = a.wave_use(function, true);
    if (use.empty()) return;
    const std::string wave = std::to_string(a.target().wave_size);
    a.report("shuffle_reduction_from_16", loop,
             "this `" + spelling_of(shuffle) + "` reduction starts at offset " + std::to_string(start) + " and combines " +
                 std::to_string(2 * start) + " lanes; a wavefront of " + a.target().device_name + " has " + wave +
                 " lanes, so each " + std::to_string(2 * start) + "-lane part keeps its own partial result, while " + use +
                 " treats the wavefront as one",
             "start at wavefit::wave_size() / 2 (for (int offset = wavefit::wave_size() / 2; offset > 0; offset /= 2)), "
             "or pass width " + std::to_string(2 * start) + " explicitly if 32-lane groups are meant",
             "wavefit::wave_size() / 2");
}

// Whether `shuffle` is combined with the value it shuffles (v += shfl(v, 16), v = max(v, shfl(v, 16)),
// v &= shfl(v, 16)): a reduction step, not an exchange (v = shfl(v, 16) in a sorting network).
bool combines_with_itself(CXCursor statement, CXCursor shuffle) {
    if (clang_Cursor_getNumArguments(shuffle) < 2) return false;
    const unsigned value_index = spelling_of(shuffle).find("_sync") != std::string::npos ? 1 : 0;
    const CXCursor shuffled = referenced_variable(clang_Cursor_getArgument(shuffle, value_index));
    if (clang_Cursor_isNull(shuffled)) return false;
    const CXCursorKind k = clang_getCursorKind(statement);
    CXCursor lhs;
    CXCursor rhs;
    if (k == CXCursor_CompoundAssignOperator) return operands(statement, lhs, rhs) && same_cursor(referenced_variable(lhs), shuffled);
    if (k == CXCursor_BinaryOperator && operands(statement, lhs, rhs) && same_cursor(referenced_variable(lhs), shuffled)) {
        // v = f(v, shfl(v, 16)) or v = v + shfl(v, 16): the shuffled value appears again on the right,
        // outside the shuffle (v = shfl(v, 16) alone is an exchange).
        if (same_cursor(stripped(rhs), shuffle)) return false;
        bool again = false;
        walk(rhs, [&](CXCursor c) {
            if (same_cursor(c, shuffle)) return false;
            again = again || same_cursor(referenced_variable(c), shuffled);
            return !again;
        });
        return again;
    }
    return false;
}

// v += __shfl_xor_sync(mask, v, 16); v = max(v, __shfl_xor(v, 8)); ... written out.
void check_unrolled_shuffles(CXCursor function, analysis& a, const std::set<unsigned>& flagged_shuffles) {
    const std::int64_t start = a.target().foreign_warp_size() / 2;
    CXCursor first = clang_getNullCursor();
    bool wider = false;
    // Walks with the innermost enclosing assignment, so that a shuffle can be matched with the variable
    // its result is combined into.
    const std::function<void(CXCursor, CXCursor)> visit = [&](CXCursor c, CXCursor assignment) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator) assignment = c;
        if (k == CXCursor_CallExpr) {
            const int index = shuffle_offset_argument(spelling_of(c));
            if (index >= 0 && clang_Cursor_getNumArguments(c) > index) {
                const auto offset = integer_value(clang_Cursor_getArgument(c, static_cast<unsigned>(index)));
                if (offset && *offset > start) wider = true;
                const auto width = shuffle_width(c, index);
                if (offset && *offset == start && !(width && *width <= 2 * start) && clang_Cursor_isNull(first) &&
                    flagged_shuffles.count(start_of(c).offset) == 0 && !clang_Cursor_isNull(assignment) &&
                    combines_with_itself(assignment, c))
                    first = c;
            }
        }
        if (k == CXCursor_LambdaExpr) return;
        for (const CXCursor& child : children_of(c)) visit(child, assignment);
    };
    visit(function, clang_getNullCursor());
    if (clang_Cursor_isNull(first) || wider) return;
    const std::string use = a.wave_use(function, true);
    if (use.empty()) return;
    a.report("shuffle_reduction_from_16", first,
             "`" + spelling_of(first) + "` with offset " + std::to_string(start) + " is the widest step of this reduction: it "
                 "combines " + std::to_string(2 * start) + " lanes, and a wavefront of " + a.target().device_name + " has " +
                 std::to_string(a.target().wave_size) + " lanes, so each half keeps its own partial result, while " + use +
                 " treats the wavefront as one",
             "add the step for offset " + std::to_string(2 * start) + " where the wavefront is " +
                 std::to_string(a.target().wave_size) + " wide (loop from wavefit::wave_size() / 2)",
             "wavefit::wave_size() / 2");
}

void check_per_warp_array(CXCursor var, analysis& a) {
    if (!has_attribute(var, CXCursor_CUDASharedAttr)) return;
    const std::int64_t wave = a.target().wave_size;
    for (const CXCursor& k : children_of(var)) {
        const CXCursor size = stripped(k);
        if (clang_getCursorKind(size) != CXCursor_BinaryOperator) continue;
        CXCursor lhs;
        CXCursor rhs;
        if (!operands(size, lhs, rhs)) continue;
        const std::string op = operator_of(size, a.tokens());
        const auto d = integer_value(rhs);
        if (!d) continue;
        const std::int64_t width = op == "/" ? *d : op == ">>" && *d >= 0 && *d < 16 ? (std::int64_t{1} << *d) : 0;
        if ((width != 32 && width != 64) || width <= wave) continue;
        a.report("per_warp_array_too_small", var,
                 "`" + spelling_of(var) + "` has one slot per " + std::to_string(width) + " threads, but " +
                     a.target().device_name + " runs " + std::to_string(wave) + "-lane wavefronts: a block holds " +
                     std::to_string(width / wave) + " times as many wavefronts as slots",
                 "size it by the target's wavefronts: blockDim.x / wavefit::wave_size() slots (at most 1024 / " +
                     std::to_string(wave) + ")",
                 "1024 / " + std::to_string(wave));
    }
}

// int i = blockIdx.x * blockDim.x + threadIdx.x, compared with a 64-bit count.
void check_index_variable(CXCursor var, CXCursor function, analysis& a) {
    const CXType type = clang_getCursorType(var);
    if (integer_bits(type) != 32 || !is_signed_integer(type)) return;
    const CXCursor init = initializer_of(var);
    if (clang_Cursor_isNull(init) || !contains_global_index_product(init)) return;
    CXCursor bound = clang_getNullCursor();
    walk(function, [&](CXCursor c) {
        if (!clang_Cursor_isNull(bound)) return false;
        if (clang_getCursorKind(c) != CXCursor_BinaryOperator) return true;
        if (clang_getCursorType(c).kind != CXType_Bool) return true;
        CXCursor lhs;
        CXCursor rhs;
        if (!operands(c, lhs, rhs)) return true;
        const bool left = same_cursor(referenced_variable(lhs), var);
        const bool right = same_cursor(referenced_variable(rhs), var);
        if (left == right) return true;
        const CXCursor other = stripped(left ? rhs : lhs);
        if (integer_bits(clang_getCursorType(other)) == 64 && !integer_value(other)) bound = other;
        return true;
    });
    if (clang_Cursor_isNull(bound)) return;
    const std::string bound_text = source_text(bound, a.tokens());
    a.report("index_32bit", var,
             "`" + spelling_of(var) + "` is an int holding blockIdx.x * blockDim.x + threadIdx.x and is compared with the "
                 "64-bit `" + (bound_text.empty() ? spelling_of(bound) : bound_text) +
                 "`: past 2^31 work-items it overflows, while " + a.target().device_name +
                 " dispatches up to 2^32 - 1 work-items per dimension",
             "compute the index in 64 bits (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x), or loop "
             "with for (auto i : wavefit::grid_stride(n))",
             "for (auto i : wavefit::grid_stride(n))");
}

// float buffer[warpSize]: a variable-length array (clang accepts it as an extension; C++ and HIP do not).
void check_warp_size_array(CXCursor var, analysis& a) {
    if (clang_getCursorType(var).kind != CXType_VariableArray) return;
    bool uses_warp_size = false;
    walk(var, [&](CXCursor c) {
        uses_warp_size = uses_warp_size || (clang_getCursorKind(c) == CXCursor_DeclRefExpr && spelling_of(c) == "warpSize");
        return !uses_warp_size;
    });
    if (!uses_warp_size) return;
    a.report("warp_size_not_constexpr", var,
             "`" + spelling_of(var) + "` is an array sized with warpSize, which is not a constant expression (not "
             "constexpr since ROCm 7, and never in CUDA): it becomes a variable-length array",
             "size it with a constant chosen per target (64 for gfx9, 32 for gfx10+), or with the largest wavefront "
             "(64) and index it with wavefit::lane_id()",
             "64");
}

void check_function(CXCursor function, analysis& a) {
    std::set<unsigned> reported_ballots;
    std::set<unsigned> flagged_shuffles;
    walk(function, [&](CXCursor c) {
        switch (clang_getCursorKind(c)) {
            case CXCursor_BinaryOperator:
            case CXCursor_CompoundAssignOperator: check_lane_math(c, function, a); break;
            case CXCursor_CallExpr: {
                const std::string name = spelling_of(c);
                if (is_sync_intrinsic(name)) check_sync_mask(c, name, a);
                break;
            }
            case CXCursor_UnexposedExpr:
            case CXCursor_CStyleCastExpr:
            case CXCursor_CXXStaticCastExpr:
            case CXCursor_CXXFunctionalCastExpr: check_ballot_truncation(c, a, reported_ballots); break;
            case CXCursor_ForStmt: check_shuffle_loop(c, function, a, flagged_shuffles); break;
            case CXCursor_VarDecl:
                check_per_warp_array(c, a);
                check_index_variable(c, function, a);
                check_warp_size_array(c, a);
                break;
            default: break;
        }
        // Lambdas and local classes are their own functions with their own attributes.
        return clang_getCursorKind(c) != CXCursor_LambdaExpr;
    });
    check_unrolled_shuffles(function, a, flagged_shuffles);
}

}  // namespace

void analysis::build_waves() {
    waves_built_ = true;
    for (const CXCursor& f : functions_) {
        function_waves& w = waves_[function_key(f)];
        walk(f, [&](CXCursor c) {
            if (w.own.empty()) {
                const std::string use = wave_level_use(c);
                if (!use.empty()) {
                    const position p = start_of(c);
                    std::string file = p.file != nullptr ? take(clang_getFileName(p.file)) : std::string();
                    const std::size_t slash = file.find_last_of('/');
                    if (slash != std::string::npos) file = file.substr(slash + 1);
                    w.own = use;
                    w.own += " (" + file + ":" + std::to_string(p.line) + ")";
                }
            }
            if (clang_getCursorKind(c) == CXCursor_CallExpr) {
                const CXCursor callee = clang_getCursorReferenced(c);
                const CXCursorKind k = clang_getCursorKind(callee);
                if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod)
                    w.callees.push_back(function_key(callee));
            }
            return true;
        });
    }
    for (auto& [key, w] : waves_)
        for (const std::string& callee : w.callees) {
            const auto found = waves_.find(callee);
            if (found != waves_.end()) found->second.callers.push_back(key);
        }
}

std::string analysis::wave_use(CXCursor function, bool with_callers) {
    if (!waves_built_) build_waves();
    const auto found = waves_.find(function_key(function));
    if (found == waves_.end()) return {};
    const function_waves& w = found->second;
    if (!w.own.empty()) return w.own;
    const auto named = [&](const std::string& key) -> std::string {
        const auto other = waves_.find(key);
        return other == waves_.end() ? std::string() : other->second.own;
    };
    for (const std::string& callee : w.callees)
        if (const std::string use = named(callee); !use.empty()) return use + ", in a function it calls";
    if (with_callers)
        for (const std::string& caller : w.callers)
            if (const std::string use = named(caller); !use.empty()) return use + ", in a function that calls it";
    return {};
}

void check_device_code(analysis& a) {
    for (const CXCursor& f : a.functions())
        if (is_device_function(f)) check_function(f, a);
}

}  // namespace wavefit::cli::lint
