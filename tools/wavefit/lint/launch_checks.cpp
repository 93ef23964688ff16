// SPDX-License-Identifier: MIT
// Checks at launches (<<<...>>>, hipLaunchKernelGGL, cudaLaunchKernel, hipModuleLaunchKernel): constant
// blocks and grids against the target and the kernel's __launch_bounds__, grids from 64-bit counts, work
// sizes narrowed to 32-bit kernel parameters, dynamic shared memory raised past the LDS; and at kernel
// declarations: the HIP meaning of __launch_bounds__'s second argument and static shared memory.
#include <algorithm>  // std::max
#include <array>      // grid and block dimensions
#include <functional>  // std::function
#include <string>     // messages

#include "analysis.hpp"

namespace wavefit::cli::lint {
namespace {

std::string kib_text(std::int64_t bytes) {
    if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

// The three dimensions of a dim3 or integer launch argument, each known or not.
struct dims3 {
    std::array<std::optional<std::int64_t>, 3> d{};
    bool known() const { return d[0] && d[1] && d[2]; }
    std::optional<std::int64_t> volume() const {
        if (!known()) return std::nullopt;
        return *d[0] * *d[1] * *d[2];
    }
    // The argument expression of each dimension (for the grid: where a 64-bit count may be narrowed).
    std::array<CXCursor, 3> expression{clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
};

bool is_dim3(CXType t) {
    const std::string name = take(clang_getTypeSpelling(clang_getCanonicalType(t)));
    return name.find("dim3") != std::string::npos;
}

dims3 dims_of(CXCursor argument, CXCursor scope, int depth = 0) {
    dims3 result;
    if (depth > 6 || clang_Cursor_isNull(argument)) return result;
    const CXCursor s = stripped(argument);
    const CXType type = clang_getCursorType(s);
    if (is_integer(type)) {
        result.d = {integer_value(s, scope), 1, 1};
        result.expression[0] = argument;
        return result;
    }
    if (!is_dim3(type)) return result;
    const CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CallExpr || k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_InitListExpr) {
        std::vector<CXCursor> args;
        for (const CXCursor& c : children_of(s))
            if (is_expression(c)) args.push_back(c);
        if (args.size() == 1 && is_dim3(clang_getCursorType(stripped(args[0]))))
            return dims_of(args[0], scope, depth + 1);  // a copy, or dim3(dim3_value)
        result.d = {1, 1, 1};
        for (std::size_t i = 0; i < args.size() && i < 3; ++i) {
            // Default arguments (CXXDefaultArgExpr) have no extent of their own and evaluate to 1.
            result.d[i] = integer_value(args[i], scope);
            result.expression[i] = args[i];
        }
        return result;
    }
    const CXCursor var = referenced_variable(s);
    if (!clang_Cursor_isNull(var) && clang_getCursorKind(var) == CXCursor_VarDecl && !is_modified_in(var, scope)) {
        const CXCursor init = initializer_of(var);
        if (!clang_Cursor_isNull(init)) return dims_of(init, scope, depth + 1);
    }
    return result;
}

// A conversion from a non-constant 64-bit integer to 32 bits or less inside `expression`, following local
// variables' initializers; null cursor when there is none.
CXCursor narrowed_64bit(CXCursor expression, CXCursor scope, int depth = 0) {
    if (depth > 3 || clang_Cursor_isNull(expression)) return clang_getNullCursor();
    const auto narrowed_at = [&](CXCursor c) -> CXCursor {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
            k == CXCursor_CXXFunctionalCastExpr) {
            const unsigned to = integer_bits(clang_getCursorType(c));
            if (to == 0 || to > 32) return clang_getNullCursor();
            for (const CXCursor& inner : children_of(c)) {
                if (!is_expression(inner)) continue;
                if (integer_bits(clang_getCursorType(inner)) == 64 && !integer_value(inner)) return inner;
            }
        }
        if (k == CXCursor_DeclRefExpr) {
            const CXCursor var = clang_getCursorReferenced(c);
            if (clang_getCursorKind(var) == CXCursor_VarDecl && integer_bits(clang_getCursorType(var)) != 0) {
                const CXCursor init = initializer_of(var);
                if (!clang_Cursor_isNull(init)) return narrowed_64bit(init, scope, depth + 1);
            }
        }
        return clang_getNullCursor();
    };
    return first_in_tree(expression, narrowed_at);
}

// Visits `expression` and, through local variables it reads, the expressions they were initialized with
// (blocks = (n + 255) / 256; grid = min(blocks, cap): the grid's history). `visit` returns false to stop.
void walk_with_initializers(CXCursor expression, const std::function<bool(CXCursor)>& visit, int depth = 0) {
    if (depth > 3 || clang_Cursor_isNull(expression)) return;
    bool stop = false;
    const auto step = [&](CXCursor c) {
        if (stop) return false;
        if (!visit(c)) {
            stop = true;
            return false;
        }
        if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
            const CXCursor var = clang_getCursorReferenced(c);
            if (clang_getCursorKind(var) == CXCursor_VarDecl) {
                const CXCursor init = initializer_of(var);
                if (!clang_Cursor_isNull(init))
                    walk_with_initializers(init, [&](CXCursor inner) {
                        if (!visit(inner)) stop = true;
                        return !stop;
                    }, depth + 1);
            }
        }
        return !stop;
    };
    if (step(expression)) walk(expression, step);
}

// Whether a 64-bit value can hold more than 32 bits of information: it comes from a 64-bit parameter, a
// member (a tensor's ne[0], a vector's size()), a call on something that is not an integer, or a variable
// with such an origin. A size_t computed from 32-bit values or constants (size_t n = width * height with
// ints) holds no count a 32-bit one could not.
bool has_64bit_origin(CXCursor expression, CXCursor scope, int depth = 0) {
    if (depth > 4 || clang_Cursor_isNull(expression)) return false;
    // What a local variable holds: its initializer, or what it is assigned in `scope` (size_t n; n = ...).
    const auto local_origin = [&](CXCursor var) {
        const CXCursor init = initializer_of(var);
        if (!clang_Cursor_isNull(init)) return has_64bit_origin(init, scope, depth + 1);
        bool wide = false;
        bool assigned = false;
        walk(scope, [&](CXCursor c) {
            if (wide || clang_getCursorKind(c) != CXCursor_BinaryOperator) return !wide;
            CXCursor lhs;
            CXCursor rhs;
            if (operands(c, lhs, rhs) && clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
                same_cursor(clang_getCursorReferenced(lhs), var)) {
                assigned = true;
                wide = has_64bit_origin(rhs, scope, depth + 1);
            }
            return !wide;
        });
        return wide || !assigned;  // never assigned here: set elsewhere, its origin unknown
    };
    bool found = false;
    const auto check = [&](CXCursor c) -> bool {  // true: stop descending into c
        const CXCursorKind k = clang_getCursorKind(c);
        const unsigned bits = integer_bits(clang_getCursorType(c));
        if (k == CXCursor_IntegerLiteral) return true;
        if (k == CXCursor_MemberRefExpr) {
            found = found || bits == 64;
            return true;
        }
        if (k == CXCursor_ArraySubscriptExpr) {
            // An element of a local array holds what the array was initialized with.
            CXCursor base = clang_getNullCursor();
            for (const CXCursor& child : children_of(c))
                if (is_expression(child)) {
                    base = child;
                    break;
                }
            const CXCursor array = referenced_variable(clang_Cursor_isNull(base) ? c : base);
            if (!clang_Cursor_isNull(array) && clang_getCursorKind(array) == CXCursor_VarDecl &&
                clang_getCursorType(array).kind == CXType_ConstantArray)
                found = found || local_origin(array);
            else
                found = found || bits == 64;
            return true;
        }
        if (k == CXCursor_CallExpr) {
            if (bits != 64) return true;
            const int n = clang_Cursor_getNumArguments(c);
            // size() and friends: a call on an object; ggml_nelements(tensor): a call on a pointer.
            bool from_object = n == 0 && clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_CXXMethod;
            for (int i = 0; i < n; ++i) {
                const CXCursor arg = clang_Cursor_getArgument(c, static_cast<unsigned>(i));
                if (!is_integer(clang_getCursorType(stripped(arg))) || has_64bit_origin(arg, scope, depth + 1))
                    from_object = true;
            }
            found = found || from_object;
            return true;
        }
        if (k == CXCursor_DeclRefExpr) {
            const CXCursor var = clang_getCursorReferenced(c);
            const CXCursorKind vk = clang_getCursorKind(var);
            if (integer_bits(clang_getCursorType(var)) != 64) return true;
            if (vk == CXCursor_ParmDecl || vk == CXCursor_FieldDecl) {
                found = true;
                return true;
            }
            if (vk == CXCursor_VarDecl) found = found || local_origin(var);
            return true;
        }
        return false;
    };
    if (check(expression)) return found;
    walk(expression, [&](CXCursor c) { return !found && !check(c); });
    return found;
}

// Whether an expression computes a count of blocks from a count of elements (a division, a shift, or a
// ceil-div helper), as opposed to a grid that is the count itself (rows, batches).
bool divides(CXCursor expression, analysis& a) {
    bool found = false;
    const auto check = [&](CXCursor c) -> bool {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_BinaryOperator) {
            const std::string op = operator_of(c, a.tokens());
            return op == "/" || op == ">>";
        }
        if (k == CXCursor_CallExpr) {
            std::string name = spelling_of(c);
            for (char& ch : name) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
            return name.find("div") != std::string::npos || name.find("ceil") != std::string::npos ||
                   name.find("blocks") != std::string::npos;
        }
        return false;
    };
    walk_with_initializers(expression, [&](CXCursor c) {
        found = found || check(c);
        return !found;
    });
    return found;
}

