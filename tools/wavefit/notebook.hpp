// SPDX-License-Identifier: MIT
// The mistake notebook `wavefit explain` reads: every built-in entry of the one explanation table
// (include/wavefit/detail/explanation_table.hpp), in table order, plus the entries of a team's own
// files (team_file.hpp). A team entry either extends a built-in (or earlier team) entry of the same
// name, adding aliases, codes, patterns, causes, links and where it was seen, or stands alone after the
// built-ins. Built-in texts are never replaced: what a team adds comes after them, marked as the team's.
// Every name and every code belongs to one entry, so a lookup or a scan match is never ambiguous.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // codes
#include <optional>     // an error message or none
#include <string>       // team texts
#include <string_view>  // lookups
#include <vector>       // entries

#include <wavefit/detail/ascii.hpp>
#include <wavefit/explain.hpp>

namespace wavefit::cli {

struct cause_and_fix {
    std::string cause;
    std::string fix;
};

// One entry: a built-in one (builtin != nullptr), possibly extended by a team, or a team's own.
struct notebook_entry {
    std::string name;
    const detail::error_explanation* builtin = nullptr;
    // What team files added (for a team entry of its own: everything it has).
    std::vector<std::string> aliases;
    std::vector<std::int64_t> codes;
    std::vector<std::string> patterns;  // message texts, matched as plain case-insensitive substrings
    std::string meaning;                // a team entry's meaning, or a team's note on a built-in entry
    std::vector<cause_and_fix> causes;  // after the built-in causes
    std::vector<std::string> links;
    std::vector<std::string> seen;
    std::vector<std::string> origins;  // "FILE:LINE" of each team entry merged in

    bool from_team() const noexcept { return builtin == nullptr; }
    bool extended() const noexcept { return builtin != nullptr && !origins.empty(); }

    // The entry's number: the HIP code of a built-in runtime error, else a team entry's first code.
    std::optional<std::int64_t> code() const {
        if (builtin != nullptr) {
            if (builtin->code != detail::no_error_code) return builtin->code;
            return std::nullopt;
        }
        if (!codes.empty()) return codes.front();
        return std::nullopt;
    }

    std::size_t cause_count() const noexcept { return (builtin != nullptr ? builtin->cause_count : 0) + causes.size(); }
    std::string cause(std::size_t i) const {
        const std::size_t own = builtin != nullptr ? builtin->cause_count : 0;
        if (i < own) return std::string(builtin->cause(i));
        return i - own < causes.size() ? causes[i - own].cause : std::string();
    }
    std::string fix(std::size_t i) const {
        const std::size_t own = builtin != nullptr ? builtin->cause_count : 0;
        if (i < own) return std::string(builtin->fix(i));
        return i - own < causes.size() ? causes[i - own].fix : std::string();
    }
    // Built-in meaning, then the team's note; or the team entry's meaning.
    std::string full_meaning() const {
        if (builtin == nullptr) return meaning;
        std::string text(builtin->meaning);
        if (!meaning.empty()) text += " Team note: " + meaning;
        return text;
    }
};

// The anchor of an entry name in the exported page: lower case letters and digits, '-' between words.
inline std::string anchor_of(std::string_view name) {
    std::string slug;
    bool dash = false;
    for (const char ch : name) {
        const char c = detail::to_lower(ch);
        if (detail::is_digit(c) || (c >= 'a' && c <= 'z')) {
            if (dash && !slug.empty()) slug += '-';
            slug += c;
            dash = false;
        } else {
            dash = true;
        }
        if (slug.size() >= 80) break;
    }
    return slug.empty() ? std::string("entry") : slug;
}

// The issues an entry's texts cite ("owner/repo#123"), in order of first mention, each once.
inline std::vector<std::string> cited_issues(std::string_view text, std::vector<std::string> found = {}) {
    const auto repo_char = [](char c) { return detail::is_identifier_char(c) || c == '-' || c == '.' || c == '/'; };
    for (std::size_t hash = text.find('#'); hash != std::string_view::npos; hash = text.find('#', hash + 1)) {
        std::size_t end = hash + 1;
        while (end < text.size() && detail::is_digit(text[end])) ++end;
        if (end == hash + 1) continue;
        std::size_t begin = hash;
        while (begin > 0 && repo_char(text[begin - 1])) --begin;
        if (text.substr(begin, hash - begin).find('/') == std::string_view::npos) continue;
        while (begin < hash && !detail::is_alpha(text[begin]) && !detail::is_digit(text[begin])) ++begin;
        const std::string citation(text.substr(begin, end - begin));
        const std::size_t slash = citation.find('/');
        if (slash == std::string::npos || slash == 0 || citation.find('/', slash + 1) != std::string::npos) continue;
        bool known = false;
        for (const std::string& f : found) known = known || f == citation;
        if (!known) found.push_back(citation);
    }
    return found;
}

inline std::vector<std::string> cited_issues(const notebook_entry& e) {
    std::vector<std::string> found;
    if (e.builtin != nullptr) {
        found = cited_issues(e.builtin->meaning, found);
        found = cited_issues(e.builtin->on_amd, found);
        found = cited_issues(e.builtin->on_nvidia, found);
        found = cited_issues(e.builtin->source, found);
    }
    for (std::size_t i = 0; i < e.cause_count(); ++i) found = cited_issues(e.cause(i), found);
    return found;
}

class notebook {
public:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    notebook() {
        for (const detail::error_explanation& e : detail::all_error_explanations()) {
            notebook_entry entry;
            entry.name = std::string(e.name);
            entry.builtin = &e;
            entries_.push_back(std::move(entry));
        }
        builtin_count_ = entries_.size();
    }

