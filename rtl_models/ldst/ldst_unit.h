// The LD/ST unit's path to global and local memory: coalescing into transactions and the SM's L1,
// then a TLM initiator socket toward the chip's L2 (protocol/memory_request.h is the protocol). It
// answers how long a warp's access takes and how many transactions it is; the data moves through
// the functional memory path.
//
// Deferred mode (timing mode's SMs on host threads, gpu/sm_cluster.h): what reaches beyond the SM
// (a request to the L2, a miss with its MSHR, a hit on a line whose fill that miss brings) is
// written down instead of priced, grouped by instruction, and resolve() prices it all later, in
// order, exactly as it would have been priced at once. Until then a group's latency is known only
// to be at least its lower bound; the L1's tags, and whether a miss waits for an MSHR, are known
// at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "cache/tag_cache.h"
#include "isa/unit_module.h"
#include "ldst/coalescer.h"
#include "protocol/memory_request.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct LdstConfig {
    std::string coalescing = "cc20";   // cc10, cc12, cc20, cc35 (docs/config.md)
    CacheConfig l1;                    // per SM, global loads (when cached) and local memory
    bool l1_caches_global = true;
    bool l1_cache_operators = false;   // .cg, .cv and strong global loads go past the L1
    uint32_t transaction_cycles = 2;   // LD/ST pipe cycles each extra transaction of a warp adds
    double store_bytes_per_cycle = 0;  // the SM's store path toward the L2 (0: not limited)
    // The least latency of a request beyond the SM: the L2's hit latency, or device memory's
    // where the chip has no L2 (derived at load).
    uint32_t min_request_latency = 0;
    // A warp's atomic reaches the L2 as one request per transaction (sector) carrying the most
    // lanes on one of its words, instead of one per address (derived at load: l2.slices).
    bool atomic_per_sector = false;
    double cycle_ns = 1.0;             // the chip cycle, for the TLM delays (derived at load)
};

// The keys memory.coalescing, memory.transaction_cycles and l1.* (ldst_keys.cpp); the section's
// prefix is empty.
void declare_keys(ConfigSection<LdstConfig>& s);

class LdstUnit : public UnitModule {
public:
    tlm_utils::simple_initiator_socket<LdstUnit> mem;   // to the L2 (timing requests only)

    LdstUnit(const sc_core::sc_module_name& name, const LdstConfig& cfg);

    using Kind = MemoryRequest::Kind;
    struct Cost {
        uint32_t latency = 0;        // cycles until the loaded value can be used
        uint32_t transactions = 0;   // memory transactions
        uint32_t passes = 0;         // LD/ST pipe passes (the transactions, or the lines under cc90)
        uint32_t groups = 1;         // coalescing groups (a fully coalesced access has one transaction each)
        uint32_t mshr_wait = 0;      // cycles its misses waited for a free MSHR (the longest; deferred: > 0 when any did)
        int32_t group = -1;          // deferred: the group whose latency resolve() prices (-1: known now)
        uint32_t lower = 0;          // deferred: a lower bound of the latency (the latency when known now)
    };
    // A warp access of `width` bytes per thread; `local` for local memory (always cached in L1);
    // `bypass_l1` for a global load its cache operator sends to the L2 (under l1.cache_operators).
    Cost access(const uint64_t* addr, LaneMask mask, uint32_t width, Kind kind, bool local, bool bypass_l1 = false);
    // Latency of fetching the line at `addr` for another cache of the SM (the constant cache);
    // deferred, 0 (within a group the caller opened).
    uint32_t fill(uint64_t addr, uint32_t bytes) { return request(addr, bytes, Kind::Read, m_now); }

    // Kernel sampling: the L2 takes the line at `addr`, which a launch run without timing touched,
    // as if it had been fetched (MemoryRequest::Kind::Warm), at no cost and without counting it.
    void warm(uint64_t addr);

