// SPDX-License-Identifier: MIT
// The STREAM kernels with BabelStream's arithmetic on doubles (copy c = a; mul b = s*c; add c = a + b;
// triad a = b + s*c; dot sum a*b), so their GB/s compare with BabelStream's, and an fp32 sum.
//
// Every kernel is correct for any grid and any block that is a whole number of waves: the
// strategies (hard-coded blocks, the runtime's suggestion, wavefit's plan, the sweep's occupancy
// grids) all launch the same code. Two template parameters set the work per thread, which on the H200
// matters as much as the block size (docs/performance.md):
//   V  elements per access: 1 (8-byte loads) or 2 (16-byte loads of doubles; 4 for floats)
//   U  independent accesses per thread per step, all loads issued before the first use
// One work item is U vectors of V elements; the launch plans ceil(n / V / U) items. U = 1 iterates
// with wavefit::grid_stride; U > 1 with an unrolled grid-stride loop whose every load is coalesced
// (thread t reads vectors t, t + T, ..., t + (U-1)T of each chunk of U*T, T = threads in the grid).
#pragma once

#include <wavefit/wavefit.hpp>

#include <cstdint>  // sizes

#include "block_reduce.hpp"
#include "values.hpp"

namespace wavefit_bench::zoo {

// V elements loaded or stored as one access.
template <class T, int V>
struct alignas(sizeof(T) * V) pack {
    T v[V];
};

struct copy_op {
    static constexpr int inputs = 1;
    template <class T>
    __host__ __device__ static T apply(T x, T, T) {
        return x;
    }
};
struct mul_op {
    static constexpr int inputs = 1;
    template <class T>
    __host__ __device__ static T apply(T x, T, T s) {
        return s * x;
    }
};
struct add_op {
    static constexpr int inputs = 2;
    template <class T>
    __host__ __device__ static T apply(T x, T y, T) {
        return x + y;
    }
};
struct triad_op {
    static constexpr int inputs = 2;
    template <class T>
    __host__ __device__ static T apply(T x, T y, T s) {
        return x + s * y;
    }
};

template <class Op, class T, int V>
__device__ pack<T, V> apply_pack(const pack<T, V>& x, const pack<T, V>& y, T s) {
    pack<T, V> r;
#pragma unroll
    for (int l = 0; l < V; ++l) r.v[l] = Op::apply(x.v[l], y.v[l], s);
    return r;
}

// The work items of n elements: U vectors of V elements each.
template <int V, int U>
constexpr std::uint64_t work_items(std::uint64_t n) {
    return (n / V + U - 1) / U;
}

// body(i, x[i], y[i]) for every vector i < `vectors` of the grid's share, the iteration the header
// describes (shared by the map and the reduction so that both load alike). y is read only when
// Inputs == 2; otherwise the body gets an empty pack for it.
template <int Inputs, int U, class P, class Body>
__device__ __forceinline__ void for_each_vector(const P* xv, const P* yv, std::uint64_t vectors, Body body) {
    const auto second = [&](std::uint64_t i) {
        if constexpr (Inputs == 2) {
            return yv[i];
        } else {
            (void)i;
            return P{};
        }
    };
    if constexpr (U == 1) {
        for (const std::uint64_t i : wavefit::grid_stride(vectors)) body(i, xv[i], second(i));
    } else {
        const std::uint64_t stride = wavefit::detail::global_thread_count();
        std::uint64_t i = wavefit::detail::global_thread_index();
        for (; i + (U - 1) * stride < vectors; i += U * stride) {
            P a[U];
            P b[U];
#pragma unroll
            for (int k = 0; k < U; ++k) a[k] = xv[i + k * stride];
#pragma unroll
            for (int k = 0; k < U; ++k) b[k] = second(i + k * stride);
#pragma unroll
            for (int k = 0; k < U; ++k) body(i + k * stride, a[k], b[k]);
        }
        for (; i < vectors; i += stride) body(i, xv[i], second(i));
    }
}

// out = Op(x, y, scalar) element-wise; y is unused (may be null) when Op::inputs == 1.
template <class Op, int V, int U>
__global__ void stream_map_kernel(const double* __restrict__ x, const double* __restrict__ y, double* __restrict__ out,
                                  double scalar, std::uint64_t n) {
    using P = pack<double, V>;
    const std::uint64_t vectors = n / V;
    const P* xv = reinterpret_cast<const P*>(x);
    const P* yv = reinterpret_cast<const P*>(y);
    P* ov = reinterpret_cast<P*>(out);
    for_each_vector<Op::inputs, U>(xv, yv, vectors, [&](std::uint64_t i, const P& a, const P& b) {
        ov[i] = apply_pack<Op>(a, b, scalar);
    });
    if constexpr (V > 1) {  // the last n % V elements, one thread each
        const std::uint64_t e = vectors * V + wavefit::detail::global_thread_index();
        if (e < n) out[e] = Op::apply(x[e], Op::inputs == 2 ? y[e] : 0.0, scalar);
    }
}

struct dot_op {
    static constexpr int inputs = 2;
};
struct sum_op {
    static constexpr int inputs = 1;
};

// *total += sum of x (sum_op) or of x*y (dot_op): per-thread partials in T, a block reduction, one
// atomic per block. The atomic target alternates between two slots from launch to launch: block 0
// clears `clear`, the slot the next launch adds into, so a repeated launch needs no memset between
// launches (and the slot this launch adds into was cleared by the previous one).
template <class T, class Op, int V, int U>
__global__ void reduce_kernel(const T* __restrict__ x, const T* __restrict__ y, double* __restrict__ total,
                              double* __restrict__ clear, std::uint64_t n) {
    __shared__ T scratch[max_waves_per_block];
    using P = pack<T, V>;
    if (blockIdx.x == 0 && threadIdx.x == 0) *clear = 0.0;
    const std::uint64_t vectors = n / V;
    const P* xv = reinterpret_cast<const P*>(x);
    const P* yv = reinterpret_cast<const P*>(y);
    T acc = 0;
    for_each_vector<Op::inputs, U>(xv, yv, vectors, [&](std::uint64_t, const P& a, const P& b) {
#pragma unroll
        for (int l = 0; l < V; ++l) {
            if constexpr (Op::inputs == 2) {
                acc += a.v[l] * b.v[l];
            } else {
                (void)b;
                acc += a.v[l];
            }
        }
    });
    if constexpr (V > 1) {
        const std::uint64_t e = vectors * V + wavefit::detail::global_thread_index();
        if (e < n) acc += Op::inputs == 2 ? x[e] * y[e] : x[e];
    }
    const T block = block_allreduce<sum_combine>(acc, scratch);
    if (threadIdx.x == 0) atomicAdd(total, static_cast<double>(block));
}

// Counts the elements of out that differ from Op applied to the inputs' formulas (relative 1e-12:
// the kernel and this check may contract a*b+c into an fma differently). NaN counts as different.
template <class Op>
__global__ void check_map_kernel(const double* __restrict__ out, std::uint64_t n, value_range x, value_range y,
                                 double scalar, unsigned long long* __restrict__ bad) {
    for (const std::uint64_t i : wavefit::grid_stride(n)) {
        const double expected = Op::apply(input_value(i, x), Op::inputs == 2 ? input_value(i, y) : 0.0, scalar);
        if (!(fabs(out[i] - expected) <= 1e-12 * fabs(expected))) atomicAdd(bad, 1ull);
    }
}

}  // namespace wavefit_bench::zoo
