// SPDX-License-Identifier: MIT
// The kernels of the GPU test suite (declared and described in kernels.hpp).
#include "kernels.hpp"

__global__ void increment_u8(std::uint8_t* data, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) data[i] = static_cast<std::uint8_t>(data[i] + 1);
}

__global__ void count_visits(std::uint32_t* visits, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) atomicAdd(&visits[i], 1u);
}

__global__ void count_block_visits(std::uint32_t* visits, std::uint64_t units) {
    // blockDim.x is a multiple of the slots in the spec, so each slot gets blockDim.x / slots adds.
    for (const std::uint64_t unit : wavefit::block_stride(units))
        atomicAdd(&visits[unit * block_visit_slots + threadIdx.x % block_visit_slots], 1u);
}

__global__ void count_visits_range(std::uint32_t* visits, std::uint64_t first, std::uint64_t last) {
    for (const std::uint64_t i : wavefit::grid_stride(first, last)) atomicAdd(&visits[i], 1u);
}

__global__ void count_visits_2d(std::uint32_t* visits, std::uint64_t width, std::uint64_t height) {
    for (const std::uint64_t y : wavefit::grid_stride_axis<1>(height))
        for (const std::uint64_t x : wavefit::grid_stride_axis<0>(width)) atomicAdd(&visits[y * width + x], 1u);
}

__global__ void __launch_bounds__(256) count_visits_bounded_256(std::uint32_t* visits, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) atomicAdd(&visits[i], 1u);
}

// Each thread owns heavy_values consecutive floats; every value feeds its neighbours through an FMA
// on each round and is stored at the end, so none can be folded away and all stay live across the
// loop's back edge (the technique of tests/data/h200/occupancy_zoo.cu).
__global__ void register_heavy(const float* in, float* out, int rounds) {
    constexpr int k = heavy_values;
    const std::uint64_t base = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) * k;
    float v[k];
#pragma unroll
    for (int i = 0; i < k; ++i) v[i] = in[base + i];
#pragma unroll 1
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < k; ++i) v[i] = fmaf(v[i], v[(i + 1) % k], v[(i + k - 1) % k]);
    }
#pragma unroll
    for (int i = 0; i < k; ++i) out[base + i] = v[i];
}

namespace {

__device__ void roundtrip_through_shared(std::uint32_t* out, std::uint32_t words) {
    extern __shared__ std::uint32_t shared_words[];
    const std::uint32_t salt = blockIdx.x * 2654435761u;
    for (std::uint32_t w = threadIdx.x; w < words; w += blockDim.x) shared_words[w] = w ^ salt;
    __syncthreads();
    std::uint32_t mismatches = 0;
    // Read back in reverse: words another thread wrote, so the barrier and the memory both matter.
    for (std::uint32_t w = threadIdx.x; w < words; w += blockDim.x) {
        const std::uint32_t r = words - 1 - w;
        if (shared_words[r] != (r ^ salt)) ++mismatches;
    }
    out[std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x] = mismatches;
}

}  // namespace

__global__ void shared_roundtrip(std::uint32_t* out, std::uint32_t words) { roundtrip_through_shared(out, words); }
__global__ void shared_roundtrip_fresh(std::uint32_t* out, std::uint32_t words) { roundtrip_through_shared(out, words); }
__global__ void shared_roundtrip_stale(std::uint32_t* out, std::uint32_t words) { roundtrip_through_shared(out, words); }

__global__ void static_shared_40000(std::uint32_t* out) {
    __shared__ std::uint32_t tile[static_shared_words];
    for (std::uint32_t w = threadIdx.x; w < static_shared_words; w += blockDim.x) tile[w] = w + blockIdx.x;
    __syncthreads();
    out[std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x] = tile[(threadIdx.x * 7919u) % static_shared_words];
}

__global__ void axpy(float a, const float* x, float* y, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) y[i] = a * x[i] + y[i];
}

__global__ void echo_widened(std::int64_t* out, std::int64_t a, std::uint64_t b, double c) {
    if (wavefit::detail::global_thread_index() != 0) return;
    out[0] = a;
    out[1] = static_cast<std::int64_t>(b);
    out[2] = static_cast<std::int64_t>(c * 2.0);
}

__global__ void noop_elements(std::uint64_t) {}
__global__ void noop_extent(std::uint64_t, std::uint64_t) {}

namespace {

template <int Tag>
__global__ void tagged_fill_kernel(std::uint32_t* out, std::uint64_t n) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) out[i] = Tag + 1;
}

template <int... Tags>
tagged_kernel_type pick_tagged(int tag, std::integer_sequence<int, Tags...>) {
    tagged_kernel_type found = nullptr;
    ((found = tag == Tags ? &tagged_fill_kernel<Tags> : found), ...);
    return found;
}

template <class... Params>
suite_kernel entry(const char* name, void (*kernel)(Params...)) {
    return suite_kernel{name, reinterpret_cast<const void*>(kernel),
                        [kernel](std::uint64_t block, std::uint64_t dynamic_shared) {
                            return wavefit::occupancy(kernel, block, dynamic_shared);
                        },
                        [kernel] { return wavefit::kernel_resources_for(kernel); }};
}

}  // namespace

tagged_kernel_type tagged_fill(int tag) { return pick_tagged(tag, std::make_integer_sequence<int, tagged_kernel_count>{}); }

// The tagged kernels are left out on purpose: the concurrency spec must be the first to launch
// them, and it compares their occupancy itself.
const std::vector<suite_kernel>& suite_kernels() {
    static const std::vector<suite_kernel> all{
        entry("increment_u8", increment_u8),
        entry("count_visits", count_visits),
        entry("count_visits_range", count_visits_range),
        entry("count_visits_2d", count_visits_2d),
        entry("count_block_visits", count_block_visits),
        entry("count_visits_bounded_256", count_visits_bounded_256),
        entry("register_heavy", register_heavy),
        entry("shared_roundtrip", shared_roundtrip),
        entry("shared_roundtrip_fresh", shared_roundtrip_fresh),
        entry("shared_roundtrip_stale", shared_roundtrip_stale),
        entry("static_shared_40000", static_shared_40000),
        entry("axpy", axpy),
        entry("echo_widened", echo_widened),
        entry("noop_elements", noop_elements),
        entry("noop_extent", noop_extent),
    };
    return all;
}
