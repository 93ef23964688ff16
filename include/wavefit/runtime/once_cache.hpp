// SPDX-License-Identifier: MIT
// A thread-safe cache that computes each value exactly once and then serves it lock-free per
// thread. Launches look up device limits, kernel attributes and block choices on every call; the
// lookup must cost nanoseconds, and many threads launching a kernel for the first time at once must
// neither race nor query the runtime more than once per key. No GPU header: the runtime layer uses
// it with real queries, the tests with fakes (under TSan).
#pragma once

#include <atomic>         // the per-slot ready flag
#include <cstddef>        // std::size_t
#include <functional>     // std::hash
#include <memory>         // std::unique_ptr: slots never move once created
#include <mutex>          // per-slot computing lock, std::unique_lock
#include <optional>       // a slot's value before it is computed
#include <shared_mutex>   // many readers, rare writers
#include <unordered_map>  // key -> slot

namespace wavefit::detail {

template <class Key, class Value, class Hash = std::hash<Key>>
class once_cache {
public:
    // The value for `key`, calling `compute()` the first time any thread asks for it. If compute
    // throws, nothing is cached and the next call tries again. References stay valid for the
    // cache's lifetime: entries are never erased or moved.
    template <class Compute>
    const Value& get(const Key& key, Compute&& compute) {
        slot& s = slot_for(key);
        if (!s.ready.load(std::memory_order_acquire)) {
            // A per-slot mutex rather than std::call_once: libstdc++'s call_once can deadlock when
            // the callable throws (GCC bug 66146, seen here under ThreadSanitizer), and a failed
            // runtime query must leave the slot retryable.
            std::lock_guard<std::mutex> lock(s.computing);
            if (!s.ready.load(std::memory_order_relaxed)) {
                s.value.emplace(compute());
                s.ready.store(true, std::memory_order_release);
            }
        }
        return *s.value;
    }

    // The value if some thread has already computed it, else nullptr; never computes.
    const Value* find(const Key& key) const {
        std::shared_lock<std::shared_mutex> lock(mutex_);
        const auto it = slots_.find(key);
        if (it == slots_.end() || !it->second->ready.load(std::memory_order_acquire)) return nullptr;
        return &*it->second->value;
    }

    std::size_t size() const {
        std::shared_lock<std::shared_mutex> lock(mutex_);
        return slots_.size();
    }

private:
    struct slot {
        std::mutex computing;
        std::atomic<bool> ready{false};
        std::optional<Value> value;
    };

    slot& slot_for(const Key& key) {
        {
            std::shared_lock<std::shared_mutex> lock(mutex_);
            const auto it = slots_.find(key);
            if (it != slots_.end()) return *it->second;
        }
        std::unique_lock<std::shared_mutex> lock(mutex_);
        auto& owned = slots_[key];
        if (!owned) owned = std::make_unique<slot>();
        return *owned;
    }

    mutable std::shared_mutex mutex_;
    std::unordered_map<Key, std::unique_ptr<slot>, Hash> slots_;
};

}  // namespace wavefit::detail
