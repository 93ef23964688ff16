// SPDX-License-Identifier: MIT
// The key of the launch table (launch_table(), defined in launch_impl.hpp): what a planned launch is
// looked up by. Apart from the table so that wavefit::launch(kernel, work, ...) can pack the work's
// words where the work is built: inlined at the call site, a work made of constants
// (work::per_block(rows, n).block_fixed(b)) gives a key of constants, and the launch does not read the
// work back field by field.
#pragma once

#include <cstddef>  // std::size_t
#include <cstdint>  // the words

#include "../config.hpp"
#include "../detail/arithmetic.hpp"
#include "../work.hpp"

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// What a launch looks up: the device, the kernel, and for planned work everything the recipe
// follows from (its kind, contract and options, the unit's size class), plus the size bucket and the
// database's generation while tuning is on (tuned choices differ by size; the plan does not). Packed
// into words so that every launch hashes and compares it in a few instructions, however many
// kernels a program launches in turn.
struct launch_key {
    static constexpr std::size_t word_count = 12;
    std::uint64_t words[word_count] = {};

    // The bits in which words 2 to 10 (the work's, apart from the kernel, the shape and the tuning
    // generation) of `a` and `b` differ. Written out word by word: GCC keeps a loop here, and a launch
    // then runs its count and branches too.
    friend constexpr std::uint64_t work_words_differ(const launch_key& a, const launch_key& b) noexcept {
        static_assert(word_count == 12, "launch_key: compare every work word");
        const std::uint64_t* x = a.words;
        const std::uint64_t* y = b.words;
        return ((x[2] ^ y[2]) | (x[3] ^ y[3]) | (x[4] ^ y[4])) | ((x[5] ^ y[5]) | (x[6] ^ y[6]) | (x[7] ^ y[7])) |
               ((x[8] ^ y[8]) | (x[9] ^ y[9]) | (x[10] ^ y[10]));
    }

    friend constexpr bool operator==(const launch_key& a, const launch_key& b) noexcept {
        return ((a.words[0] ^ b.words[0]) | (a.words[1] ^ b.words[1]) | work_words_differ(a, b) |
                (a.words[11] ^ b.words[11])) == 0;
    }
};

// The size class of a unit for the launch table (the long-unit rule and tuned records depend on it):
// 0 without a unit size, else 1 + floor(log2(size)).
constexpr std::uint32_t unit_class(const work& w) noexcept {
    using kind = work::work_kind;
    if ((w.kind != kind::per_block && w.kind != kind::per_wave) || w.unit_size == 0) return 0;
    return 1 + size_bucket(w.unit_size);
}

// Words 2 to 10 of a key (the work's, apart from the kernel, the shape and the tuning generation),
// summed in a tree, not in a loop (GCC keeps the loop).
constexpr std::uint64_t work_words_sum(const launch_key& k) noexcept {
    static_assert(launch_key::word_count == 12, "launch_key: sum every work word");
    const std::uint64_t* w = k.words;
    return ((w[2] + w[3]) + (w[4] + w[5])) + ((w[6] + w[7]) + (w[8] + w[9])) + w[10];
}

// The words of a launch key that come from the work: all but the kernel (word 0), the device (the
// low half of word 1) and what tuning adds (finished_key). Word 0, the kernel's, holds the sum of the
// work's words (work_words_sum) until the key is finished: a launch's hash then reads one word of
// the key its caller packed instead of nine (for a work of constants the sum is a constant).
// Every word is given at once: a key zeroed first and then filled costs a block clear at every call.
constexpr launch_key work_key(const work& w) noexcept {
    const work::kernel_contract& c = w.contract;
    const plan_options& o = w.options;
    const std::uint64_t factor = o.grid == grid_policy::saturate  ? o.saturation_rounds
                                 : o.grid == grid_policy::coarsen ? o.items_per_thread
                                                                  : 0;
    const std::uint64_t shape =
        (std::uint64_t{1} << 32) | (std::uint64_t{w.has_baseline} << 33) | (static_cast<std::uint64_t>(w.kind) << 34) |
        (static_cast<std::uint64_t>(c.cover) << 37) | (std::uint64_t{c.powers_of_two} << 38) |
        (std::uint64_t{o.spread_small_work} << 39) | (static_cast<std::uint64_t>(o.grid) << 40) |
        (std::uint64_t{c.fixed_block.negative} << 43) | (std::uint64_t{o.grid_stated} << 44) |
        (std::uint64_t{unit_class(w)} << 48);
    // Never evaluated at compile time with a function here (a pointer's value is not a constant).
    const std::uint64_t shared_function =
        o.shared_for_block != nullptr ? reinterpret_cast<std::uintptr_t>(o.shared_for_block) : 0;
    launch_key key{{0, shape, c.max_block | (std::uint64_t{c.group_threads} << 32), c.fixed_block.x, c.fixed_block.y,
                    c.fixed_block.z, o.dynamic_shared, o.shared_per_thread, shared_function, o.min_efficient_block, factor,
                    0}};
    key.words[0] = work_words_sum(key);  // the kernel's word, until finished_key puts the kernel there
    return key;
}

