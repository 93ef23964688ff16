// SPDX-License-Identifier: MIT
// `wavefit explain --scan`: every known problem in a log, each once, with the lines it is on. The
// scanner is fed one line at a time (already capped by the reader, text_input.hpp) and keeps only
// its findings, so memory is bounded whatever the log's size; each line costs time linear in its
// length: one pass of an Aho-Corasick automaton over all message texts and phrases (built-in and
// team patterns: plain substrings, never regular expressions) and one pass over its identifiers.
//
// What counts as a match (docs/cli.md, "wavefit explain"):
//  - a hipError*/cudaError* name, HSA status name, diagnostic code or team alias as a whole identifier
//    (hipSuccess and cudaSuccess are no problem and never count);
//  - an identifier shaped like an error name (hipErrorX..., cudaErrorX..., HSA_STATUS_ERROR_X...) that the
//    notebook does not know: a problem of its own, "unknown to the notebook", so that it is not dropped;
//  - a runtime message text; the short, generic ones ("invalid argument", under 24 characters) only
//    on a line that also mentions HIP, CUDA, HSA, ROCm or the GPU;
//  - HIP's "Launch params (x, y, z) are larger than launch bounds (N) for kernel K", with its numbers;
//  - HSA's "Memory access fault by GPU node-N ... Reason: R", with the node and the reason;
//  - "Unable to find code object", "HSA_STATUS_ERROR_INVALID_ISA", "Out of VGPRs", device asserts;
//  - a number only in an error context, and only when nothing else on the line matched:
//    after hipError_t / cudaError_t, after "HIP error" / "CUDA error", after "error code"; after a bare
//    "error", "err", "status" or "returned" when the line mentions the GPU or the number is 100 or more;
//    never on make's "*** ... Error N" lines. "took 209 ms" is no error.
#pragma once

#include <algorithm>      // std::min
#include <array>          // the byte classes
#include <cstddef>        // std::size_t
#include <cstdint>        // line numbers, numbers
#include <deque>          // stable name storage
#include <map>            // problem keys
#include <optional>       // parsed numbers
#include <string>         // texts
#include <string_view>    // lines
#include <unordered_map>  // identifier lookup
#include <utility>        // std::pair
#include <vector>         // automaton, findings

#include <wavefit/detail/ascii.hpp>

#include "analysis/explain.hpp"

#include "notebook.hpp"
#include "terminal_text.hpp"

namespace wavefit::cli {

struct scan_limits {
    static constexpr std::size_t max_line_bytes = 4096;        // kept of each line; the reader skips the rest
    static constexpr std::size_t max_problems = 256;           // distinct problems kept; more are only counted
    static constexpr std::size_t max_lines_per_problem = 100;  // line numbers kept per problem; all are counted
    static constexpr std::size_t max_excerpt_bytes = 240;
    // Team patterns and non-identifier names the automaton takes in all (its table grows with them);
    // further ones are not matched in logs.
    static constexpr std::size_t max_team_pattern_bytes = std::size_t{64} << 10;
};

// One problem found: an entry of the notebook, and what the lines said.
struct found_problem {
    std::size_t entry = 0;                                       // notebook::npos for an unknown name
    std::string unknown_name;                                    // the name as the log wrote it, when unknown
    std::vector<std::pair<std::string, std::uint64_t>> numbers;  // read from the first line that had them
    std::string excerpt;                                         // the first line, terminal-safe, shortened
    std::vector<std::uint64_t> lines;                            // 1-based, the first max_lines_per_problem
    std::uint64_t occurrences = 0;                               // lines with this problem, all of them
    std::optional<cause_and_fix> from_line;                      // a cause and fix built from the numbers
};

struct scan_report {
    std::vector<found_problem> problems;  // in order of first appearance
    std::uint64_t lines = 0;
    std::uint64_t long_lines = 0;         // lines longer than the cap (only their start was scanned)
    std::uint64_t problems_not_kept = 0;  // lines with a new problem after max_problems were kept
};

namespace scan_detail {

// An Aho-Corasick automaton over lower-case patterns, with a dense transition table over the bytes
// that occur in some pattern (every other byte is one class). Matching a line is one table step per
// byte plus the outputs, each output state visited at most once per line.
class automaton {
public:
    std::size_t add(std::string_view pattern) {
        std::size_t state = 0;
        for (const char ch : pattern) {
            const auto c = static_cast<unsigned char>(detail::to_lower(ch));
            auto it = trie_[state].find(c);
            if (it == trie_[state].end()) {
                trie_.emplace_back();
                it = trie_[state].emplace(c, static_cast<std::uint32_t>(trie_.size() - 1)).first;
            }
            state = it->second;
        }
        const std::size_t id = pattern_count_++;
        ends_.resize(trie_.size());
        ends_[state].push_back(static_cast<std::uint32_t>(id));
        return id;
    }

