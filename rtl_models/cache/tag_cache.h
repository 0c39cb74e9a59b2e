// Tags of a set-associative cache with LRU replacement: the building block of the constant cache,
// the L1 and the L2. It holds no data (the data path is the functional memory); it answers hit or
// miss, and remembers for each line the cycle its fill arrives when its owner records it (the L1
// and the L2 do), so that a hit on a line still being filled waits for it, as a request merged
// into the miss's MSHR does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusim {

template <class T>
class ConfigSection;

struct CacheConfig {
    uint32_t bytes = 0;              // 0: no cache
    uint32_t line_bytes = 128;
    uint32_t ways = 4;
    uint32_t latency = 0;            // hit latency, cycles
    uint32_t mshrs = 0;              // line misses in flight at once (0: not limited; the L1 only)
};

// Declares a cache's bytes, line_bytes, ways and latency under the section's prefix; `what` names
// the cache in their meanings ("the SM's constant cache").
void declare_keys(ConfigSection<CacheConfig>& s, const std::string& what);

class TagCache {
public:
    explicit TagCache(const CacheConfig& cfg);

    bool present() const { return m_sets > 0; }
    // Looks `addr` up; on a miss allocates its line when `allocate`. Returns whether it hit.
    bool access(uint64_t addr, bool allocate = true);
    void invalidate(uint64_t addr);
    // Makes `addr`'s line present and most recently used, as access() would, without counting a
    // hit or a miss and with its data there at once (kernel sampling's warming).
    void warm(uint64_t addr);
    // Write-back: the line just looked up (hit or allocated) holds data not in memory yet.
    void mark_dirty() { if (m_last < m_dirty.size()) m_dirty[m_last] = 1; }
    // The line the last allocation evicted, when it was dirty: its address (UINT64_MAX: none).
    uint64_t evicted_dirty() const { return m_evicted_dirty; }
    // Latency of the hit just looked up, at cycle `now`: the hit latency, or the wait for the
    // line's fill when it has not arrived.
    uint32_t hit_latency(uint64_t now);
    // The line just allocated by a miss receives its data at cycle `done`.
    void filling(uint64_t done) { if (m_last < m_ready.size()) m_ready[m_last] = done; }

    // Deferred requests (LdstUnit): a miss whose fill time is not known yet marks its line with
    // kPendingFill | token; a hit on such a line waits for that fill.
    static constexpr uint64_t kPendingFill = uint64_t(1) << 63;
    // The way the last access hit or allocated (SIZE_MAX: none), and when its line's fill arrives.
    size_t last_way() const { return m_last; }
    uint64_t last_ready() const { return m_last < m_ready.size() ? m_ready[m_last] : 0; }
    // The fill marked `marker` on `way` arrives at `done`, unless the way holds another line by now.
    void resolve_fill(size_t way, uint64_t marker, uint64_t done) {
        if (way < m_ready.size() && m_ready[way] == marker) m_ready[way] = done;
    }
    // Latency of a hit at `now` on a line whose fill arrives at `ready`.
    uint32_t wait_for(uint64_t ready, uint64_t now);
    uint32_t line_bytes() const { return m_cfg.line_bytes; }
    uint32_t latency() const { return m_cfg.latency; }
    uint64_t hits() const { return m_hits; }
    uint64_t misses() const { return m_misses; }
    uint64_t hits_under_miss() const { return m_merged; }

private:
    CacheConfig m_cfg;
    uint32_t m_sets = 0;
    std::vector<uint64_t> m_tags;     // sets x ways, line number + 1 (0: empty)
    std::vector<uint64_t> m_used;     // last use, for LRU
    std::vector<uint64_t> m_ready;    // cycle the line's fill arrives
    std::vector<uint8_t> m_dirty;     // written and not yet written back (owners that mark it)
    uint64_t m_evicted_dirty = UINT64_MAX;
    size_t m_last = SIZE_MAX;         // the way the last access hit or allocated
    uint64_t m_clock = 0;
    uint64_t m_hits = 0, m_misses = 0, m_merged = 0;
};

} // namespace gpusim
