#include "runtime/device_heap.h"

#include <algorithm>

namespace gpusim {

namespace {
uint64_t round_to(uint64_t v, uint64_t m) { return m ? (v + m - 1) / m * m : v; }
} // namespace

uint64_t DeviceHeap::reserved(uint64_t bytes) const {
    return round_to(bytes ? bytes : 1, m_layout.chunk ? m_layout.align : m_layout.page);
}

DeviceHeap::Placement DeviceHeap::place(uint64_t bytes) {
    Placement p;
    p.reserved = reserved(bytes);
    if (!m_layout.chunk) {
        p.addr = m_next;
        p.map.push_back({p.addr, p.reserved});
        m_owner[p.addr] = p.reserved;
        m_next += p.reserved + m_layout.page;   // a guard page between allocations
        return p;
    }
    uint64_t chunk = 0;
    if (p.reserved >= m_layout.chunk) {
        chunk = new_chunk(round_to(p.reserved, m_layout.chunk), p.map);
        p.addr = chunk;
    } else {
        if (!m_open || m_open_next + p.reserved > m_open + m_layout.chunk) {
            if (m_open && m_chunks[m_open].live == 0) drop_chunk(m_open, p.unmap);   // all freed while open
            m_open = new_chunk(m_layout.chunk, p.map);
            m_open_next = m_open;
        }
        chunk = m_open;
        p.addr = m_open_next;
        m_open_next += p.reserved;
    }
    ++m_chunks[chunk].live;
    m_owner[p.addr] = chunk;
    return p;
}

uint64_t DeviceHeap::new_chunk(uint64_t bytes, std::vector<Range>& map) {
    uint64_t start = round_to(m_next, m_layout.chunk);
    if (!m_window_end) {
        start = round_to(m_next + m_layout.mapped_before, m_layout.chunk);
        m_window_end = start + std::max(m_layout.mapped_after, m_layout.chunk);
        map.push_back({start - m_layout.mapped_before, m_window_end - (start - m_layout.mapped_before)});
    }
    if (start + bytes > m_window_end) {
        const uint64_t from = start < m_window_end ? m_window_end : start;
        map.push_back({from, start + bytes - from});
    }
    m_chunks[start] = Chunk{bytes, 0};
    m_next = start + bytes;
    return start;
}

std::vector<DeviceHeap::Range> DeviceHeap::release(uint64_t addr) {
    std::vector<Range> unmap;
    auto owner = m_owner.find(addr);
    if (owner == m_owner.end()) return unmap;
    if (!m_layout.chunk) {
        unmap.push_back({addr, owner->second});
        m_owner.erase(owner);
        return unmap;
    }
    const uint64_t start = owner->second;
    m_owner.erase(owner);
    auto c = m_chunks.find(start);
    // The chunk small allocations come from stays until another takes its place (place()).
    if (c == m_chunks.end() || --c->second.live > 0 || start == m_open) return unmap;
    drop_chunk(start, unmap);
    return unmap;
}

void DeviceHeap::drop_chunk(uint64_t start, std::vector<Range>& unmap) {
    auto c = m_chunks.find(start);
    const uint64_t end = start + c->second.bytes;
    if (end > m_window_end) {
        const uint64_t from = start < m_window_end ? m_window_end : start;
        unmap.push_back({from, end - from});
    }
    m_chunks.erase(c);
}

} // namespace gpusim
