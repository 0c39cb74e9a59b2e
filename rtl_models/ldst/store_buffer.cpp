#include "ldst/store_buffer.h"

#include <algorithm>
#include <cstring>

namespace gpusim {

StoreBuffer::StoreBuffer(const StoreBufferConfig& cfg, uint32_t smid, MemoryView& memory)
    : m_cfg(cfg), m_smid(smid), m_memory(memory), m_rng(cfg.seed * 0x9E3779B97F4A7C15ull + smid) {}

// The store reaches memory; every other SM sees it after an invalidation delay of its own
// (StaleLog).
void StoreBuffer::write(const Entry& e) {
    uint8_t old[16];
    uint8_t* p = m_memory.direct(e.addr, e.size, true);
    if (p) std::memcpy(old, p, e.size);
    else m_memory.slow(false, e.addr, old, e.size);
    if (p) std::memcpy(p, e.data, e.size);
    else m_memory.slow(true, e.addr, const_cast<uint8_t*>(e.data), e.size);
    if (!m_log) return;
    if (std::memcmp(old, e.data, e.size) != 0) m_log->record(m_smid, e.addr, e.size, old, m_now);
    // What the SM stored is the least it sees there from now on, whatever other SMs' stores left
    // in the log before.
    m_log->catch_up(m_smid, e.addr, e.size);
}

void StoreBuffer::bounds() {
    m_low = UINT64_MAX, m_high = 0;
    for (const Entry& e : m_entries) m_low = std::min(m_low, e.addr), m_high = std::max(m_high, e.addr + e.size);
}

void StoreBuffer::store(uint64_t addr, const void* data, uint32_t size, uint64_t now) {
    ++m_buffered;
    forget(addr, size);   // the SM sees its own store, not what it saw before
    m_now = chip(now);
    // A store to the very bytes of the newest one replaces it (the lanes of one instruction on
    // one word, a loop's stores to one variable): nothing could see the value in between.
    if (!m_entries.empty() && m_entries.back().addr == addr && m_entries.back().size == size) {
        std::memcpy(m_entries.back().data, data, size);
        return;
    }
    // Full: the half of the stores due first leave now.
    if (m_entries.size() >= m_cfg.entries) {
        std::vector<size_t> order(m_entries.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        const auto first = [&](size_t a, size_t b) {
            return m_entries[a].due != m_entries[b].due ? m_entries[a].due < m_entries[b].due : a < b;
        };
        const size_t n = std::max<size_t>(order.size() / 2, 1);
        std::nth_element(order.begin(), order.begin() + long(n - 1), order.end(), first);
        order.resize(n);
        std::sort(order.begin(), order.end(), first);
        m_overflows += n;
        drain_in(order);
    }
    Entry e{addr, m_now + m_rng() % (uint64_t(m_cfg.max_delay) + 1), size, {}};
    // Never before an earlier store to the same bytes.
    if (addr < m_high && addr + size > m_low)
        for (const Entry& o : m_entries)
            if (overlap(o.addr, o.size, addr, size)) e.due = std::max(e.due, o.due);
    std::memcpy(e.data, data, size);
    m_entries.push_back(e);
    m_low = std::min(m_low, addr), m_high = std::max(m_high, addr + size);
}

void StoreBuffer::drain_at(size_t i) {
    // Earlier stores to the same bytes first, the earliest first (each may have its own).
    for (;;) {
        size_t j = 0;
        while (j < i && !overlap(m_entries[j].addr, m_entries[j].size, m_entries[i].addr, m_entries[i].size)) ++j;
        if (j == i) break;
        const size_t before = m_entries.size();
        drain_at(j);
        i -= before - m_entries.size();   // every entry it wrote lay below i
    }
    m_reordered += i > 0;
    write(m_entries[i]);
    m_entries.erase(m_entries.begin() + long(i));
}

void StoreBuffer::drain_overlapping(uint64_t addr, uint32_t size) {
    // In program order, so stores to the same bytes land as the program made them; draining one
    // may take earlier ones with it, so the search starts over each time.
    for (;;) {
        size_t i = 0;
        while (i < m_entries.size() && !overlap(m_entries[i].addr, m_entries[i].size, addr, size)) ++i;
        if (i == m_entries.size()) break;
        drain_at(i);
    }
    bounds();
}

void StoreBuffer::drain_all() {
    for (const Entry& e : m_entries) write(e);
    m_entries.clear();
    bounds();
}

void StoreBuffer::drain_in(const std::vector<size_t>& order) {
    // Stores to the same bytes are due in program order (store() keeps them so), so in (due,
    // program order) an earlier store to a store's bytes is always written before it.
    std::vector<bool> written(m_entries.size(), false);
    size_t oldest = 0;   // every entry below it is written
    for (size_t i : order) {
        while (oldest < written.size() && written[oldest]) ++oldest;
        m_reordered += oldest < i;
        write(m_entries[i]);
        written[i] = true;
    }
    size_t out = 0;
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (!written[i]) m_entries[out++] = m_entries[i];
    m_entries.resize(out);
    bounds();
}

void StoreBuffer::end_round(uint64_t now) {
    if (m_entries.empty()) return;
    m_now = now;
    std::vector<size_t> order;
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].due <= now) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return m_entries[a].due != m_entries[b].due ? m_entries[a].due < m_entries[b].due : a < b;
    });
    if (!order.empty()) drain_in(order);
}

} // namespace gpusim
