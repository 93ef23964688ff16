// SPDX-License-Identifier: MIT
// libFuzzer target: profiler traces in the JSON formats `wavefit audit` reads (tools/wavefit/trace_reader.cpp),
// seeded with tests/data/traces' JSON fixtures. The invariants are in fuzz_trace_common.hpp.
#include "fuzz_trace_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz_trace::run("fuzz_trace_json", data, size);
}
