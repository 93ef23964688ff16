// SPDX-License-Identifier: MIT
// Specification of the NVIDIA occupancy model: wavefit::occupancy must return what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor returns. The reference below transcribes the rules of
// cuda_occupancy.h (cudaOccMaxBlocksPerSMWarpsLimit, cudaOccMaxBlocksPerSMRegsLimit,
// cudaOccMaxBlocksPerSMSmemLimit; docs/device-facts.md §4) for compute capability 8.0 / 9.0 with the default
// carveout and the function's max-dynamic-shared-memory attribute raised as far as the launch needs
// (docs/cli.md, `wavefit occupancy`). Device properties are written here, not read from wavefit.
#include <catch2/catch.hpp>

#include <wavefit/kernel_resources.hpp>
#include <wavefit/occupancy.hpp>
#include <wavefit/presets.hpp>

#include "occupancy_reference.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using namespace occupancy_spec;

struct cuda_device_prop {
    const char* preset;
    int computeMajor;
    int computeMinor;
    int maxThreadsPerBlock;
    int maxThreadsPerMultiprocessor;
    int regsPerBlock;
    int regsPerMultiprocessor;
    int warpSize;
    std::size_t sharedMemPerBlock;
    std::size_t sharedMemPerBlockOptin;
    std::size_t sharedMemPerMultiprocessor;
    std::size_t reservedSharedMemPerBlock;
};

const cuda_device_prop cuda_devices[] = {
    {"a100", 8, 0, 1024, 2048, 65536, 65536, 32, 49152, 166912, 167936, 1024},
    {"h100", 9, 0, 1024, 2048, 65536, 65536, 32, 49152, 232448, 233472, 1024},
    {"h200", 9, 0, 1024, 2048, 65536, 65536, 32, 49152, 232448, 233472, 1024},  // measured
};

const cuda_device_prop& cuda_device_for(const std::string& preset) { return reference_device(cuda_devices, preset); }

int occ_divide_round_up(int x, int y) { return (x + (y - 1)) / y; }
int occ_round_up(int x, int y) { return y * occ_divide_round_up(x, y); }

// Architectural constants for cc 8.x / 9.x (cudaOccSMemAllocationGranularity, ...RegAllocationGranularity,
// ...SubPartitionsPerMultiprocessor, ...MaxBlocksPerMultiprocessor).
constexpr int smem_allocation_granularity = 128;
constexpr int reg_allocation_granularity = 256;
constexpr int sub_partitions = 4;
constexpr int max_blocks_per_sm = 32;  // 8.0 and 9.0 (8.6/8.9 have 16)
// ptxas never assigns more than 255 registers per thread on sm_70+ (CUDA programming guide, technical
// specifications). cuda_occupancy.h's cudaOccRegAllocationMaxPerThread returns 256 for cc 7.x/8.x;
// the sweep below stays within 0..255 where both agree.
constexpr int max_regs_per_thread = 255;

int warps_limit(const cuda_device_prop& p, int blockSize) {
    if (blockSize > p.maxThreadsPerBlock) return 0;
    const int maxWarpsPerSm = p.maxThreadsPerMultiprocessor / p.warpSize;
    const int warpsAllocatedPerCTA = occ_divide_round_up(blockSize, p.warpSize);
    return maxWarpsPerSm / warpsAllocatedPerCTA;  // partitioned global caching is off on cc >= 7
}

int regs_limit(const cuda_device_prop& p, int numRegs, int blockSize) {
    const int warpsAllocatedPerCTA = occ_divide_round_up(blockSize, p.warpSize);
    const int regsPerWarp = numRegs * p.warpSize;
    const int regsAllocatedPerWarp = occ_round_up(regsPerWarp, reg_allocation_granularity);
    const int regsAllocatedPerCTA = regsAllocatedPerWarp * warpsAllocatedPerCTA;
    // The hardware check assumes allocations to all sub-partitions at once.
    const int regsAssumedPerCTA = regsAllocatedPerWarp * occ_round_up(warpsAllocatedPerCTA, sub_partitions);
    if (p.regsPerBlock < regsAssumedPerCTA || p.regsPerBlock < regsAllocatedPerCTA || numRegs > max_regs_per_thread)
        return 0;
    if (regsAllocatedPerWarp == 0) return INT_MAX;
    const int numRegsPerSubPartition = p.regsPerMultiprocessor / sub_partitions;
    const int numWarpsPerSubPartition = numRegsPerSubPartition / regsAllocatedPerWarp;
    const int numWarpsPerSM = numWarpsPerSubPartition * sub_partitions;
    return numWarpsPerSM / warpsAllocatedPerCTA;
}

