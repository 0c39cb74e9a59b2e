#include "cache/tag_cache.h"

#include <algorithm>

namespace gpusim {

TagCache::TagCache(const CacheConfig& cfg) : m_cfg(cfg) {
    if (cfg.bytes && cfg.line_bytes && cfg.ways) m_sets = std::max(1u, cfg.bytes / (cfg.line_bytes * cfg.ways));
    m_tags.assign(size_t(m_sets) * cfg.ways, 0);
    m_used.assign(m_tags.size(), 0);
    m_ready.assign(m_tags.size(), 0);
    m_dirty.assign(m_tags.size(), 0);
}

bool TagCache::access(uint64_t addr, bool allocate) {
    m_last = SIZE_MAX;
    m_evicted_dirty = UINT64_MAX;
    if (!m_sets) { ++m_misses; return false; }
    uint64_t line = addr / m_cfg.line_bytes;
    size_t base = size_t(line % m_sets) * m_cfg.ways;
    ++m_clock;
    size_t victim = base;
    for (size_t w = base; w < base + m_cfg.ways; ++w) {
        if (m_tags[w] == line + 1) {
            m_used[w] = m_clock;
            m_last = w;
            ++m_hits;
            return true;
        }
        if (m_used[w] < m_used[victim]) victim = w;
    }
    ++m_misses;
    if (allocate) {
        if (m_tags[victim] && m_dirty[victim]) m_evicted_dirty = (m_tags[victim] - 1) * m_cfg.line_bytes;
        m_dirty[victim] = 0;
        m_tags[victim] = line + 1;
        m_used[victim] = m_clock;
        m_ready[victim] = 0;
        m_last = victim;
    }
    return false;
}

void TagCache::warm(uint64_t addr) {
    const uint64_t hits = m_hits, misses = m_misses;
    access(addr);
    m_hits = hits, m_misses = misses;
    if (m_last < m_ready.size()) m_ready[m_last] = 0;
}

uint32_t TagCache::hit_latency(uint64_t now) { return wait_for(last_ready(), now); }

uint32_t TagCache::wait_for(uint64_t ready, uint64_t now) {
    if (ready <= now + m_cfg.latency) return m_cfg.latency;
    ++m_merged;
    return uint32_t(ready - now);
}

void TagCache::invalidate(uint64_t addr) {
    if (!m_sets) return;
    uint64_t line = addr / m_cfg.line_bytes;
    size_t base = size_t(line % m_sets) * m_cfg.ways;
    for (size_t w = base; w < base + m_cfg.ways; ++w)
        if (m_tags[w] == line + 1) m_tags[w] = 0, m_used[w] = 0, m_dirty[w] = 0;
}

} // namespace gpusim
