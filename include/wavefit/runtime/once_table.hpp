// SPDX-License-Identifier: MIT
// The one cache mechanism of the runtime layer: a table that computes each value once and then
// serves it to every thread without a lock. Every launch looks up its entry here, so a lookup must
// cost a hash and a comparison whatever the number of kernels a program launches in turn (a model
// step launches dozens); and many threads launching a kernel for the first time at once must neither
// race nor query the runtime more than once. Readers probe an open-addressed array of atomic
// pointers; a miss computes under the table's mutex and publishes the finished entry with a release
// store. Entries are never moved, and freed only with their table, so a pointer handed out stays
// valid as long as the table (the process's tables live as long as the process).
// The slot array starts at 64 slots and doubles when half full, up to MaxSlots: a table made at a
// process's first launch touches half a kilobyte, not MaxSlots pointers (a 4096-slot array cleared at
// once was half of that launch's time on the fake runtime, 45 of 90 us: eight fresh pages faulted in).
// A grown array replaces the old one with a release store; the old one is kept, unchanged, for
// readers still probing it: it holds a subset of the entries, and a miss there is retried under the
// mutex against the current array. The current array is one word, a pointer to its first slot's
// byte offset by its size's log2 (arrays start a cache line, so the offset stays within the first
// slot and the pointer keeps its provenance): a lookup reads the word and one slot, with no header
// between them, a line fewer for a launch that finds its lines evicted.
// No GPU header, and no exception of its own (only std::bad_alloc, where `new` would throw it): the
// runtime layer uses it with real queries, the tests with fakes (under ThreadSanitizer).
#pragma once

#include "../config.hpp"

#include <atomic>   // the slots
#include <cstddef>  // std::size_t
#include <cstdint>  // the word's low bits
#include <mutex>    // first computations
#include <new>      // operator new; std::nothrow where a table that cannot grow keeps working
#include <utility>  // std::forward

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

// A block of memory whose `line` starts a cache line, from the plain `operator new` and aligned here:
// a process's first launch then calls no allocation function the program has not called already.
// libstdc++'s aligned and nothrow forms resolve five symbols through the dynamic linker on their first
// call (the aligned array form calls the aligned form, which calls aligned_alloc and libgcc's
// popcount): 15% of the first launch's instructions on the fake runtime (bench/launch_model/count.sh
// first), and on an H100 resolving symbols was about 9 us of the first launch (bench/README.md).
struct line_block {
    static constexpr std::size_t line = 64;
    void* storage = nullptr;  // what operator new gave, for release()
    void* start = nullptr;    // the first line inside it

    // `bytes` from a line's start. With `may_fail`, a block that memory cannot give is an empty one
    // (storage null) instead of std::bad_alloc (as `new` would throw; without exceptions, where
    // `new` ends the process, the nothrow form is asked, off the first launch's path).
    static line_block allocate(std::size_t bytes, bool may_fail) {
        line_block b;
#if WAVEFIT_EXCEPTIONS
        try {
            b.storage = ::operator new(bytes + line - 1);
        } catch (const std::bad_alloc&) {
            if (!may_fail) throw;
            return b;
        }
#else
        b.storage = may_fail ? ::operator new(bytes + line - 1, std::nothrow) : ::operator new(bytes + line - 1);
        if (b.storage == nullptr) return b;
#endif
        const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(b.storage);
        b.start = static_cast<unsigned char*>(b.storage) + ((line - address % line) % line);
        return b;
    }
    static void release(void* storage) noexcept { ::operator delete(storage); }
};

template <class Key, class Value, class Hash, std::size_t MaxSlots = 4096>
class once_table {
    static_assert((MaxSlots & (MaxSlots - 1)) == 0, "once_table: the slot count is a power of two");

public:
    // The first array is allocated as the table is: std::bad_alloc when memory runs out.
    once_table() : arrays_(first_array()), current_(&own_word_) {
        own_word_.store(arrays_->word(), std::memory_order_relaxed);
    }
    // A table whose readers find its current array in `word`, kept elsewhere: the process's launch
    // tables keep theirs in the one line every launch reads (process_state.hpp), so that a lookup
    // (find_matching_at) reads no line of the table itself. Nothing is stored there until
    // publish_word(); until then readers of the word (null) find nothing.
    explicit once_table(std::atomic<void*>& word) : arrays_(first_array()), current_(&word) {}