    const std::vector<notebook_entry>& entries() const noexcept { return entries_; }
    std::size_t builtin_count() const noexcept { return builtin_count_; }
    std::size_t team_entry_count() const noexcept { return entries_.size() - builtin_count_; }
    std::size_t extended_count() const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0; i < builtin_count_; ++i) n += entries_[i].extended() ? 1 : 0;
        return n;
    }

    // The entry a name belongs to: an entry's name, a built-in alias or CUDA name, or a team alias.
    std::size_t index_by_name(std::string_view name) const {
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            const notebook_entry& e = entries_[i];
            if (detail::iequals(e.name, name)) return i;
            if (e.builtin != nullptr && !name.empty() &&
                (detail::iequals(e.builtin->alias, name) || detail::iequals(e.builtin->cuda_name, name)))
                return i;
            for (const std::string& a : e.aliases)
                if (detail::iequals(a, name)) return i;
        }
        return npos;
    }

    // The entry a numeric code belongs to (built-in HIP codes first, then team codes).
    std::size_t index_by_code(std::int64_t code) const {
        if (const detail::error_explanation* e = detail::explain_impl::explanation_by_code(code)) return builtin_index(e);
        for (std::size_t i = builtin_count_; i < entries_.size(); ++i)
            for (const std::int64_t c : entries_[i].codes)
                if (c == code) return i;
        return npos;
    }

    // `wavefit explain CODE`: the built-in lookup first (explain.hpp), then team names, codes and
    // patterns, in the order the files were loaded.
    std::size_t find(std::string_view query) const {
        if (const detail::error_explanation* e = detail::find_explanation(query)) return builtin_index(e);
        const std::string_view q = detail::trim(query.substr(0, detail::explain_impl::max_query_length));
        if (q.empty()) return npos;
        const long long number = detail::explain_impl::parse_code(q);
        if (number >= 0) return index_by_code(number);
        if (const std::size_t i = index_by_name(q); i != npos) return i;
        for (std::size_t i = builtin_count_; i < entries_.size(); ++i)
            for (const std::string& p : entries_[i].patterns)
                if (detail::ifind(q, p) != detail::text_npos) return i;
        for (std::size_t i = 0; i < builtin_count_; ++i)
            for (const std::string& p : entries_[i].patterns)
                if (detail::ifind(q, p) != detail::text_npos) return i;
        return npos;
    }

    // Adds one checked team entry (team_file.hpp): merged into the entry of the same name, or added
    // after the others. Returns the reason when it cannot be added; then nothing changes.
    std::optional<std::string> add(notebook_entry team) {
        const std::size_t target = index_by_name(team.name);
        if (target != npos && !detail::iequals(entries_[target].name, team.name) && entries_[target].builtin == nullptr)
            return "'" + team.name + "' is an alias of the team entry '" + entries_[target].name +
                   "'; extend it under its name";
        // Every alias and code must be new, or already belong to the entry being extended.
        for (const std::string& a : team.aliases) {
            const std::size_t owner = index_by_name(a);
            if (owner != npos && owner != target)
                return "alias '" + a + "' already names the entry '" + entries_[owner].name + "'";
        }
        for (const std::int64_t c : team.codes) {
            const std::size_t owner = index_by_code(c);
            if (owner != npos && owner != target)
                return "code " + std::to_string(c) + " already belongs to the entry '" + entries_[owner].name +
                       "'; extend that entry (entry: " + entries_[owner].name + ")";
        }
        if (target == npos) {
            if (team.meaning.empty() || team.causes.empty())
                return "'" + team.name +
                       "' is no built-in entry, so it stands alone and needs meaning: and at least one cause:/fix: pair";
            entries_.push_back(std::move(team));
            return std::nullopt;
        }
        notebook_entry& e = entries_[target];
        if (e.builtin != nullptr && !team.codes.empty())
            return "'" + e.name + "' is a built-in entry; code: belongs to team entries of their own";
        const auto append_new = [](std::vector<std::string>& to, std::vector<std::string>& from) {
            for (std::string& s : from) {
                bool known = false;
                for (const std::string& t : to) known = known || detail::iequals(s, t);
                if (!known) to.push_back(std::move(s));
            }
        };
        append_new(e.aliases, team.aliases);
        append_new(e.patterns, team.patterns);
        append_new(e.links, team.links);
        append_new(e.seen, team.seen);
        for (const std::int64_t c : team.codes) {
            bool known = false;
            for (const std::int64_t k : e.codes) known = known || k == c;
            if (!known) e.codes.push_back(c);
        }
        for (cause_and_fix& c : team.causes) e.causes.push_back(std::move(c));
        if (!team.meaning.empty()) e.meaning += (e.meaning.empty() ? "" : " ") + team.meaning;
        for (std::string& o : team.origins) e.origins.push_back(std::move(o));
        return std::nullopt;
    }

private:
    std::size_t builtin_index(const detail::error_explanation* e) const {
        return static_cast<std::size_t>(e - detail::all_error_explanations().data());
    }

    std::vector<notebook_entry> entries_;
    std::size_t builtin_count_ = 0;
};

}  // namespace wavefit::cli
