// SPDX-License-Identifier: MIT
// The work of a planned launch and the kernel's contract. The work says what there is to do (n
// elements, an extent, rows taken by a block or by a wave); the contract says what the kernel assumes
// of its launch: whether it reaches every item in one pass (a guarded `if (i < n)` kernel) or loops,
// which blocks it works with, how its shared memory grows with the block. wavefit and its tuner
// choose only configurations the contract allows. The default is the safe reading of a kernel
// nobody changed: every item in one pass, never a silently clamped grid, and power-of-two blocks
// (what tree reductions over blockDim and shared arrays sized by a power of two need; the survey
// behind this default is docs/kernel-contract-evidence.md).
#pragma once

#include <cstdint>      // sizes

#include "config.hpp"
#include "detail/sizes.hpp"
#include "dims.hpp"
#include "launch_config.hpp"

WAVEFIT_BEGIN_NAMESPACE

// How many blocks a plan launches along x (1-D work, one block per unit and one wave per unit; extents
// always cover). Every policy but `cover` needs a kernel that loops.
enum class grid_policy : std::uint8_t {
    cover,     // one item (unit) per thread (block, wave): grid = ceil(work / per block)
    saturate,  // at most saturation_rounds x the blocks all CUs hold at once; the kernel strides
    coarsen,   // items_per_thread items per thread (units per block): the kernel strides
};

// How a plan is computed, apart from the contract.
struct plan_options {
    // Dynamic shared memory / LDS per block: dynamic_shared + shared_per_thread x threads, or what
    // shared_for_block returns for the block's thread count when it is set.
    std::uint64_t dynamic_shared = 0;
    std::uint64_t shared_per_thread = 0;
    std::uint64_t (*shared_for_block)(std::uint64_t threads) = nullptr;
    // Blocks smaller than this are chosen only when no larger block reaches the best occupancy.
    // Occupancy alone would pick tiny blocks (64 threads already fill an SM on paper), but block
    // scheduling then dominates: on the H200 a one-element-per-thread copy runs at 1693 GB/s with
    // block 64 against 3883 GB/s with 256 (docs/performance.md). 256 is also rocPRIM's and CUB's default.
    std::uint64_t min_efficient_block = 256;
    // Shrink the block for small work so that min(CUs, ceil(n / wave)) CUs get a block each.
    bool spread_small_work = true;
    // One item per thread suits streaming kernels: on the H200 copy/add/triad ran 5% slower with
    // a saturated grid. Kernels that amortise per-block or per-thread setup over many items
    // (a register-heavy compute kernel, block reductions with one atomic per block) ran up to 6%
    // faster saturated (bench/RESULTS.md). Only for kernels that loop.
    grid_policy grid = grid_policy::cover;
    // The work said its grid (grid_covering, grid_saturated, grid_coarsened): otherwise a per-block
    // kernel that loops over short units gets a saturated grid (detail/planning.hpp, loops_over_short_units).
    bool grid_stated = false;
    std::uint32_t saturation_rounds = 4;  // saturate: blocks per CU-slot, so the tail stays balanced
    std::uint32_t items_per_thread = 4;   // coarsen: items (or units) each thread (or block, wave) takes
};

// Work for a plan: what there is to do, the kernel's contract and the options to plan it with.
// Made by the factories below and refined by the modifiers, each returning a copy:
//   wavefit::work::per_group(rows, 32, row_length).block_at_most(256)
struct work {
private:
    // A modified copy, for the modifiers below. Defined before them: clang 14 can evaluate a constexpr
    // member template in a constant expression only if its body was parsed before its caller's.
    template <class Change>
    constexpr work with(Change change) const noexcept {
        work w = *this;
        change(w);
        return w;
    }

    // A grid policy that covers less than one item per thread (saturate: `factor` rounds; coarsen:
    // `factor` items per thread), which states that the kernel loops. A factor of 0 is taken as 1.
    constexpr work with_looping_grid(grid_policy policy, std::uint32_t factor) const noexcept {
        return with([policy, factor](work& w) {
            w.contract.cover = coverage::kernel_loops;
            w.options.grid = policy;
            w.options.grid_stated = true;
            (policy == grid_policy::saturate ? w.options.saturation_rounds : w.options.items_per_thread) =
                factor == 0 ? 1 : factor;
        });
    }

public:
    // The shapes of work a planned launch covers. The count is always items or units, never threads.
    enum class work_kind : std::uint8_t {
        elements,   // n items in 1-D, one per thread
        extent,     // a 2-D/3-D extent, one item per thread; the block is shaped x first
        per_block,  // n units (rows, tiles, heads), one per block: softmax, layer norm, attention
        per_wave,   // n units, one per wave (or per group of contract.group_threads threads): layer norm, RMS norm
    };

    // Whether the kernel reaches every item by itself whatever the grid.
    enum class coverage : std::uint8_t {
        one_pass,      // each item has its own thread (block, wave): the grid covers everything, or the launch is refused
        kernel_loops,  // the kernel loops (grid_stride, block_stride, wave_stride or its own): any grid is correct
    };

