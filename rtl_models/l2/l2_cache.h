// The chip's L2 cache as the SMs' timing sees it: a TLM target of the timing protocol
// (protocol/memory_request.h) for every SM's LD/ST unit, and an initiator toward the device memory
// controller for its line fills and posted writes (evictions are not tracked). It answers with the
// latency of the access. A hit on a line whose fill has not arrived yet waits for it, as a request
// merged into the miss's MSHR does. With slices (l2.slices), a request first waits for room on its
// slice's read or write port. Stores are posted to device memory, or (l2.write_back) kept as dirty
// lines that reach it when evicted. Atomics are performed here, serialized per address or slice
// (l2/atomic_unit.h). Without an L2 (cc 1.x: l2.bytes = 0) requests pass on to device memory, the
// atomics after their serialization. Requests for the host's memory (mapped, zero-copy memory)
// are not cached: they go over the PCIe link.
#pragma once

#include <cstdint>

#include <tlm>
#include <unordered_map>

#include <tlm_utils/simple_initiator_socket.h>

#include "memory/managed_pages.h"
#include "l2/atomic_unit.h"
#include "protocol/bandwidth_windows.h"
#include "protocol/memory_request.h"
#include "cache/tag_cache.h"
#include "isa/unit_module.h"
#include "trace/trace_recorder.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

// The target side is the socket itself rather than a tlm_utils multi-socket, whose callbacks
// exist only after elaboration: unit testbenches drive the L2 without running the simulation.
class L2Cache : public UnitModule, private tlm::tlm_fw_transport_if<> {
public:
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0> in;   // from any number of SMs
    tlm_utils::simple_initiator_socket<L2Cache> out;                  // to device memory
    tlm_utils::simple_initiator_socket<L2Cache> sysmem;               // to host memory over the PCIe link

    L2Cache(const sc_core::sc_module_name& name, const L2Config& cfg);

    void report(nlohmann::json& out) const override;
    // Managed memory: a device access to a page the host holds first migrates it over the link.
    void set_managed(ManagedPages* m) { m_managed = m; }
    void set_trace(TraceRecorder* t) { m_trace = t; }
    // Declares the waveform signal "l2.queue": requests arrived and not yet answered (hits, misses
    // waiting for device memory, atomics waiting for their address).
    void record_signals(VcdRecorder& vcd) { m_queue = vcd.declare(std::string(basename()) + ".queue", VcdRecorder::Kind::Count, 16); }

private:
    VcdSignal m_queue;
    ManagedPages* m_managed = nullptr;
    TraceRecorder* m_trace = nullptr;
    // Looks the line up (counting a hit or a miss), and tells the trace at `cycle`.
    bool lookup(uint64_t address, uint64_t cycle);
    MemoryRequestPayload m_migration;     // a managed page moving to the device
    ChipClock m_clock;
    TagCache m_tags;
    AtomicUnit m_atomic_unit;
    uint32_t m_atomic_latency;            // l2.atomic_latency
    SliceMap m_slices;                    // l2.slices (0: none)
    BandwidthWindows m_read_ports, m_write_ports;   // per slice (bytes_per_cycle 0: not limited)
    bool m_write_back;
    // Managed memory's faults (L2Config::fault_*): when the fault unit is next free, and the cycle
    // each faulted page's service completes.
    uint64_t m_fault_latency, m_fault_page;
    uint64_t m_fault_free = 0;
    std::unordered_map<uint64_t, uint64_t> m_page_ready;
    MemoryRequestPayload m_dram;          // the request toward device memory
    uint64_t m_reads = 0, m_writes = 0, m_atomics = 0, m_system = 0, m_write_backs = 0;

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override;
    void serve(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    bool touch_managed(uint64_t addr);
    // The fault a managed access takes (memory.managed_fault_ns, managed_page_ns): the page's move,
    // the wait for the fault unit and its service, or the wait for a fault on the page in progress.
    void charge_managed(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    // The protocol is blocking; a non-blocking request (BEGIN_REQ) is answered at once, completed.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
    // Adds to `delay` what a read (or an atomic) of the line takes: a hit, a hit under a miss, or a
    // fill; false when device memory answered with an error (left in `p`).
    bool read(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    // A write allocates its line without a fill; adds the L2's latency (and a write-back's wait)
    // to `delay`, and takes device memory bandwidth now unless the L2 writes back.
    bool write(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    // Sends the request prepared in m_dram at `delay`; copies an error into `p`.
    bool to_dram(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    // Write-back: the dirty line the last lookup evicted goes to device memory; the access that
    // evicted it waits until device memory has taken it (`delay` moves to its answer).
    bool write_back(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    // The wait for room on the request's slice port.
    void slice_port(const tlm::tlm_generic_payload& p, MemoryRequest::Kind kind, sc_core::sc_time& delay);
};

} // namespace gpusim
