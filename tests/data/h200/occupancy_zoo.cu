// SPDX-License-Identifier: MIT
// occupancy_zoo: records what the CUDA runtime's occupancy API answers for a
// fixed "zoo" of kernels on the machine it runs on, so that wavefit's CPU-side
// occupancy model can be checked row by row against ground truth without a GPU.
//
// Build (from the repository root):
//   nvcc -std=c++17 -O3 -arch=sm_90 -o occupancy_zoo tests/data/h200/occupancy_zoo.cu
// Run:
//   ./occupancy_zoo OUTDIR     -> OUTDIR/h200_device.csv, OUTDIR/h200_occupancy.csv
//
// The kernels are never launched. They exist only so that ptxas produces a
// spread of register / shared / local footprints and launch bounds; the
// program records whatever the compiler actually produced (via
// cudaFuncGetAttributes), so the exact numbers do not matter, only that they
// cover the interesting space. See README.md next to this file.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------
// Device code
// ---------------------------------------------------------------------------

// Keeps K floats live across a loop whose trip count is only known at run
// time, so the compiler must hold all K in registers (or spill them) at the
// back edge. Every value feeds a neighbour through an FMA and is stored at the
// end, so none of them can be folded away. Register use therefore grows with K
// and is what the launch-bound / maxnreg wrappers below get to cap.
template <int K>
__device__ __forceinline__ void register_pressure(const float* __restrict__ in,
                                                  float* __restrict__ out,
                                                  int rounds)
{
    // Each thread owns K consecutive floats, so every access is one base
    // pointer plus an immediate offset: no per-element address registers
    // inflate the count beyond what the K values themselves need.
    const size_t base = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * K;
    const float* __restrict__ src = in + base;
    float* __restrict__ dst = out + base;

    float v[K];
#pragma unroll
    for (int i = 0; i < K; ++i)
        v[i] = src[i];

#pragma unroll 1
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < K; ++i)
            v[i] = fmaf(v[i], v[(i + 1) % K], v[(i + K - 1) % K]);
    }

#pragma unroll
    for (int i = 0; i < K; ++i)
        dst[i] = v[i];
}

