// SPDX-License-Identifier: MIT
// libFuzzer target: the code-object reader (wavefit::analysis::read_kernels over ELF64, clang offload bundles,
// host ELFs with .hip_fatbin, and the AMDGPU msgpack metadata). The input is the file's bytes.
// Invariants:
//   * read_kernels returns kernels or throws code_object_error with a non-empty one-line message;
//     no other exception, no out-of-bounds read (ASan), no UB (UBSan), no unbounded work
//     (libFuzzer's -timeout and -rss_limit_mb catch loops and allocations out of proportion);
//   * what it returns is consistent: at least one kernel, every kernel with a plausible target id
//     ("gfx...", printable), a code-object offset inside the input, and names no longer than the input;
//   * the kernels' resources go through planning for the matching preset without trouble, and their
//     target ids through the load check (target_id.hpp) against the target's default device.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include "analysis/code_object.hpp"
#include "analysis/target_id.hpp"

namespace {

[[noreturn]] void finding(const char* what, std::string_view detail = {}) {
    __builtin_fprintf(stderr, "fuzz_code_object: invariant broken: %s: %.*s\n", what, static_cast<int>(detail.size()),
                      detail.data());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<wavefit::analysis::code_object_kernel> kernels;
    try {
        kernels = wavefit::analysis::read_kernels(data, size);
    } catch (const wavefit::analysis::code_object_error& e) {
        const std::string_view m = e.what();
        if (m.empty()) finding("an empty error message");
        for (char c : m)
            if (c == '\n' || c == '\r' || c == '\0') finding("an error message that is not one line", m);
        return 0;
    } catch (const std::exception& e) {
        finding("an exception other than code_object_error", e.what());
    }

    if (kernels.empty()) finding("no kernels and no error");
    for (const wavefit::analysis::code_object_kernel& k : kernels) {
        // What plausible_target_id promises: "gfx...", 4 to 64 characters fit for a message or JSON,
        // and target is target_id up to the first ':'. (It accepts "gfx:..." with target "gfx";
        // see docs/robustness.md.)
        if (k.target_id.size() < 4 || k.target_id.size() > 64 || k.target_id.compare(0, 3, "gfx") != 0)
            finding("an implausible target id", k.target_id);
        for (const char c : k.target_id)
            if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view(":+-_.").find(c) == std::string_view::npos)
                finding("a target id with characters unfit for messages", k.target_id);
        if (k.target != k.target_id.substr(0, k.target_id.find(':')))
            finding("target is not target_id up to ':'", k.target_id);
        if (k.code_object_offset >= size) finding("a code-object offset outside the input");
        if (k.name.size() > size || k.symbol.size() > size) finding("a name longer than the input");
        // Offline planning as `wavefit` does it for a code object (the matching preset, if any).
        if (const wavefit::device_limits* d = wavefit::presets::find(k.target)) {
            const wavefit::kernel_resources r = k.resources();
            const wavefit::launch_plan p = wavefit::plan(*d, r, std::uint64_t{1} << 20);
            if (p.feasible && !p.ok()) finding("a feasible plan for a read kernel fails validation");
            (void)wavefit::plan_reason(p, *d, r);
            if (wavefit::detail::vgpr_budget_for_bound(*d, k.max_flat_workgroup_size) > d->max_registers_per_thread)
                finding("a VGPR budget above what a thread may have", k.name);
        }
        wavefit::analysis::target_id id;
        if (wavefit::analysis::parse_target_id(k.target_id, id)) {
            if (id.processor != k.target) finding("the parsed processor is not the target", k.target_id);
            (void)wavefit::analysis::loads_on(id, wavefit::analysis::default_device_target_id(id.processor));
        }
    }
    return 0;
}
