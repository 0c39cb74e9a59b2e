#include "ldst/ldst_unit.h"

#include <algorithm>

namespace gpusim {

LdstUnit::LdstUnit(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg, L2Cache& l2)
    : UnitModule(name), m_cfg(cfg), m_rule(coalescing_rule(cfg.coalescing)), m_l1(cfg.l1), m_l2(l2) {}

LdstUnit::Cost LdstUnit::access(const uint64_t* addr, LaneMask mask, uint32_t width, Kind kind, bool local) {
    Cost c;
    if (!mask) return c;
    bool cached = m_l1.present() && kind == Kind::Load && (local || m_cfg.l1_caches_global);
    m_txns.clear();
    c.groups = std::max(coalesce(m_rule, addr, mask, width, cached, m_txns), 1u);
    uint32_t worst = 0;
    for (const Transaction& t : m_txns) {
        uint32_t lat;
        if (kind == Kind::Load) {
            // The L2 latency is the whole trip from the SM, L1 lookup included.
            lat = cached && m_l1.access(t.address) ? m_l1.latency() : m_l2.read(t.address, t.bytes, m_now);
        } else {
            // Stores write through to L2 (and drop the L1 copy); atomics are performed at the L2.
            if (m_l1.present()) m_l1.invalidate(t.address);
            lat = m_l2.write(t.address, t.bytes, m_now);
        }
        worst = std::max(worst, lat);
    }
    c.transactions = uint32_t(m_txns.size());
    c.latency = worst + (c.transactions - 1) * m_cfg.transaction_cycles;
    ++m_accesses;
    m_transactions += c.transactions;
    return c;
}

void LdstUnit::report(nlohmann::json& out) const {
    stat(out, "accesses", double(m_accesses), "warp accesses", "global and local loads, stores and atomics");
    stat(out, "transactions", double(m_transactions), "transactions", "memory transactions after coalescing");
    stat(out, "l1_hits", double(m_l1.hits()), "lookups", "L1 hits");
    stat(out, "l1_misses", double(m_l1.misses()), "lookups", "L1 misses");
}

} // namespace gpusim