    void build() {
        const std::size_t n = trie_.size();
        ends_.resize(n);
        class_of_.fill(0);
        std::uint32_t classes = 1;
        for (const auto& node : trie_)
            for (const auto& [c, next] : node)
                if (class_of_[c] == 0) class_of_[c] = static_cast<std::uint8_t>(classes++);
        classes_ = classes;
        next_.assign(n * classes_, 0);
        fail_.assign(n, 0);
        output_link_.assign(n, none);
        std::vector<std::uint32_t> queue;
        queue.reserve(n);
        for (const auto& [c, child] : trie_[0]) {
            next_[class_of_[c]] = child;
            queue.push_back(child);
        }
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::uint32_t s = queue[head];
            const std::uint32_t f = fail_[s];
            output_link_[s] = !ends_[f].empty() ? f : output_link_[f];
            std::copy(next_.begin() + f * classes_, next_.begin() + (f + 1) * classes_, next_.begin() + s * classes_);
            for (const auto& [c, child] : trie_[s]) {
                fail_[child] = next_[f * classes_ + class_of_[c]];
                next_[s * classes_ + class_of_[c]] = child;
                queue.push_back(child);
            }
        }
        // The first state with outputs on each state's output chain (itself when it has some), so the
        // hot loop reads one number per byte.
        first_output_.assign(n, none);
        for (std::size_t k = 0; k < n; ++k)
            first_output_[k] = !ends_[k].empty() ? static_cast<std::uint32_t>(k) : output_link_[k];
        seen_.assign(n, 0);
        trie_.clear();
        trie_.shrink_to_fit();
    }

    // Calls found(pattern_id, end_offset) for each pattern in `lower` (already lower case), each
    // pattern at most once per call (the first end), so a line costs O(length + states).
    template <typename F>
    void match(std::string_view lower, F&& found) {
        if (stamp_ == static_cast<std::uint32_t>(-1)) {  // after 2^32-1 lines the stamps start over
            std::fill(seen_.begin(), seen_.end(), 0);
            stamp_ = 0;
        }
        ++stamp_;
        // Locals, so that the compiler keeps them in registers across the callback (no aliasing).
        const std::uint32_t* const next = next_.data();
        const std::uint8_t* const class_of = class_of_.data();
        const std::uint32_t* const first_output = first_output_.data();
        const std::size_t classes = classes_;
        const char* const bytes = lower.data();
        const std::size_t size = lower.size();
        std::size_t s = 0;
        for (std::size_t i = 0; i < size; ++i) {
            s = next[s * classes + class_of[static_cast<unsigned char>(bytes[i])]];
            if (first_output[s] == none) continue;
            for (std::uint32_t o = first_output[s]; o != none && seen_[o] != stamp_; o = output_link_[o]) {
                seen_[o] = stamp_;
                for (const std::uint32_t id : ends_[o]) found(id, i + 1);
            }
        }
    }

