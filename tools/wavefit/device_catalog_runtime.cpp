// SPDX-License-Identifier: MIT
// The device catalog of a build with a GPU backend: the visible GPUs, their limits read through
// wavefit's runtime layer (hip/cudaDeviceGetAttribute, cached). Compiled as plain C++ with
// WAVEFIT_BACKEND_HIP or WAVEFIT_BACKEND_CUDA defined and linked against that runtime, so the CLI
// needs no GPU compiler.
#include "device_catalog.hpp"

#include <wavefit/runtime/launch.hpp>

namespace wavefit::cli {
namespace {

class runtime_catalog final : public device_catalog {
public:
    std::string_view backend_name() const override { return detail::backend::runtime_name; }
    // 0 when the runtime finds no GPU or no driver: `info` then says "no GPU found".
    int count() const override { return detail::visible_device_count(); }
    // Throws wavefit::launch_error (a one-line message naming the runtime error) if the device
    // cannot be queried; main reports it.
    device_limits limits(int index) const override { return device_limits_for(index); }
};

}  // namespace

const device_catalog& visible_devices() {
    static const runtime_catalog catalog;
    return catalog;
}

}  // namespace wavefit::cli