// work_key of every work::elements(n): the count is not in the key (only its size bucket, while tuning).
inline constexpr launch_key elements_work_words = work_key(work::elements(std::uint64_t{1}));

// The hash of a launch key from its kernel word, its shape word and the sum of its other ten words.
// The kernel's address spreads keys over the slots; the other words (a few contracts per kernel) only
// need to differ, so they are summed, rotated and mixed once: a few instructions per launch instead of
// a multiplication per word, and the multiplies run in parallel, not in a chain.
constexpr std::size_t launch_key_hash_of(std::uint64_t kernel_word, std::uint64_t shape_word, std::uint64_t rest) noexcept {
    rest = ((rest << 29) | (rest >> 35)) ^ shape_word;
    const std::uint64_t h = (kernel_word ^ (rest * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(h ^ (h >> 31));
}

struct launch_key_hash {
    std::size_t operator()(const launch_key& k) const noexcept {
        return launch_key_hash_of(k.words[0], k.words[1], work_words_sum(k) + k.words[11]);
    }
};

// Where the work words of a key held in parts come from: the caller's words, read in place...
struct caller_work_words {
    const launch_key& words;
    constexpr const launch_key& get() const noexcept { return words; }
};
// ...or those of every element count (elements_work_words), a constant: its sum and its words fold
// into the hash and the comparison, so a launch of a count reads no key words but the entry's.
struct element_count_work_words {
    static constexpr const launch_key& get() noexcept { return elements_work_words; }
};

// The key of a launch of `kernel` on `device` with the work's words, held in parts: the work words
// where they are (WorkWords), and the three words the launch sets (the kernel; the shape with the
// device and, while tuning is on (`tuning_generation` not 0), the size bucket of `size` items; the
// generation). run_cached looks its entry up with these parts instead of a copy: launch(kernel, work)
// writes the words 8 bytes at a time just before the call, a copy reads them 16 at a time, and each
// such load of two fresh stores waits for both to reach the cache (a store-forwarding stall); on the
// H200 that made a launch of a work about 1% slower than one of a count.
template <class WorkWords = caller_work_words>
struct finished_key_parts {
    WorkWords work_words;
    std::uint64_t kernel_word = 0;
    std::uint64_t shape_word = 0;
    std::uint64_t last_word = 0;

    // The work words' sum is word 0 of an unfinished key (work_key).
    std::size_t hash() const noexcept {
        return launch_key_hash_of(kernel_word, shape_word, work_words.get().words[0] + last_word);
    }
    // Whether `k` is this key: every word compared (as operator==).
    bool matches(const launch_key& k) const noexcept {
        return ((k.words[0] ^ kernel_word) | (k.words[1] ^ shape_word) | work_words_differ(k, work_words.get()) |
                (k.words[11] ^ last_word)) == 0;
    }
};

template <class WorkWords>
finished_key_parts<WorkWords> finished_key_in_parts(WorkWords work_words, int device, const void* kernel,
                                                    std::uint64_t size, std::uint32_t tuning_generation) noexcept {
    finished_key_parts<WorkWords> parts{work_words};
    parts.kernel_word = reinterpret_cast<std::uintptr_t>(kernel);
    parts.shape_word = work_words.get().words[1] | static_cast<std::uint32_t>(device);
    parts.last_word = work_words.get().words[11];
    if (tuning_generation != 0) {
        parts.shape_word |= std::uint64_t{size_bucket(size)} << 56;
        parts.last_word = tuning_generation;
    }
    return parts;
}

inline finished_key_parts<> finished_key_in_parts(const launch_key& work_words, int device, const void* kernel,
                                                  std::uint64_t size, std::uint32_t tuning_generation) noexcept {
    return finished_key_in_parts(caller_work_words{work_words}, device, kernel, size, tuning_generation);
}

// The same key as one value (a table's first computation stores it).
inline launch_key finished_key(const launch_key& work_words, int device, const void* kernel, std::uint64_t size,
                               std::uint32_t tuning_generation) noexcept {
    const finished_key_parts parts = finished_key_in_parts(work_words, device, kernel, size, tuning_generation);
    launch_key key = work_words;
    key.words[0] = parts.kernel_word;
    key.words[1] = parts.shape_word;
    key.words[11] = parts.last_word;
    return key;
}

}  // namespace detail
WAVEFIT_END_NAMESPACE
