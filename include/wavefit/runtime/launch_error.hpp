// SPDX-License-Identifier: MIT
// What a failed launch reports: the runtime's error code (0 when wavefit rejected the launch before
// calling the runtime), the diagnostic code when wavefit found the problem, the kernel, the device
// and a message that names the limit, the value and the fix. try_launch returns the same facts as
// a value for code that does not use exceptions.
#pragma once

#include <cstdint>    // std::uint8_t
#include <optional>   // the diagnostic code, when there is one
#include <stdexcept>  // std::runtime_error
#include <string>     // message parts
#include <utility>    // std::move

#include "../diagnostic.hpp"
#include "../launch_config.hpp"

namespace wavefit {

enum class launch_status : std::uint8_t {
    launched,           // the runtime accepted the launch
    nothing_to_launch,  // 0 elements: no launch is needed, none was made
    rejected,           // wavefit found an error before calling the runtime; no runtime state changed
    runtime_failed,     // the runtime (or a query wavefit needed) returned an error
};

struct launch_result {
    launch_status status = launch_status::launched;
    int runtime_code = 0;                        // hipError_t / cudaError_t value; 0 unless runtime_failed
    std::optional<diagnostic_code> diagnostic;  // set when rejected
    launch_config config{dims{0}, dims{0}};      // what was (or would have been) launched
    std::string message;                         // empty on success: built only on failure

    constexpr bool ok() const noexcept {
        return status == launch_status::launched || status == launch_status::nothing_to_launch;
    }
    explicit constexpr operator bool() const noexcept { return ok(); }
};

class launch_error : public std::runtime_error {
public:
    launch_error(const launch_result& result, std::string kernel, std::string device)
        : std::runtime_error(result.message),
          status_(result.status),
          runtime_code_(result.runtime_code),
          diagnostic_(result.diagnostic),
          config_(result.config),
          kernel_(std::move(kernel)),
          device_(std::move(device)) {}

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

}  // namespace wavefit
