// SPDX-License-Identifier: MIT
// The failure classes of docs/device-facts.md §6, each reproduced with the numbers of its public source and
// caught before the launch with the right diagnostic code (class 9: planned differently). Class 10
// (error-code confusion) belongs to the explain specifications.
#include <catch2/catch.hpp>

#include "support.hpp"

#include <wavefit/diagnostic.hpp>
#include <wavefit/kernel_resources.hpp>
#include <wavefit/launch_config.hpp>
#include <wavefit/plan.hpp>
#include <wavefit/presets.hpp>
#include <wavefit/validate.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using wavefit::diagnostic;
using wavefit::diagnostic_code;
using wavefit::dims;
using wavefit::kernel_resources;
namespace presets = wavefit::presets;

using spec::cfg;
using spec::check_launch;
using spec::contains;
using spec::require_rejected;
using spec::with_bound;
using spec::with_registers;
using spec::with_static_shared;
using verdict = spec::checked_launch;

void require_valid(const verdict& v) {
    INFO("diagnostics:\n" << v.text);
    REQUIRE(v.valid);
}

}  // namespace

// ---- class 1: 2^32 work-items or more in one dimension on AMD ------------------------------------

TEST_CASE("class 1, cupy#4461 / ROCm/hip#2253: 16,777,216 blocks of 256 = 2^32 work-items is rejected, not silently skipped",
          "[failure_classes][work_items]") {
    // The reproducer launched (2^32 / 256, 256) on MI50/MI100 and no thread ran. The same shape on
    // today's AMD presets; one block fewer is the largest valid grid.
    for (const char* key : {"mi250x", "mi300x", "mi355x"}) {
        CAPTURE(key);
        require_rejected(check_launch(presets::by_name(key), kernel_resources{}, cfg(dims{16777216}, dims{256})),
                         diagnostic_code::work_items_exceed_dispatch_limit, {"4294967296 work-items", "4294967295 (2^32-1)"},
                         {"16777215"});
        require_valid(check_launch(presets::by_name(key), kernel_resources{}, cfg(dims{16777215}, dims{256})));
    }
}

TEST_CASE("class 1, chapel#23934: on the MI250X grid 8,388,607 x 512 runs and 8,388,608 x 512 is rejected",
          "[failure_classes][work_items]") {
    // --n=4_294_966_784 ran; --n=4_294_966_785 moved gridDim.x from 8388607 to 8388608 and HIP
    // returned hipErrorInvalidConfiguration (code 9).
    require_valid(check_launch(presets::detail::mi250x, kernel_resources{}, cfg(dims{8388607}, dims{512})));
    require_rejected(
        check_launch(presets::detail::mi250x, kernel_resources{}, cfg(dims{8388608}, dims{512})),
        diagnostic_code::work_items_exceed_dispatch_limit,
        {"grid x 8388608 x block x 512", "4294967296 work-items", "MI250X (gfx90a)", "hipErrorInvalidConfiguration"},
        {"grid x <= 8388607"});
    // The plan for the failing trip count stays within the limit: 16,777,215 blocks of 256 cover
    // 4,294,967,040 >= 4,294,966,785 elements in one pass; one more element would need a stride.
    const wavefit::launch_plan p = wavefit::plan(presets::detail::mi250x, kernel_resources{}, 4294966785u);
    CAPTURE(p.grid.x, p.block.x);
    REQUIRE(p.ok());
    REQUIRE(p.grid.x * p.block.x <= 4294967295u);
    REQUIRE(p.grid.x * p.block.x >= 4294966785u);
    REQUIRE_FALSE(p.grid_stride);
    // One more than one pass can hold: a guarded kernel (the default contract) is refused before it
    // runs, and says the kernel must loop; a kernel that loops gets a clamped grid.
    const wavefit::launch_plan over = wavefit::plan(presets::detail::mi250x, kernel_resources{}, 4294967041u);
    REQUIRE(over.exceeds_one_pass);
    REQUIRE_FALSE(over.ok());
    REQUIRE(over.problems.contains(diagnostic_code::work_items_exceed_dispatch_limit));
    REQUIRE(wavefit::plan(presets::detail::mi250x, kernel_resources{}, wavefit::work::elements(4294967041u).kernel_loops())
                .grid_stride);
}

