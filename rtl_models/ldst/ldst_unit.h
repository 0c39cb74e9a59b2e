// The LD/ST unit's path to global and local memory: coalescing into transactions, the SM's L1,
// and the chip's L2. It answers how long a warp's access takes and how many transactions it is;
// the data moves through the functional memory path.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/l2_cache.h"
#include "ldst/coalescer.h"
#include "ldst/tag_cache.h"
#include "sm/timing_config.h"
#include "sm/unit_module.h"

namespace gpusim {

class LdstUnit : public UnitModule {
public:
    LdstUnit(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg, L2Cache& l2);

    enum class Kind : uint8_t { Load, Store, Atomic };
    struct Cost {
        uint32_t latency = 0;        // cycles until the loaded value can be used
        uint32_t transactions = 0;   // LD/ST pipe passes
        uint32_t groups = 1;         // coalescing groups (a fully coalesced access has one transaction each)
    };
    // A warp access of `width` bytes per thread; `local` for local memory (always cached in L1).
    Cost access(const uint64_t* addr, LaneMask mask, uint32_t width, Kind kind, bool local);
    // Latency of fetching the line at `addr` for another cache of the SM (the constant cache).
    uint32_t fill(uint64_t addr, uint32_t bytes) { return m_l2.read(addr, bytes, m_now); }
    // The chip cycle of the accesses that follow (the SM's cycle plus its offset from chip time).
    void set_now(uint64_t cycle) { m_now = cycle; }

    void report(nlohmann::json& out) const override;

private:
    MemoryTimingConfig m_cfg;
    CoalescingRule m_rule;
    TagCache m_l1;
    L2Cache& m_l2;
    std::vector<Transaction> m_txns;
    uint64_t m_accesses = 0, m_transactions = 0;
    uint64_t m_now = 0;
};

} // namespace gpusim
