// Testbench of the chip's L2 (rtl_models/l2/l2_cache): hits, misses filled from the device
// memory controller behind it, hits under misses, posted writes, and the pass-through of cc 1.x.
#define BOOST_TEST_MODULE l2
#include <boost/test/unit_test.hpp>

#include <tlm_utils/simple_target_socket.h>

#include "common/memory_probe.h"
#include "common/memory_system.h"
#include "dram/dram_controller.h"
#include "l2/atomic_unit.h"
#include "l2/l2_cache.h"
#include "protocol/memory_map.h"

using namespace gpusim;
using gpusim::test::Probe;

namespace {

// A probe in an SM's place, the L2 and device memory, bound as the chip binds them.
struct MemoryChain {
    L2Cache l2;
    DramController dram;
    Probe sm;

    MemoryChain(const std::string& name, const test::ChipMemory& c)
        : l2((name + "_l2").c_str(), c.l2), dram((name + "_dram").c_str(), c.dram), sm((name + "_probe").c_str(), c.l2.cycle_ns) {
        l2.out.bind(dram.socket);
        sm.socket.bind(l2.in);
    }
};

// A 4 KiB L2 of 30 cycles in front of device memory of 200.
test::ChipMemory small_l2() {
    test::ChipMemory c;
    c.l2.cache = {4096, 128, 4, 30};
    c.dram.latency = 200;
    return c;
}

// Device memory that refuses every request.
struct FailingMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<FailingMemory> socket;
    explicit FailingMemory(const sc_core::sc_module_name& name) : sc_module(name), socket("socket") {
        socket.register_b_transport(this, &FailingMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); }
};

} // namespace

BOOST_AUTO_TEST_CASE(l2_hits_pay_the_l2_latency_and_misses_the_device_memory_too) {
    test::ChipMemory c = small_l2();
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
    test::ChipMemory c;
    c.l2.cache.bytes = 0;
    c.dram.latency = 300;
    MemoryChain chain("l2_none", c);
    BOOST_TEST(chain.sm.read(0x1000, 64, 0) == 300u);
    BOOST_TEST(chain.sm.read(0x1000, 64, 1000) == 300u);          // nothing is cached
    nlohmann::json mem = test::unit_stats(chain.dram);
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 128.0);
}

BOOST_AUTO_TEST_CASE(atomics_are_performed_at_the_l2) {
    test::ChipMemory c = small_l2();
    MemoryChain chain("l2_atom", c);
    // An atomic needs the line's data: the first one fills it, the next ones hit.
    BOOST_TEST(chain.sm.ok(MemoryRequest::Kind::Atomic, 0x3000, 32, 0) == 230u);
    BOOST_TEST(chain.sm.ok(MemoryRequest::Kind::Atomic, 0x3004, 32, 500) == 30u);
    BOOST_TEST(chain.sm.read(0x3000, 128, 600) == 30u);
    nlohmann::json stats = test::unit_stats(chain.l2), mem = test::unit_stats(chain.dram);
    BOOST_TEST(stats["atomics"]["value"].get<double>() == 2.0);
    BOOST_TEST(stats["reads"]["value"].get<double>() == 1.0);
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 128.0);     // one line fill
    BOOST_TEST(mem["write_bytes"]["value"].get<double>() == 0.0);      // the dirty line stays
}

BOOST_AUTO_TEST_CASE(a_non_blocking_request_is_answered_completed) {
    test::ChipMemory c = small_l2();
    MemoryChain chain("l2_nb", c);
    tlm::tlm_generic_payload& p = chain.sm.payload.prepare(0x1000, 128, MemoryRequest::Kind::Read);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    BOOST_TEST(chain.sm.socket->nb_transport_fw(p, phase, delay) == tlm::TLM_COMPLETED);
    BOOST_TEST((phase == tlm::END_RESP));
    BOOST_TEST(p.is_response_ok());
    BOOST_TEST(ChipClock(c.l2.cycle_ns).cycles_in(delay) == 230u);
}

