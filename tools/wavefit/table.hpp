// SPDX-License-Identifier: MIT
// Aligned plain-text tables for human output: columns padded to their widest cell, numbers
// right-aligned so that digits line up, and no trailing spaces (diff- and grep-friendly).
#pragma once

#include <algorithm>  // std::max
#include <cstddef>    // std::size_t
#include <string>     // cells
#include <utility>    // std::move
#include <vector>     // rows

namespace wavefit::cli {

enum class align { left, right };

class text_table {
public:
    explicit text_table(std::vector<align> columns) : align_(std::move(columns)) {}

    void add_row(std::vector<std::string> cells) {
        cells.resize(align_.size());
        rows_.push_back(std::move(cells));
    }

    std::string render() const {
        std::vector<std::size_t> width(align_.size(), 0);
        for (const auto& row : rows_)
            for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));

        std::string out;
        for (const auto& row : rows_) {
            std::string line;
            for (std::size_t c = 0; c < row.size(); ++c) {
                if (c > 0) line += "  ";
                const std::string padding(width[c] - display_width(row[c]), ' ');
                line += align_[c] == align::right ? padding + row[c] : row[c] + padding;
            }
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out += line + '\n';
        }
        return out;
    }

private:
    // Code points, not bytes: device names and meanings may hold UTF-8 (e.g. "×").
    static std::size_t display_width(const std::string& text) {
        std::size_t n = 0;
        for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
        return n;
    }

    std::vector<align> align_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace wavefit::cli