// How an expression is clamped before it becomes the grid: not at all, by min() or a helper with a
// constant (the largest such constant in `limit`), or by something whose bound is not a constant.
struct clamp_info {
    bool clamped = false;
    std::optional<std::int64_t> limit;  // the constant a min() clamps to, when it has one
};

clamp_info clamp_of(CXCursor expression, CXCursor scope) {
    clamp_info info;
    const auto check = [&](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ConditionalOperator) {
            info.clamped = true;
            return;
        }
        if (k != CXCursor_CallExpr) return;
        std::string name = spelling_of(c);
        for (char& ch : name) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        if (name != "min" && name != "fmin" && name != "clamp" && name.find("cap") == std::string::npos &&
            name.find("clamp") == std::string::npos)
            return;
        info.clamped = true;
        const int n = clang_Cursor_getNumArguments(c);
        for (int i = 0; i < n; ++i)
            if (const auto v = integer_value(clang_Cursor_getArgument(c, static_cast<unsigned>(i)), scope))
                info.limit = info.limit ? std::max(*info.limit, *v) : *v;
    };
    walk_with_initializers(expression, [&](CXCursor c) {
        check(c);
        return true;
    });
    return info;
}

struct launch_site {
    CXCursor call;             // where to report
    CXCursor kernel_decl;      // the kernel named, or null
    std::string kernel_name;   // as written
    CXCursor grid_argument;    // null when the dimensions are separate (module launches)
    CXCursor block_argument;
    CXCursor shared_argument;
    CXCursor stream_argument;
    dims3 grid;
    dims3 block;
    std::vector<CXCursor> kernel_arguments;  // <<<>>> launches only
    std::string form;                        // "<<<...>>>", "cudaLaunchKernel", ...
};