BOOST_AUTO_TEST_CASE(an_error_from_device_memory_reaches_the_sm) {
    test::ChipMemory c = small_l2();
    L2Cache l2("l2_err", c.l2);
    FailingMemory dram("l2_err_dram");
    Probe sm("l2_err_probe", c.l2.cycle_ns);
    l2.out.bind(dram.socket);
    sm.socket.bind(l2.in);
    sm.send(MemoryRequest::Kind::Read, 0x1000, 128, 0);
    BOOST_TEST(sm.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    sm.send(MemoryRequest::Kind::Write, 0x2000, 128, 0);
    BOOST_TEST(sm.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

BOOST_AUTO_TEST_CASE(atomics_on_one_address_are_serialized) {
    test::ChipMemory c = small_l2();
    c.l2.atomic_cycles = 4;
    c.l2.window_cycles = c.dram.window_cycles = 64;   // 16 operations on one address per window
    MemoryChain chain("l2_serial", c);
    Probe& sm = chain.sm;
    sm.read(0x5000, 128, 0);        // the lines are in the L2 by cycle 230
    sm.read(0x6000, 128, 0);
    const uint64_t t = 1024;        // the start of a window
    // One operation: the L2's latency. Eight lanes on one word: seven more operations after it.
    BOOST_TEST(sm.ok(MemoryRequest::Kind::Atomic, 0x5000, 4, t) == 30u);
    BOOST_TEST(sm.ok(MemoryRequest::Kind::Atomic, 0x6000, 4, t, 8) == 30u + 7u * 4u);
    // Another warp's eight on that word in the same window queue behind them (slots 9 to 16 of the
    // window, done at t + 64 instead of t + 32: 32 cycles of waiting).
    BOOST_TEST(sm.ok(MemoryRequest::Kind::Atomic, 0x6000, 4, t, 8) == 30u + 32u + 7u * 4u);
    // The window is full: a ninth operation goes to the next window, at t + 64 + 4.
    BOOST_TEST(sm.ok(MemoryRequest::Kind::Atomic, 0x6000, 4, t) == 30u + 64u);
    // A neighbouring word is not held up.
    BOOST_TEST(sm.ok(MemoryRequest::Kind::Atomic, 0x6004, 4, t) == 30u);
    nlohmann::json stats = test::unit_stats(chain.l2);
    BOOST_TEST(stats["atomic_operations"]["value"].get<double>() == 19.0);
    BOOST_TEST(stats["atomic_wait_cycles"]["value"].get<double>() == 32.0 + 64.0);
}

BOOST_AUTO_TEST_CASE(the_atomic_unit_keeps_its_queues_while_its_table_grows_and_forgets) {
    L2Config c;
    c.atomic_cycles = 4;
    c.window_cycles = 64;           // 16 operations per address and window
    AtomicUnit unit(c);
    BOOST_TEST(unit.serve(0xA000, 16, 0, 0) == 15u * 4u);       // fills window 0 of 0xA000
    for (uint64_t k = 0; k < 20000; ++k) unit.serve(0x100000 + 4 * k, 1, 0, 0);   // the table grows
    BOOST_TEST(unit.serve(0xA000, 1, 0, 0) == 64u);             // still full: the next window
    // Once SystemC time has passed window 1, rebuilds drop windows 0 and 1 (no request can reach
    // them); the queues of later windows stay.
    BOOST_TEST(unit.serve(0xB000, 16, 128, 0) == 15u * 4u);     // fills window 2 of 0xB000
    const size_t before = unit.windows_kept();
    BOOST_TEST(before > 20000u);
    for (uint64_t k = 0; k < 100000; ++k) unit.serve(0x200000 + 4 * k, 1, 200, 128);
    BOOST_TEST(unit.windows_kept() <= 100000u + 1u);              // those of windows 0 and 1 are gone
    BOOST_TEST(unit.serve(0xA000, 1, 128, 128) == 0u);          // window 2 of 0xA000 is free
    BOOST_TEST(unit.serve(0xB000, 1, 128, 128) == 64u);         // that of 0xB000 is still full
    BOOST_TEST(unit.operations() == 16u + 20000u + 1u + 16u + 100000u + 2u);
}

BOOST_AUTO_TEST_CASE(a_busy_address_is_passed_over_in_few_steps) {
    L2Config c;
    c.atomic_cycles = 4;
    c.window_cycles = 64;
    AtomicUnit unit(c);
    BOOST_TEST(unit.serve(0xA000, 48, 0, 0) == 47u * 4u);        // windows 0, 1 and 2, back to back
    BOOST_TEST(unit.serve(0xA000, 1, 0, 0) == 192u);             // past three full windows
    BOOST_TEST(unit.serve(0xA000, 1, 0, 0) == 196u);             // the same path, shortened
    BOOST_TEST(unit.serve(0xA000, 1, 64, 0) == 136u);            // from window 1: still window 3
}

BOOST_AUTO_TEST_CASE(the_window_holds_whole_operations) {
    L2Config c;
    c.atomic_cycles = 9;
    c.window_cycles = 64;           // rounded up to 72: 8 operations per window
    AtomicUnit unit(c);
    BOOST_TEST(unit.serve(0xC000, 32, 0, 0) == 31u * 9u);        // 32 lanes back to back: no wait
    BOOST_TEST(unit.wait_cycles() == 0u);
    BOOST_TEST(unit.serve(0xC000, 8, 0, 0) == 288u + 7u * 9u);   // after them, in window 4
}

// l2.slices: requests are serialized per slice (addresses taking turns every
// slice_bytes), each for atomic_cycles per lane on its busiest word.
BOOST_AUTO_TEST_CASE(atomic_units_per_slice_serialize_a_slice_and_overlap_slices) {
    L2Config c;
    c.atomic_cycles = 1;
    c.window_cycles = 64;
    c.slices = 4;
    c.slice_bytes = 512;
    AtomicUnit unit(c);
    BOOST_TEST(unit.serve(0x0000, 4, 0, 0) == 3u);      // slice 0: 4 passes
    BOOST_TEST(unit.serve(0x0100, 1, 0, 0) == 4u);      // another word, same slice: after them
    BOOST_TEST(unit.serve(0x0200, 1, 0, 0) == 0u);      // slice 1: free
    BOOST_TEST(unit.serve(0x0800, 1, 0, 0) == 5u);      // 2048 / 512 = 4: slice 0 again
    BOOST_TEST(unit.serve(0x0A00, 2, 0, 0) == 2u);      // slice 1, behind its one pass
    BOOST_TEST(unit.operations() == 9u);
}

// l2.slice_write_bytes: a slice's write port takes 32 bytes a cycle, accounted per 64-cycle window
// (2048 bytes); a store waits for room on its own slice only. Reads are not limited here.
BOOST_AUTO_TEST_CASE(a_slice_write_port_queues_the_stores_of_its_slice) {
    test::ChipMemory c = small_l2();
    c.l2.slices = 2;
    c.l2.slice_bytes = 256;
    c.l2.slice_write_bytes = 32;
    MemoryChain chain("l2_ports", c);
    Probe& sm = chain.sm;
    for (int k = 0; k < 64; ++k) BOOST_TEST(sm.write(0x0000 + uint64_t(k % 8) * 32, 32, 0) == 30u);   // window 0 fills
    BOOST_TEST(sm.write(0x0000, 32, 0) == 64u + 30u);         // slice 0: the next window
    BOOST_TEST(sm.write(0x0100, 32, 0) == 30u);               // slice 1: free
    BOOST_TEST(sm.write(0x0200, 32, 10) == 54u + 30u);        // slice 0 again (0x200 / 256 = 2)
    BOOST_TEST(sm.read(0x0800, 128, 0) == 230u);              // the read port is not limited
    nlohmann::json stats = test::unit_stats(chain.l2);
    BOOST_TEST(stats["slice_write_wait_cycles"]["value"].get<double>() == 64.0 + 54.0);
}

// l2.write_back: a store leaves its line dirty and device memory sees nothing; the line's bytes go
// to device memory when it is evicted. A read that evicts does not wait for the write-back; a
// store that evicts is acknowledged once device memory has taken the line.
BOOST_AUTO_TEST_CASE(write_back_sends_dirty_lines_to_memory_when_evicted) {
    test::ChipMemory c = small_l2();   // 8 sets of 4 ways: 0x000, 0x400, 0x800 ... share set 0
    c.l2.write_back = true;
    MemoryChain chain("l2_wb", c);
    Probe& sm = chain.sm;
    BOOST_TEST(sm.write(0x0000, 128, 0) == 30u);
    BOOST_TEST(sm.write(0x0000, 128, 100) == 30u);
    for (uint64_t k = 1; k <= 3; ++k) BOOST_TEST(sm.read(k * 0x400, 128, k * 1000) == 230u);
    BOOST_TEST(sm.read(0x1000, 128, 4000) == 230u);            // evicts 0x000 (dirty): written back, not waited for
    BOOST_TEST(sm.write(0x0400, 128, 5000) == 30u);            // a clean line made dirty
    BOOST_TEST(sm.write(0x1800, 128, 6000) == 30u);            // evicts 0x800, clean
    BOOST_TEST(sm.write(0x1C00, 128, 7000) == 30u);            // evicts 0xC00, clean
    BOOST_TEST(sm.write(0x2000, 128, 8000) == 30u);            // evicts 0x1000, clean
    BOOST_TEST(sm.write(0x2400, 128, 9000) == 30u + 200u);     // evicts 0x400, dirty: waits for device memory
    nlohmann::json stats = test::unit_stats(chain.l2), mem = test::unit_stats(chain.dram);
    BOOST_TEST(stats["write_backs"]["value"].get<double>() == 2.0);
    BOOST_TEST(mem["write_bytes"]["value"].get<double>() == 256.0);
    BOOST_TEST(mem["read_bytes"]["value"].get<double>() == 4.0 * 128.0);
}

namespace {

// Host memory over the link: every request takes `cycles` chip cycles.
struct SlowHost : sc_core::sc_module {
    tlm_utils::simple_target_socket<SlowHost> socket;
    sc_core::sc_time per_request;
    SlowHost(const sc_core::sc_module_name& name, sc_core::sc_time t) : sc_module(name), socket("socket"), per_request(t) {
        socket.register_b_transport(this, &SlowHost::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
        delay += per_request;
        p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

} // namespace

// memory.managed_fault_ns and managed_page_ns: a managed page's first device access waits for the
// fault unit (one page after another), its service and the fault's latency; other accesses to the
// page wait until then; a page coming back from the host also crosses the link.
BOOST_AUTO_TEST_CASE(managed_page_faults_are_served_one_page_after_another) {
    test::ChipMemory c = small_l2();
    c.l2.fault_page_cycles = 1000;
    c.l2.fault_latency_cycles = 100;
    MemoryChain chain("l2_fault", c);
    SlowHost host("l2_fault_host", sc_core::sc_time(500 * c.l2.cycle_ns, sc_core::SC_NS));
    chain.l2.sysmem.bind(host.socket);
    ManagedPages pages(65536);
    const uint64_t base = memory_map::kManagedBase;   // the L2 looks for faults in the managed window only
    pages.add(base, 4 * 65536);
    chain.l2.set_managed(&pages);
    Probe& sm = chain.sm;
    BOOST_TEST(sm.read(base, 128, 0) == 1100u + 230u);               // served 0-1000, then 100; then the miss
    BOOST_TEST(sm.read(base + 0x40, 128, 10) == 1090u + 230u);      // waits for the page, then for the line's fill
    BOOST_TEST(sm.read(base + 65536, 128, 20) == 2080u + 230u);     // the unit is busy until 1000
    BOOST_TEST(sm.read(base + 65536 + 0x1000, 128, 3000) == 230u);  // the page is there: a plain miss
    pages.host_touch(base + 2 * 65536);                              // first touched by the host
    BOOST_TEST(sm.read(base + 2 * 65536, 128, 5000) == 1100u + 230u);  // moves back: 500 on the link, within the service
    BOOST_TEST(int(pages.take_fault(base + 2 * 65536)) == int(ManagedPages::Fault::None));   // taken once
}
