// SPDX-License-Identifier: MIT
// Tuned launches, the part that needs no GPU: the candidates a tuner measures for a kernel and its
// work, the records of a tuning database (one JSON object per line), their keys, and the rules a
// record must pass before a launch may use it. The runtime layer (runtime/tuner.hpp) measures and
// keeps the process's database; the CLI (`wavefit tuning show|check|merge`) reads the same files.
//
// What was taken from other tuners (docs/tuning.md, "What was taken from where"): Kernel Tuner's cache key (device,
// kernel, problem size, parameters) and its recorded failures; kernel_launcher's one JSON line per
// result and its fallback to the nearest problem size; PyTorch TunableOp's pinned versions (a record
// of another wavefit format is ignored) and its min(runs, time) stop rule; Triton's median with a
// spread and its rule that a failing configuration is never chosen.
#pragma once

#include <algorithm>    // std::sort, std::min
#include <charconv>     // std::to_chars: locale-free numbers
#include <cstdint>      // sizes
#include <cstdlib>      // std::abs
#include <string>       // records
#include <string_view>  // parsing
#include <tuple>        // the key's fields
#include <vector>       // candidates, records

#include "config.hpp"
#include "detail/arithmetic.hpp"
#include "detail/ascii.hpp"
#include "detail/json_reader.hpp"
#include "detail/json_text.hpp"
#include "device_limits.hpp"
#include "kernel_resources.hpp"
#include "occupancy.hpp"
#include "plan.hpp"
#include "validate.hpp"
#include "tuning_mode.hpp"
#include "version.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// The size class of a unit (work::unit_size, per_block and per_wave work): 0 when the size is not
// given, else its size_bucket + 1. Units of another class never share a record, not even as the
// nearest bucket.
constexpr std::uint32_t unit_bucket_of(std::uint64_t unit_size) noexcept {
    return unit_size == 0 ? 0 : size_bucket(unit_size) + 1;
}

// A fingerprint of a work's shared-memory rule: 0 without a function, else a hash of what the
// function returns for blocks of 32 to 1024 threads (a function pointer means nothing in another process).
inline std::uint64_t shared_rule_fingerprint(const plan_options& o) noexcept {
    if (o.shared_for_block == nullptr) return 0;
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the returned sizes
    for (std::uint64_t threads = 32; threads <= 1024; threads += 32) {
        h ^= o.shared_for_block(threads);
        h *= 1099511628211ull;
    }
    return h == 0 ? 1 : h;
}

// The identity of what a record was measured for. A record is used only for the same device (name,
// ISA with its target features, CU count), runtime version, kernel (mangled name and the resources
// its attributes report: a recompiled kernel with other resources gets no old answer), work kind,
// size bucket, unit size class (per_block and per_wave work), the kernel's contract (a record made
// under one contract is never used under another) and the plan options that decide shared memory and
// the smallest efficient block: dynamic_shared, shared_per_thread, a fingerprint of shared_for_block,
// min_efficient_block. The grid policy and the other options are not in the key.
struct tuning_key {
    std::string device_name;  // "NVIDIA H200"
    std::string device_arch;  // "sm_90", "gfx942:sramecc+:xnack-"
    std::uint32_t compute_units = 0;
    std::string runtime;         // "CUDA 13000", "HIP 60443483"
    std::string kernel;          // mangled name
    kernel_resources resources;  // the kernel's fingerprint
    work_kind kind = work_kind::elements;
    std::uint32_t bucket = 0;
    std::uint32_t unit_bucket = 0;  // per_block and per_wave work: unit_bucket_of(work::unit_size); 0 when not said
    kernel_contract contract{};
    std::uint64_t dynamic_shared = 0;
    std::uint64_t shared_per_thread = 0;
    std::uint64_t shared_rule = 0;  // shared_rule_fingerprint
    std::uint64_t min_efficient_block = 256;

    // The key of `w` for a kernel on a device (the device, runtime and kernel fields are the caller's).
    void describe_work(const work& w) {
        kind = w.kind;
        bucket = size_bucket(w.size());
        unit_bucket = w.kind == work_kind::per_block || w.kind == work_kind::per_wave ? unit_bucket_of(w.unit_size) : 0;
        contract = w.contract;
        dynamic_shared = w.options.dynamic_shared;
        shared_per_thread = w.options.shared_per_thread;
        shared_rule = shared_rule_fingerprint(w.options);
        min_efficient_block = w.options.min_efficient_block;
    }

