// SPDX-License-Identifier: MIT
// The runtime layer's one cache mechanism without a GPU: device limits, kernel attributes and launch
// entries all live in once_table, so these races stand for "many threads launch a kernel for the first
// time at once" and "a model step launches dozens of kernels in turn". The CI also runs this file
// under ThreadSanitizer.
#include <catch2/catch.hpp>

#include <wavefit/runtime/launch_key.hpp>
#include <wavefit/runtime/once_table.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

struct int_hash {
    std::size_t operator()(int k) const noexcept { return static_cast<std::size_t>(k); }
};
// Every key in one slot: the overflow list is exercised, not only the probes.
struct colliding_hash {
    std::size_t operator()(int) const noexcept { return 5; }
};

struct slow_query {
    std::atomic<int>* calls;
    int value;
    bool operator()(std::string& out) const {
        calls->fetch_add(1);
        // Long enough that every thread arrives while the first is still computing.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        out = "device " + std::to_string(value);
        return true;
    }
};

// The first word of `whole` whose change (one bit flipped) a key in parts still matches; word_count
// when it matches none of the twelve keys that differ from it in one word, as it must.
template <class Parts>
std::size_t first_changed_word_matched(const Parts& parts, const wavefit::detail::launch_key& whole) {
    using wavefit::detail::launch_key;
    for (std::size_t i = 0; i < launch_key::word_count; ++i) {
        launch_key other = whole;
        other.words[i] ^= std::uint64_t{1} << (i * 5);
        if (parts.matches(other)) return i;
    }
    return launch_key::word_count;
}

}  // namespace

TEST_CASE("32 threads asking for the same key at once compute it exactly once and see one value", "[runtime][cache]") {
    wavefit::detail::once_table<int, std::string, int_hash> table;
    std::atomic<int> calls{0};
    std::atomic<bool> go{false};
    constexpr int thread_count = 32;
    std::vector<const std::string*> seen(thread_count, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t)
        threads.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            seen[static_cast<std::size_t>(t)] = table.get(7, slow_query{&calls, 7});
        });
    go.store(true);
    for (auto& th : threads) th.join();

    INFO("compute calls: " << calls.load());
    REQUIRE(calls.load() == 1);
    for (const std::string* s : seen) {
        REQUIRE(s != nullptr);
        REQUIRE(s == seen[0]);  // the same object: pointers stay valid and shared
        REQUIRE(*s == "device 7");
    }
    REQUIRE(table.size() == 1);
}

template <class Hash, std::size_t Slots>
void race_on_many_keys(int keys) {
    wavefit::detail::once_table<int, int, Hash, Slots> table;
    std::vector<std::atomic<int>> per_key_calls(static_cast<std::size_t>(keys));
    std::atomic<int> wrong_values{0};  // Catch2 assertions are not thread-safe: count, then check
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 400; ++round) {
                const int key = (round * 7 + t) % keys;
                const int* value = table.get(key, [&](int& out) {
                    per_key_calls[static_cast<std::size_t>(key)].fetch_add(1);
                    out = key * 10;
                    return true;
                });
                if (value == nullptr || *value != key * 10) wrong_values.fetch_add(1);
            }
        });
    for (auto& th : threads) th.join();
    REQUIRE(wrong_values.load() == 0);
    for (int k = 0; k < keys; ++k) {
        INFO("key " << k << " computed " << per_key_calls[static_cast<std::size_t>(k)].load() << " times");
        REQUIRE(per_key_calls[static_cast<std::size_t>(k)].load() == 1);
    }
    REQUIRE(table.size() == static_cast<std::size_t>(keys));
}

TEST_CASE("threads racing on many keys compute each key once", "[runtime][cache]") {
    race_on_many_keys<int_hash, 4096>(64);
    race_on_many_keys<int_hash, 4096>(2048);  // six doublings of the slot array while threads probe it
}

TEST_CASE("a table starts at 64 slots and doubles when half full, and no entry moves", "[runtime][cache]") {
    wavefit::detail::once_table<int, int, int_hash> table;
    const auto make = [](int key) {
        return [key](int& out) {
            out = key + 1;
            return true;
        };
    };
    REQUIRE(table.slot_count() == 64);
    std::vector<const int*> handed_out;
    for (int k = 0; k < 32; ++k) handed_out.push_back(table.get(k, make(k)));
    REQUIRE(table.slot_count() == 64);  // 32 entries: half full
    handed_out.push_back(table.get(32, make(32)));
    REQUIRE(table.slot_count() == 128);
    for (int k = 33; k < 5000; ++k) handed_out.push_back(table.get(k, make(k)));
    REQUIRE(table.slot_count() == 4096);  // the largest; the rest went past 16 probes to the overflow list
    REQUIRE(table.size() == 5000);
    for (int k = 0; k < 5000; ++k) {
        INFO("key " << k);
        REQUIRE(table.find(k) == handed_out[static_cast<std::size_t>(k)]);
        REQUIRE(*table.find(k) == k + 1);
    }
}