    // Deferred mode: on, requests wait for resolve().
    void set_deferred(bool on) {
        if (on && !m_deferred) m_mshr_view = m_mshrs;
        m_deferred = on;
    }
    bool deferred() const { return m_deferred; }
    // The requests of one instruction that are not priced yet form a group (access() makes its
    // own): its latency is max(floor, the latest of them + add). close_group() returns the group,
    // or -1 when everything was priced at once; `lower` receives a lower bound of the latency.
    void open_group();
    int32_t close_group(uint32_t floor, uint32_t add, uint32_t& lower);
    // Prices what was written down, in order, and the groups' latencies.
    void resolve();
    uint32_t group_latency(int32_t g) const { return m_pending_groups[size_t(g)].latency; }
    void clear_groups() { m_pending_groups.clear(); }
    // The least latency of a request to the L2 (or to device memory without one).
    uint32_t min_request_latency() const { return m_min_latency; }
    // The first cycle at which an MSHR taken by a miss not priced yet could be free again: before
    // it, whether a miss waits for an MSHR is known without the prices (UINT64_MAX: none taken).
    uint64_t mshr_horizon() const { return m_mshr_horizon; }
    // The chip cycle of the accesses that follow (the SM's cycle plus its offset from chip time).
    void set_now(uint64_t cycle) { m_now = cycle; }

    void report(nlohmann::json& out) const override;
    // Declares the waveform signal `prefix` + "queue": transactions waiting for an MSHR or in
    // flight to the L2, not yet answered.
    void record_signals(VcdRecorder& vcd, const std::string& prefix) {
        m_queue = vcd.declare(prefix + "queue", VcdRecorder::Kind::Count, 16);
    }

private:
    LdstConfig m_cfg;
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

    // Deferred mode.
    struct Pending {
        enum class Type : uint8_t { Request, Miss, Merged } type;
        Kind kind;
        uint32_t bytes, ops;
        uint64_t addr, at;
        uint32_t fill;            // Miss: the fill it starts; Merged: the fill it waits for
        size_t way;               // Miss: the L1 way its line went to
        uint32_t group;
    };
    struct Group {
        uint32_t floor = 0, add = 0, lower = 0;
        uint32_t worst = 0;       // the latest of its requests, once priced
        uint32_t latency = 0;
        bool pending = false;
    };
    bool m_deferred = false;
    uint32_t m_min_latency = 0;
    std::vector<Pending> m_pending;
    std::vector<Group> m_pending_groups;
    std::vector<uint64_t> m_fill_lower;   // per fill started by a pending miss: a lower bound of its arrival, then the arrival
    std::vector<uint64_t> m_mshr_view;    // the MSHRs as the instructions not priced yet left them (UINT64_MAX: taken by one)
    bool m_group_open = false;
    uint64_t m_mshr_horizon = UINT64_MAX;

    // Sends one transaction to the L2 at chip cycle `at`; returns its latency in cycles (deferred: 0).
    uint32_t request(uint64_t addr, uint32_t bytes, Kind kind, uint64_t at, uint32_t ops = 1);
    uint32_t send(uint64_t addr, uint32_t bytes, Kind kind, uint64_t at, uint32_t ops);
    // Latency of a cached load transaction: an L1 hit (perhaps under a miss) or a fill from the L2.
    uint32_t cached_load(const Transaction& t, uint32_t& mshr_wait);
    // An L1 miss at `now`: waits for an MSHR, then the fill; returns the latency.
    uint32_t miss(uint64_t now, uint64_t addr, uint32_t bytes, uint32_t& mshr_wait);
    // Deferred: writes down a miss or a hit on a line being filled by one; returns 0.
    uint32_t defer_miss(const Transaction& t, uint32_t& mshr_wait);
    uint32_t defer_merged(uint64_t marker);
    void defer(const Pending& p, uint32_t lower);
    // LD/ST pipe cycles the transactions of a store take to leave the SM (memory.store_bytes_per_cycle).
    uint32_t store_cycles() const;
    // Latency of a warp's atomic: one request per distinct address, carrying its lanes' operations.
    uint32_t atomics(const uint64_t* addr, LaneMask mask, uint32_t width);
};

} // namespace gpusim
