// SPDX-License-Identifier: MIT
// The runtime layer's caches without a GPU: device limits, kernel attributes and block choices all
// live in once_cache, so these races stand for "many threads launch a kernel for the first time at
// once". The CI also runs this file under ThreadSanitizer.
#include <catch2/catch.hpp>

#include <wavefit/runtime/once_cache.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct slow_query {
    std::atomic<int>* calls;
    int value;
    std::string operator()() const {
        calls->fetch_add(1);
        // Long enough that every thread arrives while the first is still computing.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return "device " + std::to_string(value);
    }
};

}  // namespace

TEST_CASE("32 threads asking for the same key at once compute it exactly once and see one value", "[runtime][cache]") {
    wavefit::detail::once_cache<int, std::string> cache;
    std::atomic<int> calls{0};
    std::atomic<bool> go{false};
    constexpr int thread_count = 32;
    std::vector<const std::string*> seen(thread_count, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t)
        threads.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            seen[static_cast<std::size_t>(t)] = &cache.get(7, slow_query{&calls, 7});
        });
    go.store(true);
    for (auto& th : threads) th.join();

    INFO("compute calls: " << calls.load());
    REQUIRE(calls.load() == 1);
    for (const std::string* s : seen) {
        REQUIRE(s == seen[0]);  // the same object: references stay valid and shared
        REQUIRE(*s == "device 7");
    }
    REQUIRE(cache.size() == 1);
}

TEST_CASE("threads racing on many keys compute each key once", "[runtime][cache]") {
    wavefit::detail::once_cache<int, int> cache;
    constexpr int keys = 64;
    std::atomic<int> per_key_calls[keys] = {};
    std::atomic<int> wrong_values{0};  // Catch2 assertions are not thread-safe: count, then check
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 200; ++round) {
                const int key = (round * 7 + t) % keys;
                const int value = cache.get(key, [&] {
                    per_key_calls[key].fetch_add(1);
                    return key * 10;
                });
                if (value != key * 10) wrong_values.fetch_add(1);
            }
        });
    for (auto& th : threads) th.join();
    REQUIRE(wrong_values.load() == 0);
    for (int k = 0; k < keys; ++k) {
        INFO("key " << k);
        REQUIRE(per_key_calls[k].load() == 1);
    }
    REQUIRE(cache.size() == static_cast<std::size_t>(keys));
}

TEST_CASE("a failed query is not cached: the next call tries again", "[runtime][cache]") {
    wavefit::detail::once_cache<int, int> cache;
    int attempts = 0;
    const auto flaky = [&] {
        ++attempts;
        if (attempts == 1) throw std::runtime_error("hipErrorNotReady");
        return 42;
    };
    REQUIRE_THROWS_AS(cache.get(1, flaky), std::runtime_error);
    REQUIRE(cache.find(1) == nullptr);
    REQUIRE(cache.get(1, flaky) == 42);
    REQUIRE(attempts == 2);
    REQUIRE(cache.find(1) != nullptr);
    REQUIRE(*cache.find(1) == 42);
}

TEST_CASE("find never computes and sees only finished values", "[runtime][cache]") {
    wavefit::detail::once_cache<int, int> cache;
    REQUIRE(cache.find(3) == nullptr);
    REQUIRE(cache.size() == 0);
    REQUIRE(cache.get(3, [] { return 9; }) == 9);
    REQUIRE(cache.find(3) != nullptr);
}