    // What the kernel assumes of its launch (part of a tuning record's key).
    struct kernel_contract {
        coverage cover = coverage::one_pass;
        bool powers_of_two = true;        // only power-of-two blocks (false: any multiple of the wave)
        std::uint32_t max_block = 0;      // at most this many threads per block (a shared array); 0: none of its own
        dims fixed_block{0, 0, 0};        // exactly this block (x == 0: not fixed)
        std::uint32_t group_threads = 0;  // per_wave work: threads per unit; 0: the device's wave size

        constexpr bool has_fixed_block() const noexcept { return fixed_block.x != 0; }
        friend constexpr bool operator==(const kernel_contract& a, const kernel_contract& b) noexcept {
            return a.cover == b.cover && a.powers_of_two == b.powers_of_two && a.max_block == b.max_block &&
                   a.fixed_block == b.fixed_block && a.group_threads == b.group_threads;
        }
        friend constexpr bool operator!=(const kernel_contract& a, const kernel_contract& b) noexcept { return !(a == b); }
    };

    work_kind kind = work_kind::elements;
    dims extent{0, 1, 1};  // elements, per_block, per_wave: {n, 1, 1}
    plan_options options{};
    // per_block and per_wave: how many elements each unit holds (a row's length), 0 when not said.
    // Long rows want larger blocks, and tuning records of rows of 512 and of 8192 are kept apart.
    std::uint64_t unit_size = 0;
    kernel_contract contract{};
    bool negative = false;  // made from a negative count: refused before a launch (negative_size)
    // The configuration this launch replaces (replacing()): launched as it is unless a tuning
    // record measured something faster.
    bool has_baseline = false;
    launch_config baseline{dims{0}, dims{0}};
    // Whether the blocks were stated (block_powers_of_two, block_any_wave_multiple, block_at_most,
    // block_fixed). A work that replaces a configuration and states none keeps that configuration's
    // block: the block an unchanged kernel was written for is the one it is known to compute right with.
    bool blocks_stated = false;
    bool block_from_baseline = false;  // contract.fixed_block is the baseline's (not stated)

    // n items, one per thread.
    template <class Count, detail::if_size_type<Count> = 0>
    static constexpr work elements(Count n, const plan_options& o = {}) noexcept {
        return make(work_kind::elements, n, o);
    }
    // A 2-D/3-D extent, one item per thread.
    static constexpr work over(const dims& e, const plan_options& o = {}) noexcept {
        work w;
        w.kind = work_kind::extent;
        w.extent = e;
        w.negative = e.negative;
        w.options = o;
        return w;
    }
    // One unit (a row, a tile, a head) per block; unit_size is a unit's length in elements. Sizes may
    // be of any integer type (an int row length, as ported code holds it); a negative one is refused.
    template <class Count, class Size = std::uint64_t, detail::if_size_type<Count> = 0, detail::if_size_type<Size> = 0>
    static constexpr work per_block(Count units, Size unit_size = 0, const plan_options& o = {}) noexcept {
        work w = make(work_kind::per_block, units, o);
        w.set_unit_size(unit_size);
        return w;
    }
    template <class Count, detail::if_size_type<Count> = 0>
    static constexpr work per_block(Count units, const plan_options& o) noexcept {
        return per_block(units, std::uint64_t{0}, o);
    }
    // One unit per wave: 64 threads on gfx9 (MI200, MI300), 32 on NVIDIA and RDNA. For a kernel that
    // computes its unit with wavefit::wave_size() (or loops with wavefit::wave_stride).
    template <class Count, class Size = std::uint64_t, detail::if_size_type<Count> = 0, detail::if_size_type<Size> = 0>
    static constexpr work per_wave(Count units, Size unit_size = 0) noexcept {
        work w = make(work_kind::per_wave, units, {});
        w.set_unit_size(unit_size);
        return w;
    }
    // One unit per group of `group_threads` threads whatever the device's wave: a CUDA kernel that
    // takes a row per 32-thread warp (`threadIdx.x / 32`, 32-wide shuffles) keeps working on wave64.
    template <class Count, class Threads, class Size = std::uint64_t, detail::if_size_type<Count> = 0,
              detail::if_size_type<Threads> = 0, detail::if_size_type<Size> = 0>
    static constexpr work per_group(Count units, Threads group_threads, Size unit_size = 0) noexcept {
        work w = per_wave(units, unit_size);
        bool below_zero = false;
        const std::uint64_t group = detail::size_from(group_threads, below_zero);
        // A group larger than any block allows no block (contract_allows_no_block): saturated, never wrapped.
        w.contract.group_threads =
            group == 0 ? 1u : group > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(group);
        w.negative = w.negative || below_zero;
        return w;
    }

