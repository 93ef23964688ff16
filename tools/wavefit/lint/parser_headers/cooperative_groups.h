// SPDX-License-Identifier: MIT
// The part of CUDA's and HIP's cooperative groups that kernels commonly use, declared for the lint's
// parser only (parser_headers/wavefit_lint_prelude.h says why these headers exist).
#pragma once

namespace cooperative_groups {
struct thread_group {
    __device__ void sync() const;
    __device__ unsigned long long size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned long long thread_rank() const;
};
struct thread_block : thread_group {
    __device__ dim3 group_index() const;
    __device__ dim3 thread_index() const;
    __device__ dim3 group_dim() const;
    __device__ dim3 dim_threads() const;
};
struct grid_group : thread_group {
    __device__ bool is_valid() const;
    __device__ unsigned long long num_blocks() const;
    __device__ unsigned long long block_rank() const;
};
struct coalesced_group : thread_group {
    template <class T> __device__ T shfl(T value, int lane) const;
    __device__ unsigned long long ballot(int predicate) const;
};
template <unsigned int Size, class Parent = void> struct thread_block_tile : thread_group {
    template <class T> __device__ T shfl(T value, int lane) const;
    template <class T> __device__ T shfl_up(T value, unsigned int delta) const;
    template <class T> __device__ T shfl_down(T value, unsigned int delta) const;
    template <class T> __device__ T shfl_xor(T value, unsigned int mask) const;
    __device__ unsigned long long ballot(int predicate) const;
    __device__ int any(int predicate) const;
    __device__ int all(int predicate) const;
    __device__ unsigned long long meta_group_rank() const;
    __device__ unsigned long long meta_group_size() const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class Parent> __device__ thread_block_tile<Size, Parent> tiled_partition(const Parent&);
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int size);
template <class Group> __device__ void sync(const Group& group);
template <class T> struct plus { __device__ T operator()(T a, T b) const; };
template <class T> struct less { __device__ T operator()(T a, T b) const; };
template <class T> struct greater { __device__ T operator()(T a, T b) const; };
template <class Group, class T, class Op> __device__ T reduce(const Group& group, T value, Op op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group& group, T value, Op op);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group& group, T value, Op op);
}  // namespace cooperative_groups
