// SPDX-License-Identifier: MIT
// The one Catch2 main for the CPU specifications; every other file holds test cases only.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
