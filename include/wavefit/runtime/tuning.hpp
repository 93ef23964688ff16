// SPDX-License-Identifier: MIT
// Tuned launches on a real GPU: measuring the candidates of the core's tuning.hpp with device events
// on the caller's stream, choosing one only when it beats the plan by more than the measured noise,
// and the process's tuning database (WAVEFIT_TUNING, WAVEFIT_TUNING_FILE, WAVEFIT_TUNING_VERBOSE):
// read lazily once, consulted when a planned launch's cache entry is first computed (never on the
// hot path), written atomically under a lock so that processes tuning into one file lose nothing.
#pragma once

#include <algorithm>   // std::sort, std::nth_element
#include <atomic>      // the mode and the database generation
#include <chrono>      // tuning wall time
#include <cmath>       // std::ceil, std::lround: batches, percentiles
#include <cstdint>     // sizes
#include <cstdio>      // warnings on stderr, the file
#include <cstdlib>     // std::getenv
#include <functional>  // the launch a measurement repeats
#include <mutex>       // the database
#include <string>      // records, messages
#include <vector>      // timings

#if __has_include(<sys/file.h>) && __has_include(<fcntl.h>) && __has_include(<unistd.h>)
#include <fcntl.h>     // open
#include <sys/file.h>  // flock: one writer of a tuning file at a time
#include <unistd.h>    // write, fsync, close, getpid
#define WAVEFIT_TUNING_FILE_LOCKS 1
#endif

#include "../plan.hpp"
#include "../tuning.hpp"
#include "../validate.hpp"
#include "backend.hpp"
#include "device_state.hpp"

namespace wavefit {

// What wavefit::tune measured and chose.
struct tuning_result {
    bool ok = false;                         // the measurement ran (else `message` says why)
    bool tuned = false;                      // a candidate beat the plan by more than the noise
    launch_config chosen{dims{0}, dims{0}};  // for the tuned work: the plan's configuration unless `tuned`
    launch_config plan{dims{0}, dims{0}};
    double chosen_ns = 0;  // median device time per launch
    double plan_ns = 0;
    double spread = 0;  // the larger relative spread of the two
    std::uint32_t candidates = 0;
    std::uint32_t failed = 0;
    double tuning_ms = 0;
    std::string message;  // why tuning failed, empty when ok
};

namespace detail {

// The process's tuning settings and database. The mode and the generation are atomics read by
// every planned launch while tuning is on; everything else is behind the mutex and touched only
// when a cache entry is computed or a tuning result stored.
class tuning_state {
public:
    static tuning_state& get() {
        static tuning_state state;
        return state;
    }

    tuning_mode mode() const noexcept { return static_cast<tuning_mode>(mode_.load(std::memory_order_relaxed)); }
    void set_mode(tuning_mode m) noexcept {
        mode_.store(static_cast<int>(m), std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_relaxed);
    }
    bool verbose() const noexcept { return verbose_.load(std::memory_order_relaxed); }
    void set_verbose(bool on) noexcept { verbose_.store(on, std::memory_order_relaxed); }

    // Reads (lazily, on next use) and writes `path` from now on; records tuned earlier in this
    // process stay. An empty path keeps results in this process only.
    void set_file(const std::string& path) {
        std::lock_guard<std::mutex> lock(mutex_);
        file_ = path;
        loaded_ = false;
        generation_.fetch_add(1, std::memory_order_relaxed);
    }
    std::uint32_t generation() const noexcept { return generation_.load(std::memory_order_relaxed); }
    std::string file() {
        std::lock_guard<std::mutex> lock(mutex_);
        return file_;
    }

    // The record for `key` (exact, else the nearest bucket), copied out of the database.
    bool find(const tuning_key& key, tuning_record& out, bool& exact) {
        std::lock_guard<std::mutex> lock(mutex_);
        load_locked();
        const tuning_record* r = database_.find(key, &exact);
        if (r == nullptr) return false;
        out = *r;
        return true;
    }