TEST_CASE("class 1, quantumlib/qsim#993: grid 8,388,608 x 512 on the MI300X is rejected", "[failure_classes][work_items]") {
    // "hipLaunchKernel ( ..., {8388608,1,1}, {512,1,1}, ... ) Returned hipErrorInvalidConfiguration".
    require_rejected(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{8388608}, dims{512})),
                     diagnostic_code::work_items_exceed_dispatch_limit, {"4294967296 work-items", "MI300X (gfx942)"});
}

TEST_CASE("class 1, cupy#9746: cp.ones(2**33) as 67,108,864 blocks of 128 is rejected; the fix caps at UINT32_MAX // 128",
          "[failure_classes][work_items]") {
    const verdict v = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{67108864}, dims{128}));
    const diagnostic& dg = require_rejected(v, diagnostic_code::work_items_exceed_dispatch_limit, {"8589934592 work-items"},
                                            {"grid x <= 33554431"});
    CAPTURE(dg.fix);
    require_valid(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{33554431}, dims{128})));
}

TEST_CASE("class 1, iree-org/iree#21527: grid 33,652,736 x 128 on gfx950 is rejected", "[failure_classes][work_items]") {
    // gridDim.x * blockDim.x = 4,307,550,208 > 2^32 gave hipErrorInvalidConfiguration (--iree-hip-target=gfx950).
    require_rejected(check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{33652736}, dims{128})),
                     diagnostic_code::work_items_exceed_dispatch_limit, {"4307550208 work-items", "MI355X (gfx950)"});
}

TEST_CASE("class 1, pytorch#182657 (torch.arange(2**32 + 1)): the per-thread launch is rejected, a kernel that loops "
          "gets a grid-stride plan",
          "[failure_classes][work_items]") {
    // pytorch/pytorch#168806 (cited in docs/device-facts.md) was not found in the search corpus; #182657 is the
    // same failure in torch.arange with the numbers given. The block size of the per-thread kernel
    // is not stated: 256 here.
    const std::uint64_t n = 4294967297u;
    require_rejected(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{(n + 255) / 256}, dims{256})),
                     diagnostic_code::work_items_exceed_dispatch_limit, {"4294967552 work-items"});
    // The guarded kernel ported as it is (one pass) is refused with the reason; the grid-stride port plans.
    const wavefit::launch_plan guarded = wavefit::plan(presets::detail::mi300x, kernel_resources{}, n);
    const std::string why = wavefit::plan_reason(guarded, presets::detail::mi300x, kernel_resources{});
    CAPTURE(why);
    REQUIRE(guarded.exceeds_one_pass);
    REQUIRE(spec::contains(why, "kernel_loops()"));
    REQUIRE(spec::contains(why, "wavefit::grid_stride(n)"));
    const wavefit::launch_plan p =
        wavefit::plan(presets::detail::mi300x, kernel_resources{}, wavefit::work::elements(n).kernel_loops());
    CAPTURE(p.grid.x, p.block.x);
    REQUIRE(p.ok());
    REQUIRE(p.grid_stride);
    REQUIRE(p.grid.x * p.block.x <= 4294967295u);
}

TEST_CASE(
    "class 1 boundary, FBGEMM#5763 / #6036: more than 2^32 threads in total but not in any one dimension is accepted, as "
    "HIP does",
    "[failure_classes][work_items]") {
    // docs/device-facts.md lists pytorch/FBGEMM#6036 under "2^32 work-items in one dimension", but its launches
    // (grid x ~ ncols / bx, grid y capped at 65535, 256-thread blocks) and #5763's
    // (grid 6252106 x 1 x 1, block 64 x 16 x 1 on an MI350X: 6,402,156,544 threads) exceed 2^32 only
    // in total. They were stopped by FBGEMM's own KernelLauncher::checkThreadCountNotExceeded; HIP
    // (clr hip_module.cpp) checks grid x block per dimension, which is what wavefit follows.
    const verdict v = check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{6252106}, dims{64, 16, 1}));
    INFO(v.text);
    REQUIRE(v.valid);
    // x: 6252106 x 64 = 400,134,784 work-items; y: 16.
    for (const diagnostic& dg : v.diagnostics) REQUIRE(dg.code != diagnostic_code::work_items_exceed_dispatch_limit);
}

