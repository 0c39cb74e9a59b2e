// Testbench of the device memory controller (rtl_models/dram): channels, interleaving and
// bandwidth per window, driven over the timing protocol.
#define BOOST_TEST_MODULE dram
#include <boost/test/unit_test.hpp>

#include "common/memory_probe.h"
#include "dram/dram_controller.h"

using namespace gpusim;
using gpusim::test::Probe;

BOOST_AUTO_TEST_CASE(device_memory_channels_share_out_their_bandwidth_per_window) {
    DramConfig c;
    c.latency = 100;
    c.channels = 2;
    c.interleave_bytes = 256;
    c.bytes_per_cycle = 32;    // per channel: 128 bytes per window of 4 cycles
    c.window_cycles = 4;
    DramController dram("dram_bw", c);
    Probe mem("dram_bw_probe", c.cycle_ns);
    mem.socket.bind(dram.socket);
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
    uint64_t last = 0;
    for (int k = 0; k < 100; ++k) last = mem.read(uint64_t(k) * 512 + 4096 * 512, 128, 1000);
    BOOST_TEST(last == 100u + 99u * 4u);
    // Writes share the same channels.
    BOOST_TEST(mem.write(0, 128, 2000) == 100u);
    BOOST_TEST(mem.write(512, 128, 2000) == 104u);
}

BOOST_AUTO_TEST_CASE(device_memory_takes_plain_reads_and_writes_too) {
    DramConfig c;
    c.latency = 50;
    DramController dram("dram_plain", c);
    Probe plain("dram_plain_probe", c.cycle_ns);
    plain.socket.bind(dram.socket);
    uint32_t word = 0;
    for (tlm::tlm_command command : {tlm::TLM_WRITE_COMMAND, tlm::TLM_READ_COMMAND}) {
        tlm::tlm_generic_payload p;
        p.set_command(command);
        p.set_address(0x100);
        p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
        p.set_data_length(4);
        p.set_streaming_width(4);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        plain.socket->b_transport(p, delay);
        BOOST_TEST(p.is_response_ok());
        BOOST_TEST(ChipClock(c.cycle_ns).cycles_in(delay) == 50u);
    }
    nlohmann::json stats = test::unit_stats(dram);
    BOOST_TEST(stats["write_bytes"]["value"].get<double>() == 4.0);
    BOOST_TEST(stats["read_bytes"]["value"].get<double>() == 4.0);
}