    // Keeps a new result for this process and, when WAVEFIT_TUNING_FILE is set, in that file.
    void store(const tuning_record& r) {
        std::lock_guard<std::mutex> lock(mutex_);
        load_locked();
        database_.put(r);
        if (!file_.empty()) write_locked(r);
        generation_.fetch_add(1, std::memory_order_relaxed);
    }

    void say(const std::string& line) const {
        if (verbose_.load(std::memory_order_relaxed)) (void)std::fprintf(stderr, "wavefit: tuning: %s\n", line.c_str());
    }
    void warn(const std::string& line) const { (void)std::fprintf(stderr, "wavefit: tuning: warning: %s\n", line.c_str()); }

private:
    tuning_state() {
        const char* mode = std::getenv("WAVEFIT_TUNING");
        tuning_mode m = tuning_mode::off;
        if (mode != nullptr && *mode != '\0' && !parse_tuning_mode(mode, m))
            warn("WAVEFIT_TUNING='" + std::string(mode) + "' is not off, use or tune: tuning stays off");
        mode_.store(static_cast<int>(m));
        const char* file = std::getenv("WAVEFIT_TUNING_FILE");
        if (file != nullptr) file_ = file;
        const char* verbose = std::getenv("WAVEFIT_TUNING_VERBOSE");
        verbose_.store(verbose != nullptr && *verbose != '\0' && std::string(verbose) != "0");
    }

    // A tuning file is small (a line per kernel and size); a larger one is not a tuning file.
    static constexpr long max_file_bytes = 64L << 20;

    static bool read_file(const std::string& path, std::string& text, std::string& problem) {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (f == nullptr) return false;  // no file yet: nothing to read, not a problem
        char buffer[65536];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) {
            text.append(buffer, n);
            if (text.size() > static_cast<std::size_t>(max_file_bytes)) {
                problem = "larger than 64 MiB: not a tuning file";
                break;
            }
        }
        if (std::ferror(f) && problem.empty()) problem = "could not be read";
        (void)std::fclose(f);
        return problem.empty();
    }

    void load_locked() {
        if (loaded_) return;
        loaded_ = true;
        if (file_.empty()) return;
        std::string text, problem;
        if (!read_file(file_, text, problem)) {
            if (!problem.empty()) warn(file_ + ": " + problem + "; it is ignored");
            return;
        }
        const tuning_database::load_report report = database_.add_lines(text);
        if (report.ignored > 0)
            warn(file_ + ": " + std::to_string(report.ignored) + " line(s) ignored, the first at " + report.first_problem);
        say(file_ + ": " + std::to_string(report.records) + " record(s) read");
    }

    // Merges `r` into the file as it is now (another process may have added records since this one
    // read it), through a temporary file renamed over it, while holding an exclusive lock.
    void write_locked(const tuning_record& r) const {
#if defined(WAVEFIT_TUNING_FILE_LOCKS)
        const std::string lock_path = file_ + ".lock";
        const int lock = ::open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
        if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
            if (lock >= 0) (void)::close(lock);
            warn(file_ + ": cannot lock " + lock_path + "; the result is kept in this process only");
            return;
        }
#endif
        tuning_database merged;
        std::string text, problem;
        if (read_file(file_, text, problem)) (void)merged.add_lines(text);
        merged.put(r);
        const std::string contents = merged.to_json_lines();
#if defined(WAVEFIT_TUNING_FILE_LOCKS)
        const std::string temporary = file_ + ".tmp." + std::to_string(static_cast<long>(::getpid()));
        bool written = false;
        const int fd = ::open(temporary.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
        if (fd >= 0) {
            std::size_t done = 0;
            while (done < contents.size()) {
                const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
                if (n <= 0) break;
                done += static_cast<std::size_t>(n);
            }
            written = done == contents.size() && ::fsync(fd) == 0;
            (void)::close(fd);
        }
        if (!written || std::rename(temporary.c_str(), file_.c_str()) != 0) {
            (void)std::remove(temporary.c_str());
            warn(file_ + ": could not be written; the result is kept in this process only");
        }
        (void)::flock(lock, LOCK_UN);
        (void)::close(lock);
#else
        const std::string temporary = file_ + ".tmp";
        std::FILE* f = std::fopen(temporary.c_str(), "wb");
        const bool written = f != nullptr && std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
        if (f != nullptr) (void)std::fclose(f);
        (void)std::remove(file_.c_str());
        if (!written || std::rename(temporary.c_str(), file_.c_str()) != 0)
            warn(file_ + ": could not be written; the result is kept in this process only");
#endif
    }

