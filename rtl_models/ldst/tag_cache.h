// Tags of a set-associative cache with LRU replacement: the building block of the constant cache,
// the L1 and the L2. It holds no data (the data path is the functional memory); it answers hit or miss.
#pragma once

#include <cstdint>
#include <vector>

#include "sm/timing_config.h"

namespace gpusim {

class TagCache {
public:
    explicit TagCache(const CacheConfig& cfg);

    bool present() const { return m_sets > 0; }
    // Looks `addr` up; on a miss allocates its line when `allocate`. Returns whether it hit.
    bool access(uint64_t addr, bool allocate = true);
    void invalidate(uint64_t addr);
    uint32_t line_bytes() const { return m_cfg.line_bytes; }
    uint32_t latency() const { return m_cfg.latency; }
    uint64_t hits() const { return m_hits; }
    uint64_t misses() const { return m_misses; }

private:
    CacheConfig m_cfg;
    uint32_t m_sets = 0;
    std::vector<uint64_t> m_tags;     // sets x ways, line number + 1 (0: empty)
    std::vector<uint64_t> m_used;     // last use, for LRU
    uint64_t m_clock = 0;
    uint64_t m_hits = 0, m_misses = 0;
};

} // namespace gpusim
