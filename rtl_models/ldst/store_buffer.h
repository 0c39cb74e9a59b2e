// The relaxed memory model (sim.memory_model=relaxed, docs/memory_model.md): each SM's plain and
// relaxed global stores leave it through a store buffer. Each store leaves at a time of its own,
// drawn (from sim.memory_seed) up to sim.store_max_delay cycles after it was made, and stores
// reach memory in the order of those times, except that stores to the same bytes keep their
// order (coherence). A load or an atomic of the SM first drains the SM's own stores it overlaps
// (a thread reads its own writes; the SM's threads share one view); a fence of gpu or system
// scope, and a release at those scopes, drains everything the SM buffered. Nothing else orders
// stores to different addresses, so another SM may see them in any order: the outcomes PTX allows
// without fences.
//
// Loads may be satisfied out of order too: a store that reaches memory reaches each other SM's
// view only after an invalidation delay of that SM's own (StaleLog, stale_log.h). A fence of gpu
// or system scope, and an acquire at those scopes, catch the SM's view up; its own stores and
// atomics do so for their bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "isa/memory_view.h"
#include "ldst/stale_log.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct StoreBufferConfig {
    bool enabled = false;         // sim.memory_model == "relaxed": global stores through a store buffer
    uint32_t entries = 64;        // sim.store_buffer_entries: stores held at most
    uint32_t max_delay = 1000;    // sim.store_max_delay: cycles a store may stay buffered at most
    uint32_t stale_entries = 64;  // sim.invalidation_entries: replaced values the chip remembers
    uint32_t load_max_delay = 1000;   // sim.load_max_delay: cycles another SM's store may stay unseen
    uint64_t seed = 1;            // sim.memory_seed
};

// The relaxed memory model's keys sim.memory_model, sim.memory_seed, sim.store_* ... (ldst_keys.cpp).
void declare_keys(ConfigSection<StoreBufferConfig>& s);

class StoreBuffer {
public:
    StoreBuffer(const StoreBufferConfig& cfg, uint32_t smid, MemoryView& memory);

    // The chip's log of replaced values, where stores reaching memory leave them for the other
    // SMs' late invalidations.
    void connect(StaleLog* log) { m_log = log; }
    const StoreBufferConfig& config() const { return m_cfg; }
    // A store of `size` bytes (at most 16) made at the SM's cycle `now`, buffered.
    void store(uint64_t addr, const void* data, uint32_t size, uint64_t now);
    // After a load of [addr, addr + size) from memory into `data` at the SM's cycle `now`: the
    // bytes another SM's store changed, whose invalidation has not reached this SM yet, get their
    // old values back.
    void stale_read(uint64_t addr, void* data, uint32_t size, uint64_t now) {
        if (m_log && m_log->overlay(m_smid, addr, data, size, chip(now))) ++m_stale_reads;
    }
    // Whether a stale byte may lie in [low, high] (the warp-wide load path then goes lane by lane).
    bool stale_in(uint64_t low, uint64_t high) const { return m_log && m_log->covers(low, high); }
    // An atomic (or the SM's own store) sees memory: the SM's stale view of those bytes is dropped.
    void forget(uint64_t addr, uint32_t size) {
        if (m_log) m_log->catch_up(m_smid, addr, size);
    }
    // A fence or an acquire at gpu or system scope: the SM sees memory as it is.
    void clear_stale() {
        if (m_log) m_log->catch_up(m_smid);
    }
    // The SM's cycles to the chip's: the time base of end_round, which every SM shares.
    void set_chip_offset(int64_t offset) { m_offset = offset; }
    // Before the SM reads or atomically updates [addr, addr + size): its own stores there drain.
    void before_access(uint64_t addr, uint32_t size) {
        if (!m_entries.empty() && addr < m_high && addr + size > m_low) drain_overlapping(addr, size);
    }
    // A fence or a release at gpu or system scope: every buffered store drains, in order.
    void drain_all();
    // The end of a round at chip cycle `now`: the stores due by then reach memory, in due order.
    void end_round(uint64_t now);

    bool empty() const { return m_entries.empty(); }
    uint64_t buffered() const { return m_buffered; }
    // Stores that reached memory while an earlier store of the SM had not.
    uint64_t reordered() const { return m_reordered; }
    // Loads that returned a value another SM's store had already replaced in memory.
    uint64_t stale_reads() const { return m_stale_reads; }
    uint64_t overflows() const { return m_overflows; }

private:
    struct Entry {
        uint64_t addr;
        uint64_t due;      // chip cycle it leaves the SM
        uint32_t size;
        uint8_t data[16];
    };
    StoreBufferConfig m_cfg;
    uint32_t m_smid;
    MemoryView& m_memory;
    StaleLog* m_log = nullptr;
    uint64_t m_stale_reads = 0;
    std::mt19937_64 m_rng;
    std::vector<Entry> m_entries;              // in program order
    int64_t m_offset = 0;
    uint64_t m_now = 0;                        // chip cycle of the SM's latest store or round
    uint64_t m_low = UINT64_MAX, m_high = 0;   // bytes the entries cover, to skip the search
    uint64_t m_buffered = 0, m_reordered = 0, m_overflows = 0;

    void write(const Entry& e);
    uint64_t chip(uint64_t now) const { return uint64_t(std::max<int64_t>(int64_t(now) + m_offset, 0)); }
    // Writes entry i (entries before it to the same bytes are written first) and removes it.
    void drain_at(size_t i);
    // Writes the entries `order` names, in that order, and removes them; `order` must put an
    // earlier store to the same bytes first.
    void drain_in(const std::vector<size_t>& order);
    void drain_overlapping(uint64_t addr, uint32_t size);
    void bounds();
};

} // namespace gpusim
