// SPDX-License-Identifier: MIT
// The opt-in tuning tier. Include it in one translation unit of a program (any one that is compiled
// as HIP or CUDA) and from then on WAVEFIT_TUNING=use|tune, WAVEFIT_TUNING_FILE and
// WAVEFIT_TUNING_VERBOSE work for every planned launch of the program, and wavefit::tune,
// set_tuning_mode and set_tuning_file are available there. Translation units that
// only launch never compile the tuner, its JSON reader or its file handling. Without a GPU backend it
// gives the tuning records and candidates alone (what `wavefit tuning` reads).
#pragma once

#include "detail/language_check.hpp"
#if WAVEFIT_HAS_CXX17

#include "platform.hpp"
#include "tuning_records.hpp"

#if WAVEFIT_HAS_RUNTIME
#include "runtime/cache_flush_reader.hpp"  // a GPU-compiled file registers the tuner's reading flush
#include "runtime/tuning_api.hpp"  // and, header-only, the tuner itself
#endif

#endif  // WAVEFIT_HAS_CXX17