    std::atomic<int> mode_{0};
    std::atomic<std::uint32_t> generation_{1};
    std::atomic<bool> verbose_{false};
    std::string file_;
    std::mutex mutex_;
    bool loaded_ = false;
    tuning_database database_;
};

// Whether planned launches consult the database: the one check a launch pays while tuning is off.
inline bool tuning_active() noexcept { return tuning_state::get().mode() != tuning_mode::off; }

// The key of a planned launch's record: the device, the runtime, the kernel and the work.
inline bool tuning_key_for(const launch_entry& e, const work& w, tuning_key& key) {
    if (e.kernel->mangled.empty()) return false;  // no stable name: nothing to key a record by
    std::string name, arch;
    if (backend::read_names(name, arch, e.device) != backend::success) {
        (void)backend::take_last_error();
        return false;
    }
    key.device_name = name;
    key.device_arch = arch;
    key.compute_units = e.limits->compute_units;
    key.runtime = backend::runtime_version_text();
    key.kernel = e.kernel->mangled;
    key.resources = e.kernel->resources;
    key.kind = w.kind;
    key.bucket = size_bucket(w.size());
    key.unit_bucket = w.kind == work_kind::per_block ? unit_bucket_of(w.unit_size) : 0;
    key.dynamic_shared = w.options.dynamic_shared;
    key.min_efficient_block = w.options.min_efficient_block;
    return true;
}

inline tuned_choice choice_of(const launch_recipe& r, const launch_config& cfg) {
    tuned_choice c;
    c.block = cfg.block;
    c.grid = r.grid;
    c.factor = r.grid_factor == 0 ? 1 : r.grid_factor;
    return c;
}

// ------------------------------------------------------------------------------------ measurement

// Launches one configuration with the caller's arguments on the caller's stream (validated before).
using candidate_launch = std::function<backend::error_type(const launch_config&)>;

// What a launch of the caller's kernel needs besides its configuration: its address, the packed
// arguments and the stream. A plain value, so that a planned launch passes it for free and the
// tuner builds a candidate_launch from it only when it tunes.
struct launch_arguments {
    const void* kernel = nullptr;
    void** args = nullptr;
    backend::stream_type stream = nullptr;
};

// One launch of a tuning candidate, already validated, its shared memory opted in.
inline backend::error_type launch_candidate(const launch_arguments& a, const launch_config& c) {
    const dim3 grid(static_cast<unsigned>(c.grid.x), static_cast<unsigned>(c.grid.y), static_cast<unsigned>(c.grid.z));
    const dim3 block(static_cast<unsigned>(c.block.x), static_cast<unsigned>(c.block.y), static_cast<unsigned>(c.block.z));
    return backend::launch_kernel(a.kernel, grid, block, a.args, static_cast<std::size_t>(c.dynamic_shared), a.stream);
}

// A pool of event pairs on one stream, each pair timing a batch of back-to-back launches.
class launch_timer {
public:
    explicit launch_timer(backend::stream_type stream) : stream_(stream) {}
    ~launch_timer() {
        for (backend::event_type e : events_) (void)backend::destroy_event(e);
    }
    launch_timer(const launch_timer&) = delete;
    launch_timer& operator=(const launch_timer&) = delete;

