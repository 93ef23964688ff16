// SPDX-License-Identifier: MIT
// What a launch reports: its status, the runtime's error code (0 when wavefit rejected the launch
// before calling the runtime), the diagnostic code when wavefit found the problem, the configuration,
// and on failure the kernel, the device and a message that names the limit, the value and the fix.
// try_launch returns these facts as a launch_result; launch throws them as a launch_error.
#pragma once

#include <cstdint>      // std::uint8_t
#include <optional>     // the diagnostic code, when there is one
#include <stdexcept>    // std::runtime_error
#include <string>       // message parts
#include <string_view>  // to_string(launch_status)

#include "../config.hpp"
#include "../detail/enum_names.hpp"
#include "../diagnostic.hpp"
#include "../launch_config.hpp"
#include "launch_status.hpp"

WAVEFIT_BEGIN_NAMESPACE

constexpr std::string_view to_string(launch_status s) noexcept {
    constexpr std::string_view names[] = {"not_attempted", "launched", "nothing_to_launch", "rejected", "runtime_failed"};
    return detail::enum_name(names, s);
}

struct launch_result {
    launch_status status = launch_status::not_attempted;
    int runtime_code = 0;                       // hipError_t / cudaError_t value; 0 unless runtime_failed
    std::optional<diagnostic_code> diagnostic;  // set when rejected
    launch_config config{dims{0}, dims{0}};     // what was (or would have been) launched
    // Set on failure only (nothing is allocated on success): the failing call's own names, so that
    // reporting the failure needs no further runtime query.
    std::string message;  // the limit, the value, the device and the fix
    std::string kernel;   // demangled kernel name, empty where the failure came before the kernel was known
    std::string device;   // "NVIDIA H200 (sm_90)", or "device 3" where the device could not be read

    constexpr bool ok() const noexcept { return detail::went_well(status); }
    explicit constexpr operator bool() const noexcept { return ok(); }
};

class launch_error : public std::runtime_error {
public:
    explicit launch_error(const launch_result& result)
        : std::runtime_error(result.message.empty() ? std::string("wavefit: launch ").append(to_string(result.status))
                                                    : result.message),
          status_(result.status),
          runtime_code_(result.runtime_code),
          diagnostic_(result.diagnostic),
          config_(result.config),
          kernel_(result.kernel),
          device_(result.device) {}

    launch_status status() const noexcept { return status_; }
    int runtime_code() const noexcept { return runtime_code_; }
    const std::optional<diagnostic_code>& diagnostic() const noexcept { return diagnostic_; }
    const launch_config& config() const noexcept { return config_; }
    const std::string& kernel() const noexcept { return kernel_; }
    const std::string& device() const noexcept { return device_; }

private:
    launch_status status_;
    int runtime_code_;
    std::optional<diagnostic_code> diagnostic_;
    launch_config config_;
    std::string kernel_;
    std::string device_;
};

WAVEFIT_END_NAMESPACE
