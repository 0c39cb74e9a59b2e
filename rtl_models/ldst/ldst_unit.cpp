#include "ldst/ldst_unit.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "protocol/memory_map.h"
#include "isa/lane_addresses.h"

namespace gpusim {

LdstUnit::LdstUnit(const sc_core::sc_module_name& name, const LdstConfig& cfg)
    : UnitModule(name), mem("mem"), m_cfg(cfg), m_clock(cfg.cycle_ns), m_rule(coalescing_rule(cfg.coalescing)), m_l1(cfg.l1),
      m_mshrs(cfg.l1.mshrs, 0), m_mshr_view(m_mshrs) {
    m_min_latency = cfg.min_request_latency;
}

LdstUnit::Cost LdstUnit::access(const uint64_t* addr, LaneMask mask, uint32_t width, Kind kind, bool local, bool bypass_l1) {
    Cost c;
    if (!mask) return c;
    const bool global_cached = m_cfg.l1_caches_global && !(bypass_l1 && m_cfg.l1_cache_operators);
    bool cached = m_l1.present() && kind == Kind::Read && (local || global_cached);
    m_txns.clear();
    c.groups = std::max(coalesce(m_rule, addr, mask, width, cached, m_txns), 1u);
    open_group();
    uint32_t worst = 0;
    if (kind == Kind::Atomic) {
        // Atomics pass the LD/ST pipe as the coalesced transactions, and reach the L2 per address.
        worst = atomics(addr, mask, width);
    } else {
        for (const Transaction& t : m_txns) {
            // Stores write through to the L2 (and drop the L1 copy).
            if (kind == Kind::Write && m_l1.present()) m_l1.invalidate(t.address);
            // Mapped host memory is not cached on the chip.
            const bool in_l1 = cached && !memory_map::is_host_address(t.address);
            worst = std::max(worst, in_l1 ? cached_load(t, c.mshr_wait) : request(t.address, t.bytes, kind, m_now));
        }
    }
    c.transactions = uint32_t(m_txns.size());
    c.passes = m_rule == CoalescingRule::Cc90 ? lines_touched(m_txns, m_cfg.l1.line_bytes) : c.transactions;
    if (kind == Kind::Write && m_cfg.store_bytes_per_cycle > 0) c.passes = std::max(c.passes, store_cycles());
    const uint32_t extra = (c.transactions - 1) * m_cfg.transaction_cycles;
    c.latency = worst + extra;
    c.group = close_group(c.latency, extra, c.lower);
    ++m_accesses;
    m_transactions += c.transactions;
    m_groups += c.groups;
    return c;
}

// The L2's latency is the whole trip from the SM, the L1 lookup included. A miss takes an MSHR;
// when all are busy it is sent when the first of them completes.
uint32_t LdstUnit::cached_load(const Transaction& t, uint32_t& mshr_wait) {
    if (m_l1.access(t.address)) {
        if (m_l1.last_ready() & TagCache::kPendingFill) return defer_merged(m_l1.last_ready());
        return m_l1.hit_latency(m_now);
    }
    if (m_deferred) return defer_miss(t, mshr_wait);
    const uint32_t latency = miss(m_now, t.address, t.bytes, mshr_wait);
    m_l1.filling(m_now + latency);
    return latency;
}

uint32_t LdstUnit::miss(uint64_t now, uint64_t addr, uint32_t bytes, uint32_t& mshr_wait) {
    uint64_t* mshr = m_mshrs.empty() ? nullptr : &*std::min_element(m_mshrs.begin(), m_mshrs.end());
    const uint64_t sent = mshr ? std::max(*mshr, now) : now;
    m_mshr_wait_cycles += sent - now;
    mshr_wait = std::max(mshr_wait, uint32_t(sent - now));
    m_queue.span(now, sent);
    const uint32_t latency = uint32_t(sent - now) + send(addr, bytes, Kind::Read, sent, 1);
    if (mshr) *mshr = now + latency;
    return latency;
}

uint32_t LdstUnit::store_cycles() const {
    uint64_t bytes = 0;
    for (const Transaction& t : m_txns) bytes += t.bytes;
    return uint32_t(std::ceil(double(bytes) / m_cfg.store_bytes_per_cycle));
}

uint32_t LdstUnit::atomics(const uint64_t* addr, LaneMask mask, uint32_t width) {
    AddressUse use[kWarpSize];
    const uint32_t n = distinct_addresses(addr, mask, use);
    uint32_t worst = 0;
    if (m_cfg.atomic_per_sector) {
        for (const Transaction& t : m_txns) {
            if (m_l1.present()) m_l1.invalidate(t.address);
            uint32_t passes = 0;   // the lanes on the busiest word of the transaction
            for (uint32_t k = 0; k < n; ++k)
                if (use[k].addr >= t.address && use[k].addr < t.address + t.bytes) passes = std::max(passes, use[k].lanes);
            worst = std::max(worst, request(t.address, t.bytes, Kind::Atomic, m_now, std::max(passes, 1u)));
        }
        return worst;
    }
    for (uint32_t k = 0; k < n; ++k) {
        if (m_l1.present()) m_l1.invalidate(use[k].addr);
        // The request moves the coalesced segment that holds its address (a burst of device
        // memory without an L2), or the access itself.
        uint32_t bytes = width;
        for (const Transaction& t : m_txns)
            if (use[k].addr >= t.address && use[k].addr < t.address + t.bytes) bytes = t.bytes;
        worst = std::max(worst, request(use[k].addr, bytes, Kind::Atomic, m_now, use[k].lanes));
    }
    return worst;
}

uint32_t LdstUnit::request(uint64_t addr, uint32_t bytes, Kind kind, uint64_t at, uint32_t ops) {
    if (!m_deferred) return send(addr, bytes, kind, at, ops);
    if (!m_group_open) throw std::logic_error(std::string(name()) + ": a deferred request outside a group");
    defer(Pending{Pending::Type::Request, kind, bytes, ops, addr, at, 0, 0, 0}, m_min_latency);
    return 0;
}

void LdstUnit::warm(uint64_t addr) {
    tlm::tlm_generic_payload& p = m_request.prepare(addr, 1, Kind::Warm);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    mem->b_transport(p, delay);
}

uint32_t LdstUnit::send(uint64_t addr, uint32_t bytes, Kind kind, uint64_t at, uint32_t ops) {
    tlm::tlm_generic_payload& p = m_request.prepare(addr, bytes, kind, ops);
    const sc_core::sc_time sent = m_clock.delay_of(at);
    sc_core::sc_time delay = sent;
    mem->b_transport(p, delay);
    if (!p.is_response_ok())
        throw std::runtime_error(fmt::format("{}: the memory target answered {} to a timing request of {} bytes at {:#x}",
                                             name(), p.get_response_string(), bytes, addr));
    if (delay < sent)
        throw std::runtime_error(fmt::format("{}: the memory target lowered the delay of a timing request at {:#x}", name(), addr));
    const uint32_t latency = uint32_t(m_clock.cycles_in(delay - sent));
    m_queue.span(at, at + latency);
    return latency;
}

void LdstUnit::report(nlohmann::json& out) const {
    stat(out, "accesses", double(m_accesses), "warp accesses", "global and local loads, stores and atomics");
    stat(out, "transactions", double(m_transactions), "transactions", "memory transactions after coalescing");
    stat(out, "ideal_transactions", double(m_groups), "transactions",
         "transactions the same accesses would need fully coalesced (one per coalescing group)");
    stat(out, "l1_hits", double(m_l1.hits()), "lookups", "L1 hits");
    stat(out, "l1_misses", double(m_l1.misses()), "lookups", "L1 misses");
    stat(out, "l1_mshr_wait_cycles", double(m_mshr_wait_cycles), "cycles", "cycles L1 misses waited for a free MSHR, summed");
    stat(out, "l1_hits_under_miss", double(m_l1.hits_under_miss()), "lookups", "L1 hits on a line still being filled, which waited for the fill");
}

} // namespace gpusim
