// SPDX-License-Identifier: MIT
// libFuzzer target: profiler traces in the CSV formats `wavefit audit` reads (tools/wavefit/trace_reader.cpp),
// seeded with tests/data/traces' CSV fixtures. The invariants are in fuzz_trace_common.hpp.
#include "fuzz_trace_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz_trace::run("fuzz_trace_csv", data, size);
}