// ---- class 2: grid y / z over the device limit ----------------------------------------------------

TEST_CASE("class 2, ml-explore/mlx#2267: num_blocks.y = 65536 fails on CUDA and passes HIP's reported limit",
          "[failure_classes][grid]") {
    // mx.random.uniform(shape=(2 * 4096, 4 * 4096)) launched num_blocks.y = 65536: "invalid
    // configuration argument". Only y is given in the issue; x = 1 and block 256 here.
    require_rejected(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{1, 65536}, dims{256})),
                     diagnostic_code::grid_dim_exceeds_device_limit,
                     {"grid y = 65536", "maximum grid y of 65535", "NVIDIA H200 (sm_90)"}, {"65535"});
    require_rejected(check_launch(presets::detail::a100, kernel_resources{}, cfg(dims{1, 65536}, dims{256})),
                     diagnostic_code::grid_dim_exceeds_device_limit, {"65535"});
    require_valid(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1, 65536}, dims{256})));
}

TEST_CASE("class 2, ROCm/rocm-systems#2375: grid y 65537 on the MI300X is above what HIP reports",
          "[failure_classes][grid]") {
    // PyTorch's test expected a failure for grid.y > 65536 on MI300X (rocminfo: 65536), but ROCm
    // 7.1.1 ran it. wavefit holds the launch to the limit the runtime reports rather than to what one
    // runtime version happens to accept (ROCm 7.14 lowers the reported limit to 65535).
    require_rejected(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{1, 65537}, dims{256})),
                     diagnostic_code::grid_dim_exceeds_device_limit,
                     {"grid y = 65537", "maximum grid y of 65536", "MI300X (gfx942)"});
    // A plan over the same rows for a kernel that loops clamps and grid-strides instead.
    const wavefit::launch_plan p =
        wavefit::plan(presets::detail::mi300x, kernel_resources{}, wavefit::work::over(dims{256, 65537}).kernel_loops());
    CAPTURE(p.grid.y);
    REQUIRE(p.ok());
    REQUIRE(p.grid.y <= 65536);
    REQUIRE(p.grid_stride);
}

// ---- class 3: block over the kernel's own launch bound --------------------------------------------

TEST_CASE("class 3, ggml-org/llama.cpp#10610: rms_norm_f32<1024> launched with 1024 threads against a bound of 256",
          "[failure_classes][kernel_bound]") {
    // "Launch params (1024, 1, 1) are larger than launch bounds (256) for kernel
    // _ZL12rms_norm_f32ILi1024EEvPKfPfif" -- a vendor SDK defaulting to 256. The GPU there was a DCU;
    // the MI250X stands in.
    require_rejected(check_launch(presets::detail::mi250x, with_bound(256), cfg(dims{4096}, dims{1024})),
                     diagnostic_code::block_exceeds_kernel_max_threads,
                     {"Launch params (1024, 1, 1) are larger than launch bounds (256)", "hipErrorLaunchFailure"},
                     {"256", "__launch_bounds__(1024)"});
}