    std::size_t states() const noexcept { return fail_.size(); }

private:
    static constexpr std::uint32_t none = static_cast<std::uint32_t>(-1);
    std::vector<std::map<unsigned char, std::uint32_t>> trie_{1};
    std::vector<std::vector<std::uint32_t>> ends_;
    std::array<std::uint8_t, 256> class_of_{};
    std::uint32_t classes_ = 1;
    std::vector<std::uint32_t> next_, fail_, output_link_, first_output_, seen_;
    std::uint32_t stamp_ = 0;
    std::size_t pattern_count_ = 0;
};

enum class pattern_kind : unsigned char {
    message,        // a runtime message text (or a team pattern)
    short_message,  // a generic message: counts only on a line that mentions the GPU
    phrase,         // a fragment of a runtime log line
    launch_bounds,  // "larger than launch bounds": numbers follow
    memory_fault,   // "memory access fault by gpu": node and reason follow
    gpu_word,       // hip, cuda, hsa, rocm, gpu: the line is about the GPU
    make_error,     // "***": make's "*** [target] Error 2"
};

struct pattern_info {
    pattern_kind kind;
    std::size_t entry;
};

inline bool is_number_separator(char c) {
    return c == ' ' || c == '\t' || c == ':' || c == '=' || c == '#' || c == '(' || c == '[' || c == '\'' || c == '"';
}

// Unsigned decimal digits at `at` (at most 18 of them); advances `at`.
inline std::optional<std::uint64_t> read_decimal(std::string_view s, std::size_t& at) {
    std::uint64_t v = 0;
    std::size_t digits = 0;
    while (at < s.size() && detail::is_digit(s[at])) {
        if (digits < 18) v = v * 10 + static_cast<std::uint64_t>(s[at] - '0');
        ++digits;
        ++at;
    }
    if (digits == 0 || digits > 18) return std::nullopt;
    return v;
}

inline void skip_spaces(std::string_view s, std::size_t& at) {
    while (at < s.size() && (s[at] == ' ' || s[at] == '\t')) ++at;
}

// Whether `word` (as written) has the shape of a runtime error name: hipError, cudaError or
// HSA_STATUS_ERROR_ followed by an upper-case letter (so hipError_t and cudaError_t, the types, are not).
inline bool looks_like_error_name(std::string_view word) {
    for (const std::string_view prefix :
         {std::string_view("hipError"), std::string_view("cudaError"), std::string_view("HSA_STATUS_ERROR_")})
        if (word.size() > prefix.size() && word.substr(0, prefix.size()) == prefix && word[prefix.size()] >= 'A' &&
            word[prefix.size()] <= 'Z')
            return true;
    return false;
}

// The address of a memory fault line ("on address 0x1000", "on address (nil)"); nullopt when the line
// has none or it does not fit 64 bits.
inline std::optional<std::uint64_t> fault_address(std::string_view lower) {
    const std::size_t a = lower.find("on address ");
    if (a == std::string_view::npos) return std::nullopt;
    std::size_t at = a + std::string_view("on address ").size();
    if (lower.compare(at, 5, "(nil)") == 0) return 0;
    if (lower.compare(at, 2, "0x") != 0) return std::nullopt;
    at += 2;
    std::uint64_t v = 0;
    std::size_t digits = 0;
    for (; at < lower.size() && detail::hex_digit_value(lower[at]) >= 0; ++at, ++digits) {
        if (digits == 16) return std::nullopt;
        v = v * 16 + static_cast<std::uint64_t>(detail::hex_digit_value(lower[at]));
    }
    if (digits == 0) return std::nullopt;
    return v;
}

// Faults below this address are a null pointer plus an offset: nothing maps the first pages.
inline constexpr std::uint64_t null_page_limit = 0x10000;

}  // namespace scan_detail

