// SPDX-License-Identifier: MIT
// The ported launches of an external kernel, as a user moving a <<<grid, block>>> call to wavefit
// writes them: the kernel unchanged, the work and the contract the kernel needs stated once.
//   plan      wavefit::launch(kernel, work, stream, args...)                      (no tuning)
//   tuned     wavefit::tune(kernel, work.replacing(original), stream, args...) in the tuning phase,
//             then wavefit::launch(kernel, work.replacing(original), ...) with WAVEFIT_TUNING=use
//   gs_plan   the same for our grid-stride rewrite of the kernel, with work.kernel_loops()
//   gs_tuned
// The tuning call runs the kernel many times: in-place kernels pass scratch copies (`tune_args`).
#pragma once

#include <wavefit/tuning.hpp>  // wavefit::tune: the opt-in tuning tier
#include <wavefit/wavefit.hpp>

#include <memory>   // the chosen configuration, shared by two closures
#include <string>   // names
#include <tuple>    // kernel arguments
#include <utility>  // std::move

#include "suite_case.hpp"

namespace wavefit_bench::external {

template <class... Params, class Args>
variant planned_variant(const std::string& name, void (*kernel)(Params...), const wavefit::work& w, Args args,
                        const std::string& contract) {
    variant v;
    v.name = name;
    v.contract = contract;
    v.launch = [kernel, w, args](gpu::stream_t s) {
        std::apply([&](auto... a) { wavefit::launch(kernel, w, s, a...); }, args());
    };
    v.config = [kernel, w] { return wavefit::plan(kernel, w).config(); };
    return v;
}

template <class... Params, class Args, class TuneArgs>
variant tuned_variant(const std::string& name, void (*kernel)(Params...), const wavefit::work& w, Args args,
                      TuneArgs tune_args, const std::string& contract) {
    variant v = planned_variant(name, kernel, w, args, contract);
    auto chosen = std::make_shared<wavefit::launch_config>(wavefit::launch_config{wavefit::dims{0}, wavefit::dims{0}});
    v.tune = [kernel, w, tune_args, chosen](gpu::stream_t s) {
        const wavefit::tuning_result r =
            std::apply([&](auto... a) { return wavefit::tune(kernel, w, s, a...); }, tune_args());
        if (r.ok) *chosen = r.chosen;
        return r;
    };
    v.config = [chosen] { return *chosen; };
    return v;
}

// plan and tuned for the kernel as it is (gs_plan and gs_tuned, with the prefix "gs_", for a
// grid-stride rewrite whose `w` already says kernel_loops()). `work_text` is how the port states `w`
// (for the report).
template <class... Params, class Args, class TuneArgs>
void add_ports(suite_case& c, void (*kernel)(Params...), const wavefit::work& w, Args args, TuneArgs tune_args,
               const std::string& work_text, const std::string& prefix = "") {
    c.variants.push_back(planned_variant(prefix + "plan", kernel, w, args, work_text));
    c.variants.push_back(tuned_variant(prefix + "tuned", kernel, w.replacing(c.original), args, tune_args,
                                       work_text + ".replacing(original)"));
}

// gs_plan and gs_tuned for a grid-stride rewrite; `w` already says kernel_loops().
template <class... Params, class Args, class TuneArgs>
void add_grid_stride_ports(suite_case& c, void (*kernel)(Params...), const wavefit::work& w, Args args, TuneArgs tune_args,
                           const std::string& work_text) {
    add_ports(c, kernel, w, args, tune_args, work_text, "gs_");
}

// All four ports of a kernel and of its grid-stride rewrite (same arguments) over the same work:
// the rewrite's work is `w.kernel_loops()`, and its contract text says so.
template <class... Params, class... GsParams, class Args, class TuneArgs>
void add_all_ports(suite_case& c, void (*kernel)(Params...), void (*gs_kernel)(GsParams...), const wavefit::work& w,
                   Args args, TuneArgs tune_args, const std::string& work_text) {
    add_ports(c, kernel, w, args, tune_args, work_text);
    add_grid_stride_ports(c, gs_kernel, w.kernel_loops(), args, tune_args, work_text + ".kernel_loops()");
}

// The original launch, then all four ports, of a kernel that does not work in place: the tuner may
// run on the case's own buffers, so it gets the launch's arguments.
template <class... Params, class... GsParams, class Args>
void add_original_and_ports(suite_case& c, void (*kernel)(Params...), void (*gs_kernel)(GsParams...), const wavefit::work& w,
                            Args args, const std::string& work_text) {
    add_original(c, kernel, args);
    add_all_ports(c, kernel, gs_kernel, w, args, args, work_text);
}

}  // namespace wavefit_bench::external