TEST_CASE("more keys than slots, and keys that all collide, still compute once and are all found", "[runtime][cache]") {
    race_on_many_keys<int_hash, 16>(100);       // past the table's slots: the overflow list
    race_on_many_keys<colliding_hash, 64>(40);  // one hash for all: 16 probes, then the overflow list
}

TEST_CASE("a failed query is not cached: the next call tries again", "[runtime][cache]") {
    wavefit::detail::once_table<int, int, int_hash> table;
    int attempts = 0;
    const auto flaky = [&](int& out) {
        ++attempts;
        if (attempts == 1) return false;  // hipErrorNotReady, say
        out = 42;
        return true;
    };
    REQUIRE(table.get(1, flaky) == nullptr);
    REQUIRE(table.find(1) == nullptr);
    REQUIRE(table.size() == 0);
    const int* value = table.get(1, flaky);
    REQUIRE(value != nullptr);
    REQUIRE(*value == 42);
    REQUIRE(attempts == 2);
    REQUIRE(table.find(1) == value);
}

TEST_CASE("a table with an outside word: readers of the word find nothing until it is published, then "
          "everything, through growth and the overflow list", "[runtime][cache]") {
    using table_type = wavefit::detail::once_table<int, int, colliding_hash, 64>;
    std::atomic<void*> word{nullptr};
    table_type table(word);
    const auto equal_to = [](int key) { return [key](int k) { return k == key; }; };
    const auto table_of = [&table]() -> const table_type& { return table; };
    // Computed before the word is published: the table finds it, a reader of the word does not.
    REQUIRE(*table.get(1, [](int& out) {
        out = 10;
        return true;
    }) == 10);
    REQUIRE(word.load() == nullptr);
    REQUIRE(table_type::find_matching_at(word, colliding_hash{}(1), equal_to(1), table_of) == nullptr);
    table.publish_word();
    REQUIRE(word.load() != nullptr);
    REQUIRE(table_type::find_matching_at(word, colliding_hash{}(1), equal_to(1), table_of) == table.find(1));
    // Every key in one slot: 16 probes fill, the rest go to the overflow list, which the word's reader
    // reaches through the table.
    const void* first_word = word.load();
    for (int k = 2; k <= 40; ++k)
        REQUIRE(table.get(k, [k](int& out) {
            out = 10 * k;
            return true;
        }) != nullptr);
    REQUIRE(table.slot_count() == 64);  // this table's largest array: the word is the first one's still
    REQUIRE(word.load() == first_word);
    for (int k = 1; k <= 40; ++k) {
        INFO("key " << k);
        const int* found = table_type::find_matching_at(word, colliding_hash{}(k), equal_to(k), table_of);
        REQUIRE(found != nullptr);
        CHECK(*found == 10 * k);
    }
    CHECK(table_type::find_matching_at(word, colliding_hash{}(41), equal_to(41), table_of) == nullptr);
}

TEST_CASE("an outside word follows its table's growth, and threads reading it meanwhile find every finished "
          "key", "[runtime][cache]") {
    using table_type = wavefit::detail::once_table<int, int, int_hash, 4096>;
    std::atomic<void*> word{nullptr};
    table_type table(word);
    table.publish_word();
    const void* first_word = word.load();
    constexpr int keys = 2000;  // five doublings
    std::atomic<int> finished{0};
    std::atomic<int> misses{0};
    std::thread writer([&] {
        for (int k = 0; k < keys; ++k) {
            (void)table.get(k, [k](int& out) {
                out = k + 7;
                return true;
            });
            finished.store(k + 1, std::memory_order_release);
        }
    });
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; ++t) {
        readers.emplace_back([&] {
            while (finished.load(std::memory_order_acquire) < keys) {
                const int done = finished.load(std::memory_order_acquire);
                for (int k = 0; k < done; k += 37) {
                    const int* found = table_type::find_matching_at(
                        word, int_hash{}(k), [k](int stored) { return stored == k; },
                        [&table]() -> const table_type& { return table; });
                    if (found == nullptr || *found != k + 7) misses.fetch_add(1);
                }
            }
        });
    }
    writer.join();
    for (std::thread& r : readers) r.join();
    CHECK(misses.load() == 0);
    CHECK(table.slot_count() == 4096);
    CHECK(word.load() != first_word);
}