class log_scanner {
public:
    explicit log_scanner(const notebook& book) : book_(book) {
        using scan_detail::pattern_kind;
        const auto& entries = book.entries();
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const notebook_entry& e = entries[i];
            if (e.builtin != nullptr) {
                const analysis::error_explanation& b = *e.builtin;
                if (b.kind == analysis::explanation_kind::runtime_error && b.code == 0) continue;  // hipSuccess: no problem
                add_name(b.name, i);
                add_name(b.alias, i);
                add_name(b.cuda_name, i);
                if (b.kind == analysis::explanation_kind::runtime_error) {
                    for (const std::string_view m : {b.message, b.cuda_message})
                        if (!m.empty())
                            add_pattern(m, m.size() < 24 ? pattern_kind::short_message : pattern_kind::message, i);
                    codes_.emplace(b.code, i);
                }
            } else {
                add_name(e.name, i, true);
                for (const std::int64_t c : e.codes) codes_.emplace(c, i);
            }
            for (const std::string& a : e.aliases) add_name(a, i, true);
            for (const std::string& p : e.patterns) add_team_pattern(p, i);
        }
        // The phrases of explain.hpp's lookup, with the two that carry numbers parsed here.
        for (const auto& p : analysis::detail::explain_impl::strong_phrases) add_phrase(p.text, p.entry);
        for (const auto& p : analysis::detail::explain_impl::weak_phrases) add_phrase(p.text, p.entry);
        for (const std::string_view w : {"hip", "cuda", "hsa", "rocm", "gpu"})
            add_pattern(w, pattern_kind::gpu_word, notebook::npos);
        add_pattern("***", pattern_kind::make_error, notebook::npos);
        automaton_.build();
        lower_.reserve(scan_limits::max_line_bytes);
    }

    // One line (its end of line removed); `truncated` when the reader cut it at the cap.
    void line(std::string_view text, bool truncated = false) {
        ++report_.lines;
        if (truncated) ++report_.long_lines;
        if (text.size() > scan_limits::max_line_bytes) text = text.substr(0, scan_limits::max_line_bytes);
        lower_.assign(text.begin(), text.end());
        for (char& c : lower_) c = detail::to_lower(c);
        matched_.clear();
        bool gpu_line = false;
        bool make_line = false;
        std::vector<std::pair<std::size_t, std::size_t>>& shorts = shorts_;  // (entry, end) of short messages
        shorts.clear();
        automaton_.match(lower_, [&](std::size_t id, std::size_t end) {
            const scan_detail::pattern_info& p = patterns_[id];
            switch (p.kind) {
                case scan_detail::pattern_kind::gpu_word: gpu_line = true; break;
                case scan_detail::pattern_kind::make_error: make_line = true; break;
                case scan_detail::pattern_kind::short_message: shorts.emplace_back(p.entry, end); break;
                case scan_detail::pattern_kind::launch_bounds: launch_bounds(text, p.entry, end); break;
                case scan_detail::pattern_kind::memory_fault: memory_fault(text, p.entry, end); break;
                case scan_detail::pattern_kind::message:
                case scan_detail::pattern_kind::phrase: note(p.entry, text, end - pattern_length_[id]); break;
            }
        });
        if (gpu_line)
            for (const auto& [entry, end] : shorts) note(entry, text, end);
        identifiers(text, gpu_line, make_line);
    }

    // Lines from the reader, then this.
    const scan_report& report() const noexcept { return report_; }

    // Forgets the findings and starts a new log with the same notebook (the matcher is kept).
    void reset() {
        report_ = scan_report{};
        index_.clear();
    }