TEST_CASE(
    "class 3, sgl-project/sglang#25175 and rocm-arch#41: a block of (64, 4, 1) or 256 against a bound of 128 on wave32",
    "[failure_classes][kernel_bound]") {
    // sglang#25175: "Launch params (64, 4, 1) are larger than launch bounds (128)" on wave32 GPUs;
    // rocm-arch/python-pytorch-rocm#41: "(256, 1, 1) ... launch bounds (128)" on gfx1030. The RX 7900
    // XTX (gfx1100, wave32) stands in for both.
    require_rejected(check_launch(presets::detail::rx7900xtx, with_bound(128), cfg(dims{100}, dims{64, 4, 1})),
                     diagnostic_code::block_exceeds_kernel_max_threads,
                     {"Launch params (64, 4, 1) are larger than launch bounds (128)", "RX 7900 XTX (gfx1100)"});
    require_rejected(check_launch(presets::detail::rx7900xtx, with_bound(128), cfg(dims{100}, dims{256})),
                     diagnostic_code::block_exceeds_kernel_max_threads,
                     {"Launch params (256, 1, 1) are larger than launch bounds (128)"});
    // The plan respects the bound.
    const wavefit::launch_plan p = wavefit::plan(presets::detail::rx7900xtx, with_bound(128), std::uint64_t{1} << 20);
    CAPTURE(p.block.x);
    REQUIRE(p.block.x <= 128);
}

TEST_CASE("class 3, ROCm/hip#1672 / lattice/quda#1462: any block above the kernel's bound, one thread over",
          "[failure_classes][kernel_bound]") {
    // hip#1672 added HIP's check for blocks above the old default bound of 256; the quda issue's
    // numbers were not found in the search corpus. The boundary itself, on both vendors:
    for (const wavefit::device_limits* d : {&presets::detail::mi300x, &presets::detail::h200}) {
        CAPTURE(wavefit::to_string(*d));
        require_valid(check_launch(*d, with_bound(256), cfg(dims{8}, dims{256})));
        require_rejected(check_launch(*d, with_bound(256), cfg(dims{8}, dims{257})),
                         diagnostic_code::block_exceeds_kernel_max_threads, {"257 threads", "maximum of 256"});
    }
}

// ---- class 4: block over what registers allow -----------------------------------------------------

TEST_CASE("class 4, kokkos/kokkos#9402: Kokkos' block of 1024 for a 132-VGPR kernel on the MI300A is rejected",
          "[failure_classes][registers]") {
    // MI300A (228 CUs), ROCm 6.4.3: Kokkos chose block 1024 for nwork in [116737, 466943] and the
    // dispatch aborted with HSA_STATUS_ERROR_INVALID_ISA; 512 ran. The register count is not printed
    // in the issue: the kernel "missed the launch bound by a margin of 4 registers", i.e. 132 where
    // a 1024-thread bound allows 128.
    const kernel_resources k = with_registers(132);
    const std::uint64_t nwork = 118638;
    const verdict v = check_launch(presets::detail::mi300a, k, cfg(dims{(nwork + 1023) / 1024}, dims{1024}));
    require_rejected(v, diagnostic_code::registers_exceed_limit,
                     {"1024 threads", "132 registers", "MI300A (gfx942)", "HSA_STATUS_ERROR_INVALID_ISA"}, {"768", "128"});
    require_valid(check_launch(presets::detail::mi300a, k, cfg(dims{116736 / 512}, dims{512})));
}

TEST_CASE("class 4, apache/tvm#4342: a kernel compiled for small blocks runs out of VGPRs at 1024 threads",
          "[failure_classes][registers]") {
    // tvm#4342: without a workgroup-size attribute LLVM used "too many registers for kernel launches
    // with many threads", giving "invalid ISA". No register count is given; 256 VGPRs (what a
    // 256-thread bound allows on gfx90a: one wave per SIMD can use all 512, so the compiler may well
    // exceed 128) stand in.
    require_rejected(check_launch(presets::detail::mi250x, with_registers(256), cfg(dims{64}, dims{1024})),
                     diagnostic_code::registers_exceed_limit, {"256 registers", "MI250X (gfx90a)"}, {"512"});
    require_valid(check_launch(presets::detail::mi250x, with_registers(256), cfg(dims{128}, dims{512})));
}

// ---- class 5: num_warps x 64 over 1024 ------------------------------------------------------------