    // Every field of the key, in the one order that equality, the file and the tests use.
    auto fields() const {
        return std::tie(device_name, device_arch, compute_units, runtime, kernel, resources.registers,
                        resources.scalar_registers, resources.static_shared, resources.max_threads_per_block,
                        resources.local_bytes_per_thread, kind, bucket, unit_bucket, contract.cover,
                        contract.powers_of_two, contract.max_block, contract.fixed_block, contract.group_threads,
                        dynamic_shared, shared_per_thread, shared_rule, min_efficient_block);
    }
    auto fields() {
        return std::tie(device_name, device_arch, compute_units, runtime, kernel, resources.registers,
                        resources.scalar_registers, resources.static_shared, resources.max_threads_per_block,
                        resources.local_bytes_per_thread, kind, bucket, unit_bucket, contract.cover,
                        contract.powers_of_two, contract.max_block, contract.fixed_block, contract.group_threads,
                        dynamic_shared, shared_per_thread, shared_rule, min_efficient_block);
    }
    // The work this key describes, at `size` items (or units): the inverse of describe_work, for tools
    // that validate a record without the launch that made it (a unit of the key's size class is taken
    // at the smallest size of that class).
    work work_at(std::uint64_t size) const {
        work w;
        w.kind = kind;
        w.extent = dims{size, 1, 1};
        w.unit_size = unit_bucket == 0 ? 0 : std::uint64_t{1} << (unit_bucket - 1);
        w.contract = contract;
        w.options.dynamic_shared = dynamic_shared;
        w.options.shared_per_thread = shared_per_thread;
        w.options.min_efficient_block = min_efficient_block;
        return w;
    }

    // Everything but the bucket: what "the same kernel on the same device" means for the fallback.
    bool same_but_bucket(const tuning_key& o) const {
        tuning_key same = o;
        same.bucket = bucket;
        return fields() == same.fields();
    }
    bool operator==(const tuning_key& o) const { return fields() == o.fields(); }

    // The fields' names in a record's "key" object, in the order of fields().
    static constexpr std::string_view field_names[] = {
        "device",       "arch",          "compute_units", "runtime",       "kernel",         "registers",
        "scalar_registers", "static_shared", "max_threads", "local_bytes", "work",           "bucket",
        "unit_bucket",  "coverage",      "powers_of_two", "max_block",     "fixed_block",    "group_threads",
        "dynamic_shared", "shared_per_thread", "shared_rule", "min_efficient_block"};
};

// A measured launch choice: the block (threads, or a shape) and the grid policy, or the
// configuration the launch replaces (work::replacing) kept as it is.
struct tuned_choice {
    bool baseline = false;  // the user's own configuration: nothing beat it beyond the noise
    dims block{0, 1, 1};
    grid_policy grid = grid_policy::cover;
    std::uint32_t factor = 1;  // saturation rounds or items per thread
    double median_ns = 0;      // device time per launch, median of the repetitions
    double spread = 0;         // (80th - 20th percentile) / median
};

// One line of the database.
struct tuning_record {
    tuning_key key;
    tuned_choice chosen;              // the baseline or the plan itself when nothing beat it by more than the noise
    tuned_choice plan;                // what wavefit would launch untuned without a baseline, measured in the same run
    bool has_baseline = false;        // the work replaced a configuration, measured first: `baseline`
    tuned_choice baseline;            // "your configuration"
    bool cold_cache = false;          // the L2 was flushed before every timed launch
    std::uint32_t candidates = 0;     // configurations measured
    std::uint32_t failed = 0;         // of those, how many the device refused
    double tuning_ms = 0;             // wall time the tuning took
    std::uint64_t measured_size = 0;  // the work size it was measured at
    std::string wavefit_version = WAVEFIT_VERSION_STRING;

    // How much faster the chosen configuration ran than the plan, and than the user's configuration
    // (1 when it was kept, or when there was none).
    double speedup() const noexcept { return chosen.median_ns > 0 ? plan.median_ns / chosen.median_ns : 1.0; }
    double speedup_over_baseline() const noexcept {
        return has_baseline && chosen.median_ns > 0 ? baseline.median_ns / chosen.median_ns : 1.0;
    }
};

// The on-disk format's version: a record of another format is ignored (never misread). Format 2
// keys records on the kernel's contract and records the configuration the work replaced.
inline constexpr int tuning_format = 2;

// ---------------------------------------------------------------------------------------- candidates

