// Testbench of the chip's L2 (rtl_models/gpu/l2_cache): hits, misses filled from the device
// memory controller behind it, hits under misses, posted writes, and the pass-through of cc 1.x.
#define BOOST_TEST_MODULE l2
#include <boost/test/unit_test.hpp>

#include "common/memory_probe.h"
#include "dram/dram_controller.h"
#include "gpu/l2_cache.h"

using namespace gpusim;
using gpusim::test::Probe;

namespace {

// A probe in an SM's place, the L2 and device memory, bound as the chip binds them.
struct MemoryChain {
    L2Cache l2;
    DramController dram;
    Probe sm;

    MemoryChain(const std::string& name, const MemoryTimingConfig& c)
        : l2((name + "_l2").c_str(), c), dram((name + "_dram").c_str(), c), sm((name + "_probe").c_str(), c) {
        l2.out.bind(dram.socket);
        sm.socket.bind(l2.in);
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(l2_hits_pay_the_l2_latency_and_misses_the_device_memory_too) {
    MemoryTimingConfig c;
    c.l2 = {4096, 128, 4, 30};
    c.dram_latency = 200;
    MemoryChain chain("l2_lat", c);
    Probe& sm = chain.sm;
    BOOST_TEST(sm.read(0x1000, 128, 0) == 230u);
    BOOST_TEST(sm.read(0x1040, 128, 10) == 220u);            // same line, fill still on its way
    BOOST_TEST(sm.read(0x1000, 128, 500) == 30u);
    BOOST_TEST(sm.write(0x2000, 128, 600) == 30u);          // write-allocate, posted
    BOOST_TEST(sm.read(0x2000, 128, 700) == 30u);
    nlohmann::json stats = test::unit_stats(chain.l2), mem = test::unit_stats(chain.dram);
    BOOST_TEST(stats["hits_under_miss"]["value"].get<double>() == 1.0);
    BOOST_TEST(stats["misses"]["value"].get<double>() == 2.0);            // the first read and the write
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 128.0);    // one line fill
    BOOST_TEST(mem["write_bytes"]["value"].get<double>() == 128.0);   // the posted write
}

BOOST_AUTO_TEST_CASE(without_an_l2_requests_pass_through_to_device_memory) {
    MemoryTimingConfig c;
    c.l2.bytes = 0;
    c.dram_latency = 300;
    MemoryChain chain("l2_none", c);
    BOOST_TEST(chain.sm.read(0x1000, 64, 0) == 300u);
    BOOST_TEST(chain.sm.read(0x1000, 64, 1000) == 300u);          // nothing is cached
    nlohmann::json mem = test::unit_stats(chain.dram);
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 128.0);
}