TEST_CASE("class 5, triton-lang/triton#4128 and openxla/xla#35026: num_warps = 32 becomes a 2048-thread block on wave64",
          "[failure_classes][block_threads]") {
    // Autotuning tried num_warps 32: 32 x 64 = 2048 threads ("block dimensions: 2048x1x1:
    // HIP_ERROR_InvalidValue" in xla#35026); on NVIDIA 32 x 32 = 1024 is fine.
    const std::uint64_t num_warps = 32;
    const wavefit::device_limits& amd = presets::detail::mi300x;
    const wavefit::device_limits& nv = presets::detail::h100;
    require_rejected(check_launch(amd, kernel_resources{}, cfg(dims{1000}, dims{num_warps * amd.wave_size})),
                     diagnostic_code::block_exceeds_device_max_threads,
                     {"2048 threads", "maximum of 1024", "MI300X (gfx942)"}, {"1024", "num_warps x 32"});
    require_valid(check_launch(nv, kernel_resources{}, cfg(dims{1000}, dims{num_warps * nv.wave_size})));
    // num_warps 16 is the most a wave64 device takes (triton#6125 caps it there).
    require_valid(check_launch(amd, kernel_resources{}, cfg(dims{1000}, dims{16 * amd.wave_size})));
}

// ---- class 6: blocks smaller than a wavefront -----------------------------------------------------

TEST_CASE("class 6, tile-ai/tilelang#2918: a 32-thread block on gfx942 warns that half of each wave idles",
          "[failure_classes][wave_multiple]") {
    // The deepseek_nsa kernels hard-code threads = 32 (M=16 N=32 block_size=32, thread_warp_size=64,
    // mcpu=gfx942); 32 / 64 floored to 0 warps and crashed the compiler with SIGFPE. The launch itself
    // is legal, so wavefit warns rather than rejects. ORNL/HeCBench#177 (warp size assumed 32) gives no
    // launch numbers.
    const verdict v = check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{64}, dims{32}));
    INFO(v.text);
    REQUIRE(v.valid);
    REQUIRE(v.diagnostics.size() == 1);
    REQUIRE(v.diagnostics[0].code == diagnostic_code::block_not_wave_multiple);
    REQUIRE(v.diagnostics[0].severity == wavefit::severity::warning);
    REQUIRE(contains(v.diagnostics[0].message, "32 of the 64 lanes"));
    // The same launch is a whole warp on NVIDIA and on RDNA's wave32.
    REQUIRE(check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{64}, dims{32})).diagnostics.empty());
    REQUIRE(check_launch(presets::detail::rx7900xtx, kernel_resources{}, cfg(dims{64}, dims{32})).diagnostics.empty());
}

// ---- class 7: shared memory over 64 KiB on CDNA / RDNA --------------------------------------------

TEST_CASE("class 7, sgl-project/sglang#28518: 128 KiB of TopK LDS fails on 64 KiB targets and fits gfx950",
          "[failure_classes][shared]") {
    // setup_rocm.py: topk_dynamic_smem_bytes = 48 KiB on gfx942, otherwise 32 * 1024 * 4 = 131072, which
    // crashed RDNA (gfx1151, and gfx1100 per the review) with "invalid argument".
    const std::uint64_t topk = 32 * 1024 * 4;
    require_rejected(check_launch(presets::detail::rx7900xtx, kernel_resources{}, cfg(dims{100}, dims{256}, topk)),
                     diagnostic_code::shared_memory_exceeds_limit, {"131072 bytes", "65536 bytes", "RX 7900 XTX (gfx1100)"},
                     {"65536"});
    require_rejected(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{100}, dims{256}, topk)),
                     diagnostic_code::shared_memory_exceeds_limit, {"131072 bytes", "MI300X (gfx942)"});
    require_valid(check_launch(presets::detail::mi300x, kernel_resources{}, cfg(dims{100}, dims{256}, 48 * 1024)));
    require_valid(check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{100}, dims{256}, topk)));
    // The CUDA-style opt-in: the same tile is legal on NVIDIA after cudaFuncSetAttribute.
    const verdict nv = check_launch(presets::detail::h200, kernel_resources{}, cfg(dims{100}, dims{256}, topk));
    INFO(nv.text);
    REQUIRE(nv.valid);
}