    // Stores the current array's word where readers find it (a table made with an outside word).
    void publish_word() {
        std::lock_guard<std::mutex> lock(mutex_);
        current_->store(arrays_->word(), std::memory_order_release);
    }

    // Frees the entries: for tables with an owner (the tests'). The process's tables are never
    // destroyed (launch_impl.hpp), so that a launch from another static destructor still finds them.
    ~once_table() {
        const slots_view v = arrays_->view();
        for (std::size_t i = 0; i <= v.mask; ++i) node::destroy(v.slots[i].load(std::memory_order_relaxed));
        for (node* n = overflow_; n != nullptr;) {
            node* next = n->next_overflow;
            node::destroy(n);
            n = next;
        }
        for (slot_array* a = arrays_; a != nullptr;) {
            slot_array* older = a->older;
            slot_array::destroy(a);
            a = older;
        }
    }
    once_table(const once_table&) = delete;
    once_table& operator=(const once_table&) = delete;

    // The value of `key`. The first caller runs `compute(Value&)`, which fills a default-constructed
    // value and returns true, or returns false to leave nothing cached (a failed runtime query: the
    // next call tries again); nullptr then. Concurrent first callers wait for the one computation.
    template <class Compute>
    const Value* get(const Key& key, Compute&& compute) {
        const std::size_t h = Hash{}(key);
        const auto is_key = is(key);
        if (const node* n = find_node_at(*current_, h, is_key, itself())) return &n->value;
        std::lock_guard<std::mutex> lock(mutex_);
        if (const node* n = find_locked(h, is_key)) return &n->value;
        node* fresh = node::make(key);
        if (!compute(fresh->value)) {
            node::destroy(fresh);
            return nullptr;
        }
        publish(fresh, h);
        return &fresh->value;
    }

    // The value if some thread has computed it, else nullptr; never computes.
    const Value* find(const Key& key) const { return find_matching_at(*current_, Hash{}(key), is(key), itself()); }

    // find() of a key the caller holds in parts: `h` is the key's hash (what Hash gives), `equal(k)`
    // says whether the stored key k is it.
    template <class Equal>
    const Value* find_matching(std::size_t h, const Equal& equal) const {
        return find_matching_at(*current_, h, equal, itself());
    }

    // find_matching() in a table made with an outside word, given the word: the table itself
    // (`table_of()`) is read only past 16 full probes, where the entry may be in its overflow list.
    // Inlined into each launch's cached path: run_cached looks its key up in parts, without copying
    // the words its caller packed (launch_key.hpp says why), and run_configured_cached a key of
    // constants, which hashes to one.
    template <class Equal, class TableOf>
    WAVEFIT_ALWAYS_INLINE static const Value* find_matching_at(const std::atomic<void*>& word, std::size_t h,
                                                              const Equal& equal, TableOf&& table_of) {
        const node* n = find_node_at(word, h, equal, std::forward<TableOf>(table_of));
        return n != nullptr ? &n->value : nullptr;
    }

    std::size_t size() const noexcept { return count_.load(std::memory_order_relaxed); }
    // How many slots the current array has (64, doubling up to MaxSlots): for the tests.
    std::size_t slot_count() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return arrays_->view().mask + 1;
    }

