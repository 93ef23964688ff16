// SPDX-License-Identifier: MIT
// What the checks of one translation unit share: the parsed unit, the target, which files findings may
// be reported in, the kernels of the unit and where findings go. Each group of checks is one function
// over this context (device_checks.cpp, launch_checks.cpp, preprocessor_checks.cpp).
#pragma once

#include <clang-c/Index.h>

#include <cstdint>      // values
#include <functional>   // the scope predicate
#include <map>          // kernels by USR
#include <optional>     // bounds that may be unknown
#include <string>       // names
#include <string_view>  // codes
#include <vector>       // findings

#include "clang_tree.hpp"
#include "finding.hpp"
#include "lint_target.hpp"

namespace wavefit::cli::lint {

// How a kernel covers its work, read from its body: the launch wavefit would suggest depends on it.
struct kernel_shape {
    bool grid_stride = false;      // loops: i += blockDim.x * gridDim.x
    bool guarded = false;          // one item per thread behind `if (i < n)` / `if (i >= n) return`
    bool per_block_loop = false;   // loops over a row: j = threadIdx.x; j < len; j += blockDim.x
    bool per_wave_loop = false;    // loops over a row by warp: j = lane; j < len; j += 32 (or warpSize)
    bool lane_groups_of_32 = false;  // its lanes are computed with 32 (a CUDA warp kept as written)
    bool uses_shared = false;      // __shared__ arrays or dynamic shared memory
    bool synchronizes = false;     // __syncthreads
    std::int64_t largest_shared_array = 0;  // elements of the largest constant __shared__ array (0: none)
    int bound_parameter = -1;      // index of the parameter that bounds the global index
    int row_count_parameter = -1;  // per-row kernels: the parameter compared with the row index
    int row_length_parameter = -1;  // per-row kernels: the parameter that bounds the row loop
};

struct kernel_info {
    CXCursor definition;  // the kernel's definition (or its declaration when the body is elsewhere)
    std::string name;
    std::optional<std::int64_t> max_threads;  // __launch_bounds__ MAX, when it evaluates
    std::optional<std::int64_t> min_blocks;   // __launch_bounds__ MIN (CUDA's blocks per SM), when given
    bool has_launch_bounds = false;
    CXCursor launch_bounds_attribute;  // where __launch_bounds__ is written (valid when has_launch_bounds)
    bool has_body = false;
    kernel_shape shape;
};

class analysis {
public:
    // `command_line_macros`: the -D flags the unit was parsed with, as (name, value).
    analysis(CXTranslationUnit tu, const lint_target& target, std::function<bool(CXFile)> in_scope,
             std::vector<finding>& out, const std::vector<std::pair<std::string, std::string>>& command_line_macros = {});

    CXTranslationUnit tu() const noexcept { return tu_; }
    const lint_target& target() const noexcept { return target_; }
    tu_tokens& tokens() noexcept { return tokens_; }
    bool in_scope(CXFile file) const { return file != nullptr && in_scope_(file); }
    bool in_scope(CXCursor c) const { return in_scope(start_of(c).file); }

    // The kernel a call or a reference names (by USR); null when it is not a kernel of this unit.
    const kernel_info* kernel_of(CXCursor callee_declaration) const;
    std::map<std::string, kernel_info>& kernels() noexcept { return kernels_; }

    // Functions of in-scope files with a body, in file order.
    const std::vector<CXCursor>& functions() const noexcept { return functions_; }
    std::vector<CXCursor>& mutable_functions() noexcept { return functions_; }

    // The first use in `function` (or the functions it calls, or with `with_callers` those that call it)
    // of something that sees the whole hardware wavefront: a ballot, an indexed or upward shuffle without
    // a width of 32, warpSize, __lane_id(). Empty when there is none: then code that computes lanes and
    // warps with 32 is a consistent scheme of 32-lane groups, correct inside a 64-lane wavefront.
    std::string wave_use(CXCursor function, bool with_callers);

    // Records a finding at `at` (macro arguments map to where they were written, macro bodies to the
    // macro's use). Findings outside the scope are dropped.
    void report(std::string_view code, CXCursor at, std::string message, std::string fix,
                std::string replacement = {});
    void report_at(std::string_view code, const position& where, std::string message, std::string fix,
                   std::string replacement = {});
    // How many findings were recorded so far (to tell whether a check added one).
    std::size_t reported() const noexcept { return out_.size(); }

private:
    CXTranslationUnit tu_;
    const lint_target& target_;
    std::function<bool(CXFile)> in_scope_;
    std::vector<finding>& out_;
    tu_tokens tokens_;
    std::map<std::string, kernel_info> kernels_;
    std::vector<CXCursor> functions_;
    struct function_waves {
        std::string own;                  // the function's own first wave-level use, described
        std::vector<std::string> callees;  // USRs of functions it calls
        std::vector<std::string> callers;
    };
    std::map<std::string, function_waves> waves_;  // by function USR (templates: the template's)
    bool waves_built_ = false;
    void build_waves();
};

// The USR a function is known by: its template's for an instantiation or specialization.
std::string function_key(CXCursor function);

// Reads the unit's macros, constants, functions and kernels, then runs every check.
void analyze_translation_unit(analysis& a);

// The checks, by group (each reports through the analysis).
void check_device_code(analysis& a);         // warp and index checks inside __device__/__global__ code
void check_launches(analysis& a);            // launch configurations, bounds, narrowing, shared memory opt-in
void check_kernel_declarations(analysis& a);  // __launch_bounds__ meaning, static shared memory
void check_preprocessor(analysis& a);        // warp-size macros and constants, host/device mismatches
void check_diagnostics(analysis& a);         // what clang itself refused (warpSize as a constant)

// The kernel's shape, read from its body (kernel_shape.cpp).
kernel_shape read_kernel_shape(CXCursor kernel, analysis& a);
// The wavefit launch that replaces `launch_text` for this kernel shape; `work` names the element count
// (or rows) where the shape has one.
struct wavefit_suggestion {
    std::string launch;  // the replacement call
    std::string kernel_note;  // what changes inside the kernel, if anything
    std::string assumes;  // what the kernel assumes about its launch, in words
};
wavefit_suggestion suggest_launch(const kernel_info* kernel, const std::string& kernel_name,
                                  const std::vector<std::string>& argument_texts, const std::string& stream_text,
                                  std::optional<std::int64_t> block, const std::string& grid_text,
                                  const std::string& block_text, const std::string& shared_text);

// Shared recognisers (device_checks.cpp).
// threadIdx.x / blockIdx.y / ...: the built-in variable's name and axis, or empty.
bool is_builtin_index(CXCursor expression, std::string_view variable, char axis = 0);
// Whether an expression contains the product first.? * second.? of two built-in variables
// (blockIdx * blockDim: a global index; blockDim * gridDim: a grid stride).
bool contains_product(CXCursor expression, std::string_view first, std::string_view second);
bool contains_global_index_product(CXCursor expression);
// Whether an expression is derived from threadIdx (directly or through local variables of `scope`).
bool depends_on_thread_index(CXCursor expression, CXCursor scope, int depth = 0);
// The name of a call's callee ("__shfl_xor_sync"), empty when not a direct call.
std::string callee_name(CXCursor call);

}  // namespace wavefit::cli::lint
