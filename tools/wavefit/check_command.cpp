// SPDX-License-Identifier: MIT
// `wavefit check`: an explicit grid and block, validated the way wavefit::launch validates them.
#include <optional>  // the grid-fill finding

#include <wavefit/detail/grid_fill.hpp>
#include <wavefit/detail/text.hpp>
#include <wavefit/validate.hpp>

#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "json_writer.hpp"
#include "launch_subject.hpp"

namespace wavefit::cli {

command_output run(const check_request& r) {
    const launch_subject subject = launch_subject_for(r.device, r.kernel);
    const device_limits& d = subject.device.limits;
    const launch_config cfg{r.grid, r.block, r.kernel.dynamic_shared};
    const auto shape = r.work_shape == 1   ? detail::launch_work_shape::block_per_unit
                       : r.work_shape == 2 ? detail::launch_work_shape::group_per_unit
                                           : detail::launch_work_shape::thread_per_item;
    std::vector<diagnostic> diagnostics = check(d, subject.resources, cfg, shape, r.group_threads);
    const bool valid = detail::is_launchable(d, subject.resources, cfg);
    // Not a validity rule: how much of the device the valid launch fills (the same finding as audit's).
    if (valid)
        if (const std::optional<detail::finding> fill = detail::grid_underfill_finding(d, subject.resources, cfg))
            diagnostics.push_back(detail::describe(*fill, d, subject.resources, cfg));
    const int exit_code = valid ? 0 : 1;

    if (r.json) {
        json_writer json;
        json.begin_object().key("valid").value(valid);
        write_diagnostics(json, diagnostics);
        write_kernel_json(json, subject);
        json.end_object();
        return {json.finish(), {}, exit_code};
    }

    std::size_t errors = 0;
    for (const diagnostic& dg : diagnostics) errors += dg.severity == severity::error ? 1 : 0;
    const std::size_t warnings = diagnostics.size() - errors;
    std::string text;
    if (valid) {
        text = "valid: launch fits " + to_string(d);
        if (warnings > 0) text += " with " + detail::plural(warnings, "warning");
    } else {
        text = "invalid: " + detail::plural(errors, "error") + " on " + to_string(d);
        if (warnings > 0) text += " (and " + detail::plural(warnings, "warning") + ")";
    }
    text += ": grid " + detail::dims_text(cfg.grid) + " x block " + detail::dims_text(cfg.block) + "\n";
    return {kernel_text(subject) + text + diagnostics_text(diagnostics), {}, exit_code};
}

}  // namespace wavefit::cli
