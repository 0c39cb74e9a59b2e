// Testbench of the relaxed memory model's StoreBuffer (rtl_models/ldst/store_buffer.h): stores
// leave in the order of their drawn times, never ahead of an earlier store to the same bytes; the
// SM's own accesses, fences and a full buffer drain them; a seed gives the same order every time.
#define BOOST_TEST_MODULE store_buffer
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/test_memory.h"
#include "ldst/store_buffer.h"

using namespace gpusim;
using gpusim::test::TestMemory;

namespace {

constexpr uint64_t kBase = TestMemory::kBase;

struct Bench {
    TestMemory mem;
    MemoryView view{&mem};
    StoreBuffer sb;
    explicit Bench(StoreBufferConfig cfg = {}) : sb(cfg, 0, view) {}
    Bench(uint64_t seed, uint32_t max_delay) : sb(config(seed, max_delay), 0, view) {}
    static StoreBufferConfig config(uint64_t seed, uint32_t max_delay) {
        StoreBufferConfig cfg;
        cfg.seed = seed;
        cfg.max_delay = max_delay;
        return cfg;
    }
    void put(size_t word, uint32_t v, uint64_t now = 0) { sb.store(kBase + 4 * word, &v, 4, now); }
};

// Two SMs on one memory and one log of replaced values.
struct TwoSms {
    TestMemory mem;
    MemoryView view{&mem};
    StoreBuffer sm0, sm1;
    StaleLog log;
    explicit TwoSms(const StoreBufferConfig& cfg) : sm0(cfg, 0, view), sm1(cfg, 1, view), log(2, 64, cfg.load_max_delay, cfg.seed) {
        sm0.connect(&log);
        sm1.connect(&log);
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(stores_wait_in_the_buffer_and_leave_by_their_due_time) {
    Bench b(1, 100);
    b.put(0, 10);
    b.put(32, 20);
    BOOST_TEST(b.mem.u32(0) == 0u);             // nothing reached memory yet
    BOOST_TEST(b.mem.u32(32) == 0u);
    b.sb.end_round(100);                        // both are due by max_delay
    BOOST_TEST(b.mem.u32(0) == 10u);
    BOOST_TEST(b.mem.u32(32) == 20u);
    BOOST_TEST(b.sb.empty());
}

BOOST_AUTO_TEST_CASE(stores_to_different_words_overtake_each_other_under_some_seeds) {
    // Two stores, then rounds a cycle apart: under some seeds the second reaches memory alone first.
    int overtaken = 0, in_order = 0;
    for (uint64_t seed = 1; seed <= 64; ++seed) {
        Bench b(seed, 50);
        b.put(0, 1);
        b.put(32, 1);
        for (uint64_t t = 0; t <= 50 && !b.sb.empty(); ++t) {
            b.sb.end_round(t);
            if (b.mem.u32(32) == 1 && b.mem.u32(0) == 0) { ++overtaken; break; }
            if (b.mem.u32(0) == 1) { ++in_order; break; }
        }
    }
    BOOST_TEST(overtaken > 10);
    BOOST_TEST(in_order > 10);
    BOOST_TEST(overtaken + in_order == 64);
}

BOOST_AUTO_TEST_CASE(stores_to_the_same_bytes_keep_their_order) {
    for (uint64_t seed = 1; seed <= 64; ++seed) {
        Bench b(seed, 50);
        b.put(0, 1);
        b.put(8, 7);    // another word in between, so the two are not merged
        b.put(0, 2);
        uint32_t last = 0;
        for (uint64_t t = 0; t <= 50; ++t) {
            b.sb.end_round(t);
            const uint32_t v = b.mem.u32(0);
            BOOST_TEST_REQUIRE(!(last == 2 && v == 1), "seed " << seed << ": word 0 went back from 2 to 1");
            last = v;
        }
        BOOST_TEST(b.mem.u32(0) == 2u);
    }
}

BOOST_AUTO_TEST_CASE(the_sms_own_accesses_and_fences_drain_what_they_need) {
    Bench b(1, 1000);
    b.put(0, 5);
    b.put(1, 6);
    b.put(16, 7);
    b.sb.before_access(kBase + 4, 4);           // a load of word 1: its store lands, the rest wait
    BOOST_TEST(b.mem.u32(1) == 6u);
    BOOST_TEST(b.mem.u32(0) == 0u);
    BOOST_TEST(b.mem.u32(16) == 0u);
    b.sb.before_access(kBase, 16);              // a 16-byte access over words 0-3
    BOOST_TEST(b.mem.u32(0) == 5u);
    BOOST_TEST(b.mem.u32(16) == 0u);
    b.sb.drain_all();                           // a fence
    BOOST_TEST(b.mem.u32(16) == 7u);
    BOOST_TEST(b.sb.empty());
}

BOOST_AUTO_TEST_CASE(a_full_buffer_lets_the_earliest_half_out) {
    StoreBufferConfig cfg;
    cfg.entries = 8;
    cfg.max_delay = 1000;
    Bench b(cfg);
    for (size_t k = 0; k < 9; ++k) b.put(32 * k, uint32_t(k + 1));
    size_t landed = 0;
    for (size_t k = 0; k < 9; ++k) landed += b.mem.u32(32 * k) != 0;
    BOOST_TEST(landed == 4u);
    BOOST_TEST(b.sb.overflows() == 4u);
    b.sb.drain_all();
    for (size_t k = 0; k < 9; ++k) BOOST_TEST(b.mem.u32(32 * k) == k + 1);
}

BOOST_AUTO_TEST_CASE(one_seed_gives_one_order) {
    auto order_of = [](uint64_t seed) {
        Bench b(seed, 100);
        for (size_t k = 0; k < 16; ++k) b.put(32 * k, 1);
        std::vector<size_t> order;
        for (uint64_t t = 0; t <= 100; ++t) {
            b.sb.end_round(t);
            for (size_t k = 0; k < 16; ++k)
                if (b.mem.u32(32 * k) == 1 && std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
        }
        return order;
    };
    BOOST_TEST(order_of(3) == order_of(3), boost::test_tools::per_element());
    BOOST_TEST(order_of(3) != order_of(4));
    BOOST_TEST(order_of(3).size() == 16u);
}

BOOST_AUTO_TEST_CASE(another_sms_store_reaches_this_sms_view_late_and_never_goes_back) {
    // Two SMs on one memory: SM 1 stores; once it reaches memory, SM 0 may still read the old
    // value until its invalidation arrives, and then never again.
    StoreBufferConfig cfg;
    cfg.max_delay = 0;
    cfg.load_max_delay = 100;
    int late = 0;
    for (uint64_t seed = 1; seed <= 32; ++seed) {
        cfg.seed = seed;
        TwoSms two(cfg);
        TestMemory& mem = two.mem;
        StoreBuffer &reader = two.sm0, &writer = two.sm1;
        uint32_t v = 7;
        writer.store(kBase, &v, 4, 0);
        writer.end_round(0);                        // in memory now
        BOOST_TEST(mem.u32(0) == 7u);
        bool seen_new = false;
        for (uint64_t t = 0; t <= 101; ++t) {
            uint32_t r = mem.u32(0);
            reader.stale_read(kBase, &r, 4, t);
            BOOST_TEST_REQUIRE(!(seen_new && r != 7), "seed " << seed << ": the view went back");
            if (r == 7) seen_new = true;
            else late += t == 0;
        }
        BOOST_TEST(seen_new);                       // by load_max_delay at the latest
    }
    BOOST_TEST(late > 20);                          // most seeds: not seen at once
}

BOOST_AUTO_TEST_CASE(fences_atomics_and_own_stores_catch_the_view_up) {
    StoreBufferConfig cfg;
    cfg.max_delay = 0;
    cfg.load_max_delay = 1000;
    cfg.seed = 5;
    TwoSms two(cfg);
    TestMemory& mem = two.mem;
    StoreBuffer &reader = two.sm0, &writer = two.sm1;
    auto read = [&](size_t word) {
        uint32_t r = mem.u32(word);
        reader.stale_read(kBase + 4 * word, &r, 4, 0);
        return r;
    };
    for (size_t w = 0; w < 3; ++w) {
        uint32_t v = 9;
        writer.store(kBase + 64 * w, &v, 4, 0);
    }
    writer.end_round(0);
    // At cycle 0 the invalidations are due at 0 to 1000; a seed where all three are still out:
    BOOST_TEST(read(0) == 0u);
    BOOST_TEST(read(16) == 0u);
    BOOST_TEST(read(32) == 0u);
    reader.forget(kBase, 4);                        // an atomic on word 0
    BOOST_TEST(read(0) == 9u);
    uint32_t mine = 3;
    reader.store(kBase + 64, &mine, 4, 0);          // its own store to word 16
    reader.before_access(kBase + 64, 4);
    BOOST_TEST(read(16) == 3u);
    reader.clear_stale();                           // a fence
    BOOST_TEST(read(32) == 9u);
    BOOST_TEST(reader.stale_reads() == 3u);
}

BOOST_AUTO_TEST_CASE(a_load_drains_every_own_store_it_overlaps_even_behind_nested_ones) {
    // st.u8 [p] = 'a'; st.u32 [p] = 0; st.u8 [p+1] = 'b'; ld.u8 [p+1] must read 'b'.
    Bench b(1, 1000);
    const uint8_t a = 'a', bee = 'b';
    const uint32_t zero = 0;
    b.sb.store(kBase, &a, 1, 0);
    b.sb.store(kBase, &zero, 4, 0);
    b.sb.store(kBase + 1, &bee, 1, 0);
    b.sb.before_access(kBase + 1, 1);
    BOOST_TEST(b.mem.bytes[1] == 'b');
    BOOST_TEST(b.mem.bytes[0] == 0);
    BOOST_TEST(b.sb.empty());
}

BOOST_AUTO_TEST_CASE(an_sm_never_reads_older_than_its_own_store) {
    // SM 0 stores 1 to x (buffered); SM 1's store of 2 reaches memory first; SM 0's load drains its
    // own store and must read 1, not the 0 that SM 1's store replaced.
    StoreBufferConfig cfg;
    cfg.max_delay = 1000;
    cfg.load_max_delay = 1000;
    TwoSms sms(cfg);
    TestMemory& mem = sms.mem;
    StoreBuffer &sm0 = sms.sm0, &sm1 = sms.sm1;
    const uint32_t one = 1, two = 2;
    sm0.store(kBase, &one, 4, 0);
    sm1.store(kBase, &two, 4, 0);
    sm1.drain_all();
    sm0.before_access(kBase, 4);
    uint32_t r = mem.u32(0);
    sm0.stale_read(kBase, &r, 4, 0);
    BOOST_TEST(r == 1u);
}