// Round-trips n floats through shared memory and reads them back in reverse,
// i.e. values written by other threads: the barrier and the shared array are
// therefore both necessary and cannot be optimised out.
__device__ __forceinline__ void stage_through_shared(float* buf, int n,
                                                     const float* __restrict__ in,
                                                     float* __restrict__ out)
{
    const float* src = in + static_cast<size_t>(blockIdx.x) * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = src[i];
    __syncthreads();
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += buf[n - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same body under different compile-time limits: the wrapper decides
// whether ptxas is free (regs_kernel), bounded by a block size
// (__launch_bounds__(MAXT)), additionally by a residency target
// (__launch_bounds__(MAXT, MINB)) or by an explicit register cap (__maxnreg__).
template <int K>
__global__ void regs_kernel(const float* __restrict__ in, float* __restrict__ out, int rounds)
{
    register_pressure<K>(in, out, rounds);
}

template <int K, int MAXT>
__global__ void __launch_bounds__(MAXT)
    regs_lb_kernel(const float* __restrict__ in, float* __restrict__ out, int rounds)
{
    register_pressure<K>(in, out, rounds);
}

template <int K, int MAXT, int MINB>
__global__ void __launch_bounds__(MAXT, MINB)
    regs_lbmin_kernel(const float* __restrict__ in, float* __restrict__ out, int rounds)
{
    register_pressure<K>(in, out, rounds);
}

template <int K, int NREG>
__global__ void __maxnreg__(NREG)
    regs_maxnreg_kernel(const float* __restrict__ in, float* __restrict__ out, int rounds)
{
    register_pressure<K>(in, out, rounds);
}

template <int BYTES>
__global__ void smem_kernel(const float* __restrict__ in, float* __restrict__ out)
{
    constexpr int N = BYTES / static_cast<int>(sizeof(float));
    static_assert(N * static_cast<int>(sizeof(float)) == BYTES, "BYTES must be a multiple of 4");
    __shared__ float buf[N];
    stage_through_shared(buf, N, in, out);
}

// Both limits at once, so the recorded table has rows where registers and
// shared memory compete for the same SM.
template <int K, int BYTES, int MAXT>
__global__ void __launch_bounds__(MAXT)
    mixed_kernel(const float* __restrict__ in, float* __restrict__ out,
                 float* __restrict__ out2, int rounds)
{
    constexpr int N = BYTES / static_cast<int>(sizeof(float));
    __shared__ float buf[N];
    stage_through_shared(buf, N, in, out2);
    register_pressure<K>(in, out, rounds);
}

// A dynamically indexed per-thread array cannot live in registers, so it is
// placed in local memory: this is the kernel with a real stack frame
// (localSizeBytes > 0) independent of register spilling.
constexpr int kLocalFloats = 256;

__global__ void local_array_kernel(const float* __restrict__ in, const int* __restrict__ idx,
                                   float* __restrict__ out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    float scratch[kLocalFloats];
    for (int i = 0; i < kLocalFloats; ++i)
        scratch[i] = in[i * stride + tid];
    float acc = 0.0f;
    for (int j = 0; j < 8; ++j)
        acc += scratch[idx[j * stride + tid] & (kLocalFloats - 1)];
    out[tid] = acc;
}

extern __shared__ float dynamic_smem[];

// Size of the dynamic array is only known at launch, so the kernel takes it
// as an argument; its static footprint is zero.
__global__ void dyn_smem_kernel(const float* __restrict__ in, float* __restrict__ out,
                                int dyn_floats)
{
    stage_through_shared(dynamic_smem, dyn_floats, in, out);
}

// Static and dynamic shared memory together: the model must add both (and the
// runtime caps the dynamic part at optin - static).
__global__ void dyn_smem_static4k_kernel(const float* __restrict__ in, float* __restrict__ out,
                                         float* __restrict__ out2, int dyn_floats)
{
    __shared__ float fixed[1024];
    stage_through_shared(fixed, 1024, in, out2);
    stage_through_shared(dynamic_smem, dyn_floats, in, out);
}

// ---------------------------------------------------------------------------
// Host code
// ---------------------------------------------------------------------------

namespace {

void check(cudaError_t err, const char* expr, const char* file, int line)
{
    if (err != cudaSuccess) {
        std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, expr,
                     cudaGetErrorName(err), cudaGetErrorString(err));
        std::exit(1);
    }
}
#define CUDA_CHECK(expr) check((expr), #expr, __FILE__, __LINE__)

[[noreturn]] void die(const std::string& msg)
{
    std::fprintf(stderr, "occupancy_zoo: %s\n", msg.c_str());
    std::exit(1);
}

struct ZooEntry {
    const char* name;  // CSV key; must stay stable, the CPU test looks rows up by it
    const void* fn;
};

// Names encode the source-level knobs (K live floats, launch bounds, static
// shared bytes), not the resulting resources: those are read back at run time.
const ZooEntry kZoo[] = {
    // Unbounded register ladder (some counts deliberately not multiples of 8,
    // so the model's per-thread allocation rounding is exercised).
    {"regs_k1", reinterpret_cast<const void*>(&regs_kernel<1>)},
    {"regs_k8", reinterpret_cast<const void*>(&regs_kernel<8>)},
    {"regs_k16", reinterpret_cast<const void*>(&regs_kernel<16>)},
    {"regs_k24", reinterpret_cast<const void*>(&regs_kernel<24>)},
    {"regs_k32", reinterpret_cast<const void*>(&regs_kernel<32>)},
    {"regs_k48", reinterpret_cast<const void*>(&regs_kernel<48>)},
    {"regs_k56", reinterpret_cast<const void*>(&regs_kernel<56>)},
    {"regs_k60", reinterpret_cast<const void*>(&regs_kernel<60>)},
    {"regs_k64", reinterpret_cast<const void*>(&regs_kernel<64>)},
    {"regs_k88", reinterpret_cast<const void*>(&regs_kernel<88>)},
    {"regs_k120", reinterpret_cast<const void*>(&regs_kernel<120>)},
    {"regs_k128", reinterpret_cast<const void*>(&regs_kernel<128>)},
    {"regs_k160", reinterpret_cast<const void*>(&regs_kernel<160>)},
    {"regs_k192", reinterpret_cast<const void*>(&regs_kernel<192>)},
    {"regs_k248", reinterpret_cast<const void*>(&regs_kernel<248>)},
    {"regs_k256", reinterpret_cast<const void*>(&regs_kernel<256>)},
    // Launch bounds: maxThreadsPerBlock below 1024, some register counts capped
    // by the bound (those spill, which is fine: only the count matters here).
    {"regs_k56_lb64", reinterpret_cast<const void*>(&regs_lb_kernel<56, 64>)},
    {"regs_k160_lb128_min4", reinterpret_cast<const void*>(&regs_lbmin_kernel<160, 128, 4>)},
    {"regs_k192_lb256", reinterpret_cast<const void*>(&regs_lb_kernel<192, 256>)},
    {"regs_k192_lb384", reinterpret_cast<const void*>(&regs_lb_kernel<192, 384>)},
    {"regs_k88_lb512_min2", reinterpret_cast<const void*>(&regs_lbmin_kernel<88, 512, 2>)},
    {"regs_k88_lb768", reinterpret_cast<const void*>(&regs_lb_kernel<88, 768>)},
    {"regs_k88_lb1024", reinterpret_cast<const void*>(&regs_lb_kernel<88, 1024>)},
    {"regs_k64_maxnreg40", reinterpret_cast<const void*>(&regs_maxnreg_kernel<64, 40>)},
    // Static shared memory ladder.
    {"smem_1k", reinterpret_cast<const void*>(&smem_kernel<1024>)},
    {"smem_4k", reinterpret_cast<const void*>(&smem_kernel<4096>)},
    {"smem_12k", reinterpret_cast<const void*>(&smem_kernel<12288>)},
    {"smem_40000", reinterpret_cast<const void*>(&smem_kernel<40000>)},
    {"smem_48k", reinterpret_cast<const void*>(&smem_kernel<49152>)},
    // Registers and shared memory together.
    {"mixed_k64_s12k_lb256", reinterpret_cast<const void*>(&mixed_kernel<64, 12288, 256>)},
    {"mixed_k120_s40000_lb512", reinterpret_cast<const void*>(&mixed_kernel<120, 40000, 512>)},
    // Local memory and dynamic shared memory.
    {"local_array", reinterpret_cast<const void*>(&local_array_kernel)},
    {"dyn_smem", reinterpret_cast<const void*>(&dyn_smem_kernel)},
    {"dyn_smem_s4k", reinterpret_cast<const void*>(&dyn_smem_static4k_kernel)},
};

int device_attr(cudaDeviceAttr attr, int dev)
{
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, dev));
    return value;
}

