// SPDX-License-Identifier: MIT
// How a kernel covers its work, read from its body, and the wavefit launch that fits it: a guarded
// one-item-per-thread kernel gets wavefit::work::elements(n), a grid-stride kernel .kernel_loops(), a
// row-per-block kernel work::per_block, a row-per-warp kernel work::per_wave (or per_group of 32 when its
// lanes are computed with 32), a kernel that needs its block .block_fixed / .block_at_most, and anything
// else keeps its configuration as a validated wavefit::launch_config.
#include <algorithm>  // std::max
#include <string>     // texts

#include "analysis.hpp"

namespace wavefit::cli::lint {
namespace {

int parameter_index(CXCursor expression, const std::vector<CXCursor>& parameters) {
    const CXCursor var = referenced_variable(expression);
    if (clang_Cursor_isNull(var)) return -1;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (same_cursor(parameters[i], var)) return static_cast<int>(i);
    return -1;
}

bool is_global_index(CXCursor expression, const std::vector<CXCursor>& index_variables) {
    if (contains_global_index_product(expression)) return true;
    const CXCursor var = referenced_variable(expression);
    for (const CXCursor& v : index_variables)
        if (same_cursor(v, var)) return true;
    return false;
}

// A row index read from blockIdx alone (int row = blockIdx.x), not a global thread index.
bool is_block_row(CXCursor expression) {
    if (is_builtin_index(expression, "blockIdx")) return true;
    const CXCursor var = referenced_variable(expression);
    if (clang_Cursor_isNull(var) || clang_getCursorKind(var) != CXCursor_VarDecl) return false;
    const CXCursor init = initializer_of(var);
    return !clang_Cursor_isNull(init) && is_builtin_index(init, "blockIdx");
}

// The comparisons of a condition (a < b, and both sides of && and ||).
void comparisons(CXCursor condition, std::vector<std::pair<CXCursor, CXCursor>>& out) {
    const CXCursor c = stripped(condition);
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator) return;
    CXCursor lhs;
    CXCursor rhs;
    if (!operands(c, lhs, rhs)) return;
    if (clang_getCursorType(stripped(lhs)).kind == CXType_Bool && clang_getCursorType(stripped(rhs)).kind == CXType_Bool) {
        comparisons(lhs, out);
        comparisons(rhs, out);
        return;
    }
    if (clang_getCursorType(c).kind == CXType_Bool) out.emplace_back(lhs, rhs);
}

}  // namespace

