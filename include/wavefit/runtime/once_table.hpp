// SPDX-License-Identifier: MIT
// The one cache mechanism of the runtime layer: a table that computes each value once and then
// serves it to every thread without a lock. Every launch looks up its entry here, so a lookup must
// cost a hash and a comparison whatever the number of kernels a program launches in turn (a model
// step launches dozens); and many threads launching a kernel for the first time at once must neither
// race nor query the runtime more than once. Readers probe an open-addressed array of atomic
// pointers; a miss computes under the table's mutex and publishes the finished entry with a release
// store. Entries are never moved, and freed only with their table, so a pointer handed out stays
// valid as long as the table (the process's tables live as long as the process).
// No GPU header and no exceptions: the runtime layer uses it with real queries, the tests with fakes
// (under ThreadSanitizer).
#pragma once

#include "../config.hpp"

#include <atomic>   // the slots
#include <cstddef>  // std::size_t
#include <mutex>    // first computations

WAVEFIT_BEGIN_NAMESPACE
namespace detail {

template <class Key, class Value, class Hash, std::size_t Slots = 4096>
class once_table {
    static_assert((Slots & (Slots - 1)) == 0, "once_table: the slot count is a power of two");

public:
    once_table() = default;
    // Frees the entries: for tables with an owner (the tests'). The process's tables are never
    // destroyed (launch_impl.hpp), so that a launch from another static destructor still finds them.
    ~once_table() {
        for (std::atomic<const node*>& slot : slots_) delete slot.load(std::memory_order_relaxed);
        for (node* n = overflow_; n != nullptr;) {
            node* next = n->next_overflow;
            delete n;
            n = next;
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
        if (const node* n = find(key, h)) return &n->value;
        std::lock_guard<std::mutex> lock(mutex_);
        if (const node* n = find_locked(key, h)) return &n->value;
        node* fresh = new node(key);
        if (!compute(fresh->value)) {
            delete fresh;
            return nullptr;
        }
        publish(fresh, h);
        return &fresh->value;
    }

    // The value if some thread has computed it, else nullptr; never computes.
    const Value* find(const Key& key) const {
        const node* n = find(key, Hash{}(key));
        return n != nullptr ? &n->value : nullptr;
    }

    std::size_t size() const noexcept { return count_.load(std::memory_order_relaxed); }

private:
    // Probes this many slots before a key goes to the overflow list (a table this full is rare).
    static constexpr std::size_t probes = 16;

    struct node {
        explicit node(const Key& k) : key(k) {}
        const Key key;
        Value value{};
        node* next_overflow = nullptr;
    };

    const node* find(const Key& key, std::size_t h) const {
        for (std::size_t i = 0; i < probes; ++i) {
            const node* n = slots_[(h + i) & (Slots - 1)].load(std::memory_order_acquire);
            if (n == nullptr) return nullptr;
            if (n->key == key) return n;
        }
        // Every probed slot holds another key: the entry, if any, is in the overflow list.
        std::lock_guard<std::mutex> lock(mutex_);
        return find_overflow(key);
    }

    const node* find_locked(const Key& key, std::size_t h) const {
        for (std::size_t i = 0; i < probes; ++i) {
            const node* n = slots_[(h + i) & (Slots - 1)].load(std::memory_order_relaxed);
            if (n == nullptr) return nullptr;
            if (n->key == key) return n;
        }
        return find_overflow(key);
    }

    const node* find_overflow(const Key& key) const {
        for (const node* n = overflow_; n != nullptr; n = n->next_overflow)
            if (n->key == key) return n;
        return nullptr;
    }

    void publish(node* fresh, std::size_t h) {
        count_.fetch_add(1, std::memory_order_relaxed);
        for (std::size_t i = 0; i < probes; ++i) {
            std::atomic<const node*>& slot = slots_[(h + i) & (Slots - 1)];
            if (slot.load(std::memory_order_relaxed) == nullptr) {
                slot.store(fresh, std::memory_order_release);
                return;
            }
        }
        fresh->next_overflow = overflow_;
        overflow_ = fresh;
    }

    std::atomic<const node*> slots_[Slots]{};
    node* overflow_ = nullptr;  // guarded by mutex_
    mutable std::mutex mutex_;
    std::atomic<std::size_t> count_{0};
};

}  // namespace detail
WAVEFIT_END_NAMESPACE