TEST_CASE("class 7, vllm-project/vllm#45871 and the Triton OutOfResources reports: LDS requests just above 64 KiB",
          "[failure_classes][shared]") {
    // vllm#45871 was not found in the search corpus; docs/device-facts.md gives "128 KiB+" (covered above). The
    // byte counts below are from public reports of the same class: 65792 (ROCm/aiter#4329, gfx1101),
    // 66560 (vllm#12498, MI300X), 73728 (vllm#17744), 98304 (ROCm/aiter#3257, gfx942).
    struct row {
        const char* source;
        const char* preset;
        std::uint64_t bytes;
    };
    const row rows[] = {
        {"aiter#4329", "rx7900xtx", 65792},
        {"vllm#12498", "mi300x", 66560},
        {"vllm#17744", "mi300x", 73728},
        {"aiter#3257", "mi300x", 98304},
    };
    for (const row& x : rows) {
        CAPTURE(x.source, x.preset, x.bytes);
        const kernel_resources k = with_static_shared(x.bytes);  // Triton reports its shared memory as static
        require_rejected(check_launch(presets::by_name(x.preset), k, cfg(dims{100}, dims{256})),
                         diagnostic_code::shared_memory_exceeds_limit, {std::to_string(x.bytes) + " bytes", "65536 bytes"});
    }
}

TEST_CASE("class 7, lightseekorg/tokenspeed#119: the MI355X has 160 KiB of LDS, the MI300X 64 KiB",
          "[failure_classes][shared]") {
    // hipGetDeviceProperties on an MI355X: sharedMemPerMultiprocessor = 163840.
    kernel_resources k = with_static_shared(163840);
    require_valid(check_launch(presets::detail::mi355x, k, cfg(dims{100}, dims{256})));
    require_rejected(check_launch(presets::detail::mi300x, k, cfg(dims{100}, dims{256})),
                     diagnostic_code::shared_memory_exceeds_limit, {"163840 bytes", "65536 bytes"});
    k.static_shared = 163841;
    require_rejected(check_launch(presets::detail::mi355x, k, cfg(dims{100}, dims{256})),
                     diagnostic_code::shared_memory_exceeds_limit, {"163841 bytes", "163840 bytes", "MI355X (gfx950)"});
    // A plan with that much LDS keeps one block per CU.
    k.static_shared = 163840;
    const wavefit::launch_plan p = wavefit::plan(presets::detail::mi355x, k, std::uint64_t{1} << 24);
    CAPTURE(p.block.x, p.occupancy.active_blocks_per_cu);
    REQUIRE(p.ok());
    REQUIRE(p.occupancy.active_blocks_per_cu == 1);
}

// ---- class 8: 64-bit sizes narrowed to 32 bits ----------------------------------------------------

TEST_CASE("class 8, ROCm/rocm-libraries#9441: MIOpen's 2^33 global work size is reported as 2^33, not narrowed to 0",
          "[failure_classes][narrowing]") {
    // The naive conv solver launched g_wk[0] = grid_size * 256 with grid_size = n * k: for
    // Conv2d(3, 1024, ...) and N = 32768 that is 8,589,934,592 work-items, truncated to gridDim.x = 0
    // (MI355X, gfx950, ROCm 7.2.2). It overflows once n * k * 256 >= 2^32, i.e. N >= 16384 for K = 1024.
    const std::uint64_t k_out = 1024;
    const auto grid_for = [&](std::uint64_t n) { return n * k_out; };
    const verdict at_32768 =
        check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{grid_for(32768)}, dims{256}));
    require_rejected(at_32768, diagnostic_code::work_items_exceed_dispatch_limit,
                     {"grid x 33554432", "8589934592 work-items", "MI355X (gfx950)"}, {"16777215"});
    require_valid(check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{grid_for(16383)}, dims{256})));
    require_rejected(check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{grid_for(16384)}, dims{256})),
                     diagnostic_code::work_items_exceed_dispatch_limit, {"4294967296 work-items"});
    // What the narrowed launch became: gridDim.x = 0, which is its own error.
    const std::uint64_t narrowed = static_cast<std::uint32_t>(grid_for(32768) * 256) / 256;
    CAPTURE(narrowed);
    REQUIRE(narrowed == 0);
    require_rejected(check_launch(presets::detail::mi355x, kernel_resources{}, cfg(dims{narrowed}, dims{256})),
                     diagnostic_code::zero_dimension, {"0 blocks in x"});
}

