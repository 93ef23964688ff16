// SPDX-License-Identifier: MIT
/* a leading comment */
#pragma once
#include "common.cuh"
  #  include "../common/mma.cuh" // why
#include <cstdio>
#define AFTER 1