// cudaOccAlignUpShmemSizeVoltaPlus: the carveout sizes an SM can be configured to.
std::size_t align_up_carveout(const cuda_device_prop& p, std::size_t size) {
    static constexpr std::size_t kib[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    const std::size_t count = p.computeMajor == 9 ? 10 : 8;  // 196 and 228 KiB exist on sm_90 only
    for (std::size_t i = 0; i < count; ++i)
        if (size <= kib[i] * 1024) return kib[i] * 1024;
    return 0;  // CUDA_OCC_ERROR_INVALID_INPUT
}

int smem_limit(const cuda_device_prop& p, std::size_t sharedSizeBytes, std::size_t dynamicSmemSize) {
    // Default carveout: the preference is the whole shared memory of the SM, aligned to a carveout.
    const std::size_t userSmemPreference = align_up_carveout(p, p.sharedMemPerMultiprocessor);
    const std::size_t staticSmemSize = sharedSizeBytes + p.reservedSharedMemPerBlock;
    const std::size_t totalSmemUsagePerCTA = staticSmemSize + dynamicSmemSize;
    const std::size_t smemAllocatedPerCTA =
        static_cast<std::size_t>(occ_round_up(static_cast<int>(totalSmemUsagePerCTA), smem_allocation_granularity));
    // maxDynamicSharedSizeBytes raised to what this launch asks for (FUNC_SHMEM_LIMIT_OPTIN).
    const std::size_t maxSmemUsagePerCTA = staticSmemSize + dynamicSmemSize;
    std::size_t smemLimitPerCTA = maxSmemUsagePerCTA > p.sharedMemPerBlock ? p.sharedMemPerBlockOptin : p.sharedMemPerBlock;
    smemLimitPerCTA += p.reservedSharedMemPerBlock;  // Ampere and later
    if (smemAllocatedPerCTA > smemLimitPerCTA) return 0;
    std::size_t sharedMemPerMultiprocessor = 0;
    if (userSmemPreference >= smemAllocatedPerCTA)
        sharedMemPerMultiprocessor = userSmemPreference;
    else
        sharedMemPerMultiprocessor = align_up_carveout(p, smemAllocatedPerCTA);
    return smemAllocatedPerCTA > 0 ? static_cast<int>(sharedMemPerMultiprocessor / smemAllocatedPerCTA) : INT_MAX;
}

// cudaOccMaxActiveBlocksPerMultiprocessor: the minimum of the four limits.
int cuda_max_active_blocks(const cuda_device_prop& p, int numRegs, std::size_t sharedSizeBytes, int blockSize,
                           std::size_t dynamicSmemSize) {
    const int ctaLimitRegs = regs_limit(p, numRegs, blockSize);
    const int ctaLimitWarps = warps_limit(p, blockSize);
    const int ctaLimitBlocks = max_blocks_per_sm;
    const int ctaLimitSMem = smem_limit(p, sharedSizeBytes, dynamicSmemSize);
    return std::min({ctaLimitRegs, ctaLimitWarps, ctaLimitBlocks, ctaLimitSMem});
}

// Warps per block follow from the warp size; an SM holds maxThreadsPerMultiprocessor / warpSize warps.
reference_waves warps_of(const cuda_device_prop& p) {
    return {static_cast<std::uint64_t>(p.warpSize), static_cast<std::uint64_t>(p.maxThreadsPerMultiprocessor / p.warpSize)};
}

void compare(const wavefit::device_limits& d, const cuda_device_prop& p, const kernel_resources& k, std::uint64_t dynamic,
             std::uint64_t block, sweep_tally& tally) {
    const int expected = cuda_max_active_blocks(p, static_cast<int>(k.registers), static_cast<std::size_t>(k.static_shared),
                                                static_cast<int>(block), static_cast<std::size_t>(dynamic));
    compare_with_reference(d, k, dynamic, block, expected, warps_of(p), tally);
}

//  (a) every register count 0..255 x every block size 1..1024, without shared memory;
//  (b) every static/dynamic pair of {0, 1, 1024, 8192, 40000, 48 KiB, 48 KiB + 1, opt-in - 1024,
//      opt-in - 1, opt-in, opt-in + 1} x every block size x registers {0, 32, 64, 65, 128, 168, 255}.
void sweep_preset(const std::string& key) {
    const wavefit::device_limits& d = presets::by_name(key);
    const cuda_device_prop p = cuda_device_for(key);
    INFO("preset " << key << " (" << wavefit::to_string(d) << ")");

    sweep_tally regs_sweep;
    kernel_resources k{};
    for (std::uint32_t regs = 0; regs <= 255; ++regs) {
        k.registers = regs;
        for (std::uint64_t block = 1; block <= 1024; ++block) compare(d, p, k, 0, block, regs_sweep);
    }
    require_agreement("registers x block sizes", regs_sweep);

    const std::uint64_t optin = p.sharedMemPerBlockOptin;
    const std::uint64_t sizes[] = {0, 1, 1024, 8192, 40000, 49152, 49153, optin - 1024, optin - 1, optin, optin + 1};
    sweep_tally shared_sweep;
    for (std::uint64_t static_shared : sizes)
        for (std::uint64_t dynamic_shared : sizes)
            for (std::uint32_t regs : {0u, 32u, 64u, 65u, 128u, 168u, 255u}) {
                k = kernel_resources{};
                k.registers = regs;
                k.static_shared = static_shared;
                for (std::uint64_t block = 1; block <= 1024; ++block) compare(d, p, k, dynamic_shared, block, shared_sweep);
            }
    require_agreement("static x dynamic shared memory x block sizes", shared_sweep);
}

wavefit::occupancy_report h200(std::uint32_t registers, std::uint64_t block, std::uint64_t static_shared = 0,
                               std::uint64_t dynamic_shared = 0) {
    kernel_resources k{};
    k.registers = registers;
    k.static_shared = static_shared;
    return occupancy(presets::detail::h200, k, block, dynamic_shared);
}

}  // namespace