TEST_CASE("find never computes and sees only finished values", "[runtime][cache]") {
    wavefit::detail::once_table<int, int, int_hash> table;
    REQUIRE(table.find(3) == nullptr);
    REQUIRE(table.size() == 0);
    REQUIRE(*table.get(3, [](int& out) {
        out = 9;
        return true;
    }) == 9);
    REQUIRE(table.find(3) != nullptr);
}

TEST_CASE("a launch key held in parts hashes and compares as the key it stands for, word by word",
          "[runtime][cache][launch-key]") {
    // run_cached looks its entry up with finished_key_parts; the entry was stored under finished_key().
    using namespace wavefit::detail;
    const wavefit::work works[] = {wavefit::work::elements(1000),
                                   wavefit::work::per_block(64).block_fixed(wavefit::dims{256}),
                                   wavefit::work::per_wave(4096, 8192).shared_bytes(1024, 4),
                                   wavefit::work::elements(1 << 20).grid_saturated(3)};
    static int kernels[2];
    std::size_t keys_checked = 0;
    for (const wavefit::work& w : works) {
        const launch_key words = work_key(w);
        for (const int device : {0, 3}) {
            for (const std::uint32_t generation : {0u, 7u}) {
                for (const void* kernel : {static_cast<const void*>(&kernels[0]), static_cast<const void*>(&kernels[1])}) {
                    const launch_key whole = finished_key(words, device, kernel, w.size(), generation);
                    const finished_key_parts parts = finished_key_in_parts(words, device, kernel, w.size(), generation);
                    CAPTURE(device, generation, w.size());
                    CHECK(parts.hash() == launch_key_hash{}(whole));
                    CHECK(parts.matches(whole));
                    // A key that differs in any one word is another key.
                    CHECK(first_changed_word_matched(parts, whole) == launch_key::word_count);
                    ++keys_checked;
                }
            }
        }
    }
    CHECK(keys_checked == 4 * 2 * 2 * 2);
}

TEST_CASE("an element count's key in parts, with its work words as constants, is the key of the words read in place",
          "[runtime][cache][launch-key]") {
    // run_cached<true> (launch(kernel, n)) folds elements_work_words into its hash and comparison.
    using namespace wavefit::detail;
    static int kernels[2];
    for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{1} << 40}) {
        REQUIRE(work_key(wavefit::work::elements(n)) == elements_work_words);
        for (const int device : {0, 5}) {
            for (const std::uint32_t generation : {0u, 3u}) {
                const launch_key whole = finished_key(elements_work_words, device, &kernels[device % 2], n, generation);
                const auto constant = finished_key_in_parts(element_count_work_words{}, device, &kernels[device % 2], n,
                                                            generation);
                CAPTURE(n, device, generation);
                CHECK(constant.hash() == launch_key_hash{}(whole));
                CHECK(constant.matches(whole));
                CHECK(first_changed_word_matched(constant, whole) == launch_key::word_count);
            }
        }
    }
}

TEST_CASE("find_matching finds by parts what get stored by the whole key, also past full probes", "[runtime][cache]") {
    using namespace wavefit::detail;
    // Every key in one slot: the probes fill up and the rest go to the overflow list.
    struct one_slot {
        std::size_t operator()(const launch_key&) const noexcept { return 9; }
    };
    static int kernels[40];
    const launch_key words = work_key(wavefit::work::per_block(8).block_fixed(wavefit::dims{128}));
    once_table<launch_key, int, launch_key_hash> spread;
    once_table<launch_key, int, one_slot> crowded;
    for (int i = 0; i < 40; ++i) {
        const launch_key key = finished_key(words, 0, &kernels[i], 8, 0);
        REQUIRE(*spread.get(key, [i](int& v) { v = i; return true; }) == i);
        REQUIRE(*crowded.get(key, [i](int& v) { v = i; return true; }) == i);
    }
    for (int i = 0; i < 40; ++i) {
        const finished_key_parts parts = finished_key_in_parts(words, 0, &kernels[i], 8, 0);
        const auto is_it = [&parts](const launch_key& k) { return parts.matches(k); };
        CAPTURE(i);
        const int* in_spread = spread.find_matching(parts.hash(), is_it);
        const int* in_crowded = crowded.find_matching(9, is_it);
        REQUIRE(in_spread != nullptr);
        REQUIRE(in_crowded != nullptr);
        CHECK(*in_spread == i);
        CHECK(*in_crowded == i);
        // The same kernel on another device was never stored.
        const finished_key_parts elsewhere = finished_key_in_parts(words, 1, &kernels[i], 8, 0);
        CHECK(spread.find_matching(elsewhere.hash(), [&](const launch_key& k) { return elsewhere.matches(k); }) == nullptr);
    }
}