CXCursor function_named_in(CXCursor expression) {
    return first_in_tree(expression, [](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_DeclRefExpr && k != CXCursor_OverloadedDeclRef) return clang_getNullCursor();
        // A call in a template names the kernel through its overload set until instantiation.
        const CXCursor ref = k == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(c) > 0
                                 ? clang_getOverloadedDecl(c, 0)
                                 : clang_getCursorReferenced(c);
        const CXCursorKind rk = clang_getCursorKind(ref);
        return rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate ? ref : clang_getNullCursor();
    });
}

bool is_configure_call(const std::string& name) {
    return name == "__hipPushCallConfiguration" || name == "hipConfigureCall" || name == "__cudaPushCallConfiguration" ||
           name == "cudaConfigureCall";
}

std::optional<launch_site> launch_at(CXCursor call, CXCursor scope) {
    const std::string name = spelling_of(call);
    launch_site site;
    site.call = call;
    site.kernel_decl = clang_getNullCursor();
    site.grid_argument = site.block_argument = site.shared_argument = site.stream_argument = clang_getNullCursor();
    const std::vector<CXCursor> kids = children_of(call);
    for (const CXCursor& k : kids) {
        if (clang_getCursorKind(k) != CXCursor_CallExpr || !is_configure_call(spelling_of(k))) continue;
        const int n = clang_Cursor_getNumArguments(k);
        if (n < 2) return std::nullopt;
        site.form = "<<<...>>>";
        site.grid_argument = clang_Cursor_getArgument(k, 0);
        site.block_argument = clang_Cursor_getArgument(k, 1);
        if (n > 2) site.shared_argument = clang_Cursor_getArgument(k, 2);
        if (n > 3) site.stream_argument = clang_Cursor_getArgument(k, 3);
        site.kernel_decl = kids.empty() ? clang_getNullCursor() : function_named_in(kids.front());
        site.kernel_name = !name.empty() || clang_Cursor_isNull(site.kernel_decl) ? name : spelling_of(site.kernel_decl);
        if (site.kernel_name.empty()) site.kernel_name = "kernel";
        const int args = clang_Cursor_getNumArguments(call);
        for (int i = 0; i < args; ++i) site.kernel_arguments.push_back(clang_Cursor_getArgument(call, static_cast<unsigned>(i)));
        site.grid = dims_of(site.grid_argument, scope);
        site.block = dims_of(site.block_argument, scope);
        return site;
    }
    const int n = clang_Cursor_getNumArguments(call);
    if ((name == "cudaLaunchKernel" || name == "hipLaunchKernel" || name == "cudaLaunchCooperativeKernel" ||
         name == "hipLaunchCooperativeKernel") &&
        n >= 3) {
        site.form = name;
        site.kernel_decl = function_named_in(clang_Cursor_getArgument(call, 0));
        site.kernel_name = clang_Cursor_isNull(site.kernel_decl) ? std::string("kernel") : spelling_of(site.kernel_decl);
        site.grid_argument = clang_Cursor_getArgument(call, 1);
        site.block_argument = clang_Cursor_getArgument(call, 2);
        if (n > 4) site.shared_argument = clang_Cursor_getArgument(call, 4);
        if (n > 5) site.stream_argument = clang_Cursor_getArgument(call, 5);
        site.grid = dims_of(site.grid_argument, scope);
        site.block = dims_of(site.block_argument, scope);
        return site;
    }
    if ((name == "hipModuleLaunchKernel" || name == "cuLaunchKernel" || name == "cudaModuleLaunchKernel") && n >= 9) {
        site.form = name;
        site.kernel_name = "function";
        for (unsigned i = 0; i < 3; ++i) {
            site.grid.d[i] = integer_value(clang_Cursor_getArgument(call, 1 + i), scope);
            site.grid.expression[i] = clang_Cursor_getArgument(call, 1 + i);
            site.block.d[i] = integer_value(clang_Cursor_getArgument(call, 4 + i), scope);
            site.block.expression[i] = clang_Cursor_getArgument(call, 4 + i);
        }
        site.shared_argument = clang_Cursor_getArgument(call, 7);
        site.stream_argument = clang_Cursor_getArgument(call, 8);
        return site;
    }
    return std::nullopt;
}

