// SPDX-License-Identifier: MIT
// A host program without device code of its own, linked against libsamples.so: its kernels live in
// the shared library, so `wavefit inspect` on the program must say so and name the library.
int main() { return 0; }
