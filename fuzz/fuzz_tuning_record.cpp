// SPDX-License-Identifier: MIT
// libFuzzer target: tuning files (wavefit/tuning.hpp), the input a planned launch reads from
// WAVEFIT_TUNING_FILE inside a user's process. The bytes are a file of JSON lines. Invariants:
//   * reading never traps (ASan/UBSan) and every refused line has a one-line reason;
//   * what the database writes back, it reads back whole and the same (no record lost or changed);
//   * a record whose choice passes record_problem() on a preset leads only to launches that pass
//     is_launchable() there, at the smallest and largest size of its bucket: no file can make
//     wavefit launch a configuration validation refuses.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <wavefit/presets.hpp>
#include <wavefit/tuning_records.hpp>

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_tuning_record: invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

void check_choice_is_safe(const wavefit::detail::tuning_record& r) {
    if (r.key.kind == wavefit::work::work_kind::extent) return;
    for (const auto& p : wavefit::presets::all) {
        const std::uint32_t b = r.key.bucket > 62 ? 62 : r.key.bucket;
        for (const std::uint64_t n : {std::uint64_t{1} << b, (std::uint64_t{2} << b) - 1}) {
            wavefit::plan_options o;
            o.dynamic_shared = r.key.dynamic_shared;
            const wavefit::work w = r.key.kind == wavefit::work::work_kind::elements ? wavefit::work::elements(n, o)
                                                                                     : wavefit::work::per_block(n, o);
            if (!wavefit::detail::record_problem(p.limits, r.key.resources, w, r.chosen).empty()) continue;
            const auto recipe = wavefit::detail::recipe_from_choice(p.limits, r.key.resources, w, r.chosen);
            const auto cl = wavefit::detail::configure(p.limits, recipe, w);
            if (!wavefit::detail::is_launchable(p.limits, r.key.resources, cl.config))
                finding("a record that passed validation leads to a launch validation refuses",
                        std::string(p.key) + ": " + wavefit::detail::to_json_line(r));
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    wavefit::detail::tuning_database db;
    const auto report = db.add_lines(text);
    if (report.ignored > 0 && (report.first_problem.empty() || report.first_problem.find('\n') != std::string::npos))
        finding("a refused line has no one-line reason", report.first_problem);
    const std::string written = db.to_json_lines();
    wavefit::detail::tuning_database again;
    const auto reread = again.add_lines(written);
    if (reread.ignored != 0 || again.size() != db.size() || again.to_json_lines() != written)
        finding("the database does not read back what it wrote", reread.first_problem + "\n" + written);
    for (const wavefit::detail::tuning_record& r : db.records()) check_choice_is_safe(r);
    return 0;
}