TEST_CASE("NVIDIA occupancy equals cuda_occupancy.h for every register count, block and shared size on A100",
          "[occupancy][nvidia][exhaustive]") {
    sweep_preset("a100");
}
TEST_CASE("NVIDIA occupancy equals cuda_occupancy.h for every register count, block and shared size on H100",
          "[occupancy][nvidia][exhaustive]") {
    sweep_preset("h100");
}
TEST_CASE("NVIDIA occupancy equals cuda_occupancy.h for every register count, block and shared size on H200",
          "[occupancy][nvidia][exhaustive]") {
    sweep_preset("h200");
}

TEST_CASE("the occupancy measured on the H200 is reproduced", "[occupancy][nvidia]") {
    // docs/device-facts.md §4, read from cudaOccupancyMaxActiveBlocksPerMultiprocessor on the test H200.
    // what (and why), registers, SGPRs (none on NVIDIA), static shared, dynamic shared, block: blocks per SM, limiter
    const expected_residency rows[] = {
        {"128 x 32 = 4096 registers per warp: 4 warps per sub-partition, 16 per SM; 3-warp blocks -> 5", 128, 0, 0, 0, 96, 5,
         limiter::registers},
        {"168 x 32 = 5376 registers per warp (a multiple of 256): 3 warps per sub-partition, 12 per SM", 168, 0, 0, 0, 32,
         12, limiter::registers},
        {"168 registers, 5-warp blocks: 12 warps per SM hold 2", 168, 0, 0, 0, 160, 2, limiter::registers},
        {"8192 dynamic + 1024 reserved = 9216 bytes: 233472 / 9216 = 25", 0, 0, 0, 8192, 64, 25, limiter::shared_memory},
        {"40000 static + 1024 reserved = 41024 -> 41088 (128-byte units): 233472 / 41088 = 5", 0, 0, 40000, 0, 128, 5,
         limiter::shared_memory},
    };
    for (const expected_residency& x : rows) {
        require_residency(presets::detail::h200, x);
        const int reference = cuda_max_active_blocks(cuda_device_for("h200"), static_cast<int>(x.registers), x.static_shared,
                                                     static_cast<int>(x.block), x.dynamic_shared);
        CAPTURE(x.what, reference);
        REQUIRE(reference == static_cast<int>(x.blocks_per_cu));
    }
}

