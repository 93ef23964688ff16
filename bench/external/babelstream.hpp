// SPDX-License-Identifier: MIT
// External kernels: BabelStream 5.0's CUDA kernels (UoB-HPC/BabelStream, src/cuda/CUDAStream.cu, by
// Tom Deakin, Simon McIntosh-Smith et al., University of Bristol HPC), re-implemented here so that
// wavefit is measured on kernels nobody on this project designed. BabelStream runs each operation as
// a grid-stride loop unrolled 4 times (its defaults STRIDE=GRID_STRIDE, UNROLL_FACTOR=4) and launches
// it with blocks of TBSIZE = 256 threads and ceil((n / 4) / 256) blocks: about 4 elements per thread.
// The arithmetic on doubles is BabelStream's: copy c = a, mul b = s*c, add c = a + b, triad
// a = b + s*c, s = 0.4. Its dot is left out: its reduction assumes a power-of-two block of exactly
// its shared array's 1024 threads and a partial-sum buffer sized by its grid, so retuning it would
// mean changing it. Figures from these kernels are "based on a variant of the BabelStream
// benchmark code" in the sense of BabelStream's licence, item 3b, and labelled so in bench/RESULTS.md.
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstddef>  // std::size_t, the index type BabelStream uses
#include <cstdint>  // sizes
#include <string>   // names
#include <tuple>    // arguments

#include "../zoo/cases.hpp"

namespace wavefit_bench::external {

using zoo::zoo_buffers;
using zoo::zoo_case;

// One element of each operation, as a functor (BabelStream passes device lambdas).
struct copy_element {
    const double* a;
    double* c;
    __device__ void operator()(std::size_t i) const { c[i] = a[i]; }
};
struct mul_element {
    double* b;
    const double* c;
    double scalar;
    __device__ void operator()(std::size_t i) const { b[i] = scalar * c[i]; }
};
struct add_element {
    const double* a;
    const double* b;
    double* c;
    __device__ void operator()(std::size_t i) const { c[i] = a[i] + b[i]; }
};
struct triad_element {
    double* a;
    const double* b;
    const double* c;
    double scalar;
    __device__ void operator()(std::size_t i) const { a[i] = b[i] + scalar * c[i]; }
};

// BabelStream's for_each kernel (GRID_STRIDE, unrolled 4 times): correct for any grid and block.
template <class Element>
__global__ void babelstream_for_each(std::size_t array_size, Element f) {
    std::size_t i = static_cast<std::size_t>(threadIdx.x) + static_cast<std::size_t>(blockDim.x) * blockIdx.x;
#pragma unroll 4
    for (; i < array_size; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) f(i);
}

// Its launch: TBSIZE 256, ceil_div(array_size / UNROLL_FACTOR, 256) blocks.
inline wavefit::launch_config babelstream_config(std::uint64_t n) {
    constexpr std::uint64_t tbsize = 256, unroll = 4;
    return wavefit::launch_config{wavefit::dims{(n / unroll + tbsize - 1) / tbsize}, wavefit::dims{tbsize}};
}

template <class Op>
Op element_for(const zoo::stream_roles& r) {
    if constexpr (std::is_same_v<Op, copy_element>) return Op{r.x, r.out};
    if constexpr (std::is_same_v<Op, mul_element>) return Op{r.out, r.x, zoo::stream_scalar};
    if constexpr (std::is_same_v<Op, add_element>) return Op{r.x, r.y, r.out};
    if constexpr (std::is_same_v<Op, triad_element>) return Op{r.out, r.x, r.y, zoo::stream_scalar};
}

// A case of the zoo (so it is timed, checked and reported like the others) for BabelStream's kernel
// of operation ZooOp, with the zoo's buffers in BabelStream's roles and its checker.
template <class ZooOp, class Element>
zoo_case babelstream_case(const std::string& name, std::uint64_t n, const zoo_buffers& z) {
    const zoo::stream_roles r = zoo::roles_for<ZooOp>(z);
    zoo_case c;
    c.kernel = name;
    c.size = zoo::pow2_name(n);
    c.bytes = (ZooOp::inputs + 1) * 8.0 * static_cast<double>(n);
    c.elements = static_cast<double>(n);
    c.work = n;  // what a user porting it passes to wavefit::launch(kernel, n, ...)
    const Element f = element_for<Element>(r);
    c.launch = zoo::make_launchers(babelstream_for_each<Element>, [f, n] { return std::tuple<std::size_t, Element>(n, f); });
    c.original = [n] { return babelstream_config(n); };
    c.prepare = [r, n](gpu::stream_t s) {
        zoo::fill(r.x, n, r.rx, s);
        if (ZooOp::inputs == 2) zoo::fill(r.y, n, r.ry, s);
        zoo::poison(r.out, n, s);
    };
    auto counter = z.counter;
    c.verify = [r, n, counter](gpu::stream_t s) {
        unsigned long long* bad = counter->reset(s);
        GPU_RAW_LAUNCH(zoo::check_map_kernel<ZooOp>, dim3(zoo::helper_blocks), dim3(zoo::helper_threads), 0, s, r.out, n,
                       r.rx, r.ry, zoo::stream_scalar, bad);
        gpu::check_last_launch("launching check_map_kernel");
        return zoo::mismatch_text(counter->read(s), n);
    };
    return c;
}

inline std::vector<zoo_case> babelstream_cases(std::uint64_t n, const zoo_buffers& z) {
    std::vector<zoo_case> out;
    out.push_back(babelstream_case<zoo::copy_op, copy_element>("babelstream_copy", n, z));
    out.push_back(babelstream_case<zoo::mul_op, mul_element>("babelstream_mul", n, z));
    out.push_back(babelstream_case<zoo::add_op, add_element>("babelstream_add", n, z));
    out.push_back(babelstream_case<zoo::triad_op, triad_element>("babelstream_triad", n, z));
    return out;
}

}  // namespace wavefit_bench::external
