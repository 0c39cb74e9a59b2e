// Testbench of the memory path's units: the coalescer (rtl_models/ldst) per generation, and the
// chip's L2 with the device memory channels behind it (rtl_models/gpu/l2_cache).
#define BOOST_TEST_MODULE ldst
#include <boost/test/unit_test.hpp>

#include <vector>

#include "common/addresses.h"
#include "gpu/l2_cache.h"
#include "ldst/coalescer.h"

using namespace gpusim;
using gpusim::test::strided;

BOOST_AUTO_TEST_CASE(coalescing_per_generation) {
    std::vector<Transaction> t;
    auto unit = strided(4, 0x1000);
    BOOST_TEST(coalesce(CoalescingRule::Cc20, unit.data(), ~0u, 4, true, t) == 1u);
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(t[0].bytes == 128u);
    t.clear();
    coalesce(CoalescingRule::Cc35, unit.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 4u);                                // 32-byte segments
    t.clear();
    BOOST_TEST(coalesce(CoalescingRule::Cc10, unit.data(), ~0u, 4, false, t) == 2u);
    BOOST_TEST(t.size() == 2u);                                // one 64-byte segment per half-warp
    t.clear();
    auto shifted = strided(4, 0x1004);                         // misaligned: cc 1.0 gives up
    coalesce(CoalescingRule::Cc10, shifted.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 32u);
    t.clear();
    coalesce(CoalescingRule::Cc12, shifted.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 3u);                                // 128 B for the first half, 64 + 32 B for the second
    t.clear();
    auto one_half = strided(4, 0x1000);
    coalesce(CoalescingRule::Cc12, one_half.data(), 0x000000FFu, 4, false, t);
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(t[0].bytes == 32u);                             // 8 words: shrunk to a 32-byte segment
    t.clear();
    auto scattered = strided(4096);
    coalesce(CoalescingRule::Cc20, scattered.data(), ~0u, 4, true, t);
    BOOST_TEST(t.size() == 32u);
}

BOOST_AUTO_TEST_CASE(device_memory_channels_share_out_their_bandwidth_per_window) {
    MemoryTimingConfig c;
    c.l2.bytes = 0;                 // no L2: every read goes to device memory
    c.dram_latency = 100;
    c.dram_channels = 2;
    c.dram_interleave_bytes = 256;
    c.dram_bytes_per_cycle = 32;    // per channel: 128 bytes per window of 4 cycles
    c.dram_window_cycles = 4;
    L2Cache mem("dram_bw", c);
    // Channel 0 (addresses 0-255, 512-767 ...): each 128-byte read fills a window, so the next
    // waits for the next window.
    BOOST_TEST(mem.read(0, 128, 0) == 100u);
    BOOST_TEST(mem.read(512, 128, 0) == 104u);
    BOOST_TEST(mem.read(1024, 128, 1) == 107u);      // window 2 starts at cycle 8
    // Channel 1 is untouched.
    BOOST_TEST(mem.read(256, 128, 0) == 100u);
    // Order does not matter within the windows' reach: a request for an earlier cycle that
    // arrives later still gets its own window if it has room.
    BOOST_TEST(mem.read(256 + 512, 64, 40) == 100u);
    BOOST_TEST(mem.read(256 + 1024, 64, 40) == 100u);   // 64 + 64 bytes fit one window
    BOOST_TEST(mem.read(256 + 1536, 64, 40) == 104u);   // the next window starts at 44
    // A stream of n reads on one channel takes n x 128 / 32 cycles: the bandwidth.
    uint32_t last = 0;
    for (int k = 0; k < 100; ++k) last = mem.read(uint64_t(k) * 512 + 4096 * 512, 128, 1000);
    BOOST_TEST(last == 100u + 99u * 4u);
}

BOOST_AUTO_TEST_CASE(l2_hits_pay_the_l2_latency_and_misses_the_device_memory_too) {
    MemoryTimingConfig c;
    c.l2 = {4096, 128, 4, 30};
    c.dram_latency = 200;
    L2Cache l2("l2_lat", c);
    BOOST_TEST(l2.read(0x1000, 128, 0) == 230u);
    BOOST_TEST(l2.read(0x1040, 128, 10) == 220u);            // same line, fill still on its way
    BOOST_TEST(l2.read(0x1000, 128, 500) == 30u);
    BOOST_TEST(l2.write(0x2000, 128, 600) == 30u);          // write-allocate, posted
    BOOST_TEST(l2.read(0x2000, 128, 700) == 30u);
}