TEST_CASE("class 8: a plan over more than 2^33 elements computes grid x block in 64 bits and grid-strides on AMD when "
          "the kernel loops",
          "[failure_classes][narrowing]") {
    // ROCm/rocm-libraries#9441 and #12195 (Stream-K tile grids bounded by the 32-bit work-item limit).
    for (std::uint64_t n :
         {std::uint64_t{1} << 33, (std::uint64_t{1} << 33) + 1, std::uint64_t{1} << 40, std::uint64_t{1} << 63}) {
        for (const char* key : {"mi300x", "mi355x", "h200"}) {
            const wavefit::device_limits& d = presets::by_name(key);
            const wavefit::launch_plan p = wavefit::plan(d, kernel_resources{}, wavefit::work::elements(n).kernel_loops());
            const std::uint64_t one_pass = p.grid.x * p.block.x;  // no overflow: grid.x <= 2^31-1, block <= 1024
            CAPTURE(key, n, p.grid.x, p.block.x, one_pass);
            REQUIRE(p.ok());
            REQUIRE(p.grid.x > 0);
            REQUIRE(p.grid.x <= d.max_grid.x);
            if (d.is_amd()) {
                REQUIRE(one_pass <= 4294967295u);
                REQUIRE(p.grid_stride);
            }
            REQUIRE((one_pass >= n) == !p.grid_stride);
            REQUIRE(spec::no_error(wavefit::check(d, kernel_resources{}, p.config())));
        }
    }
}

// ---- class 9: valid but slow --------------------------------------------------------------------

TEST_CASE("class 9, kokkos/kokkos#8506: 4000 rows on the MI300A get 64-thread blocks over 63 CUs, not 1024",
          "[failure_classes][plan]") {
    // Naive GEMV, 4000 rows, LayoutRight: block 1024 (Kokkos' default) 3405 us, 256: 858 us,
    // 64: 629 us. A 1024-thread block is legal, so nothing rejects it; the plan must not choose it.
    const std::uint64_t rows = 4000;
    const verdict slow = check_launch(presets::detail::mi300a, kernel_resources{}, cfg(dims{4}, dims{1024}));
    INFO(slow.text);
    REQUIRE(slow.valid);
    const wavefit::launch_plan p = wavefit::plan(presets::detail::mi300a, kernel_resources{}, rows);
    const std::string reason = wavefit::plan_reason(p, presets::detail::mi300a, kernel_resources{});
    CAPTURE(p.block.x, p.grid.x, reason);
    REQUIRE(p.block.x == 64);
    REQUIRE(p.grid.x == 63);
    REQUIRE(p.rule == wavefit::launch_plan::block_rule::spread_small_work);
    REQUIRE(contains(reason, "63 of the 228 CUs"));
}

TEST_CASE("class 9: a register-light kernel on the MI300A is never planned with 1024-thread blocks",
          "[failure_classes][plan]") {
    for (std::uint32_t regs = 0; regs <= 128; regs += 8) {
        for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4000}, std::uint64_t{116737}, std::uint64_t{466944},
                                std::uint64_t{1} << 24, std::uint64_t{1} << 33}) {
            const wavefit::launch_plan p =
                wavefit::plan(presets::detail::mi300a, with_registers(regs), wavefit::work::elements(n).kernel_loops());
            CAPTURE(regs, n, p.block.x);
            REQUIRE(p.ok());
            REQUIRE(p.block.x < 1024);
            REQUIRE(p.block.x <= 256);
        }
    }
}
