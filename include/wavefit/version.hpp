// SPDX-License-Identifier: MIT
// wavefit's version, kept in step with project(VERSION) in CMakeLists.txt by a test.
#pragma once

#define WAVEFIT_VERSION_MAJOR 0
#define WAVEFIT_VERSION_MINOR 2
#define WAVEFIT_VERSION_PATCH 0
#define WAVEFIT_VERSION_STRING "0.2.0"