std::string dims_text(const dims3& d) {
    std::string s;
    for (int i = 0; i < 3; ++i) {
        if (i > 0 && (!d.d[i] || *d.d[i] != 1 || (i == 1 && d.d[2] && *d.d[2] != 1))) s += ", ";
        else if (i > 0) continue;
        s += d.d[i] ? std::to_string(*d.d[i]) : std::string("?");
    }
    return s;
}

void check_launch_site(const launch_site& site, CXCursor scope, analysis& a) {
    const lint_target& t = a.target();
    const kernel_info* kernel = clang_Cursor_isNull(site.kernel_decl) ? nullptr : a.kernel_of(site.kernel_decl);
    std::vector<std::string> argument_texts;
    for (const CXCursor& arg : site.kernel_arguments) argument_texts.push_back(source_text(arg, a.tokens()));
    const std::string grid_text = clang_Cursor_isNull(site.grid_argument) ? std::string() : source_text(site.grid_argument, a.tokens());
    const std::string block_text =
        clang_Cursor_isNull(site.block_argument) ? std::string() : source_text(site.block_argument, a.tokens());
    const std::string shared_text =
        clang_Cursor_isNull(site.shared_argument) ? std::string() : source_text(site.shared_argument, a.tokens());
    const std::string stream_text =
        clang_Cursor_isNull(site.stream_argument) ? std::string() : source_text(site.stream_argument, a.tokens());
    const std::optional<std::int64_t> block = site.block.volume();
    const wavefit_suggestion suggestion = suggest_launch(kernel, site.kernel_name, argument_texts, stream_text, block,
                                                        grid_text, block_text, shared_text);
    const std::string replace = "replace it with " + suggestion.launch +
                                (suggestion.kernel_note.empty() ? std::string() : " (" + suggestion.kernel_note + ")");
    const std::string who = "`" + site.kernel_name + "`";
    // The hard-coded-configuration note is for launches with nothing worse to say.
    const std::size_t findings_before = a.reported();

    // Grid limits that hold whatever the block.
    for (int axis = 1; axis < 3; ++axis) {
        const auto g = site.grid.d[static_cast<std::size_t>(axis)];
        if (g && static_cast<std::uint64_t>(*g) > t.max_grid_y)
            a.report("grid_dim_exceeds_device_limit", site.call,
                     "the launch of " + who + " has a grid " + (axis == 1 ? "y" : "z") + " dimension of " +
                         std::to_string(*g) + " blocks; the limit is " + std::to_string(t.max_grid_y) +
                         " (CUDA, and HIP from ROCm 7.14)",
                     "move the large dimension to x (up to 2^31 - 1 blocks) or loop over it inside the kernel",
                     suggestion.launch);
    }
    if (site.grid.d[0] && block && site.block.d[0]) {
        const std::int64_t items = *site.grid.d[0] * *site.block.d[0];
        if (static_cast<std::uint64_t>(items) > t.max_work_items_per_dimension)
            a.report("work_items_exceed_dispatch_limit", site.call,
                     "the launch of " + who + " has " + std::to_string(*site.grid.d[0]) + " x " +
                         std::to_string(*site.block.d[0]) + " = " + std::to_string(items) +
                         " work-items in x; AMD's dispatch packet holds at most 2^32 - 1",
                     "split the work over grid y, or loop with a grid stride: " + suggestion.launch, suggestion.launch);
    }

    // A grid computed from a 64-bit element count, not clamped, or clamped to a number of blocks that is
    // still 2^32 work-items or more (a clamp to INT_MAX blocks suits NVIDIA's grid limit, not AMD's).
    if (!clang_Cursor_isNull(site.grid.expression[0]) && !site.grid.d[0]) {
        const CXCursor count = narrowed_64bit(site.grid.expression[0], scope);
        const clamp_info clamp = clamp_of(site.grid.expression[0], scope);
        const bool clamp_too_loose = clamp.clamped && clamp.limit && site.block.d[0] &&
                                     static_cast<std::uint64_t>(*clamp.limit) * static_cast<std::uint64_t>(*site.block.d[0]) >
                                         t.max_work_items_per_dimension;
        if (!clang_Cursor_isNull(count) && has_64bit_origin(count, scope) && divides(site.grid.expression[0], a) &&
            (!clamp.clamped || clamp_too_loose)) {
            std::string count_text = source_text(count, a.tokens());
            // Name the 64-bit variable the grid is computed from, where the narrowed expression has one.
            walk(count, [&](CXCursor c) {
                if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || integer_bits(clang_getCursorType(c)) != 64) return true;
                count_text = spelling_of(c);
                return false;
            });
            const std::string how =
                clamp_too_loose ? "and clamped to " + std::to_string(*clamp.limit) + " blocks, which is still " +
                                      std::to_string(*clamp.limit) + " x " + std::to_string(*site.block.d[0]) +
                                      " work-items in x: past 2^32 - 1 the launch"
                                : "and narrowed to 32 bits without a clamp: once the count reaches 2^32 the launch has "
                                  "2^32 or more work-items in x, which";
            a.report("grid_from_64bit_count", count,
                     "the grid of " + who + " is computed from the 64-bit `" +
                         (count_text.empty() ? std::string("count") : count_text) + "` " + how + " " + t.device_name +
                         " refuses (the dispatch packet holds at most 2^32 - 1 work-items per dimension)",
                     "let wavefit size the grid from the 64-bit count: " + suggestion.launch +
                         " (a kernel that loops takes .kernel_loops() and gets a clamped grid)",
                     suggestion.launch);
        }
    }

    // Dynamic shared memory given at the launch.
    if (!clang_Cursor_isNull(site.shared_argument)) {
        const auto bytes = integer_value(site.shared_argument, scope);
        if (bytes && static_cast<std::uint64_t>(*bytes) > t.lds_per_block)
            a.report("shared_memory_exceeds_limit", site.shared_argument,
                     "the launch of " + who + " asks for " + kib_text(*bytes) + " of dynamic shared memory; a block of " +
                         t.device_name + " can use " + kib_text(static_cast<std::int64_t>(t.lds_per_block)) +
                         " of LDS and AMD has no opt-in beyond it",
                     "shrink the per-block tile so that static and dynamic shared memory fit in " +
                         kib_text(static_cast<std::int64_t>(t.lds_per_block)),
                     suggestion.launch);
    }

    // The block: one finding, the most severe that applies.
    if (block) {
        const std::string fixed = "a fixed block of " + std::to_string(*block) + " threads (" +
                                  (*block % t.wave_size == 0 ? std::to_string(*block / t.wave_size) + " wavefronts"
                                                             : std::string("not a whole number of wavefronts")) +
                                  " on " + t.device_name + ")";
        if (static_cast<std::uint64_t>(*block) > t.max_threads_per_block) {
            a.report("block_exceeds_device_max_threads", site.call,
                     who + " is launched with a block of " + dims_text(site.block) + " = " + std::to_string(*block) +
                         " threads; no GPU runs more than " + std::to_string(t.max_threads_per_block) +
                         " threads per block (a warp count times 64 doubles what times 32 gave)",
                     "size the block in wavefronts of the device: " + replace, suggestion.launch);
        } else if (kernel != nullptr && kernel->max_threads && *block > *kernel->max_threads) {
            a.report("block_exceeds_kernel_max_threads", site.call,
                     who + " is launched with " + std::to_string(*block) + " threads but compiled with __launch_bounds__(" +
                         std::to_string(*kernel->max_threads) + "): " + t.device_name +
                         " fails the launch with hipErrorLaunchFailure and a log line only",
                     "launch at most " + std::to_string(*kernel->max_threads) +
                         " threads, or let wavefit read the kernel's bound: " + replace,
                     suggestion.launch);
        } else if (*block % t.foreign_warp_size() == 0 && *block % t.wave_size != 0 &&
                   !(site.grid.volume() && static_cast<std::uint64_t>(*site.grid.volume()) < t.compute_units)) {
            // Whole 32-lane warps on NVIDIA, half-empty wavefronts on AMD. (A block of 1 or 16 wastes lanes on
            // both vendors: a choice, not a porting hazard; and a grid smaller than the device leaves whole CUs
            // idle anyway, so the half-empty wavefronts of a one-block launch cost nothing.)
            a.report("block_not_wave_multiple", site.call,
                     who + " is launched with " + fixed + ": the last wavefront of every block runs " +
                         std::to_string(*block % t.wave_size) + " of " + std::to_string(t.wave_size) + " lanes",
                     "use a multiple of the wavefront size, or " + replace, suggestion.launch);
        } else if (a.reported() == findings_before) {
            a.report("hardcoded_launch_config", site.call,
                     who + " is launched with " + fixed + "; the kernel assumes " + suggestion.assumes +
                         ". Nothing checks this block against the kernel's compiled bound or the device before the "
                         "launch",
                     replace, suggestion.launch);
        }
    }

    // A 64-bit work size narrowed to the kernel's 32-bit bound parameter.
    if (kernel != nullptr && kernel->has_body) {
        // The element count a global index is compared with (row lengths and other dimensions stay small).
        for (const int p : {kernel->shape.bound_parameter}) {
            if (p < 0 || static_cast<std::size_t>(p) >= site.kernel_arguments.size()) continue;
            const CXCursor arg = site.kernel_arguments[static_cast<std::size_t>(p)];
            const CXCursor count = narrowed_64bit(arg, scope);
            if (clang_Cursor_isNull(count) || !has_64bit_origin(count, scope)) continue;
            const std::string count_text = source_text(count, a.tokens());
            a.report("work_size_narrowed", arg,
                     "the 64-bit `" + (count_text.empty() ? std::string("count") : count_text) +
                         "` becomes the 32-bit work size of " + who +
                         " (the parameter its thread index is compared with): past 2^31 elements the kernel sees a "
                         "wrong count",
                     "give the kernel a 64-bit size parameter (std::int64_t / size_t) and launch with " +
                         suggestion.launch,
                     suggestion.launch);
        }
    }
}

