// Testbench of the memory path's units: the coalescer (rtl_models/ldst) per generation, the LD/ST
// unit's L1 and its TLM socket, the chip's L2 (rtl_models/gpu/l2_cache) and the device memory
// controller (rtl_models/dram), each driven over the timing protocol of ldst/memory_request.h.
#define BOOST_TEST_MODULE ldst
#include <boost/test/unit_test.hpp>

#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/addresses.h"
#include "dram/dram_controller.h"
#include "gpu/l2_cache.h"
#include "ldst/coalescer.h"
#include "ldst/ldst_unit.h"

using namespace gpusim;
using gpusim::test::strided;
using Kind = MemoryRequest::Kind;

namespace {

// An initiator of the timing protocol: sends one request at a chip cycle, returns its latency.
struct Probe : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Probe> socket;
    MemoryRequestPayload payload;
    ChipClock clock;

    Probe(const sc_core::sc_module_name& name, const MemoryTimingConfig& c) : sc_module(name), socket("socket"), clock(c.cycle_ns) {}

    uint64_t send(Kind kind, uint64_t addr, uint32_t bytes, uint64_t cycle) {
        sc_core::sc_time delay = clock.delay_of(cycle);
        const sc_core::sc_time sent = delay;
        tlm::tlm_generic_payload& p = payload.prepare(addr, bytes, kind);
        socket->b_transport(p, delay);
        BOOST_TEST(p.is_response_ok());
        return clock.cycles_in(delay - sent);
    }
    uint64_t read(uint64_t addr, uint32_t bytes, uint64_t cycle) { return send(Kind::Read, addr, bytes, cycle); }
    uint64_t write(uint64_t addr, uint32_t bytes, uint64_t cycle) { return send(Kind::Write, addr, bytes, cycle); }
};

// A target standing in for the L2: records what reaches it and answers with a fixed latency per
// kind, as a verification engineer's own memory model would.
struct RecordingTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<RecordingTarget> socket;
    struct Seen {
        uint64_t addr;
        uint32_t bytes;
        Kind kind;
        uint64_t cycle;
    };
    std::vector<Seen> seen;
    ChipClock clock;

    RecordingTarget(const sc_core::sc_module_name& name, const MemoryTimingConfig& c) : sc_module(name), socket("socket"), clock(c.cycle_ns) {
        socket.register_b_transport(this, &RecordingTarget::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
        BOOST_TEST(p.get_command() == tlm::TLM_IGNORE_COMMAND);
        const Kind kind = request_kind(p);
        seen.push_back({p.get_address(), p.get_data_length(), kind, clock.cycle_at(delay)});
        delay += clock.span(kind == Kind::Read ? 100 : 7);
        p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

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
    static nlohmann::json stats(const UnitModule& unit) {
        nlohmann::json out;
        unit.report(out);
        return out;
    }
};

MemoryTimingConfig fermi_like() {
    MemoryTimingConfig c;
    c.coalescing = "cc20";
    c.l1 = {16384, 128, 4, 20};
    c.cycle_ns = 0.714;
    return c;
}

} // namespace

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

BOOST_AUTO_TEST_CASE(the_ldst_unit_sends_its_coalesced_transactions_through_its_socket) {
    MemoryTimingConfig c = fermi_like();
    LdstUnit ldst("ldst_socket", c);
    RecordingTarget target("ldst_socket_target", c);
    ldst.mem.bind(target.socket);
    auto unit = strided(4, 0x10000);
    // A coalesced load misses the L1: one line request, at the SM's chip cycle, answered by the target.
    ldst.set_now(1000);
    LdstUnit::Cost load = ldst.access(unit.data(), ~0u, 4, Kind::Read, false);
    BOOST_TEST(load.latency == 100u);
    BOOST_REQUIRE(target.seen.size() == 1u);
    BOOST_TEST(target.seen[0].addr == 0x10000u);
    BOOST_TEST(target.seen[0].bytes == 128u);
    BOOST_TEST(target.seen[0].cycle == 1000u);
    BOOST_TEST((target.seen[0].kind == Kind::Read));
    // The same line again while its fill is on its way: an L1 hit that waits for the fill; the
    // target sees nothing.
    ldst.set_now(1040);
    BOOST_TEST(ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 60u);
    ldst.set_now(2000);
    BOOST_TEST(ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 20u);
    BOOST_TEST(target.seen.size() == 1u);
    // A scattered store: 32 write requests; a store drops the L1's copy.
    auto scattered = strided(256, 0x10000);
    LdstUnit::Cost store = ldst.access(scattered.data(), ~0u, 4, Kind::Write, false);
    BOOST_TEST(store.transactions == 32u);
    BOOST_TEST(store.latency == 7u + 31u * c.transaction_cycles);
    BOOST_REQUIRE(target.seen.size() == 33u);
    BOOST_TEST((target.seen[1].kind == Kind::Write));
    BOOST_TEST(target.seen[1].bytes == 32u);
    BOOST_TEST(ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 100u);
    // An atomic goes to the target as one.
    ldst.access(unit.data(), 1u, 4, Kind::Atomic, false);
    BOOST_TEST((target.seen.back().kind == Kind::Atomic));
}

BOOST_AUTO_TEST_CASE(device_memory_channels_share_out_their_bandwidth_per_window) {
    MemoryTimingConfig c;
    c.dram_latency = 100;
    c.dram_channels = 2;
    c.dram_interleave_bytes = 256;
    c.dram_bytes_per_cycle = 32;    // per channel: 128 bytes per window of 4 cycles
    c.dram_window_cycles = 4;
    DramController dram("dram_bw", c);
    Probe mem("dram_bw_probe", c);
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
    MemoryTimingConfig c;
    c.dram_latency = 50;
    DramController dram("dram_plain", c);
    Probe plain("dram_plain_probe", c);
    plain.socket.bind(dram.socket);
    uint32_t word = 0;
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(0x100);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    p.set_data_length(4);
    p.set_streaming_width(4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    plain.socket->b_transport(p, delay);
    BOOST_TEST(p.is_response_ok());
    BOOST_TEST(ChipClock(c.cycle_ns).cycles_in(delay) == 50u);
    nlohmann::json stats;
    dram.report(stats);
    BOOST_TEST(stats["write_bytes"]["value"].get<double>() == 4.0);
}

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
    nlohmann::json stats = chain.stats(chain.l2), mem = chain.stats(chain.dram);
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
    nlohmann::json mem = chain.stats(chain.dram);
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 128.0);
}