kernel_shape read_kernel_shape(CXCursor kernel, analysis& a) {
    kernel_shape shape;
    std::vector<CXCursor> parameters;
    for (const CXCursor& k : children_of(kernel))
        if (clang_getCursorKind(k) == CXCursor_ParmDecl) parameters.push_back(k);
    std::vector<CXCursor> index_variables;
    const std::int64_t narrow_warp = a.target().foreign_warp_size();

    walk(kernel, [&](CXCursor c) {
        switch (clang_getCursorKind(c)) {
            case CXCursor_VarDecl: {
                const CXCursor init = initializer_of(c);
                if (!clang_Cursor_isNull(init) && contains_global_index_product(init)) index_variables.push_back(c);
                if (has_attribute(c, CXCursor_CUDASharedAttr)) {
                    shape.uses_shared = true;
                    const CXType t = clang_getCursorType(c);
                    if (t.kind == CXType_ConstantArray)
                        shape.largest_shared_array = std::max<std::int64_t>(shape.largest_shared_array, clang_getArraySize(t));
                }
                break;
            }
            case CXCursor_CallExpr: {
                const std::string name = spelling_of(c);
                if (name == "__syncthreads" || name == "sync") shape.synchronizes = true;
                break;
            }
            case CXCursor_BinaryOperator: {
                CXCursor lhs;
                CXCursor rhs;
                if (operands(c, lhs, rhs) && integer_value(rhs) == narrow_warp &&
                    depends_on_thread_index(lhs, kernel) && operator_of(c, a.tokens()) == "%")
                    shape.lane_groups_of_32 = true;
                break;
            }
            case CXCursor_ForStmt: {
                CXCursor increment = clang_getNullCursor();
                CXCursor condition = clang_getNullCursor();
                CXCursor loop_variable = clang_getNullCursor();
                for (const CXCursor& k : children_of(c)) {
                    const CXCursorKind kind = clang_getCursorKind(k);
                    if (kind == CXCursor_DeclStmt)
                        for (const CXCursor& d : children_of(k))
                            if (clang_getCursorKind(d) == CXCursor_VarDecl) loop_variable = d;
                    if (kind == CXCursor_CompoundAssignOperator) increment = k;
                    if (kind == CXCursor_BinaryOperator && clang_getCursorType(k).kind == CXType_Bool) condition = k;
                }
                if (clang_Cursor_isNull(increment)) break;
                CXCursor target;
                CXCursor step;
                if (!operands(increment, target, step)) break;
                const CXCursor init = clang_Cursor_isNull(loop_variable) ? clang_getNullCursor() : initializer_of(loop_variable);
                std::vector<std::pair<CXCursor, CXCursor>> bounds;
                if (!clang_Cursor_isNull(condition)) comparisons(condition, bounds);
                const auto bound_parameter = [&]() {
                    for (const auto& [l, r] : bounds) {
                        const int p = parameter_index(r, parameters);
                        if (p >= 0 && same_cursor(referenced_variable(l), loop_variable)) return p;
                    }
                    return -1;
                };
                if (contains_product(step, "blockDim", "gridDim")) {
                    shape.grid_stride = true;
                    if (shape.bound_parameter < 0) shape.bound_parameter = bound_parameter();
                } else if (is_builtin_index(step, "blockDim") && !clang_Cursor_isNull(init) &&
                           is_builtin_index(init, "threadIdx")) {
                    shape.per_block_loop = true;
                    if (shape.row_length_parameter < 0) shape.row_length_parameter = bound_parameter();
                } else if (!clang_Cursor_isNull(init) && depends_on_thread_index(init, kernel) &&
                           (integer_value(step) == narrow_warp || integer_value(step) == a.target().wave_size ||
                            spelling_of(stripped(step)) == "warpSize")) {
                    shape.per_wave_loop = true;
                    if (shape.row_length_parameter < 0) shape.row_length_parameter = bound_parameter();
                }
                break;
            }
            case CXCursor_IfStmt: {
                std::vector<CXCursor> kids = children_of(c);
                if (kids.empty()) break;
                std::vector<std::pair<CXCursor, CXCursor>> bounds;
                comparisons(kids.front(), bounds);
                for (const auto& [l, r] : bounds) {
                    const int pl = parameter_index(l, parameters);
                    const int pr = parameter_index(r, parameters);
                    if (pr >= 0 && is_global_index(l, index_variables)) {
                        shape.guarded = true;
                        if (shape.bound_parameter < 0) shape.bound_parameter = pr;
                    } else if (pl >= 0 && is_global_index(r, index_variables)) {
                        shape.guarded = true;
                        if (shape.bound_parameter < 0) shape.bound_parameter = pl;
                    } else if (pr >= 0 && is_block_row(l)) {
                        if (shape.row_count_parameter < 0) shape.row_count_parameter = pr;
                    } else if (pl >= 0 && is_block_row(r)) {
                        if (shape.row_count_parameter < 0) shape.row_count_parameter = pl;
                    }
                }
                break;
            }
            default: break;
        }
        return clang_getCursorKind(c) != CXCursor_LambdaExpr;
    });
    return shape;
}

namespace {

std::string argument_or(const std::vector<std::string>& arguments, int index, const std::string& fallback) {
    if (index >= 0 && static_cast<std::size_t>(index) < arguments.size() && !arguments[index].empty())
        return arguments[static_cast<std::size_t>(index)];
    return fallback;
}

std::string joined(const std::vector<std::string>& arguments) {
    std::string s;
    for (const std::string& a : arguments) s += ", " + (a.empty() ? std::string("...") : a);
    return s;
}

}  // namespace