private:
    // Probes this many slots before a key goes to the overflow list (a table this full is rare).
    static constexpr std::size_t probes = 16;
    static constexpr std::size_t first_count = MaxSlots < 64 ? MaxSlots : 64;

    // A node starts a cache line (make() places it there): a launch key (96 bytes) then spans two lines,
    // not three, and a lookup after the driver's call finds one line fewer evicted
    // (bench/launch_model/count.sh evict). Not declared over-aligned: `new` of such a type asks for
    // the aligned allocation functions, and placement at a line's start is what matters.
    struct node {
        explicit node(const Key& k, void* block) : key(k), storage(block) {}
        const Key key;
        Value value{};
        node* next_overflow = nullptr;
        void* const storage;  // line_block::storage, freed by destroy()

        // A node at a line's start: std::bad_alloc when memory runs out, as `new node` would.
        static node* make(const Key& k) {
            const line_block b = line_block::allocate(sizeof(node), false);
#if WAVEFIT_EXCEPTIONS
            try {
                return new (b.start) node(k, b.storage);
            } catch (...) {  // the key's or the value's constructor threw
                line_block::release(b.storage);
                throw;
            }
#else
            return new (b.start) node(k, b.storage);
#endif
        }
        static void destroy(node* n) noexcept {
            if (n == nullptr) return;
            void* const storage = n->storage;
            n->~node();
            line_block::release(storage);
        }
    };

    // An array's slots and mask, as a lookup reads them.
    struct slots_view {
        std::atomic<node*>* slots;
        std::size_t mask;
    };

    // An array of slots, owned here and freed with the table; readers see it through current_'s word.
    // Its slots start a cache line, which leaves the word's low six bits for the size's log2.
    // The array and its slots are one block: the slots start at the block's second line.
    static constexpr std::size_t slot_alignment = line_block::line;
    struct slot_array {
        slot_array(std::atomic<node*>* s, std::size_t count, slot_array* replaced, void* block)
            : slots(s), count_log2(log2_of(count)), older(replaced), storage(block) {}
        slot_array(const slot_array&) = delete;
        slot_array& operator=(const slot_array&) = delete;

        // `count` cleared slots, or nullptr when memory runs out and `may_fail` (else std::bad_alloc).
        static slot_array* make(std::size_t count, slot_array* replaced, bool may_fail) {
            static_assert(sizeof(slot_array) <= slot_alignment, "once_table: the array's header fits one line");
            const line_block b = line_block::allocate(slot_alignment + count * sizeof(std::atomic<node*>), may_fail);
            if (b.storage == nullptr) return nullptr;
            auto* const cleared =
                reinterpret_cast<std::atomic<node*>*>(static_cast<unsigned char*>(b.start) + slot_alignment);
            for (std::size_t i = 0; i < count; ++i) new (&cleared[i]) std::atomic<node*>(nullptr);
            return new (b.start) slot_array(cleared, count, replaced, b.storage);
        }
        // Frees the array and its slots (the slots hold atomics of pointers: nothing to destroy).
        static void destroy(slot_array* a) noexcept {
            void* const storage = a->storage;
            a->~slot_array();
            line_block::release(storage);
        }

        // What current_ holds for this array.
        void* word() const noexcept { return reinterpret_cast<unsigned char*>(slots) + count_log2; }
        slots_view view() const noexcept { return {slots, (std::size_t{1} << count_log2) - 1}; }

        std::atomic<node*>* const slots;
        const std::size_t count_log2;
        slot_array* const older;  // the array this one replaced, kept for readers still probing it
        void* const storage;      // line_block::storage of the array and its slots
    };

    static constexpr std::size_t log2_of(std::size_t count) noexcept {
        std::size_t log2 = 0;
        while ((std::size_t{1} << log2) < count) ++log2;
        return log2;
    }
    static_assert(log2_of(MaxSlots) < slot_alignment, "once_table: the size's log2 fits the word's low bits");

    // The first array, made with the table: std::bad_alloc when memory runs out (as `new` would; without
    // exceptions, as `new` does then, the process ends).
    static slot_array* first_array() { return slot_array::make(first_count, nullptr, false); }

    // The slots and mask a (published, not null) word of current_ stands for.
    static slots_view view(void* word) noexcept {
        const std::size_t log2 = reinterpret_cast<std::uintptr_t>(word) & (slot_alignment - 1);
        return {reinterpret_cast<std::atomic<node*>*>(static_cast<unsigned char*>(word) - log2),
                (std::size_t{1} << log2) - 1};
    }

    // The probe of a key in one array (`equal` says which stored key is it): its node, or nullptr at the
    // first empty slot (no entry), or past_full() when every probed slot held another key. The mask and
    // the slots are read once, before the loop (each acquire load would otherwise read them again).
    template <class Equal, class PastFull>
    WAVEFIT_ALWAYS_INLINE static const node* probe(const slots_view& v, std::size_t h, std::memory_order order,
                                                   const Equal& equal, PastFull&& past_full) {
        const std::size_t mask = v.mask;
        const std::atomic<node*>* const slots = v.slots;
        for (std::size_t i = 0; i < probes; ++i) {
            const node* n = slots[(h + i) & mask].load(order);
            if (n == nullptr) return nullptr;
            if (equal(n->key)) return n;
        }
        return past_full();
    }

    // The lock-free lookup in the array `word` stands for, inlined into every launch's. Past 16 full
    // slots the entry, if any, is in the table's overflow list (`table_of()`), or in an array that
    // replaced the probed one meanwhile.
    template <class Equal, class TableOf>
    WAVEFIT_ALWAYS_INLINE static const node* find_node_at(const std::atomic<void*>& word, std::size_t h,
                                                          const Equal& equal, TableOf&& table_of) {
        void* const current = word.load(std::memory_order_acquire);
        if (current == nullptr) return nullptr;  // an outside word not published yet
        return probe(view(current), h, std::memory_order_acquire, equal,
                     [&] { return table_of().find_past_full_probes(h, equal); });
    }

    // What stands for the stored key `key`: equality.
    static auto is(const Key& key) noexcept {
        return [&key](const Key& k) { return k == key; };
    }
    // The table for find_node_at where it is this one.
    auto itself() const noexcept {
        return [this]() -> const once_table& { return *this; };
    }

    template <class Equal>
    WAVEFIT_NOINLINE const node* find_past_full_probes(std::size_t h, const Equal& equal) const {
        std::lock_guard<std::mutex> lock(mutex_);
        return find_locked(h, equal);
    }

    // Under the mutex, against the current array itself (its word may not be published yet).
    template <class Equal>
    const node* find_locked(std::size_t h, const Equal& equal) const {
        return probe(arrays_->view(), h, std::memory_order_relaxed, equal, [&] {
            for (const node* n = overflow_; n != nullptr; n = n->next_overflow)
                if (equal(n->key)) return n;
            return static_cast<const node*>(nullptr);
        });
    }

    // Under the mutex. Never fails once the value is computed: a table that cannot grow for want of
    // memory places the entry in the array it has, or in the overflow list.
    void publish(node* fresh, std::size_t h) {
        const std::size_t count = count_.load(std::memory_order_relaxed) + 1;
        slots_view v = arrays_->view();
        if (count * 2 > v.mask + 1 && v.mask + 1 < MaxSlots && grow(v)) v = arrays_->view();
        if (!place(v, fresh, h)) to_overflow(fresh);
        count_.store(count, std::memory_order_relaxed);
    }

    static bool place(const slots_view& v, node* n, std::size_t h) {
        for (std::size_t i = 0; i < probes; ++i) {
            std::atomic<node*>& slot = v.slots[(h + i) & v.mask];
            if (slot.load(std::memory_order_relaxed) == nullptr) {
                slot.store(n, std::memory_order_release);
                return true;
            }
        }
        return false;
    }

    void to_overflow(node* n) {
        n->next_overflow = overflow_;
        overflow_ = n;
    }

    // Under the mutex: twice the slots, every entry of `old` placed again, then published; false (and
    // `old` kept) when memory runs out.
    bool grow(const slots_view& old) noexcept {
        slot_array* bigger = slot_array::make(2 * (old.mask + 1), arrays_, true);
        if (bigger == nullptr) return false;
        const slots_view v = bigger->view();
        for (std::size_t i = 0; i <= old.mask; ++i) {
            node* n = old.slots[i].load(std::memory_order_relaxed);
            if (n != nullptr && !place(v, n, Hash{}(n->key))) to_overflow(n);
        }
        arrays_ = bigger;
        current_->store(bigger->word(), std::memory_order_release);
        return true;
    }

    slot_array* arrays_;  // the current array, then those it replaced (guarded by mutex_)
    std::atomic<void*> own_word_{nullptr};  // current_ of a table made without an outside word
    std::atomic<void*>* const current_;  // arrays_'s word (slot_array::word), what a lookup reads
    node* overflow_ = nullptr;  // guarded by mutex_
    mutable std::mutex mutex_;
    std::atomic<std::size_t> count_{0};
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
