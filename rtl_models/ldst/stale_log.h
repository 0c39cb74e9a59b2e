// The relaxed memory model's late invalidations (docs/memory_model.md): memory remembers the value
// each recent store replaced, and each SM sees that store only once its own invalidation arrives,
// a delay drawn (from sim.memory_seed) up to sim.load_max_delay cycles after the store reached
// memory. Until then the SM's loads of those bytes return the old value. One log for the chip,
// so a store costs one entry whatever the number of SMs; an SM's view of a byte only moves
// forward (entries leave the log oldest first, and an SM's fence, acquire or atomic moves it on).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace gpusim {

// Whether the byte ranges [a, a + as) and [b, b + bs) share a byte.
inline bool overlap(uint64_t a, uint32_t as, uint64_t b, uint32_t bs) { return a < b + bs && b < a + as; }

class StaleLog {
public:
    // `entries`: sim.invalidation_entries; `max_delay`: sim.load_max_delay; `seed`: sim.memory_seed.
    StaleLog(uint32_t sms, uint32_t entries, uint32_t max_delay, uint64_t seed);

    // SM `writer`'s store of [addr, addr + size) reached memory at chip cycle `now`, replacing `old`.
    void record(uint32_t writer, uint64_t addr, uint32_t size, const uint8_t* old, uint64_t now);
    // A load of SM `sm` at chip cycle `now` read `data` from memory: the bytes whose
    // invalidation has not reached the SM get their old values back. True when any did.
    bool overlay(uint32_t sm, uint64_t addr, void* data, uint32_t size, uint64_t now) {
        return !m_log.empty() && covers(addr, addr + size - 1) && overlay_slow(sm, addr, data, size, now);
    }
    // Whether an old value may lie in [low, high].
    bool covers(uint64_t low, uint64_t high) const { return !m_log.empty() && low < m_high && high >= m_low; }
    // SM `sm` sees memory as it is from now on: everywhere (a fence or an acquire), or in
    // [addr, addr + size) (its atomic, or its own store).
    void catch_up(uint32_t sm) { m_views[sm].since = m_next; }
    void catch_up(uint32_t sm, uint64_t addr, uint32_t size);
    // A launch's boundary: every SM sees memory as it is.
    void clear();

private:
    struct Entry {
        uint64_t seq;
        uint64_t addr;
        uint64_t reached;   // chip cycle the store reached memory
        uint32_t writer;
        uint32_t size;
        uint8_t old[16];
    };
    // Per SM: the entries it no longer sees (below `since`, and those its marks cover).
    struct Mark {
        uint64_t addr, seq;
        uint32_t size;
    };
    struct View {
        uint64_t since = 0;
        std::vector<Mark> marks;
    };
    uint32_t m_entries, m_max_delay;
    uint64_t m_seed;
    std::deque<Entry> m_log;   // oldest first
    std::vector<View> m_views;
    uint64_t m_next = 0;       // the next entry's seq
    uint64_t m_low = UINT64_MAX, m_high = 0;   // at least the bytes the entries cover

    uint64_t visible(const Entry& e, uint32_t sm) const;
    bool overlay_slow(uint32_t sm, uint64_t addr, void* data, uint32_t size, uint64_t now);
};

} // namespace gpusim