TEST_CASE("NVIDIA residency is bounded by 64 warps and 32 blocks per SM", "[occupancy][nvidia]") {
    const wavefit::occupancy_report small = h200(0, 32);
    CAPTURE(small.active_blocks_per_cu, small.limits.waves, small.limits.blocks);
    REQUIRE(small.active_blocks_per_cu == 32);
    REQUIRE(small.limited_by == limiter::blocks);
    REQUIRE(small.occupancy == Approx(0.5));

    const wavefit::occupancy_report odd = h200(0, 33);  // 2 warps: 64 / 2 = 32 blocks, tie with the slots
    CAPTURE(odd.active_blocks_per_cu, odd.active_waves_per_cu);
    REQUIRE(odd.active_blocks_per_cu == 32);
    REQUIRE(odd.active_waves_per_cu == 64);
    REQUIRE(odd.limited_by == limiter::waves);

    const wavefit::occupancy_report big = h200(0, 1024);
    CAPTURE(big.active_blocks_per_cu, big.active_waves_per_cu, big.max_waves_per_cu);
    REQUIRE(big.active_blocks_per_cu == 2);
    REQUIRE(big.active_waves_per_cu == 64);
    REQUIRE(big.max_waves_per_cu == 64);
    REQUIRE(big.occupancy == Approx(1.0));
}

TEST_CASE("a 1024-thread block fits with 64 registers per thread and not with 65 on NVIDIA", "[occupancy][nvidia]") {
    // 64 x 32 = 2048 per warp x 32 warps = 65536 = the per-block limit; 65 -> 2304 per warp -> 73728.
    REQUIRE(h200(64, 1024).active_blocks_per_cu == 1);
    const wavefit::occupancy_report r = h200(65, 1024);
    CAPTURE(r.active_blocks_per_cu, r.limits.registers);
    REQUIRE(r.active_blocks_per_cu == 0);
    REQUIRE(r.limited_by == limiter::registers);
    REQUIRE(wavefit::detail::max_registers_for_block(presets::detail::h200, 1024) == 64);
    REQUIRE(wavefit::detail::max_registers_for_block(presets::detail::h200, 32) == 255);
}

TEST_CASE("more than 255 registers per thread cannot run on NVIDIA", "[occupancy][nvidia]") {
    const wavefit::occupancy_report at_limit = h200(255, 32);
    CAPTURE(at_limit.active_blocks_per_cu);
    REQUIRE(at_limit.active_blocks_per_cu == 8);  // 8192 per warp: 2 per sub-partition
    const wavefit::occupancy_report above = h200(256, 32);
    CAPTURE(above.active_blocks_per_cu);
    REQUIRE(above.active_blocks_per_cu == 0);
    REQUIRE(above.limited_by == limiter::registers);
}

TEST_CASE("shared memory up to the opt-in maximum is modelled on NVIDIA, one byte more cannot run", "[occupancy][nvidia]") {
    // H200: 232448 + 1024 reserved = 233472 = the whole SM: exactly one block.
    const wavefit::occupancy_report at_optin = h200(0, 128, 0, 232448);
    CAPTURE(at_optin.active_blocks_per_cu, at_optin.limits.shared_memory);
    REQUIRE(at_optin.active_blocks_per_cu == 1);
    REQUIRE(at_optin.limited_by == limiter::shared_memory);
    const wavefit::occupancy_report above = h200(0, 128, 1, 232448);
    CAPTURE(above.active_blocks_per_cu);
    REQUIRE(above.active_blocks_per_cu == 0);
    REQUIRE(above.limited_by == limiter::shared_memory);
    // The default 48 KiB needs no opt-in and still gives 4 blocks (49152 + 1024 = 50176).
    REQUIRE(h200(0, 128, 0, 49152).active_blocks_per_cu == 4);
    // A100: 163 KiB opt-in, 164 KiB per SM.
    kernel_resources k{};
    REQUIRE(occupancy(presets::detail::a100, k, 128, 166912).active_blocks_per_cu == 1);
    REQUIRE(occupancy(presets::detail::a100, k, 128, 166913).active_blocks_per_cu == 0);
}

TEST_CASE("every block reserves 1 KiB of shared memory on NVIDIA even without using any", "[occupancy][nvidia]") {
    // 233472 / 1024 = 228 blocks by shared memory alone, so it never binds before the 32-block limit,
    // but it is reported.
    const wavefit::occupancy_report r = h200(0, 32);
    CAPTURE(r.limits.shared_memory);
    REQUIRE(r.limits.shared_memory == 228);
}

TEST_CASE("NVIDIA occupancy is a constant expression", "[occupancy][nvidia]") {
    static_assert(occupancy(presets::detail::h200, kernel_resources{}, 256).active_blocks_per_cu == 8,
                  "8 blocks of 8 warps");
    SUCCEED();
}