    // The kernel loops (grid_stride, block_stride, wave_stride or its own loop): only then may the grid
    // cover less than every item in one pass (a device limit, a saturated or coarsened grid).
    constexpr work kernel_loops() const noexcept { return with([](work& w) { w.contract.cover = coverage::kernel_loops; }); }
    // Exactly this block, with a planned grid: the kernel was written for it.
    constexpr work block_fixed(const dims& block) const noexcept {
        return with([&block](work& w) {
            w.state_blocks();
            // Field by field, not as one struct: GCC copies the 25 bytes of a dims with two overlapping
            // 16-byte moves, and the launch's key then reads y back across both, a store that cannot
            // be forwarded (a stall on every launch of a work made at the call site).
            w.contract.fixed_block.x = block.x;
            w.contract.fixed_block.y = block.y;
            w.contract.fixed_block.z = block.z;
            w.contract.fixed_block.negative = block.negative;
            w.negative = w.negative || block.negative;
        });
    }
    // Power-of-two blocks (the default without a baseline): a tree reduction over blockDim, or a kernel
    // that works with any block, stated so that a port with replacing() may change its block.
    constexpr work block_powers_of_two() const noexcept {
        return with([](work& w) {
            w.state_blocks();
            w.contract.powers_of_two = true;
        });
    }
    // At most `threads` per block (a shared array sized for them); still powers of two unless lifted.
    constexpr work block_at_most(std::uint32_t threads) const noexcept {
        return with([threads](work& w) {
            w.state_blocks();
            w.contract.max_block = threads;
        });
    }
    // Any multiple of the wave size, not only powers of two (the kernel has no tree reduction over blockDim).
    constexpr work block_any_wave_multiple() const noexcept {
        return with([](work& w) {
            w.state_blocks();
            w.contract.powers_of_two = false;
        });
    }
    // Dynamic shared memory per block: `bytes`, plus `per_thread` bytes for each thread of the block.
    constexpr work shared_bytes(std::uint64_t bytes, std::uint64_t per_thread = 0) const noexcept {
        return with([bytes, per_thread](work& w) {
            w.options.dynamic_shared = bytes;
            w.options.shared_per_thread = per_thread;
        });
    }
    // Dynamic shared memory as a function of the block's thread count.
    constexpr work shared_for(std::uint64_t (*bytes_for_block)(std::uint64_t threads)) const noexcept {
        return with([bytes_for_block](work& w) { w.options.shared_for_block = bytes_for_block; });
    }
    // A grid of `rounds` x the blocks the device holds at once (a reduction with one atomic per block).
    // Such a grid covers the items only if the kernel loops: this states that it does.
    constexpr work grid_saturated(std::uint32_t rounds = 4) const noexcept {
        return with_looping_grid(grid_policy::saturate, rounds);
    }
    // `items` items per thread (units per block or wave); states that the kernel loops.
    constexpr work grid_coarsened(std::uint32_t items = 4) const noexcept {
        return with_looping_grid(grid_policy::coarsen, items);
    }
    // One item (unit) per thread (block, wave) even where the kernel loops: keeps wavefit from
    // saturating the grid of a per-block kernel that loops over short units.
    constexpr work grid_covering() const noexcept {
        return with([](work& w) {
            w.options.grid = grid_policy::cover;
            w.options.grid_stated = true;
        });
    }
    // The configuration this launch replaces (a `<<<grid, block, shared>>>` port): without a tuning
    // record it is launched as it is, validated; the tuner measures it first and replaces it only with
    // a configuration that beats it beyond the noise. Unless the blocks were stated, its block is the
    // only one allowed (a third of public kernels compute right with one block only, and half give
    // other bits with another: docs/kernel-contract-evidence.md); state them to let the tuner try others.
    constexpr work replacing(const launch_config& original) const noexcept {
        return with([&original](work& w) {
            w.has_baseline = true;
            w.baseline = original;
            w.negative = w.negative || original.has_negative();
            if (!w.blocks_stated) {
                w.contract.fixed_block = original.block;
                w.block_from_baseline = true;
            }
        });
    }

    // Elements, extent volume or units: what "how much work" means for this kind (saturating).
    constexpr std::uint64_t size() const noexcept { return extent.volume(); }
    constexpr bool is_empty() const noexcept { return extent.has_zero(); }
    constexpr bool loops() const noexcept { return contract.cover == coverage::kernel_loops; }

private:
    template <class Size>
    constexpr void set_unit_size(Size size) noexcept {
        bool below_zero = false;
        unit_size = detail::size_from(size, below_zero);
        negative = negative || below_zero;
    }

    // A stated block constraint replaces a block that only came from the baseline.
    constexpr void state_blocks() noexcept {
        blocks_stated = true;
        if (block_from_baseline) {
            contract.fixed_block = dims{0, 0, 0};
            block_from_baseline = false;
        }
    }

    template <class Count>
    static constexpr work make(work_kind kind, Count n, const plan_options& o) noexcept {
        work w;
        w.kind = kind;
        bool below_zero = false;
        w.extent = dims{detail::size_from(n, below_zero), 1, 1};
        w.negative = below_zero;
        w.options = o;
        // A grid that covers less than one item per thread is only correct for a kernel that loops:
        // asking for one states that it does (as grid_saturated() and grid_coarsened() do).
        if (o.grid != grid_policy::cover) w.contract.cover = coverage::kernel_loops;
        return w;
    }
};

namespace detail {
// The library's own spellings of the work's nested types.
using work_kind = work::work_kind;
using coverage = work::coverage;
using kernel_contract = work::kernel_contract;
}  // namespace detail

WAVEFIT_END_NAMESPACE
