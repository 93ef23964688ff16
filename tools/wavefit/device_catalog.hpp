// SPDX-License-Identifier: MIT
// The GPUs this wavefit can see. The one seam for a GPU backend: a HIP or CUDA build compiles its own
// device_catalog implementation in place of device_catalog_without_backend.cpp (tools/CMakeLists.txt)
// and every subcommand then reads real devices through it; nothing else changes.
#pragma once

#include <string_view>  // backend_name

#include <wavefit/device_limits.hpp>

namespace wavefit::cli {

class device_catalog {
public:
    virtual ~device_catalog() = default;

    // "HIP", "CUDA", or empty when this build has no GPU backend (then count() is 0).
    virtual std::string_view backend_name() const = 0;
    // Visible devices; 0 when there is no backend or no GPU.
    virtual int count() const = 0;
    // The limits of device `index`, 0 <= index < count().
    virtual device_limits limits(int index) const = 0;

    bool has_backend() const { return !backend_name().empty(); }
};

// The catalog of the backend this wavefit was built with.
const device_catalog& visible_devices();

}  // namespace wavefit::cli
