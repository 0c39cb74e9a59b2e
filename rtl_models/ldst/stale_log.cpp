#include "ldst/stale_log.h"

#include <algorithm>
#include <cstring>

namespace gpusim {

namespace {

// A well-mixed hash (splitmix64's finaliser): each SM's delay for each entry, from the seed.
uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
} // namespace

StaleLog::StaleLog(uint32_t sms, uint32_t entries, uint32_t max_delay, uint64_t seed)
    : m_entries(std::max(entries, 1u)), m_max_delay(max_delay), m_seed(seed), m_views(sms) {}

uint64_t StaleLog::visible(const Entry& e, uint32_t sm) const {
    return e.reached + mix(m_seed ^ mix(e.seq * 1024 + sm)) % (uint64_t(m_max_delay) + 1);
}

void StaleLog::record(uint32_t writer, uint64_t addr, uint32_t size, const uint8_t* old, uint64_t now) {
    if (m_log.size() >= m_entries) m_log.pop_front();   // the oldest invalidation arrives everywhere
    Entry e{m_next++, addr, now, writer, size, {}};
    std::memcpy(e.old, old, size);
    m_log.push_back(e);
    m_low = std::min(m_low, addr), m_high = std::max(m_high, addr + size);
    // Now and then the bounds shrink to what the log still holds, so that loads elsewhere take the
    // fast path again.
    if (m_next % m_entries == 0) {
        m_low = UINT64_MAX, m_high = 0;
        for (const Entry& x : m_log) m_low = std::min(m_low, x.addr), m_high = std::max(m_high, x.addr + x.size);
    }
}

void StaleLog::catch_up(uint32_t sm, uint64_t addr, uint32_t size) {
    if (!covers(addr, addr + size - 1)) return;
    View& v = m_views[sm];
    // The same bytes again (a lane's stores, a loop's): the newest mark moves on.
    if (!v.marks.empty() && v.marks.back().addr == addr && v.marks.back().size == size) {
        v.marks.back().seq = m_next;
        return;
    }
    // Marks older than the log are moot; they go when there are many.
    if (v.marks.size() >= 2 * size_t(m_entries)) {
        const uint64_t oldest = m_log.front().seq;
        v.marks.erase(std::remove_if(v.marks.begin(), v.marks.end(), [&](const Mark& m) { return m.seq <= oldest; }), v.marks.end());
    }
    v.marks.push_back(Mark{addr, m_next, size});
}

void StaleLog::clear() {
    m_log.clear();
    for (View& v : m_views) v = View{};
    m_low = UINT64_MAX, m_high = 0;
}

bool StaleLog::overlay_slow(uint32_t sm, uint64_t addr, void* data, uint32_t size, uint64_t now) {
    const View& v = m_views[sm];
    uint8_t* out = static_cast<uint8_t*>(data);
    bool any = false;
    // Newest first, so that for each byte the oldest value still unseen wins.
    for (auto it = m_log.rbegin(); it != m_log.rend() && it->seq >= v.since; ++it) {
        const Entry& e = *it;
        if (e.writer == sm || !overlap(e.addr, e.size, addr, size) || visible(e, sm) <= now) continue;
        bool moot = false;
        for (const Mark& m : v.marks) moot |= m.seq > e.seq && overlap(m.addr, m.size, e.addr, e.size);
        if (moot) continue;
        const uint64_t lo = std::max(e.addr, addr), hi = std::min(e.addr + e.size, addr + size);
        std::memcpy(out + (lo - addr), e.old + (lo - e.addr), size_t(hi - lo));
        any = true;
    }
    return any;
}

} // namespace gpusim
