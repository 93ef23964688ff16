// SPDX-License-Identifier: MIT
#ifndef WAVEFIT_FUZZ_GUARD_H
#define WAVEFIT_FUZZ_GUARD_H 1
#include "inner.h"
#endif
