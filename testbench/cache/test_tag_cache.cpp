// Testbench of the tag store every cache of the chip is built from (rtl_models/cache): sets and
// ways, LRU replacement, allocation on a miss or not, invalidation, and the wait of a hit on a
// line whose fill has not arrived (immediately known, or marked pending by a deferred miss).
#define BOOST_TEST_MODULE tag_cache
#include <boost/test/unit_test.hpp>

#include "cache/tag_cache.h"

using namespace gpusim;

namespace {
// 2 sets of 2 ways of 128-byte lines, 10 cycles a hit.
CacheConfig small() { return CacheConfig{512, 128, 2, 10, 0}; }
// Addresses of lines that map to set 0: every other line.
uint64_t set0(int k) { return uint64_t(k) * 256; }
} // namespace

BOOST_AUTO_TEST_CASE(a_cache_of_no_bytes_misses_everything) {
    TagCache c(CacheConfig{0, 128, 4, 10, 0});
    BOOST_TEST(!c.present());
    BOOST_TEST(!c.access(0x1000));
    BOOST_TEST(!c.access(0x1000));
    BOOST_TEST(c.misses() == 2u);
    BOOST_TEST(c.last_way() == SIZE_MAX);
    c.invalidate(0x1000);   // nothing to do, and no fault
}

BOOST_AUTO_TEST_CASE(lines_hit_within_their_bytes_and_miss_beyond) {
    TagCache c(small());
    BOOST_TEST(c.present());
    BOOST_TEST(!c.access(0x1000));
    BOOST_TEST(c.access(0x107F));           // the same 128-byte line
    BOOST_TEST(!c.access(0x1080));          // the next line (the other set)
    BOOST_TEST(c.hits() == 1u);
    BOOST_TEST(c.misses() == 2u);
    BOOST_TEST(c.line_bytes() == 128u);
    BOOST_TEST(c.latency() == 10u);
}

BOOST_AUTO_TEST_CASE(the_least_recently_used_way_is_replaced) {
    TagCache c(small());
    c.access(set0(0));
    c.access(set0(1));                      // set 0 is full
    BOOST_TEST(c.access(set0(0)));          // line 0 is now the most recent
    BOOST_TEST(!c.access(set0(2)));         // evicts line 1
    BOOST_TEST(c.access(set0(0)));
    BOOST_TEST(!c.access(set0(1)));         // gone; evicts line 2 (least recent)
    BOOST_TEST(!c.access(set0(2)));
}

BOOST_AUTO_TEST_CASE(a_lookup_without_allocation_leaves_the_set_alone) {
    TagCache c(small());
    c.access(set0(0));
    c.access(set0(1));
    BOOST_TEST(!c.access(set0(2), false));
    BOOST_TEST(c.last_way() == SIZE_MAX);
    BOOST_TEST(c.access(set0(0)));
    BOOST_TEST(c.access(set0(1)));
}

BOOST_AUTO_TEST_CASE(an_invalidated_line_misses_and_its_way_is_taken_first) {
    TagCache c(small());
    c.access(set0(0));
    c.access(set0(1));
    c.invalidate(set0(1) + 4);
    BOOST_TEST(!c.access(set0(1)));         // refetched into the freed way
    BOOST_TEST(c.access(set0(0)));          // the other line stayed
}

BOOST_AUTO_TEST_CASE(a_hit_waits_for_the_fill_of_its_line) {
    TagCache c(small());
    BOOST_TEST(!c.access(0x2000));
    c.filling(500);                          // the miss's data arrives at cycle 500
    BOOST_TEST(c.last_ready() == 500u);
    BOOST_TEST(c.access(0x2000));
    BOOST_TEST(c.hit_latency(100) == 400u);  // a hit under the miss
    BOOST_TEST(c.hits_under_miss() == 1u);
    BOOST_TEST(c.access(0x2000));
    BOOST_TEST(c.hit_latency(495) == 10u);   // the fill is due within the hit latency
    BOOST_TEST(c.hits_under_miss() == 1u);
}

BOOST_AUTO_TEST_CASE(a_deferred_fill_is_resolved_only_on_the_way_it_marked) {
    TagCache c(small());
    c.access(set0(0));
    const size_t way = c.last_way();
    const uint64_t marker = TagCache::kPendingFill | 7;
    c.filling(marker);
    BOOST_TEST(c.access(set0(0)));
    BOOST_TEST(c.last_ready() == marker);
    c.resolve_fill(way, TagCache::kPendingFill | 8, 900);   // another fill's marker: no change
    BOOST_TEST(c.last_ready() == marker);
    c.resolve_fill(way, marker, 900);
    BOOST_TEST(c.access(set0(0)));
    BOOST_TEST(c.hit_latency(800) == 100u);
    BOOST_TEST(c.wait_for(0, 800) == 10u);
}
