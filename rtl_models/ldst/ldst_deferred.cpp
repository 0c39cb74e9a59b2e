// The LD/ST unit's deferred mode (ldst/ldst_unit.h): requests written down while the SM runs on
// its own, priced later in the order they were made.
#include <algorithm>

#include "ldst/ldst_unit.h"

namespace gpusim {

void LdstUnit::open_group() {
    if (!m_deferred || m_group_open) return;
    m_pending_groups.push_back(Group{});
    m_group_open = true;
}

int32_t LdstUnit::close_group(uint32_t floor, uint32_t add, uint32_t& lower) {
    lower = floor;
    if (!m_group_open) return -1;
    m_group_open = false;
    Group& g = m_pending_groups.back();
    if (!g.pending) {
        m_pending_groups.pop_back();
        return -1;
    }
    g.floor = floor;
    g.add = add;
    g.lower = std::max(floor, g.lower + add);
    lower = g.lower;
    return int32_t(m_pending_groups.size() - 1);
}

// `lower`: what the request takes at least.
void LdstUnit::defer(const Pending& p, uint32_t lower) {
    Group& g = m_pending_groups.back();
    g.pending = true;
    g.lower = std::max(g.lower, lower);
    m_pending.push_back(p);
    m_pending.back().group = uint32_t(m_pending_groups.size() - 1);
}

// Whether the miss waits for an MSHR is known now: one free by now is free whatever the misses
// not priced yet turn out to take, since each of those holds its MSHR past mshr_horizon(), and
// the SM stops there.
uint32_t LdstUnit::defer_miss(const Transaction& t, uint32_t& mshr_wait) {
    uint32_t wait = 0;
    if (!m_mshr_view.empty()) {
        auto it = std::min_element(m_mshr_view.begin(), m_mshr_view.end());
        if (*it > m_now) {
            mshr_wait = std::max(mshr_wait, 1u);
            if (*it != UINT64_MAX) wait = uint32_t(*it - m_now);
        }
        *it = UINT64_MAX;
    }
    const uint32_t fill = uint32_t(m_fill_lower.size());
    const uint32_t lower = wait + m_min_latency;
    m_fill_lower.push_back(m_now + lower);
    if (!m_mshr_view.empty()) m_mshr_horizon = std::min(m_mshr_horizon, m_now + lower);
    defer(Pending{Pending::Type::Miss, Kind::Read, t.bytes, 1, t.address, m_now, fill, m_l1.last_way(), 0}, lower);
    m_l1.filling(TagCache::kPendingFill | fill);
    return 0;
}

uint32_t LdstUnit::defer_merged(uint64_t marker) {
    const uint32_t fill = uint32_t(marker & ~TagCache::kPendingFill);
    const uint64_t arrives = m_fill_lower[fill];
    const uint32_t lower = std::max<uint32_t>(m_l1.latency(), arrives > m_now ? uint32_t(arrives - m_now) : 0);
    defer(Pending{Pending::Type::Merged, Kind::Read, 0, 0, 0, m_now, fill, 0, 0}, lower);
    return 0;
}

void LdstUnit::resolve() {
    const bool deferred = m_deferred;
    m_deferred = false;
    for (const Pending& p : m_pending) {
        uint32_t latency = 0;
        switch (p.type) {
        case Pending::Type::Request: latency = send(p.addr, p.bytes, p.kind, p.at, p.ops); break;
        case Pending::Type::Miss: {
            uint32_t unused = 0;
            latency = miss(p.at, p.addr, p.bytes, unused);
            m_fill_lower[p.fill] = p.at + latency;
            m_l1.resolve_fill(p.way, TagCache::kPendingFill | p.fill, p.at + latency);
            break;
        }
        case Pending::Type::Merged: latency = m_l1.wait_for(m_fill_lower[p.fill], p.at); break;
        }
        Group& g = m_pending_groups[p.group];
        g.worst = std::max(g.worst, latency);
    }
    for (Group& g : m_pending_groups) g.latency = std::max(g.floor, g.worst + g.add);
    m_pending.clear();
    m_fill_lower.clear();
    m_mshr_view = m_mshrs;
    m_mshr_horizon = UINT64_MAX;
    m_deferred = deferred;
}

} // namespace gpusim
