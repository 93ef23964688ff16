// SPDX-License-Identifier: MIT
// A project that builds as C++14 (BabelStream does) and includes <wavefit/wavefit.hpp>: the failing
// compile adds -std=c++14 and must stop with one error that says C++17 is needed and how to enable it;
// the control is the same file as C++17. The file only includes: the one error must come from wavefit.
#include <wavefit/wavefit.hpp>

int main() { return 0; }
