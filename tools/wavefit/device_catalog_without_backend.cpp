// SPDX-License-Identifier: MIT
// The device catalog of a build without a GPU backend (the default): it sees no devices, and says so,
// so that `info` and `--device` can point the user to --preset.
#include "device_catalog.hpp"

namespace wavefit::cli {
namespace {

class no_backend_catalog final : public device_catalog {
public:
    std::string_view backend_name() const override { return {}; }
    int count() const override { return 0; }
    device_limits limits(int) const override { return {}; }
};

}  // namespace

const device_catalog& visible_devices() {
    static const no_backend_catalog catalog;
    return catalog;
}

}  // namespace wavefit::cli
