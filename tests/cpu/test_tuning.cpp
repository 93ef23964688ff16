// SPDX-License-Identifier: MIT
// Specifications of the tuning core (wavefit/tuning.hpp): the candidates a tuner measures, the
// records of a tuning file and what a record must pass before a launch may use it. A tuning file
// is input from outside the program: truncated, mistyped, huge or hostile records give an error and
// are ignored, and no record, however it was written, can make a configuration launchable that
// validation refuses.
#include <catch2/catch.hpp>

#include "support.hpp"

#include <wavefit/presets.hpp>
#include <wavefit/tuning_records.hpp>

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using wavefit::dims;
using wavefit::grid_policy;
using wavefit::kernel_resources;
using wavefit::work;
using wavefit::detail::tuning_record;
using work_kind = wavefit::work::work_kind;
namespace presets = wavefit::presets;

tuning_record sample_record() {
    tuning_record r;
    r.key.device_name = "NVIDIA H200";
    r.key.device_arch = "sm_90";
    r.key.compute_units = 132;
    r.key.runtime = "CUDA 13000";
    r.key.kernel = "_Z4copyPdPKdm";
    r.key.resources.registers = 16;
    r.key.resources.max_threads_per_block = 1024;
    r.key.kind = work_kind::elements;
    r.key.bucket = 28;
    r.chosen.block = dims{512};
    r.chosen.grid = grid_policy::saturate;
    r.chosen.factor = 2;
    r.chosen.median_ns = 1000000.5;
    r.chosen.spread = 0.004;
    r.plan.block = dims{256};
    r.plan.median_ns = 1031000;
    r.plan.spread = 0.003;
    r.candidates = 63;
    r.failed = 1;
    r.tuning_ms = 612.25;
    r.measured_size = std::uint64_t{1} << 28;
    return r;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("size buckets are powers of two: 2^28 to 2^29-1 share bucket 28", "[tuning]") {
    CHECK(wavefit::detail::size_bucket(0) == 0);
    CHECK(wavefit::detail::size_bucket(1) == 0);
    CHECK(wavefit::detail::size_bucket(2) == 1);
    CHECK(wavefit::detail::size_bucket(std::uint64_t{1} << 28) == 28);
    CHECK(wavefit::detail::size_bucket((std::uint64_t{1} << 29) - 1) == 28);
    CHECK(wavefit::detail::size_bucket(spec::u64_max) == 63);
}

TEST_CASE("WAVEFIT_TUNING takes off, use and tune, and nothing else", "[tuning]") {
    wavefit::tuning_mode m = wavefit::tuning_mode::use;
    CHECK(wavefit::detail::parse_tuning_mode(" TUNE ", m));
    CHECK(m == wavefit::tuning_mode::tune);
    CHECK(wavefit::detail::parse_tuning_mode("off", m));
    CHECK(m == wavefit::tuning_mode::off);
    for (const char* bad : {"", "on", "1", "tuned", "use,tune"}) {
        INFO(bad);
        CHECK_FALSE(wavefit::detail::parse_tuning_mode(bad, m));
    }
}

TEST_CASE("tuning candidates: at most 64, the plan first, deterministic, each one launchable", "[tuning][candidates]") {
    const kernel_resources heavy = spec::with_registers(96);
    const std::vector<work> works{work::elements(std::uint64_t{1} << 28),
                                  work::elements(std::uint64_t{1} << 28).kernel_loops(),
                                  work::elements(std::uint64_t{1} << 33).kernel_loops(),
                                  work::elements(5000),
                                  work::per_block(32768),
                                  work::per_group(32768, 32, 768),
                                  work::over(dims{8192, 8192}),
                                  work::over(dims{64, 64, 64})};
    for (const auto& p : presets::all)
        for (const kernel_resources& k : {kernel_resources{}, heavy, spec::with_bound(256)})
            for (const work& w : works) {
                CAPTURE(p.key, k.registers, k.max_threads_per_block, wavefit::to_string(w.kind), w.size());
                const auto candidates = wavefit::detail::tuning_candidates(p.limits, k, w);
                REQUIRE_FALSE(candidates.empty());
                CHECK(candidates.size() <= 64);
                CHECK(candidates == wavefit::detail::tuning_candidates(p.limits, k, w));
                CHECK(candidates.front() == wavefit::detail::planned_recipe(p.limits, k, w));
                std::set<
                    std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>>
                    seen;
                for (const auto& r : candidates) {
                    const auto cl = wavefit::detail::configure(p.limits, r, w);
                    CAPTURE(r.threads, wavefit::to_string(r.grid), r.grid_factor, cl.config.grid.x, cl.config.block.x);
                    CHECK(wavefit::detail::is_launchable(p.limits, k, cl.config));
                    // Each candidate is a different launch.
                    CHECK(seen.insert({cl.config.block.x, cl.config.block.y, cl.config.block.z, cl.config.grid.x,
                                       cl.config.grid.y, cl.config.grid.z})
                              .second);
                    if (w.kind != work_kind::extent) CHECK(r.threads % p.limits.wave_size == 0);
                }
            }
}

TEST_CASE("tuning candidates of a kernel that loops cover the blocks and grid policies a sweep would try",
          "[tuning][candidates]") {
    const auto candidates = wavefit::detail::tuning_candidates(presets::detail::h200, kernel_resources{},
                                                               work::elements(std::uint64_t{1} << 28).kernel_loops());
    std::set<std::uint64_t> blocks;
    std::set<std::pair<int, std::uint32_t>> policies;
    for (const auto& r : candidates) {
        blocks.insert(r.threads);
        policies.insert({static_cast<int>(r.grid), r.grid_factor});
    }
    CAPTURE(candidates.size(), blocks.size(), policies.size());
    for (const std::uint64_t b : {64u, 128u, 256u, 512u, 1024u}) CHECK(blocks.count(b) == 1);
    CHECK(policies.count({static_cast<int>(grid_policy::cover), 1}) == 1);
    for (const std::uint32_t f : {1u, 2u, 4u, 8u}) CHECK(policies.count({static_cast<int>(grid_policy::saturate), f}) == 1);
    CHECK(policies.count({static_cast<int>(grid_policy::coarsen), 2}) == 1);
}

TEST_CASE("tuning candidates of a one-pass kernel are covering grids of power-of-two blocks only", "[tuning][candidates]") {
    const work w = work::elements(std::uint64_t{1} << 28);
    const auto candidates = wavefit::detail::tuning_candidates(presets::detail::h200, kernel_resources{}, w);
    std::set<std::uint64_t> blocks;
    for (const auto& r : candidates) {
        blocks.insert(r.threads);
        CHECK(r.grid == grid_policy::cover);
        const auto cl = wavefit::detail::configure(presets::detail::h200, r, w);
        CHECK(cl.config.grid.x * cl.config.block.x >= w.size());
    }
    CHECK(blocks == std::set<std::uint64_t>{32, 64, 128, 256, 512, 1024});
}

TEST_CASE("a tuning record round-trips through its JSON line", "[tuning][records]") {
    const tuning_record r = sample_record();
    const std::string line = wavefit::detail::to_json_line(r);
    CAPTURE(line);
    CHECK(line.find('\n') == std::string::npos);
    const wavefit::detail::tuning_record_result back = wavefit::detail::parse_tuning_record(line);
    REQUIRE(back.ok());
    CHECK(back.record.key == r.key);
    CHECK(back.record.chosen.block == r.chosen.block);
    CHECK(back.record.chosen.grid == grid_policy::saturate);
    CHECK(back.record.chosen.factor == 2);
    CHECK(back.record.chosen.median_ns == Approx(1000000.5));
    CHECK(back.record.plan.median_ns == Approx(1031000));
    CHECK(back.record.candidates == 63);
    CHECK(back.record.failed == 1);
    CHECK(back.record.speedup() == Approx(1.031).epsilon(1e-6));
    CHECK(wavefit::detail::to_json_line(back.record) == line);
    CHECK_FALSE(back.record.has_baseline);
    CHECK(back.record.speedup_over_baseline() == 1.0);

    // With the configuration the work replaced ("your configuration") and a kept baseline.
    tuning_record kept = r;
    kept.has_baseline = true;
    kept.baseline.baseline = true;
    kept.baseline.block = dims{128};
    kept.baseline.median_ns = 900000;
    kept.chosen = kept.baseline;
    kept.cold_cache = true;
    const std::string kept_line = wavefit::detail::to_json_line(kept);
    CAPTURE(kept_line);
    const wavefit::detail::tuning_record_result kept_back = wavefit::detail::parse_tuning_record(kept_line);
    REQUIRE(kept_back.ok());
    CHECK(kept_back.record.has_baseline);
    CHECK(kept_back.record.chosen.baseline);
    CHECK(kept_back.record.cold_cache);
    CHECK(kept_back.record.speedup_over_baseline() == 1.0);
    CHECK(kept_back.record.speedup() == Approx(1031000.0 / 900000.0));
    CHECK(wavefit::detail::to_json_line(kept_back.record) == kept_line);
    // A record that claims to keep a baseline it does not have is refused.
    const wavefit::detail::tuning_record_result orphan =
        wavefit::detail::parse_tuning_record(replaced(line, "\"chosen\":{", "\"chosen\":{\"baseline\":true,"));
    CHECK_FALSE(orphan.ok());
}

TEST_CASE("a record whose runtime text is not well-formed UTF-8 reads back, its bytes as U+FFFD", "[tuning][records]") {
    // A runtime may name a device or a kernel with any bytes; the file holds JSON, which holds
    // well-formed text only. The tuner keys its records with well_formed_utf8() (runtime/tuner.hpp),
    // so the key a launch looks up is the one its record reads back.
    tuning_record r = sample_record();
    r.key.device_name = "NVIDIA \xFF H200";
    r.key.kernel = "_Z4copyPdPKdm\xC3";
    const std::string line = wavefit::detail::to_json_line(r);
    CAPTURE(line);
    const wavefit::detail::tuning_record_result back = wavefit::detail::parse_tuning_record(line);
    REQUIRE(back.error == "");
    CHECK(back.record.key.device_name == "NVIDIA \xEF\xBF\xBD H200");
    CHECK(back.record.key.kernel == "_Z4copyPdPKdm\xEF\xBF\xBD");
    tuning_record as_keyed = r;
    as_keyed.key.device_name = wavefit::detail::well_formed_utf8(r.key.device_name);
    as_keyed.key.kernel = wavefit::detail::well_formed_utf8(r.key.kernel);
    CHECK(back.record.key == as_keyed.key);
    CHECK(wavefit::detail::to_json_line(back.record) == line);
}

TEST_CASE("a per-block record keys on the unit's size class, and only per-block and per-wave work has one",
          "[tuning][records]") {
    tuning_record r = sample_record();
    r.key.describe_work(work::per_block(4096, 8192));
    CHECK(r.key.unit_bucket == wavefit::detail::unit_bucket_of(8192));
    CHECK(r.key.unit_bucket == 14);
    const std::string line = wavefit::detail::to_json_line(r);
    CAPTURE(line);
    CHECK(spec::contains(line, "\"work\":\"per_block\""));
    CHECK(spec::contains(line, "\"unit_bucket\":14"));
    const wavefit::detail::tuning_record_result back = wavefit::detail::parse_tuning_record(line);
    REQUIRE(back.ok());
    CHECK(back.record.key == r.key);
    // Rows of another size class are another key, not even the nearest bucket's.
    wavefit::detail::tuning_key other = r.key;
    other.unit_bucket = wavefit::detail::unit_bucket_of(512);
    CHECK_FALSE(other.same_but_bucket(r.key));
    // Elements have no unit: a record of elements that claims one is refused.
    const wavefit::detail::tuning_record_result elements =
        wavefit::detail::parse_tuning_record(replaced(line, "\"work\":\"per_block\"", "\"work\":\"elements\""));
    CAPTURE(elements.error);
    CHECK(elements.error == "\"unit_bucket\" is only for per_block and per_wave work");
    const wavefit::detail::tuning_record_result huge =
        wavefit::detail::parse_tuning_record(replaced(line, "\"unit_bucket\":14", "\"unit_bucket\":66"));
    CHECK_FALSE(huge.ok());
}

TEST_CASE("a tuning record's key holds the kernel's contract: one made under one contract is never another's",
          "[tuning][records]") {
    const work base = work::per_group(4096, 32, 768);
    const std::vector<work> contracts{base,
                                      base.kernel_loops(),
                                      base.block_any_wave_multiple(),
                                      base.block_at_most(256),
                                      base.block_fixed(dims{256}),
                                      work::per_wave(4096, 768),
                                      base.shared_bytes(1024),
                                      base.shared_bytes(0, 8)};
    for (std::size_t i = 0; i < contracts.size(); ++i)
        for (std::size_t j = 0; j < contracts.size(); ++j) {
            tuning_record a = sample_record();
            tuning_record b = sample_record();
            a.key.describe_work(contracts[i]);
            b.key.describe_work(contracts[j]);
            CAPTURE(i, j);
            CHECK((a.key == b.key) == (i == j));
            CHECK(a.key.same_but_bucket(b.key) == (i == j));
            // And the file keeps it: what is written is read back as the same key.
            const wavefit::detail::tuning_record_result back =
                wavefit::detail::parse_tuning_record(wavefit::detail::to_json_line(a));
            REQUIRE(back.ok());
            CHECK(back.record.key == a.key);
        }
}

TEST_CASE("hostile tuning records are refused with one line, never a crash", "[tuning][records]") {
    const std::string good = wavefit::detail::to_json_line(sample_record());
    struct bad {
        const char* what;
        std::string line;
        const char* expected;
    };
    const std::vector<bad> cases{
        {"empty", "", "byte"},
        {"truncated", good.substr(0, good.size() / 2), "byte"},
        {"not an object", "[1,2,3]", "JSON object"},
        {"another format", replaced(good, "\"wavefit_tuning\":2", "\"wavefit_tuning\":7"), "format 7"},
        {"a string for a number", replaced(good, "\"compute_units\":132", "\"compute_units\":\"132\""), "compute_units"},
        {"a negative count", replaced(good, "\"candidates\":63", "\"candidates\":-1"), "candidates"},
        {"a huge number", replaced(good, "\"bucket\":28", "\"bucket\":99999999999999999999999"), "bucket"},
        {"a bucket past 64", replaced(good, "\"bucket\":28", "\"bucket\":65"), "bucket"},
        {"an unknown grid policy", replaced(good, "\"grid\":\"saturate\"", "\"grid\":\"magic\""), "grid"},
        {"a zero factor", replaced(good, "\"factor\":2", "\"factor\":0"), "factor"},
        {"a block of 2 numbers", replaced(good, "\"block\":[512,1,1]", "\"block\":[512,1]"), "block"},
        {"a zero block dimension", replaced(good, "\"block\":[512,1,1]", "\"block\":[0,1,1]"), "block"},
        {"a block of 2^40", replaced(good, "\"block\":[512,1,1]", "\"block\":[1099511627776,1,1]"), "block"},
        {"a NaN-like time", replaced(good, "\"median_ns\":1000000.5", "\"median_ns\":1e999"), "median_ns"},
        {"a negative time", replaced(good, "\"median_ns\":1000000.5", "\"median_ns\":-5"), "median_ns"},
        {"a missing kernel", replaced(good, "\"kernel\":\"_Z4copyPdPKdm\",", ""), "kernel"},
        {"an empty kernel", replaced(good, "\"kernel\":\"_Z4copyPdPKdm\"", "\"kernel\":\"\""), "kernel"},
        {"a duplicate key", replaced(good, "\"bucket\":28", "\"bucket\":28,\"bucket\":3"), "twice"},
        {"deep nesting", std::string(100, '[') + std::string(100, ']'), "byte"},
        {"a line over 64 KiB", std::string(70000, ' '), "65536"},
        {"an unknown work kind", replaced(good, "\"work\":\"elements\"", "\"work\":\"rows\""), "work"},
    };
    for (const bad& b : cases) {
        INFO(b.what);
        const wavefit::detail::tuning_record_result r = wavefit::detail::parse_tuning_record(b.line);
        CAPTURE(r.error);
        CHECK_FALSE(r.ok());
        CHECK(spec::contains(r.error, b.expected));
        CHECK(r.error.find('\n') == std::string::npos);
    }
}

TEST_CASE("a tuning file: the last record of a key wins, bad lines are counted, never fatal", "[tuning][database]") {
    tuning_record first = sample_record();
    tuning_record later = sample_record();
    later.chosen.block = dims{1024};
    tuning_record other_bucket = sample_record();
    other_bucket.key.bucket = 20;
    const std::string file = wavefit::detail::to_json_line(first) + "\n" + "this is not JSON\n\n" +
                             wavefit::detail::to_json_line(other_bucket) + "\r\n" + wavefit::detail::to_json_line(later) +
                             "\n{\"wavefit_tuning\":2}\n";
    wavefit::detail::tuning_database db;
    const auto report = db.add_lines(file);
    CAPTURE(report.first_problem);
    CHECK(report.records == 3);
    CHECK(report.duplicates == 1);
    CHECK(report.ignored == 2);
    CHECK(spec::contains(report.first_problem, "line 2: "));
    REQUIRE(db.size() == 2);
    bool exact = false;
    const tuning_record* found = db.find(first.key, &exact);
    REQUIRE(found != nullptr);
    CHECK(exact);
    CHECK(found->chosen.block == dims{1024});
    // The nearest bucket when there is no exact one: 22 is nearer to 20 than to 28.
    tuning_record query = first;
    query.key.bucket = 22;
    found = db.find(query.key, &exact);
    REQUIRE(found != nullptr);
    CHECK_FALSE(exact);
    CHECK(found->key.bucket == 20);
    // Another kernel, fingerprint or device gets nothing.
    for (auto change :
         {+[](tuning_record& r) { r.key.kernel = "_Z5otherv"; }, +[](tuning_record& r) { r.key.resources.registers = 17; },
          +[](tuning_record& r) { r.key.compute_units = 114; }, +[](tuning_record& r) { r.key.runtime = "CUDA 12080"; },
          +[](tuning_record& r) { r.key.kind = work_kind::per_block; }}) {
        tuning_record q = first;
        change(q);
        CHECK(db.find(q.key) == nullptr);
    }
    // What a database writes, it reads back the same.
    wavefit::detail::tuning_database again;
    CHECK(again.add_lines(db.to_json_lines()).ignored == 0);
    CHECK(again.to_json_lines() == db.to_json_lines());
}

TEST_CASE("a record's choice is used only when every launch it leads to is valid on the device", "[tuning][validation]") {
    const work w = work::elements(std::uint64_t{1} << 28).kernel_loops();
    wavefit::detail::tuned_choice ok;
    ok.block = dims{512};
    ok.grid = grid_policy::saturate;
    ok.factor = 2;
    CHECK(wavefit::detail::record_problem(presets::detail::h200, kernel_resources{}, w, ok).empty());
    struct refused {
        const char* what;
        wavefit::detail::tuned_choice choice;
        kernel_resources kernel;
    };
    std::vector<refused> cases;
    wavefit::detail::tuned_choice c = ok;
    c.block = dims{2048};
    cases.push_back({"a block over the device's 1024", c, kernel_resources{}});
    c = ok;
    cases.push_back({"a block over the kernel's own bound of 256", c, spec::with_bound(256)});
    cases.push_back({"a block its registers cannot hold", c, spec::with_registers(255)});
    c = ok;
    c.block = dims{32, 32, 1};
    cases.push_back({"a 2-D block for 1-D work", c, kernel_resources{}});
    c = ok;
    c.factor = 0;
    cases.push_back({"a zero factor", c, kernel_resources{}});
    for (const refused& r : cases) {
        INFO(r.what);
        const std::string problem = wavefit::detail::record_problem(presets::detail::h200, r.kernel, w, r.choice);
        CAPTURE(problem);
        CHECK_FALSE(problem.empty());
    }
    // On AMD the dispatch limit applies to every size of the bucket: block 1024 covering 2^31
    // elements would need 2^21 blocks of 1024 = 2^31 work-items, within 2^32-1; it is fine.
    wavefit::detail::tuned_choice big = ok;
    big.block = dims{1024};
    big.grid = grid_policy::cover;
    big.factor = 1;
    CHECK(wavefit::detail::record_problem(presets::detail::mi300x, kernel_resources{},
                                          work::elements(std::uint64_t{1} << 31).kernel_loops(), big)
              .empty());
    // A saturated grid is never a one-pass kernel's choice, and a block outside the contract never
    // is the contract's: both are refused whatever the file says.
    CHECK_FALSE(wavefit::detail::record_problem(presets::detail::h200, kernel_resources{},
                                                work::elements(std::uint64_t{1} << 28), ok)
                    .empty());
    wavefit::detail::tuned_choice odd = big;
    odd.block = dims{768};
    CHECK_FALSE(wavefit::detail::record_problem(presets::detail::mi300x, kernel_resources{},
                                                work::elements(std::uint64_t{1} << 28), odd)
                    .empty());
    CHECK(wavefit::detail::record_problem(presets::detail::mi300x, kernel_resources{},
                                          work::elements(std::uint64_t{1} << 28).block_any_wave_multiple(), odd)
              .empty());
}
