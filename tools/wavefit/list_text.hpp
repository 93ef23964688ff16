// SPDX-License-Identifier: MIT
// Lists in one-line messages: "gfx90a and gfx940", "heavy_256, light_axpy, ... (and 12 more)".
#pragma once

#include <cstddef>  // std::size_t
#include <string>   // the list
#include <vector>   // items

namespace wavefit::cli {

// "a, b, c (and 3 more)": the first `shown` items, for a message that must stay one line however
// many kernels a file holds.
inline std::string first_items(const std::vector<std::string>& items, std::size_t shown = 8) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) text += (i > 0 ? ", " : "") + items[i];
    if (items.size() > shown) text += " (and " + std::to_string(items.size() - shown) + " more)";
    return text;
}

// "a", "a and b", "a, b and c"; first_items beyond `shown` items.
inline std::string and_list(const std::vector<std::string>& items, std::size_t shown = 8) {
    if (items.size() > shown) return first_items(items, shown);
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) text += i + 1 == items.size() ? " and " : ", ";
        text += items[i];
    }
    return text;
}

}  // namespace wavefit::cli