bool queries_shared_memory_limit(CXCursor function) {
    return any_in_tree(function, [](CXCursor c) {
        const CXCursorKind k = clang_getCursorKind(c);
        const std::string name = spelling_of(c);
        if (k == CXCursor_MemberRefExpr && name.find("sharedMemPerBlock") != std::string::npos) return true;
        return k == CXCursor_CallExpr &&
               (name == "cudaDeviceGetAttribute" || name == "hipDeviceGetAttribute" || name == "cudaGetDeviceProperties" ||
                name == "hipGetDeviceProperties" || name == "cuDeviceGetAttribute");
    });
}

void check_shared_memory_attribute(CXCursor call, CXCursor function, analysis& a) {
    if (clang_Cursor_getNumArguments(call) < 3) return;
    const auto attribute = integer_value(clang_Cursor_getArgument(call, 1));
    constexpr std::int64_t max_dynamic_shared_memory_size = 8;  // cudaFuncAttributeMaxDynamicSharedMemorySize
    if (attribute != max_dynamic_shared_memory_size) return;
    const CXCursor value = clang_Cursor_getArgument(call, 2);
    const auto bytes = integer_value(value, function);
    const lint_target& t = a.target();
    const std::string lds = kib_text(static_cast<std::int64_t>(t.lds_per_block));
    if (bytes) {
        if (static_cast<std::uint64_t>(*bytes) <= t.lds_per_block) return;
        a.report("dynamic_shared_memory_unchecked", call,
                 "`" + spelling_of(call) + "` raises the dynamic shared memory to " + kib_text(*bytes) + "; a block of " +
                     t.device_name + " can use " + lds + " of LDS and AMD has no opt-in beyond it",
                 "query the device (hipDeviceAttributeSharedMemPerBlockOptin reads 0 on AMD: use "
                 "hipDeviceAttributeMaxSharedMemoryPerBlock) and choose a tile that fits; wavefit::launch validates "
                 "static plus dynamic shared memory before launching");
        return;
    }
    if (queries_shared_memory_limit(function)) return;
    const std::string text = source_text(value, a.tokens());
    a.report("dynamic_shared_memory_unchecked", call,
             "`" + spelling_of(call) + "` raises the dynamic shared memory to `" + (text.empty() ? std::string("bytes") : text) +
                 "` without reading the device's limit in this function; above " + lds + " the call fails on " +
                 t.device_name + ", which has no opt-in",
             "read the limit first (hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSharedMemoryPerBlock, device)) and "
             "choose a tile that fits; wavefit::launch validates static plus dynamic shared memory before launching");
}

}  // namespace