double median_us(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

// Times one host-side call in isolation; the per-call clock overhead (tens of
// ns) is small next to what is measured and is the same for all three.
template <typename F>
double time_call_us(F&& call)
{
    constexpr int kWarmup = 20;
    constexpr int kSamples = 200;
    for (int i = 0; i < kWarmup; ++i)
        call();
    std::vector<double> samples;
    samples.reserve(kSamples);
    for (int i = 0; i < kSamples; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        const auto t1 = std::chrono::steady_clock::now();
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    return median_us(std::move(samples));
}

std::ofstream open_csv(const std::filesystem::path& path)
{
    std::ofstream f(path);
    if (!f)
        die("cannot open " + path.string() + " for writing");
    return f;
}

void close_csv(std::ofstream& f, const std::filesystem::path& path)
{
    f.close();
    if (!f)
        die("error while writing " + path.string());
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::filesystem::path outdir = argv[1];
    std::error_code ec;
    std::filesystem::create_directories(outdir, ec);
    if (ec)
        die("cannot create " + outdir.string() + ": " + ec.message());

    // A missing driver or GPU shows up here as an error code, not as count 0,
    // so both cases get the same explicit message.
    int device_count = 0;
    const cudaError_t count_err = cudaGetDeviceCount(&device_count);
    if (count_err != cudaSuccess)
        die(std::string("no usable CUDA device: ") + cudaGetErrorString(count_err));
    if (device_count == 0)
        die("no CUDA device found");

    const int dev = 0;
    CUDA_CHECK(cudaSetDevice(dev));

    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    std::string name = prop.name;
    std::replace(name.begin(), name.end(), ',', ' ');

    const int cc_major = device_attr(cudaDevAttrComputeCapabilityMajor, dev);
    const int cc_minor = device_attr(cudaDevAttrComputeCapabilityMinor, dev);
    // Only an sm_90 image is embedded; on anything else every kernel query
    // would fail with a less obvious "no kernel image" error.
    if (cc_major != 9 || cc_minor != 0)
        die("device 0 (" + name + ") is compute capability " + std::to_string(cc_major) + "." +
            std::to_string(cc_minor) + "; this program is built for sm_90 only");
    if (name.find("H200") == std::string::npos)
        std::fprintf(stderr,
                     "occupancy_zoo: warning: device 0 is '%s', not an H200; the output "
                     "files are still named h200_*\n",
                     name.c_str());

    int runtime_version = 0;
    int driver_version = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime_version));
    CUDA_CHECK(cudaDriverGetVersion(&driver_version));

    const int smem_per_block = device_attr(cudaDevAttrMaxSharedMemoryPerBlock, dev);
    const int smem_optin = device_attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);

    const std::pair<const char*, cudaDeviceAttr> int_attrs[] = {
        {"warp_size", cudaDevAttrWarpSize},
        {"max_threads_per_block", cudaDevAttrMaxThreadsPerBlock},
        {"max_block_dim_x", cudaDevAttrMaxBlockDimX},
        {"max_block_dim_y", cudaDevAttrMaxBlockDimY},
        {"max_block_dim_z", cudaDevAttrMaxBlockDimZ},
        {"max_grid_dim_x", cudaDevAttrMaxGridDimX},
        {"max_grid_dim_y", cudaDevAttrMaxGridDimY},
        {"max_grid_dim_z", cudaDevAttrMaxGridDimZ},
        {"multiprocessor_count", cudaDevAttrMultiProcessorCount},
        {"max_shared_memory_per_block", cudaDevAttrMaxSharedMemoryPerBlock},
        {"max_shared_memory_per_block_optin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
        {"max_shared_memory_per_multiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
        {"reserved_shared_memory_per_block", cudaDevAttrReservedSharedMemoryPerBlock},
        {"max_threads_per_multiprocessor", cudaDevAttrMaxThreadsPerMultiProcessor},
        {"max_blocks_per_multiprocessor", cudaDevAttrMaxBlocksPerMultiprocessor},
        {"max_registers_per_block", cudaDevAttrMaxRegistersPerBlock},
        {"max_registers_per_multiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
        {"l2_cache_size", cudaDevAttrL2CacheSize},
        {"memory_clock_rate", cudaDevAttrMemoryClockRate},
        {"global_memory_bus_width", cudaDevAttrGlobalMemoryBusWidth},
    };

    const std::filesystem::path device_csv = outdir / "h200_device.csv";
    {
        std::ofstream f = open_csv(device_csv);
        f << "attribute,value\n";
        f << "name," << name << "\n";
        f << "compute_capability_major," << cc_major << "\n";
        f << "compute_capability_minor," << cc_minor << "\n";
        for (const auto& [key, attr] : int_attrs)
            f << key << "," << device_attr(attr, dev) << "\n";
        f << "cuda_runtime_version," << runtime_version << "\n";
        f << "cuda_driver_version," << driver_version << "\n";
        close_csv(f, device_csv);
    }

    struct Summary {
        const char* name;
        cudaFuncAttributes attr;
        size_t rows;
    };
    std::vector<Summary> summaries;
    size_t total_rows = 0;

    const std::filesystem::path occ_csv = outdir / "h200_occupancy.csv";
    std::ofstream occ = open_csv(occ_csv);
    occ << "kernel,num_regs,static_shared,max_threads_per_block,local_bytes,block,"
           "dynamic_shared,active_blocks\n";

    for (const ZooEntry& k : kZoo) {
        cudaFuncAttributes fa{};
        CUDA_CHECK(cudaFuncGetAttributes(&fa, k.fn));
        const long static_smem = static_cast<long>(fa.sharedSizeBytes);
        const long optin_room = smem_optin - static_smem;

        std::vector<long> dyn_sizes = {0,      1024,   8192,   30000, smem_per_block - static_smem,
                                       65536,  100000, 163840, optin_room};
        dyn_sizes.erase(std::remove_if(dyn_sizes.begin(), dyn_sizes.end(),
                                       [&](long d) { return d < 0 || d > optin_room; }),
                        dyn_sizes.end());
        std::sort(dyn_sizes.begin(), dyn_sizes.end());
        dyn_sizes.erase(std::unique(dyn_sizes.begin(), dyn_sizes.end()), dyn_sizes.end());

        // Ascending sizes mean every row at or below the default limit is
        // queried before the attribute is ever raised, and each raise is
        // exactly what that row needs: the occupancy answer must not depend
        // on a larger opt-in than the launch would actually request.
        long dyn_limit = fa.maxDynamicSharedSizeBytes;
        size_t rows = 0;
        for (long dyn : dyn_sizes) {
            if (dyn > dyn_limit) {
                CUDA_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(dyn)));
                dyn_limit = dyn;
            }
            std::set<int> blocks;
            for (int b = 32; b <= fa.maxThreadsPerBlock; b += 32)
                blocks.insert(b);
            // Partial warps occupy a whole warp's resources; only worth
            // covering once, at dyn = 0.
            if (dyn == 0)
                for (int b : {1, 31, 33, 100, 250, 1000})
                    if (b <= fa.maxThreadsPerBlock)
                        blocks.insert(b);

            for (int b : blocks) {
                int active = -1;
                CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &active, k.fn, b, static_cast<size_t>(dyn)));
                occ << k.name << "," << fa.numRegs << "," << fa.sharedSizeBytes << ","
                    << fa.maxThreadsPerBlock << "," << fa.localSizeBytes << "," << b << ","
                    << dyn << "," << active << "\n";
                ++rows;
            }
        }
        summaries.push_back({k.name, fa, rows});
        total_rows += rows;
    }
    close_csv(occ, occ_csv);

    // Informational: how expensive the queries a launch library might make on
    // a hot path are. Timed on one mid-sized kernel.
    const void* timed_fn = reinterpret_cast<const void*>(&regs_kernel<64>);
    const double occ_us = time_call_us([&] {
        int n = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, timed_fn, 256, 0));
    });
    const double attr_us = time_call_us([&] {
        cudaFuncAttributes fa{};
        CUDA_CHECK(cudaFuncGetAttributes(&fa, timed_fn));
    });
    const double devattr_us = time_call_us([&] {
        int v = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev));
    });

    std::printf("device: %s (sm_%d%d), runtime %d, driver %d, optin smem %d\n", name.c_str(),
                cc_major, cc_minor, runtime_version, driver_version, smem_optin);
    std::printf("%-26s %5s %7s %6s %7s %9s %5s\n", "kernel", "regs", "static", "maxT", "local",
                "maxdyn0", "rows");
    for (const Summary& s : summaries)
        std::printf("%-26s %5d %7zu %6d %7zu %9d %5zu\n", s.name, s.attr.numRegs,
                    s.attr.sharedSizeBytes, s.attr.maxThreadsPerBlock, s.attr.localSizeBytes,
                    s.attr.maxDynamicSharedSizeBytes, s.rows);
    std::printf("wrote %zu kernels, %zu occupancy rows\n", summaries.size(), total_rows);
    std::printf("  %s\n  %s\n", device_csv.string().c_str(), occ_csv.string().c_str());
    std::printf("median host time per call (200 calls after 20 warm-up, regs_k64):\n");
    std::printf("  cudaOccupancyMaxActiveBlocksPerMultiprocessor: %.3f us\n", occ_us);
    std::printf("  cudaFuncGetAttributes:                         %.3f us\n", attr_us);
    std::printf("  cudaDeviceGetAttribute:                        %.3f us\n", devattr_us);
    return 0;
}