    // Device time in nanoseconds of one launch of `cfg`, for each of `runs` batches of `batch`
    // launches (empty, and `failed` set, if the runtime refused one).
    std::vector<double> time(const candidate_launch& launch, const launch_config& cfg, std::size_t runs,
                             backend::error_type& failed, std::size_t batch = 1) {
        std::vector<double> ns;
        failed = backend::success;
        if (!reserve(2 * runs)) {
            failed = create_error_;
            return ns;
        }
        for (std::size_t i = 0; i < runs; ++i) {
            if ((failed = backend::record_event(events_[2 * i], stream_)) != backend::success) return ns;
            for (std::size_t j = 0; j < batch; ++j)
                if ((failed = launch(cfg)) != backend::success) return ns;
            if ((failed = backend::record_event(events_[2 * i + 1], stream_)) != backend::success) return ns;
        }
        if ((failed = backend::wait_for_event(events_[2 * runs - 1])) != backend::success) return ns;
        for (std::size_t i = 0; i < runs; ++i) {
            float ms = 0;
            if ((failed = backend::elapsed_ms(ms, events_[2 * i], events_[2 * i + 1])) != backend::success) return {};
            ns.push_back(static_cast<double>(ms) * 1e6 / static_cast<double>(batch));
        }
        return ns;
    }

private:
    bool reserve(std::size_t n) {
        while (events_.size() < n) {
            backend::event_type e{};
            if ((create_error_ = backend::create_event(e)) != backend::success) return false;
            events_.push_back(e);
        }
        return true;
    }

