// SPDX-License-Identifier: MIT
// The same program as examples/cmake_consumer (one copy of it), compiled as C++ by hipcc: a .cpp
// file is HIP to hipcc.
#include "../cmake_consumer/main.hip"