// The blocks the tuner tries: whole waves on a ladder of 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 waves within
// the device's and the kernel's maxima and the blocks the kernel's contract allows, each kept only if
// its modelled occupancy is at least half the best any allowed block reaches (the model prunes, the
// GPU decides), plus the plan's own block.
inline std::vector<std::uint64_t> candidate_blocks(const device_limits& d, const kernel_resources& k, const work& w,
                                                   std::uint64_t plan_block) {
    std::vector<std::uint64_t> blocks;
    if (w.contract.has_fixed_block()) {
        if (plan_block != 0) blocks.push_back(plan_block);
        return blocks;
    }
    std::uint64_t bound = min_u64(kernel_max_threads(d, k), d.max_threads_per_block);
    if (w.kind != work_kind::extent) bound = min_u64(bound, d.max_block.x);
    if (w.contract.max_block != 0) bound = min_u64(bound, w.contract.max_block);
    if (d.wave_size == 0 || bound == 0) return blocks;
    std::uint32_t best = 0;
    for (std::uint64_t b = d.wave_size; b <= bound; b += d.wave_size)
        if (block_allowed(d, w, b)) best = std::max(best, occupancy(d, k, b, shared_for(w.options, b)).active_waves_per_cu);
    static constexpr std::uint64_t ladder[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    for (const std::uint64_t waves : ladder) {
        const std::uint64_t b = waves * d.wave_size;
        if (b > bound) break;
        if (!block_allowed(d, w, b)) continue;
        const occupancy_report o = occupancy(d, k, b, shared_for(w.options, b));
        if (o.fits() && 2 * std::uint64_t{o.active_waves_per_cu} >= best) blocks.push_back(b);
    }
    if (plan_block != 0 && std::find(blocks.begin(), blocks.end(), plan_block) == blocks.end()) blocks.push_back(plan_block);
    std::sort(blocks.begin(), blocks.end());
    return blocks;
}

// Block shapes for an extent of `threads` threads: x of one wave up to the whole block (x first keeps
// accesses coalesced), y and z from what is left, as shape_block does for its own x.
inline std::vector<dims> candidate_shapes(const device_limits& d, std::uint64_t threads, const dims& extent) {
    std::vector<dims> shapes;
    const auto add = [&](const dims& s) {
        if (s.volume() == 0 || s.x > d.max_block.x || s.y > d.max_block.y || s.z > d.max_block.z) return;
        if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
    };
    add(shape_block(d, threads, extent));
    const bool has_z = extent.z > 1;
    for (std::uint64_t x = d.wave_size; x <= threads && x <= max_u64(d.wave_size, extent.x); x *= 2) {
        const std::uint64_t rest = threads / x;
        if (rest == 0 || threads % x != 0) continue;
        if (has_z) {
            const std::uint64_t y = min_u64(rest, next_pow2(extent.y));
            add(dims{x, y, max_u64(1, rest / y)});
        } else {
            add(dims{x, rest, 1});
        }
    }
    return shapes;
}

// The grid policies crossed with each block for a kernel that loops: one item per thread (unit per
// block or wave), saturated x {1, 2, 4, 8}, and 2 or 4 items per thread. A one-pass kernel gets the
// covering grid only: a grid that covers less would skip items.
struct policy {
    grid_policy grid;
    std::uint32_t factor;
};
inline constexpr policy candidate_policies[] = {
    {grid_policy::cover, 1},    {grid_policy::saturate, 1}, {grid_policy::saturate, 2}, {grid_policy::saturate, 4},
    {grid_policy::saturate, 8}, {grid_policy::coarsen, 2},  {grid_policy::coarsen, 4}};

inline launch_recipe recipe_for(const device_limits& d, const kernel_resources& k, const work& w, const dims& block,
                                grid_policy grid, std::uint32_t factor) {
    launch_recipe r{};
    r.threads = block.volume();
    if (w.kind == work_kind::extent || block.y != 1 || block.z != 1) r.shape = block;
    r.rule = block_rule::tuned;
    r.active_blocks_per_cu = occupancy(d, k, r.threads, shared_for(w.options, r.threads)).active_blocks_per_cu;
    r.grid = grid;
    r.grid_factor = factor;
    r.spread_small_work = false;
    return r;
}

// The configurations a tuner measures for `w`, the plan's own first: only what the kernel's contract
// allows (its blocks; a covering grid unless the kernel loops), deterministic (the same inputs give
// the same list, in the same order) and at most `limit` long. When the full cross product is longer,
// the blocks farthest from the plan's go first, then the policies at the end of the list.
inline std::vector<launch_recipe> tuning_candidates(const device_limits& d, const kernel_resources& k, const work& w,
                                                    std::size_t limit = 64) {
    std::vector<launch_recipe> out;
    const launch_recipe planned = planned_recipe(d, k, w);
    if (planned.threads == 0 || limit == 0 || w.negative) return out;
    out.push_back(planned);
    std::vector<launch_recipe> rest;
    const std::uint64_t plan_threads = planned.threads;
    std::vector<std::uint64_t> blocks = candidate_blocks(d, k, w, plan_threads);
    // Nearest to the plan's block first (by ratio), so that trimming keeps the neighbourhood.
    std::stable_sort(blocks.begin(), blocks.end(), [plan_threads](std::uint64_t a, std::uint64_t b) {
        const auto distance = [plan_threads](std::uint64_t x) {
            return x >= plan_threads ? static_cast<double>(x) / static_cast<double>(plan_threads)
                                     : static_cast<double>(plan_threads) / static_cast<double>(x);
        };
        return distance(a) < distance(b);
    });
    if (w.kind == work_kind::extent) {
        for (const std::uint64_t b : blocks) {
            if (w.contract.has_fixed_block()) {
                rest.push_back(recipe_for(d, k, w, w.contract.fixed_block, grid_policy::cover, 1));
                continue;
            }
            for (const dims& s : candidate_shapes(d, b, w.extent))
                rest.push_back(recipe_for(d, k, w, s, grid_policy::cover, 1));
        }
    } else {
        const dims fixed = w.contract.fixed_block;
        for (const policy& p : candidate_policies) {
            if (p.grid != grid_policy::cover && !w.loops()) continue;
            for (const std::uint64_t b : blocks)
                rest.push_back(recipe_for(d, k, w, w.contract.has_fixed_block() ? fixed : dims{b}, p.grid, p.factor));
        }
        // Policy-major order trims the last policies' farthest blocks first: interleave by block rank.
        std::stable_sort(rest.begin(), rest.end(), [&blocks](const launch_recipe& a, const launch_recipe& b) {
            const auto rank = [&blocks](std::uint64_t t) {
                return static_cast<std::size_t>(std::find(blocks.begin(), blocks.end(), t) - blocks.begin());
            };
            return rank(a.threads) < rank(b.threads);
        });
    }
    // Only launches that can run and, for a one-pass kernel, reach every item: where the plan itself
    // cannot, the launch is refused and there is nothing to tune.
    const auto runnable = [&](const launch_config& c) {
        return is_launchable(d, k, c) && (w.loops() || covers_in_one_pass(d, c, w));
    };
    // A configuration is measured once, whichever recipes lead to it (for small work the plan
    // shrinks its block, and a saturated grid may equal the covering one).
    std::vector<launch_config> configs{configure(d, planned, w).config};
    if (!w.is_empty() && !runnable(configs.front())) return {};
    for (const launch_recipe& r : rest) {
        if (out.size() >= limit) break;
        const launch_config c = configure(d, r, w).config;
        if (!w.is_empty() && !runnable(c)) continue;
        if (std::find(configs.begin(), configs.end(), c) != configs.end()) continue;
        configs.push_back(c);
        out.push_back(r);
    }
    return out;
}

// ------------------------------------------------------------------------------------- validation

// The recipe a record's choice stands for on `d`, with the residency recomputed from the device
// (never trusted from the file); threads 0 when the choice cannot be a launch of this kernel here, or
// is one its contract does not allow.
inline launch_recipe recipe_from_choice(const device_limits& d, const kernel_resources& k, const work& w,
                                        const tuned_choice& c) {
    if (c.baseline) return launch_recipe{};
    if (c.factor == 0 || c.factor > 1024) return launch_recipe{};
    if (c.grid != grid_policy::cover && !w.loops()) return launch_recipe{};
    const bool shaped = w.kind == work_kind::extent || w.contract.has_fixed_block();
    if (!shaped && (c.block.y != 1 || c.block.z != 1)) return launch_recipe{};
    if (w.contract.has_fixed_block() && c.block != w.contract.fixed_block) return launch_recipe{};
    if (!block_allowed(d, w, c.block.volume())) return launch_recipe{};
    return recipe_for(d, k, w, shaped ? c.block : dims{c.block.x}, c.grid, c.factor);
}

// Why a record's choice must not be used for work `w` on `d` (empty when it may): at every size of
// its bucket where the plan can launch (and, for a one-pass kernel, reach every item), so must the
// record's configuration. A size no configuration can take is refused either way.
inline std::string record_problem(const device_limits& d, const kernel_resources& k, const work& w, const tuned_choice& c) {
    if (!device_limits_problem(d).empty()) return "the device limits are invalid";
    if (c.baseline) return w.has_baseline ? std::string() : "the record keeps a configuration this launch does not replace";
    const launch_recipe r = recipe_from_choice(d, k, w, c);
    if (r.threads == 0) return "the recorded block or grid policy is not a launch the kernel's contract allows";
    const launch_recipe planned = planned_recipe(d, k, w);
    const auto runs = [&](const launch_recipe& recipe, const work& probe) {
        const configured_launch cl = configure(d, recipe, probe);
        return is_launchable(d, k, cl.config) && (probe.loops() || covers_in_one_pass(d, cl.config, probe));
    };
    const std::uint64_t size = w.size();
    const std::uint32_t bucket = size_bucket(size);
    // The smallest and the largest size of the bucket, and the work itself.
    const std::uint64_t first = bucket == 0 ? 1 : std::uint64_t{1} << bucket;
    const std::uint64_t last = bucket >= 63 ? u64_max : (std::uint64_t{1} << (bucket + 1)) - 1;
    for (const std::uint64_t n : {first, last, size}) {
        if (n == 0) continue;
        work probe = w;
        if (w.kind == work_kind::extent) {
            if (n != size) continue;  // an extent's bucket has many shapes: check the one at hand
        } else {
            probe.extent = dims{n, 1, 1};
        }
        if (runs(r, probe) || (planned.threads != 0 && !runs(planned, probe))) continue;
        const configured_launch cl = configure(d, r, probe);
        return "block " + dims_text(cl.config.block) + ", grid " + dims_text(cl.config.grid) + " is not launchable on " +
               to_string(d) + (w.loops() ? "" : " in one pass over " + std::to_string(n) + " items");
    }
    return {};
}

// ------------------------------------------------------------------------------------- JSON lines

// `s` as a JSON string literal, quotes included (detail/json_text.hpp: the one JSON string writer).
inline std::string json_string(std::string_view s) {
    std::string out;
    append_json_string(out, s);
    return out;
}

// Shortest round-trip digits, independent of the locale (a program's setlocale must not turn 1.5
// into "1,5" in a file other processes read).
inline std::string number_text(double v) {
    if (!(v >= 0) || v > 1e18) v = 0;  // NaN, negative and absurd times never reach a file
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

inline std::string dims_json(const dims& b) {
    return "[" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + "]";
}

// One key field as JSON, by its type.
inline std::string key_value_json(const std::string& v) { return json_string(v); }
inline std::string key_value_json(std::uint32_t v) { return std::to_string(v); }
inline std::string key_value_json(std::uint64_t v) { return std::to_string(v); }
inline std::string key_value_json(bool v) { return v ? "true" : "false"; }
inline std::string key_value_json(work_kind v) { return "\"" + std::string(to_string(v)) + "\""; }
inline std::string key_value_json(coverage v) { return "\"" + std::string(to_string(v)) + "\""; }
inline std::string key_value_json(const dims& v) { return dims_json(v); }

inline std::string key_json(const tuning_key& k) {
    std::string out = "{";
    std::size_t i = 0;
    const auto add = [&](const auto& field) {
        if (i != 0) out += ',';
        out += "\"" + std::string(tuning_key::field_names[i++]) + "\":" + key_value_json(field);
    };
    std::apply([&](const auto&... field) { (add(field), ...); }, k.fields());
    return out + "}";
}

inline std::string choice_json(const tuned_choice& c) {
    return "{" + std::string(c.baseline ? "\"baseline\":true," : "") + "\"block\":" + dims_json(c.block) + ",\"grid\":\"" +
           std::string(to_string(c.grid)) + "\",\"factor\":" + std::to_string(c.factor) +
           ",\"median_ns\":" + number_text(c.median_ns) + ",\"spread\":" + number_text(c.spread) + "}";
}

// One record as one line of JSON (no newline).
inline std::string to_json_line(const tuning_record& r) {
    return "{\"wavefit_tuning\":" + std::to_string(tuning_format) + ",\"wavefit\":" + json_string(r.wavefit_version) +
           ",\"key\":" + key_json(r.key) + ",\"chosen\":" + choice_json(r.chosen) + ",\"plan\":" + choice_json(r.plan) +
           (r.has_baseline ? ",\"baseline\":" + choice_json(r.baseline) : std::string()) +
           ",\"cold_cache\":" + (r.cold_cache ? "true" : "false") + ",\"candidates\":" + std::to_string(r.candidates) +
           ",\"failed\":" + std::to_string(r.failed) + ",\"tuning_ms\":" + number_text(r.tuning_ms) +
           ",\"measured_size\":" + std::to_string(r.measured_size) + "}";
}

// A record read back, or why the line is not one (one line of text).
struct tuning_record_result {
    tuning_record record;
    std::string error;
    bool ok() const noexcept { return error.empty(); }
};

// Field readers that say what is wrong instead of throwing.
class record_reader {
public:
    const std::string& error() const noexcept { return error_; }

    const json_value* field(const json_value& object, std::string_view name) {
        const json_value* f = object.find(name);
        if (f == nullptr && error_.empty()) error_ = "missing field \"" + std::string(name) + "\"";
        return f;
    }
    std::string text(const json_value& object, std::string_view name) {
        const json_value* f = field(object, name);
        if (f == nullptr) return {};
        const auto s = f->as_string();
        if (!s) fail(name, "a string", *f);
        return s ? std::string(*s) : std::string();
    }
    std::uint64_t count(const json_value& object, std::string_view name, std::uint64_t max) {
        const json_value* f = field(object, name);
        if (f == nullptr) return 0;
        const auto n = f->as_uint64();
        if (!n || *n > max) {
            if (error_.empty())
                error_ = "\"" + std::string(name) + "\" must be a whole number from 0 to " + std::to_string(max);
            return 0;
        }
        return *n;
    }
    double real(const json_value& object, std::string_view name) {
        const json_value* f = field(object, name);
        if (f == nullptr) return 0;
        const auto d = f->as_double();
        if (!d || !(*d >= 0) || *d > 1e18) {
            if (error_.empty()) error_ = "\"" + std::string(name) + "\" must be a non-negative number";
            return 0;
        }
        return *d;
    }
    bool flag(const json_value& object, std::string_view name) {
        const json_value* f = field(object, name);
        if (f == nullptr) return false;
        if (f->type() != json_type::boolean) {
            fail(name, "true or false", *f);
            return false;
        }
        return f->as_bool().value_or(false);
    }
    // [x, y, z] with each dimension in 0..max (0 only where `zero_ok`).
    dims dimensions(const json_value& object, std::string_view name, std::uint64_t max, bool zero_ok) {
        const json_value* f = field(object, name);
        if (f == nullptr) return dims{0, 0, 0};
        if (!f->is_array() || f->size() != 3) {
            fail("\"" + std::string(name) + "\" must be an array of 3 whole numbers");
            return dims{0, 0, 0};
        }
        std::uint64_t xyz[3] = {0, 0, 0};
        for (std::size_t i = 0; i < 3; ++i) {
            const auto v = (*f)[i].as_uint64();
            if (!v || *v > max || (*v == 0 && !zero_ok))
                fail("\"" + std::string(name) + "\" holds a dimension outside " + (zero_ok ? "0" : "1") + ".." +
                     std::to_string(max));
            xyz[i] = v.value_or(0);
        }
        return dims{xyz[0], xyz[1], xyz[2]};
    }
    void fail(std::string_view name, std::string_view wanted, const json_value& got) {
        if (error_.empty())
            error_ = "\"" + std::string(name) + "\" must be " + std::string(wanted) + ", not " +
                     std::string(to_string(got.type()));
    }
    void fail(const std::string& why) {
        if (error_.empty()) error_ = why;
    }

    // One key field, by its type and with its range.
    void read(const json_value& o, std::string_view name, std::string& out) { out = text(o, name); }
    void read(const json_value& o, std::string_view name, std::uint32_t& out) {
        out = static_cast<std::uint32_t>(count(o, name, std::uint64_t{1} << 30));
    }
    void read(const json_value& o, std::string_view name, std::uint64_t& out) { out = count(o, name, u64_max); }
    void read(const json_value& o, std::string_view name, bool& out) { out = flag(o, name); }
    void read(const json_value& o, std::string_view name, dims& out) { out = dimensions(o, name, 65536, true); }
    void read(const json_value& o, std::string_view name, work_kind& out) {
        const std::string t = text(o, name);
        for (const work_kind k : {work_kind::elements, work_kind::extent, work_kind::per_block, work_kind::per_wave})
            if (t == to_string(k)) {
                out = k;
                return;
            }
        fail("\"" + std::string(name) + "\" must be elements, extent, per_block or per_wave");
    }
    void read(const json_value& o, std::string_view name, coverage& out) {
        const std::string t = text(o, name);
        if (t == to_string(coverage::one_pass))
            out = coverage::one_pass;
        else if (t == to_string(coverage::kernel_loops))
            out = coverage::kernel_loops;
        else
            fail("\"" + std::string(name) + "\" must be one_pass or kernel_loops");
    }

private:
    std::string error_;
};

inline tuned_choice read_choice(record_reader& in, const json_value& object, std::string_view name) {
    tuned_choice c;
    const json_value* o = in.field(object, name);
    if (o == nullptr) return c;
    if (!o->is_object()) {
        in.fail(name, "an object", *o);
        return c;
    }
    if (o->find("baseline") != nullptr) c.baseline = in.flag(*o, "baseline");
    c.block = in.dimensions(*o, "block", 65536, false);
    const std::string grid = in.text(*o, "grid");
    if (grid == "cover")
        c.grid = grid_policy::cover;
    else if (grid == "saturate")
        c.grid = grid_policy::saturate;
    else if (grid == "coarsen")
        c.grid = grid_policy::coarsen;
    else
        in.fail("\"" + std::string(name) + ".grid\" must be cover, saturate or coarsen");
    c.factor = static_cast<std::uint32_t>(in.count(*o, "factor", 1024));
    if (c.factor == 0) in.fail("\"" + std::string(name) + ".factor\" must be at least 1");
    c.median_ns = in.real(*o, "median_ns");
    c.spread = in.real(*o, "spread");
    return c;
}

inline void read_key(record_reader& in, const json_value& object, tuning_key& key) {
    const json_value* o = in.field(object, "key");
    if (o == nullptr) return;
    if (!o->is_object()) {
        in.fail("key", "an object", *o);
        return;
    }
    std::size_t i = 0;
    std::apply([&](auto&... field) { (in.read(*o, tuning_key::field_names[i++], field), ...); }, key.fields());
    if (key.kernel.empty()) in.fail("\"kernel\" is empty");
    if (key.bucket > 64) in.fail("\"bucket\" must be a whole number from 0 to 64");
    if (key.unit_bucket > 65) in.fail("\"unit_bucket\" must be a whole number from 0 to 65");
    if (key.unit_bucket != 0 && key.kind != work_kind::per_block && key.kind != work_kind::per_wave)
        in.fail("\"unit_bucket\" is only for per_block and per_wave work");
    if (key.resources.registers > 65536 || key.resources.scalar_registers > 65536 ||
        key.resources.max_threads_per_block > 65536 || key.contract.max_block > 65536 || key.contract.group_threads > 65536)
        in.fail("a register, thread or group count above 65536");
    if (key.resources.static_shared > max_reported_limit || key.resources.local_bytes_per_thread > max_reported_limit ||
        key.dynamic_shared > max_reported_limit || key.shared_per_thread > max_reported_limit)
        in.fail("a memory size beyond " + std::to_string(max_reported_limit) + " bytes");
    if (key.min_efficient_block > 65536) in.fail("\"min_efficient_block\" must be a whole number from 0 to 65536");
}

// Parses one line of a tuning file. Hostile input gives an error, never a crash: sizes are capped
// (a line of at most 64 KiB, nesting 8 deep), every field is checked for type and range.
inline tuning_record_result parse_tuning_record(std::string_view line) {
    tuning_record_result out;
    json_limits limits;
    limits.max_depth = 8;
    limits.max_string_bytes = 4096;
    limits.max_document_bytes = std::size_t{64} * 1024;
    if (line.size() > limits.max_document_bytes) {
        out.error = "a line of " + std::to_string(line.size()) + " bytes (at most 65536)";
        return out;
    }
    const json_parse_result parsed = parse_json(line, limits);
    if (!parsed.ok()) {
        out.error = parsed.error;
        return out;
    }
    const json_value& v = parsed.value;
    if (!v.is_object()) {
        out.error = "a record must be a JSON object";
        return out;
    }
    record_reader in;
    const std::uint64_t format = in.count(v, "wavefit_tuning", 1u << 30);
    if (in.error().empty() && format != static_cast<std::uint64_t>(tuning_format)) {
        out.error = "a record of tuning format " + std::to_string(format) + " (this wavefit reads format " +
                    std::to_string(tuning_format) + ")";
        return out;
    }
    tuning_record& r = out.record;
    r.wavefit_version = in.text(v, "wavefit");
    read_key(in, v, r.key);
    r.chosen = read_choice(in, v, "chosen");
    r.plan = read_choice(in, v, "plan");
    r.has_baseline = v.find("baseline") != nullptr;
    if (r.has_baseline) r.baseline = read_choice(in, v, "baseline");
    if (r.chosen.baseline && !r.has_baseline) in.fail("\"chosen\" keeps a baseline the record does not have");
    r.cold_cache = in.flag(v, "cold_cache");
    r.candidates = static_cast<std::uint32_t>(in.count(v, "candidates", 1u << 20));
    r.failed = static_cast<std::uint32_t>(in.count(v, "failed", 1u << 20));
    r.tuning_ms = in.real(v, "tuning_ms");
    r.measured_size = in.count(v, "measured_size", u64_max);
    if (!in.error().empty()) out.error = in.error();
    return out;
}

// A whole tuning file's records: the last record of a key wins (a later measurement replaces an
// earlier one), bad lines are counted and the first problem kept, never fatal.
class tuning_database {
public:
    struct load_report {
        std::size_t records = 0;
        std::size_t ignored = 0;     // lines that are not records (or of another format)
        std::size_t duplicates = 0;  // records replaced by a later one of the same key
        std::string first_problem;   // "line N: why" for the first ignored line
    };

    // Adds every record of `text` (JSON lines); returns what was read.
    load_report add_lines(std::string_view text) {
        load_report report;
        std::size_t number = 0;
        while (!text.empty()) {
            const std::size_t nl = text.find('\n');
            const std::string_view line = text.substr(0, nl);
            text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
            add_line(line, ++number, report);
        }
        return report;
    }

    // Adds line `number` of a file (blank lines are skipped, a trailing \r is dropped), counting it
    // into `report`.
    void add_line(std::string_view line, std::size_t number, load_report& report) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (trim(line).empty()) return;
        tuning_record_result r = parse_tuning_record(line);
        if (!r.ok()) {
            if (report.ignored++ == 0) report.first_problem = "line " + std::to_string(number) + ": " + r.error;
            return;
        }
        if (put(std::move(r.record))) ++report.duplicates;
        ++report.records;
    }

    // Adds or replaces the record of its key; true when it replaced one.
    bool put(tuning_record r) {
        for (tuning_record& existing : records_)
            if (existing.key == r.key) {
                existing = std::move(r);
                return true;
            }
        records_.push_back(std::move(r));
        return false;
    }

    // The record of exactly this key, else the one of the nearest bucket for the same device,
    // kernel and options (the smaller bucket on a tie), else nullptr.
    const tuning_record* find(const tuning_key& key, bool* exact = nullptr) const {
        const tuning_record* best = nullptr;
        std::uint32_t best_distance = 0;
        for (const tuning_record& r : records_) {
            if (!r.key.same_but_bucket(key)) continue;
            const std::uint32_t distance = r.key.bucket > key.bucket ? r.key.bucket - key.bucket : key.bucket - r.key.bucket;
            if (best == nullptr || distance < best_distance ||
                (distance == best_distance && r.key.bucket < best->key.bucket)) {
                best = &r;
                best_distance = distance;
            }
        }
        if (exact != nullptr) *exact = best != nullptr && best_distance == 0;
        return best;
    }

    const std::vector<tuning_record>& records() const noexcept { return records_; }
    std::size_t size() const noexcept { return records_.size(); }

    // Every record, one line each, in a stable order (device, kernel, kind, bucket).
    std::string to_json_lines() const {
        std::vector<const tuning_record*> sorted;
        for (const tuning_record& r : records_) sorted.push_back(&r);
        std::stable_sort(sorted.begin(), sorted.end(), [](const tuning_record* a, const tuning_record* b) {
            if (a->key.device_name != b->key.device_name) return a->key.device_name < b->key.device_name;
            if (a->key.kernel != b->key.kernel) return a->key.kernel < b->key.kernel;
            if (a->key.kind != b->key.kind) return a->key.kind < b->key.kind;
            return a->key.bucket < b->key.bucket;
        });
        std::string out;
        for (const tuning_record* r : sorted) out += to_json_line(*r) + "\n";
        return out;
    }

private:
    std::vector<tuning_record> records_;
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