    backend::stream_type stream_;
    std::vector<backend::event_type> events_;
    backend::error_type create_error_ = backend::success;
};

struct timing_summary {
    double median = 0;
    double spread = 0;  // (80th - 20th percentile) / median
};

inline timing_summary summarize(std::vector<double> ns) {
    timing_summary s;
    if (ns.empty()) return s;
    std::sort(ns.begin(), ns.end());
    const auto at = [&ns](double q) {
        return ns[static_cast<std::size_t>(std::lround(q * static_cast<double>(ns.size() - 1)))];
    };
    s.median = at(0.5);
    s.spread = s.median > 0 ? (at(0.8) - at(0.2)) / s.median : 0;
    return s;
}

// The measured outcome of one candidate.
struct candidate_timing {
    launch_recipe recipe;
    launch_config config{dims{0}, dims{0}};
    bool failed = false;
    std::vector<double> screen_ns;  // stage 1
    std::vector<double> final_ns;   // stage 2, interleaved with the other finalists
};

// How long tuning one kernel and size may take: the device time the measurements are planned to
// spend (the wall time adds launch overheads; the README reports both).
inline constexpr double tuning_budget_ns = 600e6;

// A sample of at least this much device time: a short kernel is timed in batches of back-to-back
// launches (at most 32), because one event pair around a few microseconds measures mostly the
// events' own jitter, and that jitter would hide gains of a percent or two.
inline constexpr double tuning_sample_ns = 50e3;

// Measures every candidate (the plan first) and chooses: stage 1 screens each with a few timed
// samples (a sample is a batch of launches when one launch is short, see tuning_sample_ns);
// stage 2 times the six fastest and the plan interleaved, round after round, until 100
// rounds or half the budget, so that clock drift cannot favour one. The fastest replaces the plan
// only if it beats the plan's median by more than half the larger relative spread (at least 0.2%),
// so a tie keeps the plan. A candidate the runtime refuses is recorded as failed, never chosen.
inline tuning_result measure_and_choose(const device_limits& d, const kernel_resources& k, const work& w,
                                        const candidate_launch& launch, backend::stream_type stream, tuning_record& record) {
    tuning_result result;
    const auto started = std::chrono::steady_clock::now();
    const std::vector<launch_recipe> recipes = tuning_candidates(d, k, w);
    if (recipes.empty()) {
        result.message = "no block of this kernel can run on " + device_text(d);
        return result;
    }
    std::vector<candidate_timing> all;
    for (const launch_recipe& r : recipes) {
        candidate_timing t;
        t.recipe = r;
        t.config = configure(d, r, w).config;
        t.failed = !is_launchable(d, k, t.config);
        all.push_back(t);
    }
    if (all.front().failed) {
        result.message = "the plan itself is not launchable";
        return result;
    }
    launch_timer timer(stream);
    backend::error_type e = backend::success;
    // Warm-up and an estimate of one launch: the plan, three times.
    (void)timer.time(launch, all.front().config, 1, e);
    const std::vector<double> first = timer.time(launch, all.front().config, 3, e);
    if (e != backend::success) {
        (void)backend::take_last_error();
        result.message = "the plan's launch failed: " + runtime_error_text(e);
        return result;
    }
    const double estimate = std::max(1000.0, summarize(first).median);
    const std::size_t batch = static_cast<std::size_t>(std::clamp(std::ceil(tuning_sample_ns / estimate), 1.0, 32.0));
    const double sample_ns = estimate * static_cast<double>(batch);
    const std::size_t n = all.size();
    const std::size_t screen_runs =
        static_cast<std::size_t>(std::clamp(0.4 * tuning_budget_ns / (sample_ns * static_cast<double>(n)), 1.0, 10.0));

    for (candidate_timing& t : all) {
        if (t.failed) continue;
        (void)timer.time(launch, t.config, 1, e);  // its own warm-up
        if (e == backend::success) t.screen_ns = timer.time(launch, t.config, screen_runs, e, batch);
        if (e != backend::success) {
            t.failed = true;
            (void)backend::take_last_error();
            // A sticky error (a fault) leaves the context unusable: stop, keep the plan.
            if (backend::synchronize_stream(stream) != backend::success) {
                (void)backend::take_last_error();
                result.message = "a candidate left the device in an error state: " + runtime_error_text(e);
                return result;
            }
        }
    }

    // The finalists: the plan and the six fastest others.
    std::vector<std::size_t> order;
    for (std::size_t i = 1; i < n; ++i)
        if (!all[i].failed && !all[i].screen_ns.empty()) order.push_back(i);
    std::sort(order.begin(), order.end(), [&all](std::size_t a, std::size_t b) {
        return summarize(all[a].screen_ns).median < summarize(all[b].screen_ns).median;
    });
    if (order.size() > 6) order.resize(6);
    order.insert(order.begin(), 0);
    double round_ns = 0;
    for (const std::size_t i : order)
        round_ns += std::max(1000.0, summarize(all[i].screen_ns).median) * static_cast<double>(batch);
    const std::size_t rounds = static_cast<std::size_t>(std::clamp(0.5 * tuning_budget_ns / round_ns, 5.0, 100.0));
    for (std::size_t round = 0; round < rounds; ++round)
        for (const std::size_t i : order) {
            if (all[i].failed) continue;
            const std::vector<double> one = timer.time(launch, all[i].config, 1, e, batch);
            if (e != backend::success) {
                all[i].failed = true;
                (void)backend::take_last_error();
                continue;
            }
            all[i].final_ns.push_back(one.front());
        }
    if (all.front().failed) {
        result.message = "the plan's launch failed during the measurement";
        return result;
    }

    std::size_t best = 0;
    timing_summary best_time = summarize(all[0].final_ns);
    const timing_summary plan_time = best_time;
    for (const std::size_t i : order) {
        if (all[i].failed || all[i].final_ns.empty()) continue;
        const timing_summary s = summarize(all[i].final_ns);
        if (s.median < best_time.median) {
            best = i;
            best_time = s;
        }
    }
    const double noise = std::max(0.002, 0.5 * std::max(plan_time.spread, best_time.spread));
    const bool beats_plan = best != 0 && best_time.median > 0 && plan_time.median / best_time.median - 1.0 > noise;
    const std::size_t chosen = beats_plan ? best : 0;
    const timing_summary chosen_time = beats_plan ? best_time : plan_time;

    for (const candidate_timing& t : all) result.failed += t.failed ? 1 : 0;
    result.ok = true;
    result.tuned = beats_plan;
    result.chosen = all[chosen].config;
    result.plan = all[0].config;
    result.chosen_ns = chosen_time.median;
    result.plan_ns = plan_time.median;
    result.spread = std::max(plan_time.spread, chosen_time.spread);
    result.candidates = static_cast<std::uint32_t>(n);
    result.tuning_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();

    record.chosen = choice_of(all[chosen].recipe, all[chosen].config);
    record.chosen.median_ns = chosen_time.median;
    record.chosen.spread = chosen_time.spread;
    record.plan = choice_of(all[0].recipe, all[0].config);
    record.plan.median_ns = plan_time.median;
    record.plan.spread = plan_time.spread;
    record.candidates = result.candidates;
    record.failed = result.failed;
    record.tuning_ms = result.tuning_ms;
    record.measured_size = w.size();
    return result;
}

// "block (512, 1, 1), saturate x2": a choice for messages.
inline std::string choice_text(const tuned_choice& c) {
    std::string text = "block " + dims_text(c.block) + ", " + std::string(to_string(c.grid));
    if (c.grid != grid_policy::cover) text += " x" + std::to_string(c.factor);
    return text;
}

inline std::string work_text(const work& w) {
    return std::string(to_string(w.kind)) + " " +
           (w.kind == work_kind::extent ? dims_text(w.extent) : std::to_string(w.size()));
}

// The recipe a planned launch's cache entry gets while tuning is on: a record that fits (exact, else
// the nearest bucket) and passes validation on this device, else, in `tune` mode and when the
// caller can run the kernel (`launch` set), a new measurement, else the plan.
inline launch_recipe tuned_or_planned(const launch_entry& e, const work& w, const launch_recipe& planned,
                                      const launch_arguments* here, backend::stream_type stream) {
    tuning_state& state = tuning_state::get();
    tuning_key key;
    if (!tuning_key_for(e, w, key)) {
        state.say(e.kernel->name + ": the runtime gives no name to key a record by; the plan");
        return planned;
    }
    const std::string what = e.kernel->name + " on " + device_text(*e.limits) + ", " + work_text(w);
    tuning_record record;
    bool exact = false;
    if (state.find(key, record, exact)) {
        const std::string problem = record_problem(*e.limits, e.kernel->resources, w, record.chosen);
        if (problem.empty()) {
            state.say(what + ": " +
                      (exact ? "the tuned record"
                             : "the nearest tuned record (bucket 2^" + std::to_string(record.key.bucket) + ")") +
                      ", " + choice_text(record.chosen) + ", " + std::to_string(record.speedup()) + "x the plan");
            return recipe_from_choice(*e.limits, e.kernel->resources, w, record.chosen);
        }
        state.say(what + ": a record was ignored: " + problem + "; the plan");
        if (exact || state.mode() != tuning_mode::tune) return planned;
    }
    if (state.mode() != tuning_mode::tune || here == nullptr) {
        state.say(what + ": no tuned record; the plan");
        return planned;
    }
    if (const backend::error_type opt_in = raise_dynamic_shared(*e.kernel, e.address, w.options.dynamic_shared);
        opt_in != backend::success) {
        (void)backend::take_last_error();
        state.warn(what + ": tuning failed (raising the dynamic shared memory limit: " + runtime_error_text(opt_in) +
                   "); the plan");
        return planned;
    }
    record.key = key;
    const launch_arguments a = *here;
    const tuning_result r = measure_and_choose(
        *e.limits, e.kernel->resources, w, [a](const launch_config& c) { return launch_candidate(a, c); }, stream, record);
    if (!r.ok) {
        state.warn(what + ": tuning failed (" + r.message + "); the plan");
        return planned;
    }
    state.store(record);
    state.say(what + ": tuned in place in " + std::to_string(static_cast<long>(r.tuning_ms)) +
              " ms: " + choice_text(record.chosen) + ", " + std::to_string(record.speedup()) + "x the plan");
    return recipe_from_choice(*e.limits, e.kernel->resources, w, record.chosen);
}

}  // namespace detail

// Sets what planned launches do with tuning records for the rest of the process (WAVEFIT_TUNING
// sets it at start-up). Entries already computed are recomputed on their next launch.
inline void set_tuning_mode(tuning_mode m) noexcept { detail::tuning_state::get().set_mode(m); }

inline tuning_mode current_tuning_mode() noexcept { return detail::tuning_state::get().mode(); }

// The tuning file this process reads and adds to from now on (WAVEFIT_TUNING_FILE sets it at
// start-up); an empty path keeps new results in this process only.
inline void set_tuning_file(const std::string& path) { detail::tuning_state::get().set_file(path); }

// Whether new tuning choices are reported on stderr (WAVEFIT_TUNING_VERBOSE=1 at start-up).
inline void set_tuning_verbose(bool on) noexcept { detail::tuning_state::get().set_verbose(on); }

}  // namespace wavefit