void check_launches(analysis& a) {
    for (const CXCursor& f : a.functions()) {
        walk(f, [&](CXCursor c) {
            if (clang_getCursorKind(c) != CXCursor_CallExpr) return true;
            const std::string name = spelling_of(c);
            if (name == "cudaFuncSetAttribute" || name == "hipFuncSetAttribute") check_shared_memory_attribute(c, f, a);
            if (const auto site = launch_at(c, f)) check_launch_site(*site, f, a);
            return true;
        });
    }
}

void check_kernel_declarations(analysis& a) {
    const lint_target& t = a.target();
    for (auto& entry : a.kernels()) {
        kernel_info& k = entry.second;
        if (!a.in_scope(k.definition)) continue;
        // __launch_bounds__(MAX, MIN): HIP reads MIN as waves per execution unit (SIMD).
        if (k.max_threads && k.min_blocks && *k.min_blocks > 0 && *k.max_threads > 0) {
            const std::int64_t simds = 4;  // per CU on gfx9; per WGP on gfx10+ (WGP mode)
            const std::int64_t waves_per_block = (*k.max_threads + t.wave_size - 1) / t.wave_size;
            const std::int64_t implied = (waves_per_block + simds - 1) / simds;  // what MAX alone requires
            const std::int64_t intended = (*k.min_blocks * waves_per_block + simds - 1) / simds;
            const std::int64_t hip = *k.min_blocks;
            const std::int64_t hip_target = std::max(hip, implied);
            const std::int64_t cuda_target = std::max(intended, implied);
            if (hip_target != cuda_target) {
                const auto budget = [](std::int64_t waves) { return std::to_string(512 / std::max<std::int64_t>(1, waves)); };
                const std::string hip_reading =
                    hip >= implied ? std::to_string(hip) + " wavefronts per SIMD (about " + budget(hip) + " VGPRs each)"
                                   : std::to_string(hip) + " wavefronts per SIMD, fewer than its block of " +
                                         std::to_string(*k.max_threads) + " already needs, so the compiler targets " +
                                         std::to_string(implied) + " (about " + budget(implied) + " VGPRs each)";
                a.report("launch_bounds_min_blocks", k.launch_bounds_attribute,
                         "`" + k.name + "` has __launch_bounds__(" + std::to_string(*k.max_threads) + ", " +
                             std::to_string(*k.min_blocks) + "): CUDA reads " + std::to_string(*k.min_blocks) +
                             " blocks per SM, " + std::to_string(cuda_target) + " wavefronts per SIMD on " +
                             t.device_name + " (about " + budget(cuda_target) + " VGPRs each), but HIP reads " + hip_reading,
                         "under HIP say what is meant, in wavefronts per SIMD: __launch_bounds__(" +
                             std::to_string(*k.max_threads) + ") __attribute__((amdgpu_waves_per_eu(" +
                             std::to_string(intended) + ")))",
                         "__launch_bounds__(" + std::to_string(*k.max_threads) + ") __attribute__((amdgpu_waves_per_eu(" +
                             std::to_string(intended) + ")))");
            }
        }
        // Static __shared__ arrays of the kernel's own body.
        if (!k.has_body) continue;
        std::int64_t total = 0;
        CXCursor largest = clang_getNullCursor();
        std::int64_t largest_bytes = 0;
        walk(k.definition, [&](CXCursor c) {
            if (clang_getCursorKind(c) != CXCursor_VarDecl || !has_attribute(c, CXCursor_CUDASharedAttr)) return true;
            const long long bytes = clang_Type_getSizeOf(clang_getCursorType(c));
            if (bytes <= 0) return true;  // extern (dynamic) or dependent on a template parameter
            total += bytes;
            if (bytes > largest_bytes) {
                largest_bytes = bytes;
                largest = c;
            }
            return true;
        });
        if (total > 0 && static_cast<std::uint64_t>(total) > t.lds_per_block)
            a.report("shared_memory_exceeds_limit", clang_Cursor_isNull(largest) ? k.definition : largest,
                     "`" + k.name + "` declares " + kib_text(total) + " of static __shared__ memory; a block of " +
                         t.device_name + " can use " + kib_text(static_cast<std::int64_t>(t.lds_per_block)) + " of LDS",
                     "shrink the tile (or split the kernel) so that the shared arrays fit in " +
                         kib_text(static_cast<std::int64_t>(t.lds_per_block)));
    }
}

}  // namespace wavefit::cli::lint
