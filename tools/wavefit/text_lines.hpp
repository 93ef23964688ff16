// SPDX-License-Identifier: MIT
// The lines of a text already in memory (a lint baseline, a team file given whole), read the way
// text_input reads a file's: each without its \n, a final line without one still a line.
#pragma once

#include <cstddef>      // std::size_t
#include <string_view>  // the text and its lines

namespace wavefit::cli {

class text_lines {
public:
    explicit text_lines(std::string_view text) : text_(text) {}

    // The next line; false at the end of the text. Nothing follows a final \n.
    bool next(std::string_view& line) {
        if (at_ >= text_.size()) return false;
        std::size_t end = text_.find('\n', at_);
        if (end == std::string_view::npos) end = text_.size();
        line = text_.substr(at_, end - at_);
        at_ = end + 1;
        return true;
    }

private:
    std::string_view text_;
    std::size_t at_ = 0;
};

}  // namespace wavefit::cli
