__global__ void k(float* v) {
    v[0] = __shfl_sync(0xffffffff, v[0], 0);  // NOLINT(full_mask_32bit)
    // NOLINTNEXTLINE(wavefit-*)
    v[1] = 1; /* NOLINT */
    // NOLINTBEGIN(wavefit-ballot_truncated, readability-magic)
    const char* s = "// NOLINT";
    // NOLINTEND(wavefit-ballot_truncated)
}
