// Testbench of the LD/ST unit (rtl_models/ldst): the coalescer per generation, the L1, and the
// unit's TLM socket toward the L2, here bound to a target that records the timing requests.
#define BOOST_TEST_MODULE ldst
#include <boost/test/unit_test.hpp>

#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/addresses.h"
#include "common/memory_probe.h"
#include "ldst/coalescer.h"
#include "ldst/ldst_unit.h"

using namespace gpusim;
using gpusim::test::strided;
using Kind = MemoryRequest::Kind;

namespace {

// A target standing in for the L2: records what reaches it and answers with a fixed latency per
// kind, as a verification engineer's own memory model would.
struct RecordingTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<RecordingTarget> socket;
    struct Seen {
        uint64_t addr;
        uint32_t bytes;
        Kind kind;
        uint64_t cycle;
        uint32_t ops;
    };
    std::vector<Seen> seen;
    ChipClock clock;
    enum class Fault { None, Error, EarlierDelay } fault = Fault::None;   // how it misbehaves

    RecordingTarget(const sc_core::sc_module_name& name, const LdstConfig& c) : sc_module(name), socket("socket"), clock(c.cycle_ns) {
        socket.register_b_transport(this, &RecordingTarget::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
        BOOST_TEST(p.get_command() == tlm::TLM_IGNORE_COMMAND);
        const MemoryRequest request = request_of(p);
        const Kind kind = request.kind;
        seen.push_back({p.get_address(), p.get_data_length(), kind, clock.cycle_at(delay), request.ops});
        delay += clock.span(kind == Kind::Read ? 100 : 7);
        if (fault == Fault::EarlierDelay) delay = sc_core::SC_ZERO_TIME;
        p.set_response_status(fault == Fault::Error ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
    }
};

// An LD/ST unit whose socket is bound to a recording target.
struct LdstBench {
    LdstUnit ldst;
    RecordingTarget target;
    LdstBench(const std::string& name, const LdstConfig& c) : ldst(name.c_str(), c), target((name + "_target").c_str(), c) {
        ldst.mem.bind(target.socket);
    }
};

LdstConfig fermi_like() {
    LdstConfig c;
    c.coalescing = "cc20";
    c.l1 = {16384, 128, 4, 20};
    c.cycle_ns = 0.714;
    c.min_request_latency = 400;   // no L2 in the chip this LD/ST unit believes it is in
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

// cc90 moves the sectors cc35 does; the L1 passes are the 128-byte lines they lie in.
BOOST_AUTO_TEST_CASE(cc90_moves_sectors_and_passes_once_per_line) {
    std::vector<Transaction> t;
    auto stride8 = strided(32, 0x1000);                        // a word every 32 bytes: 32 sectors, 8 lines
    coalesce(CoalescingRule::Cc90, stride8.data(), ~0u, 4, true, t);
    BOOST_TEST(t.size() == 32u);
    BOOST_TEST(t[0].bytes == 32u);
    BOOST_TEST(lines_touched(t, 128) == 8u);
    t.clear();
    auto unit = strided(4, 0x1040);                            // 128 bytes across two lines
    coalesce(CoalescingRule::Cc90, unit.data(), ~0u, 4, true, t);
    BOOST_TEST(t.size() == 4u);
    BOOST_TEST(lines_touched(t, 128) == 2u);
    t.clear();
    auto lines = strided(128, 0x2000);                         // a line per lane
    coalesce(CoalescingRule::Cc90, lines.data(), ~0u, 4, true, t);
    BOOST_TEST(lines_touched(t, 128) == 32u);
    BOOST_CHECK_THROW(coalescing_rule("cc91"), std::runtime_error);
    BOOST_TEST(int(coalescing_rule("cc90")) == int(CoalescingRule::Cc90));
}

// memory.store_bytes_per_cycle: a store holds the LD/ST pipe until its sectors have left the SM;
// a load of the same lines passes once per line (cc90).
BOOST_AUTO_TEST_CASE(a_store_passes_the_pipe_for_as_long_as_its_bytes_take_to_leave) {
    LdstConfig c = fermi_like();
    c.coalescing = "cc90";
    c.store_bytes_per_cycle = 32;
    LdstBench bench("ldst_store_port", c);
    auto wide = strided(16, 0x20000);                          // 16 bytes a lane: 512 bytes, 4 lines, 16 sectors
    BOOST_TEST(bench.ldst.access(wide.data(), ~0u, 16, Kind::Write, false).passes == 16u);
    BOOST_TEST(bench.ldst.access(wide.data(), ~0u, 16, Kind::Read, false).passes == 4u);
    auto half = strided(4, 0x30000);
    BOOST_TEST(bench.ldst.access(half.data(), 0xFFFFu, 4, Kind::Write, false).passes == 2u);   // 64 bytes
    c.store_bytes_per_cycle = 0;                               // not limited: a pass per line, as a load
    LdstBench plain("ldst_store_plain", c);
    BOOST_TEST(plain.ldst.access(wide.data(), ~0u, 16, Kind::Write, false).passes == 4u);
}

// l1.cache_operators: a load whose cache operator bypasses the L1 (.cg, strong loads) goes to the
// L2 every time and leaves no line behind; without the key it is cached as any global load.
BOOST_AUTO_TEST_CASE(loads_past_the_l1_reach_the_l2_every_time) {
    LdstConfig c = fermi_like();
    c.coalescing = "cc90";
    c.transaction_cycles = 0;
    c.l1_cache_operators = true;
    LdstBench bench("ldst_bypass", c);
    auto unit = strided(4, 0x40000);
    bench.ldst.set_now(0);
    BOOST_TEST(bench.ldst.access(unit.data(), ~0u, 4, Kind::Read, false, true).latency == 100u);
    bench.ldst.set_now(1000);
    BOOST_TEST(bench.ldst.access(unit.data(), ~0u, 4, Kind::Read, false, true).latency == 100u);
    BOOST_TEST(bench.target.seen.size() == 8u);                // 4 sectors each time
    BOOST_TEST(bench.ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 100u);   // cached: a miss, then hits
    bench.ldst.set_now(2000);
    BOOST_TEST(bench.ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 20u);
    c.l1_cache_operators = false;
    LdstBench plain("ldst_no_bypass", c);
    plain.ldst.access(unit.data(), ~0u, 4, Kind::Read, false, true);
    plain.ldst.set_now(1000);
    BOOST_TEST(plain.ldst.access(unit.data(), ~0u, 4, Kind::Read, false, true).latency == 20u);
}

BOOST_AUTO_TEST_CASE(the_ldst_unit_sends_its_coalesced_transactions_through_its_socket) {
    LdstConfig c = fermi_like();
    LdstBench bench("ldst_socket", c);
    LdstUnit& ldst = bench.ldst;
    RecordingTarget& target = bench.target;
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
    // An atomic goes to the target as one request per address, carrying its lanes' operations.
    target.seen.clear();
    auto same = strided(0, 0x10040);
    ldst.access(same.data(), ~0u, 4, Kind::Atomic, false);
    BOOST_REQUIRE(target.seen.size() == 1u);
    BOOST_TEST((target.seen[0].kind == Kind::Atomic));
    BOOST_TEST(target.seen[0].ops == 32u);
    BOOST_TEST(target.seen[0].bytes == 32u);                  // the segment holding the word
    target.seen.clear();
    LdstUnit::Cost atom = ldst.access(unit.data(), 0xFFu, 4, Kind::Atomic, false);
    BOOST_TEST(target.seen.size() == 8u);
    BOOST_TEST(target.seen[7].addr == 0x1001Cu);
    BOOST_TEST(target.seen[7].ops == 1u);
    BOOST_TEST(atom.transactions == 1u);                      // one pass of the LD/ST pipe
    // The atomics dropped the L1's copy of the line: the next load misses.
    ldst.set_now(3000);
    target.seen.clear();
    BOOST_TEST(ldst.access(unit.data(), ~0u, 4, Kind::Read, false).latency == 100u);
    BOOST_TEST(target.seen.size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_l1_miss_waits_for_a_free_mshr) {
    LdstConfig c = fermi_like();
    c.l1.mshrs = 2;
    LdstBench bench("ldst_mshr", c);
    LdstUnit& ldst = bench.ldst;
    RecordingTarget& target = bench.target;
    ldst.set_now(500);
    // Three lines: two MSHRs take the first two, the third is sent when the first completes.
    auto three = strided(128, 0x20000);
    LdstUnit::Cost cost = ldst.access(three.data(), 0x7u, 4, Kind::Read, false);
    BOOST_REQUIRE(target.seen.size() == 3u);
    BOOST_TEST(target.seen[0].cycle == 500u);
    BOOST_TEST(target.seen[1].cycle == 500u);
    BOOST_TEST(target.seen[2].cycle == 600u);
    BOOST_TEST(cost.latency == 200u + 2u * c.transaction_cycles);
    // Hits under those misses need no MSHR; once the fills are in, the MSHRs are free again.
    ldst.set_now(550);
    BOOST_TEST(ldst.access(three.data(), 0x1u, 4, Kind::Read, false).latency == 50u);
    ldst.set_now(1000);
    auto next = strided(128, 0x30000);
    ldst.access(next.data(), 0x3u, 4, Kind::Read, false);
    BOOST_TEST(target.seen[3].cycle == 1000u);
    BOOST_TEST(target.seen[4].cycle == 1000u);
    BOOST_TEST(test::unit_stats(ldst)["l1_mshr_wait_cycles"]["value"].get<double>() == 100.0);
}

BOOST_AUTO_TEST_CASE(a_misbehaving_memory_target_is_reported) {
    LdstBench bench("ldst_bad", fermi_like());
    LdstUnit& ldst = bench.ldst;
    auto unit = strided(4, 0x40000);
    ldst.set_now(100);
    bench.target.fault = RecordingTarget::Fault::Error;
    BOOST_CHECK_EXCEPTION(ldst.access(unit.data(), ~0u, 4, Kind::Write, false), std::runtime_error, [](const std::runtime_error& e) {
        return std::string(e.what()).find("answered") != std::string::npos;
    });
    bench.target.fault = RecordingTarget::Fault::EarlierDelay;
    BOOST_CHECK_EXCEPTION(ldst.access(unit.data(), ~0u, 4, Kind::Write, false), std::runtime_error, [](const std::runtime_error& e) {
        return std::string(e.what()).find("lowered the delay") != std::string::npos;
    });
}

// Deferred mode (SMs on host threads): accesses written down during a round and priced at its end
// reach the memory target in the same order, at the same cycles, with the same latencies and
// statistics as accesses priced at once, through hits, misses, hits under misses and MSHR waits.
BOOST_AUTO_TEST_CASE(deferred_requests_are_priced_as_immediate_ones) {
    LdstConfig c = fermi_like();
    c.l1.mshrs = 4;
    c.min_request_latency = 7;   // the least the recording target answers: the deferred lower bound
    LdstBench now("ldst_now", c), later("ldst_later", c);
    later.ldst.set_deferred(true);
    BOOST_TEST(later.ldst.min_request_latency() == 7u);
    uint64_t seed = 12345;
    auto next = [&](uint64_t n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return (seed >> 33) % n;
    };
    struct Expected {
        int32_t group;
        uint32_t latency;
    };
    uint64_t cycle = 100;
    uint32_t deferred_groups = 0;
    for (int round = 0; round < 200; ++round) {
        std::vector<Expected> expected;
        for (int k = 0; k < 12; ++k) {
            cycle += next(40);
            std::vector<uint64_t> addr(kWarpSize);
            const uint64_t base = 0x10000 + next(48) * 128;   // few lines: hits, and hits under misses
            const uint64_t stride = next(3) == 0 ? 128 : 4;
            for (int l = 0; l < kWarpSize; ++l) addr[size_t(l)] = base + uint64_t(l) * stride;
            const Kind kind = next(6) == 0 ? Kind::Write : next(8) == 0 ? Kind::Atomic : Kind::Read;
            const LaneMask mask = next(4) == 0 ? 0x0000FFFFu : ~0u;
            now.ldst.set_now(cycle);
            later.ldst.set_now(cycle);
            const LdstUnit::Cost a = now.ldst.access(addr.data(), mask, 4, kind, false);
            const LdstUnit::Cost b = later.ldst.access(addr.data(), mask, 4, kind, false);
            BOOST_TEST(a.transactions == b.transactions);
            BOOST_TEST(b.lower <= a.latency);
            if (b.group < 0) BOOST_TEST(b.latency == a.latency);
            expected.push_back({b.group, a.latency});
        }
        later.ldst.resolve();
        for (const Expected& e : expected)
            if (e.group >= 0) {
                BOOST_TEST(later.ldst.group_latency(e.group) == e.latency);
                ++deferred_groups;
            }
        later.ldst.clear_groups();
    }
    BOOST_TEST(deferred_groups > 1000u);
    BOOST_REQUIRE(now.target.seen.size() == later.target.seen.size());
    for (size_t k = 0; k < now.target.seen.size(); ++k) {
        BOOST_TEST(now.target.seen[k].addr == later.target.seen[k].addr);
        BOOST_TEST(now.target.seen[k].cycle == later.target.seen[k].cycle);
        BOOST_TEST(int(now.target.seen[k].kind) == int(later.target.seen[k].kind));
        BOOST_TEST(now.target.seen[k].ops == later.target.seen[k].ops);
    }
    const auto a = test::unit_stats(now.ldst), b = test::unit_stats(later.ldst);
    for (const char* s : {"l1_hits", "l1_misses", "l1_mshr_wait_cycles", "l1_hits_under_miss", "transactions"})
        BOOST_TEST(a[s]["value"].get<double>() == b[s]["value"].get<double>(), s);
    BOOST_TEST(a["l1_hits_under_miss"]["value"].get<double>() > 0.0);
    BOOST_TEST(a["l1_mshr_wait_cycles"]["value"].get<double>() > 0.0);
}
