// The LD/ST unit's path to global and local memory: coalescing into transactions and the SM's L1,
// then a TLM initiator socket toward the chip's L2 (ldst/memory_request.h is the protocol). It
// answers how long a warp's access takes and how many transactions it is; the data moves through
// the functional memory path.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "ldst/coalescer.h"
#include "ldst/memory_request.h"
#include "ldst/tag_cache.h"
#include "sm/timing_config.h"
#include "sm/unit_module.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

class LdstUnit : public UnitModule {
public:
    tlm_utils::simple_initiator_socket<LdstUnit> mem;   // to the L2 (timing requests only)

    LdstUnit(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg);

    using Kind = MemoryRequest::Kind;
    struct Cost {
        uint32_t latency = 0;        // cycles until the loaded value can be used
        uint32_t transactions = 0;   // LD/ST pipe passes
        uint32_t groups = 1;         // coalescing groups (a fully coalesced access has one transaction each)
        uint32_t mshr_wait = 0;      // cycles its misses waited for a free MSHR (the longest)
    };
    // A warp access of `width` bytes per thread; `local` for local memory (always cached in L1).
    Cost access(const uint64_t* addr, LaneMask mask, uint32_t width, Kind kind, bool local);
    // Latency of fetching the line at `addr` for another cache of the SM (the constant cache).
    uint32_t fill(uint64_t addr, uint32_t bytes) { return request(addr, bytes, Kind::Read, m_now); }
    // The chip cycle of the accesses that follow (the SM's cycle plus its offset from chip time).
    void set_now(uint64_t cycle) { m_now = cycle; }

    void report(nlohmann::json& out) const override;
    // Declares the waveform signal `prefix` + "queue": transactions waiting for an MSHR or in
    // flight to the L2, not yet answered.
    void record_signals(VcdRecorder& vcd, const std::string& prefix) {
        m_queue = vcd.declare(prefix + "queue", VcdRecorder::Kind::Count, 16);
    }

private:
    MemoryTimingConfig m_cfg;
    VcdSignal m_queue;
    ChipClock m_clock;
    CoalescingRule m_rule;
    TagCache m_l1;
    MemoryRequestPayload m_request;
    std::vector<Transaction> m_txns;
    uint64_t m_accesses = 0, m_transactions = 0, m_groups = 0;
    uint64_t m_now = 0;

    std::vector<uint64_t> m_mshrs;        // cycle each L1 miss in flight completes (l1.mshrs entries)
    uint64_t m_mshr_wait_cycles = 0;

    // Sends one transaction to the L2 at chip cycle `at`; returns its latency in cycles.
    uint32_t request(uint64_t addr, uint32_t bytes, Kind kind, uint64_t at, uint32_t ops = 1);
    // Latency of a cached load transaction: an L1 hit (perhaps under a miss) or a fill from the L2.
    uint32_t cached_load(const Transaction& t, uint32_t& mshr_wait);
    // Latency of a warp's atomic: one request per distinct address, carrying its lanes' operations.
    uint32_t atomics(const uint64_t* addr, LaneMask mask, uint32_t width);
};

} // namespace gpusim