wavefit_suggestion suggest_launch(const kernel_info* kernel, const std::string& kernel_name,
                                  const std::vector<std::string>& argument_texts, const std::string& stream_text,
                                  std::optional<std::int64_t> block, const std::string& grid_text,
                                  const std::string& block_text, const std::string& shared_text) {
    wavefit_suggestion s;
    // A launch without a stream used the default one.
    const std::string stream = stream_text.empty() ? std::string("0") : stream_text;
    const std::string args = joined(argument_texts);
    const auto launch = [&](const std::string& work) {
        return "wavefit::launch(" + kernel_name + ", " + work + ", " + stream + args + ")";
    };
    const std::string explicit_config =
        launch("wavefit::launch_config{" + (grid_text.empty() ? std::string("grid") : grid_text) + ", " +
               (block_text.empty() ? std::string("block") : block_text) + ", " +
               (shared_text.empty() ? std::string("0") : shared_text) + "}");
    if (kernel == nullptr || !kernel->has_body) {
        s.launch = explicit_config;
        s.assumes = "its body is not in this translation unit, so its shape is unknown";
        return s;
    }
    const kernel_shape& k = kernel->shape;
    const std::string block_value = block ? std::to_string(*block) : std::string("B");
    // A kernel whose shared arrays or barriers tie it to its block keeps the block it was written for.
    std::string block_constraint;
    if (k.uses_shared && k.synchronizes && block) {
        if (k.largest_shared_array > 0 && k.largest_shared_array >= *block && k.largest_shared_array != *block)
            block_constraint = ".block_at_most(" + std::to_string(k.largest_shared_array) + ")";
        else
            block_constraint = ".block_fixed(" + block_value + ")";
    }
    if (k.grid_stride) {
        const std::string n = argument_or(argument_texts, k.bound_parameter, "n");
        s.launch = launch("wavefit::work::elements(" + n + ").kernel_loops()" + block_constraint);
        s.kernel_note = "in the kernel: for (auto i : wavefit::grid_stride(n))";
        s.assumes = "it loops over the elements with a grid stride, so any grid covers the work";
        return s;
    }
    if (k.guarded && block_constraint.empty()) {
        const std::string n = argument_or(argument_texts, k.bound_parameter, "n");
        s.launch = launch("wavefit::work::elements(" + n + ")");
        s.assumes = "one thread per element, guarded by `if (i < " + n +
                    ")`, so the grid must cover every element in one pass (wavefit refuses the launch before it "
                    "starts if the device cannot)";
        s.kernel_note = "short form: wavefit::launch(" + kernel_name + ", " + n + ", " + stream + args + ")";
        return s;
    }
    if (k.per_wave_loop) {
        const std::string rows = argument_or(argument_texts, k.row_count_parameter, "rows");
        const std::string length = argument_or(argument_texts, k.row_length_parameter, "row_length");
        if (k.lane_groups_of_32) {
            s.launch = launch("wavefit::work::per_group(" + rows + ", 32, " + length + ")");
            s.assumes = "one 32-lane warp per row, its lanes computed with 32: kept as written, as groups of 32 "
                        "lanes inside each wavefront";
        } else {
            s.launch = launch("wavefit::work::per_wave(" + rows + ", " + length + ")");
            s.assumes = "one warp per row";
        }
        s.kernel_note = "a kernel that loops over rows: wavefit::wave_stride(rows)";
        return s;
    }
    if (k.per_block_loop) {
        const std::string rows = argument_or(argument_texts, k.row_count_parameter, "rows");
        const std::string length = argument_or(argument_texts, k.row_length_parameter, "row_length");
        s.launch = launch("wavefit::work::per_block(" + rows + ", " + length + ")" + block_constraint);
        s.assumes = "one block per row, its threads striding over the row by blockDim.x";
        s.kernel_note = "a kernel that loops over rows: wavefit::block_stride(rows)";
        return s;
    }
    if (k.guarded && !block_constraint.empty()) {
        const std::string n = argument_or(argument_texts, k.bound_parameter, "n");
        s.launch = launch("wavefit::work::elements(" + n + ")" + block_constraint);
        s.assumes = "one thread per element, and shared memory and barriers sized for a block of " + block_value;
        return s;
    }
    s.launch = explicit_config;
    s.assumes = "its coverage of the work is not one wavefit can read (no guarded index, grid stride or row loop), "
                "so the configuration is kept and validated";
    return s;
}

}  // namespace wavefit::cli::lint