private:
    void add_team_pattern(std::string_view text, std::size_t entry) {
        if (team_pattern_bytes_ + text.size() > scan_limits::max_team_pattern_bytes) return;
        team_pattern_bytes_ += text.size();
        add_pattern(text, scan_detail::pattern_kind::message, entry);
    }

    void add_name(std::string_view name, std::size_t entry, bool from_team = false) {
        if (name.empty()) return;
        bool identifier = name.size() <= 128;
        for (const char c : name) identifier = identifier && detail::is_identifier_char(c);
        if (!identifier) {
            if (name.size() < 4) return;
            if (from_team) {
                add_team_pattern(name, entry);
            } else {
                add_pattern(name, scan_detail::pattern_kind::message, entry);
            }
            return;
        }
        std::string key(name);
        for (char& c : key) c = detail::to_lower(c);
        if (names_.count(key) != 0) return;
        shortest_name_ = std::min(shortest_name_, key.size());
        longest_name_ = std::max(longest_name_, key.size());
        name_storage_.push_back(std::move(key));
        names_.emplace(name_storage_.back(), entry);
    }

    void add_pattern(std::string_view text, scan_detail::pattern_kind kind, std::size_t entry) {
        if (text.empty()) return;
        const std::size_t id = automaton_.add(text);
        if (id >= patterns_.size()) {
            patterns_.resize(id + 1, {kind, entry});
            pattern_length_.resize(id + 1, 0);
        }
        patterns_[id] = {kind, entry};
        pattern_length_[id] = text.size();
    }

    void add_phrase(std::string_view text, std::string_view entry_name) {
        const std::size_t entry = book_.index_by_name(entry_name);
        if (entry == notebook::npos) return;
        scan_detail::pattern_kind kind = scan_detail::pattern_kind::phrase;
        if (text == "larger than launch bounds") kind = scan_detail::pattern_kind::launch_bounds;
        if (text == "Memory access fault by GPU") kind = scan_detail::pattern_kind::memory_fault;
        add_pattern(text, kind, entry);
    }

    // The line, from a little before `at`, as a terminal-safe excerpt of at most max_excerpt_bytes.
    static std::string excerpt(std::string_view text, std::size_t at) {
        text = detail::trim(text);
        std::size_t begin = 0;
        constexpr std::size_t room = scan_limits::max_excerpt_bytes;
        if (text.size() > room && at > room / 3) begin = std::min(at - room / 3, text.size() - room);
        // The cap is on what is printed: a byte shown as \xNN takes four of the room.
        std::string out = begin > 0 ? "..." : "";
        std::size_t end = begin;
        for (; end < text.size(); ++end) {
            const std::string shown = terminal_safe(text.substr(end, 1));
            if (out.size() + shown.size() > room) break;
            out += shown;
        }
        if (end < text.size()) out += "...";
        return out;
    }

    using numbers = std::vector<std::pair<std::string, std::uint64_t>>;

    // Records that this line shows `entry`. `key_numbers` split one entry into several problems
    // (two launch-bounds lines with other numbers are two problems); other numbers only describe.
    void note(std::size_t entry, std::string_view text, std::size_t at, const numbers& key_numbers = {},
              const numbers& extra_numbers = {}, std::optional<cause_and_fix> from_line = std::nullopt) {
        std::string key = std::to_string(entry);
        for (const auto& [name, value] : key_numbers) key += " " + name + "=" + std::to_string(value);
        for (const std::size_t m : matched_)
            if (m == entry && key_numbers.empty()) return;  // once per line
        matched_.push_back(entry);
        found_problem* p = problem_for(std::move(key), [&] {
            found_problem first;
            first.entry = entry;
            first.excerpt = excerpt(text, at);
            first.numbers = key_numbers;
            for (const auto& n : extra_numbers) first.numbers.push_back(n);
            first.from_line = std::move(from_line);
            return first;
        });
        if (p == nullptr || !count_this_line(*p)) return;
        if (p->numbers.empty() && !extra_numbers.empty()) p->numbers = extra_numbers;
    }

    // The problem kept under `key`, made by `make` the first time the key is seen; nullptr (and one more
    // problem not kept) once max_problems are kept.
    template <class Make> found_problem* problem_for(std::string key, Make&& make) {
        auto it = index_.find(key);
        if (it == index_.end()) {
            if (report_.problems.size() >= scan_limits::max_problems) {
                ++report_.problems_not_kept;
                return nullptr;
            }
            report_.problems.push_back(make());
            it = index_.emplace(std::move(key), report_.problems.size() - 1).first;
        }
        return &report_.problems[it->second];
    }

    // Counts the current line for `p`; false when this line has already been counted for it.
    bool count_this_line(found_problem& p) {
        if (!p.lines.empty() && p.lines.back() == report_.lines) return false;
        ++p.occurrences;
        if (p.lines.size() < scan_limits::max_lines_per_problem) p.lines.push_back(report_.lines);
        return true;
    }

    // "Launch params (1024, 1, 1) are larger than launch bounds (256) for kernel K".
    void launch_bounds(std::string_view text, std::size_t entry, std::size_t end) {
        const std::size_t phrase_begin = end - std::string_view("larger than launch bounds").size();
        const std::size_t params = lower_.rfind("launch params", phrase_begin);
        std::uint64_t block[3] = {1, 1, 1};
        std::optional<std::uint64_t> bound;
        bool dims_ok = false;
        if (params != std::string::npos) {
            std::size_t at = params + std::string_view("launch params").size();
            scan_detail::skip_spaces(lower_, at);
            if (at < lower_.size() && lower_[at] == '(') {
                ++at;
                std::size_t count = 0;
                dims_ok = true;
                while (count < 3) {
                    scan_detail::skip_spaces(lower_, at);
                    const auto v = scan_detail::read_decimal(lower_, at);
                    if (!v) {
                        dims_ok = false;
                        break;
                    }
                    block[count++] = *v;
                    scan_detail::skip_spaces(lower_, at);
                    if (at < lower_.size() && lower_[at] == ',') {
                        ++at;
                        continue;
                    }
                    break;
                }
                dims_ok = dims_ok && at < lower_.size() && lower_[at] == ')';
            }
        }
        std::size_t at = end;
        scan_detail::skip_spaces(lower_, at);
        if (at < lower_.size() && lower_[at] == '(') {
            ++at;
            scan_detail::skip_spaces(lower_, at);
            bound = scan_detail::read_decimal(lower_, at);
            scan_detail::skip_spaces(lower_, at);
            if (at >= lower_.size() || lower_[at] != ')') bound.reset();
        }
        if (!dims_ok || !bound) {
            note(entry, text, phrase_begin);
            return;
        }
        // Each dimension is at most 18 digits, so the product is clamped rather than wrapped.
        constexpr std::uint64_t cap = std::uint64_t{1} << 62;
        std::uint64_t threads = 1;
        for (const std::uint64_t d : block) threads = d != 0 && threads > cap / d ? cap : threads * d;
        std::string kernel;
        if (const std::size_t k = lower_.find("for kernel", at); k != std::string::npos) {
            // The kernel's (mangled) name is one word; llama.cpp's builds append advice after it.
            std::string_view rest = detail::trim(text.substr(k + std::string_view("for kernel").size()));
            rest = rest.substr(0, std::min(rest.find(' '), rest.size()));
            kernel = std::string(rest);
            if (kernel.size() > 120) {
                kernel.resize(120);
                kernel += "...";
            }
            kernel = terminal_safe(kernel);
        }
        const std::string n = std::to_string(threads);
        const std::string b = std::to_string(*bound);
        cause_and_fix from_line;
        from_line.cause = "This log: a block of " + n + " threads (" + std::to_string(block[0]) + ", " +
                          std::to_string(block[1]) + ", " + std::to_string(block[2]) + ") launched " +
                          (kernel.empty() ? std::string("a kernel") : "kernel " + kernel) + " whose launch bound is " + b +
                          ".";
        if (threads <= 1024) {
            from_line.fix = "the block of " + n + " exceeds this kernel's bound of " + b +
                            "; rebuild with `__launch_bounds__(" + n + ")` or launch at most " + b + " threads per block";
        } else {
            from_line.fix = "the block of " + n + " exceeds this kernel's bound of " + b +
                            " and every GPU's 1024 threads per block; launch at most " + b + " threads per block";
        }
        note(entry, text, phrase_begin,
             {{"block_x", block[0]}, {"block_y", block[1]}, {"block_z", block[2]}, {"bound", *bound}}, {{"block", threads}},
             std::move(from_line));
    }

    // "Memory access fault by GPU node-2 (Agent handle: 0x...) on address 0x1000. Reason: Page not present ...".
    void memory_fault(std::string_view text, std::size_t entry, std::size_t end) {
        const std::size_t begin = end - std::string_view("Memory access fault by GPU").size();
        numbers extra;
        std::string node_text;
        std::size_t at = end;
        scan_detail::skip_spaces(lower_, at);
        if (lower_.compare(at, 5, "node-") == 0) {
            at += 5;
            if (const auto node = scan_detail::read_decimal(lower_, at)) {
                extra.emplace_back("node", *node);
                node_text = " node-" + std::to_string(*node);
            }
        }
        const std::optional<std::uint64_t> address = scan_detail::fault_address(lower_);
        const bool null_pointer = address && *address < scan_detail::null_page_limit;
        if (address) extra.emplace_back("address", *address);
        std::string reason;
        if (const std::size_t r = lower_.find("reason:", end); r != std::string::npos) {
            reason = std::string(detail::trim(text.substr(r + 7)));
            if (!reason.empty() && reason.back() == '.') reason.pop_back();
            if (reason.size() > 120) {
                reason.resize(120);
                reason += "...";
            }
            reason = terminal_safe(reason);
        }
        std::optional<cause_and_fix> from_line;
        if (null_pointer) {
            // (nil), 0x0 or 0x1000: the kernel followed a null pointer, whatever the reason says.
            cause_and_fix cf;
            cf.cause = "This log: the GPU" + node_text + " faulted on address " + address_text(text, *address) +
                       (reason.empty() ? std::string() : " (Reason: " + reason + ")") +
                       ", in the first pages of the address space, which nothing maps: a null pointer.";
            cf.fix = *address == 0
                         ? "a kernel dereferenced a null pointer: a buffer never allocated or a pointer never set; "
                           "check each device pointer before the launch (AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=1 "
                           "shows which kernel faulted)"
                         : "a kernel dereferenced a null pointer plus an offset of " + std::to_string(*address) +
                               " bytes (an element or field of a buffer never allocated, a pointer never set); check "
                               "the buffer, not the index (AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=1 shows which kernel "
                               "faulted)";
            from_line = std::move(cf);
        } else if (!reason.empty()) {
            cause_and_fix cf;
            cf.cause = "This log: the GPU" + node_text + " faulted with Reason: " + reason + ".";
            const std::string lower_reason = [&] {
                std::string s = reason;
                for (char& c : s) c = detail::to_lower(c);
                return s;
            }();
            if (lower_reason.find("page not present") != std::string::npos) {
                cf.fix =
                    "the address is not mapped for the GPU: an index past the end of a buffer (a missing i < n "
                    "guard), freed memory, or a host pointer used without hipHostMalloc / XNACK; rerun with "
                    "AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=1 to see which kernel faulted";
            } else if (lower_reason.find("read-only") != std::string::npos) {
                cf.fix =
                    "the kernel wrote to memory mapped read-only (a const or constant buffer, a read-only "
                    "registration); write to a buffer allocated for writing";
            } else {
                cf.fix =
                    "rerun with AMD_SERIALIZE_KERNEL=3 AMD_LOG_LEVEL=1 to see which kernel faulted, then check "
                    "its indices and pointers (the causes below)";
            }
            from_line = std::move(cf);
        }
        note(entry, text, begin, {}, extra, std::move(from_line));
    }

    // The address as the line wrote it: "(nil)" or "0x...".
    static std::string address_text(std::string_view text, std::uint64_t address) {
        const std::size_t at = text.find("(nil)");
        if (address == 0 && at != std::string_view::npos) return "(nil)";
        static constexpr char digits[] = "0123456789abcdef";
        std::string hex;
        for (std::uint64_t v = address; v != 0 || hex.empty(); v >>= 4) hex.insert(hex.begin(), digits[v & 15]);
        return "0x" + hex;
    }

    // An identifier shaped like an error name that no entry knows: its own problem, keyed by the name.
    void note_unknown(std::string_view name, std::string_view text, std::size_t at) {
        matched_.push_back(notebook::npos);
        found_problem* p = problem_for("? " + std::string(name), [&] {
            found_problem first;
            first.entry = notebook::npos;
            first.unknown_name = terminal_safe(name.substr(0, std::min<std::size_t>(name.size(), 128)));
            first.excerpt = excerpt(text, at);
            return first;
        });
        if (p != nullptr) count_this_line(*p);
    }

    // Names as whole identifiers, and numbers in an error context.
    void identifiers(std::string_view text, bool gpu_line, bool make_line) {
        const bool other_match = !matched_.empty();
        std::vector<std::pair<std::size_t, std::size_t>>& pending = numbers_;  // (entry, position)
        pending.clear();
        std::string_view prev, prev2;  // the two identifiers before this one (lower case)
        std::size_t prev_end = 0, prev2_end = 0, prev_begin = 0;
        std::size_t i = 0;
        const std::string_view lower(lower_);
        while (i < lower.size()) {
            if (!detail::is_identifier_char(lower[i])) {
                ++i;
                continue;
            }
            const std::size_t begin = i;
            while (i < lower.size() && detail::is_identifier_char(lower[i])) ++i;
            const std::string_view word = lower.substr(begin, i - begin);
            if (detail::is_digit(word.front())) {
                if (!other_match && !make_line && !prev.empty() && separated_by_number_separators(lower, prev_end, begin)) {
                    const bool after_error_pair = !prev2.empty() && close_words(lower, prev2_end, prev_begin) &&
                                                  ((prev == "error" && (prev2 == "hip" || prev2 == "cuda")) ||
                                                   (prev == "code" && (prev2 == "error" || prev2 == "err")));
                    const bool strong = prev == "hiperror_t" || prev == "cudaerror_t" || prev == "error_code" ||
                                        prev == "errorcode" || after_error_pair;
                    const bool weak = prev == "error" || prev == "err" || prev == "status" || prev == "returned";
                    const long long code = strong || weak ? analysis::detail::explain_impl::parse_code(word) : -1;
                    if (code > 0 && (strong || (weak && (gpu_line || code >= 100)))) {
                        const auto it = codes_.find(code);
                        if (it != codes_.end()) pending.emplace_back(it->second, begin);
                    }
                }
            } else {
                const auto it =
                    word.size() >= shortest_name_ && word.size() <= longest_name_ ? names_.find(word) : names_.end();
                if (it != names_.end()) {
                    note(it->second, text, begin);
                } else if (scan_detail::looks_like_error_name(text.substr(begin, i - begin))) {
                    note_unknown(text.substr(begin, i - begin), text, begin);
                }
            }
            prev2 = prev;
            prev2_end = prev_end;
            prev = word;
            prev_begin = begin;
            prev_end = i;
        }
        if (matched_.empty())
            for (const auto& [entry, at] : pending) note(entry, text, at);
    }

    // "error code: 209", "hipError_t(9)": at most four of " \t:=#([\"'" between the word and the number.
    static bool separated_by_number_separators(std::string_view s, std::size_t from, std::size_t to) {
        if (to - from > 4) return false;
        for (std::size_t k = from; k < to; ++k)
            if (!scan_detail::is_number_separator(s[k])) return false;
        return true;
    }
    // "HIP error", "error-code": one or two spaces or a dash between the two words.
    static bool close_words(std::string_view s, std::size_t from, std::size_t to) {
        if (to <= from || to - from > 2) return false;
        for (std::size_t k = from; k < to; ++k)
            if (s[k] != ' ' && s[k] != '-' && s[k] != '\t') return false;
        return true;
    }

    const notebook& book_;
    scan_detail::automaton automaton_;
    std::vector<scan_detail::pattern_info> patterns_;
    std::vector<std::size_t> pattern_length_;
    std::deque<std::string> name_storage_;  // the keys of names_ (a deque never moves its strings)
    std::unordered_map<std::string_view, std::size_t> names_;
    std::size_t shortest_name_ = static_cast<std::size_t>(-1);  // identifiers outside these lengths name nothing
    std::size_t longest_name_ = 0;
    std::size_t team_pattern_bytes_ = 0;
    std::unordered_map<std::int64_t, std::size_t> codes_;
    std::map<std::string, std::size_t> index_;
    scan_report report_;
    std::string lower_;
    std::vector<std::size_t> matched_;
    std::vector<std::pair<std::size_t, std::size_t>> shorts_, numbers_;
};

}  // namespace wavefit::cli
