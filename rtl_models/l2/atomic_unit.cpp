#include "l2/atomic_unit.h"

#include <algorithm>

namespace gpusim {

namespace {
// The accounting window: sim.dram_window_cycles rounded up to whole operations, so that a window's
// operations take exactly its length.
uint32_t window_cycles(const L2Config& cfg) {
    const uint32_t op = std::max(cfg.atomic_cycles, 1u);
    return std::max((cfg.window_cycles + op - 1) / op, 1u) * op;
}
} // namespace

AtomicUnit::AtomicUnit(const L2Config& cfg)
    : m_cycles(cfg.atomic_cycles), m_slices(cfg.slice_map()), m_window(window_cycles(cfg)), m_per_window(m_window / std::max(m_cycles, 1u)),
      m_slots(kMinSlots) {}

uint64_t AtomicUnit::serve(uint64_t addr, uint32_t ops, uint64_t at, uint64_t earliest) {
    m_operations += ops;
    if (!m_cycles || !ops) return 0;
    if (m_slices.slices) addr = m_slices.of(addr);
    if (2 * (m_count + ops) > m_slots.size()) rebuild(earliest / m_window, ops);
    uint64_t done = 0;   // cycle the last operation completes
    uint32_t left = ops;
    for (uint64_t window = at / m_window;; ++window) {
        Slot& s = first_open(addr, window);
        window = s.window;
        const uint32_t take = std::min(m_per_window - s.used, left);
        s.used += take;
        left -= take;
        if (s.used == m_per_window) s.skip = window + 1;
        done = window * m_window + uint64_t(s.used) * m_cycles;
        if (!left) break;
    }
    const uint64_t unloaded = at + uint64_t(ops) * m_cycles;
    const uint64_t wait = done > unloaded ? done - unloaded : 0;
    m_wait_cycles += wait;
    return wait + uint64_t(ops - 1) * m_cycles;
}

AtomicUnit::Slot& AtomicUnit::first_open(uint64_t addr, uint64_t window) {
    Slot* open = &slot(addr, window);
    if (open->used < m_per_window) return *open;
    while (open->used == m_per_window) open = &slot(addr, open->skip);
    for (uint64_t w = window; w != open->window;) {
        Slot& s = slot(addr, w);
        w = s.skip;
        s.skip = open->window;
    }
    return *open;
}

AtomicUnit::Slot& AtomicUnit::slot(uint64_t addr, uint64_t window) {
    const size_t mask = m_slots.size() - 1;
    const uint64_t h = addr * 0x9E3779B97F4A7C15ull ^ window * 0xC2B2AE3D27D4EB4Full;
    for (size_t i = size_t(h ^ (h >> 29)) & mask;; i = (i + 1) & mask) {
        Slot& s = m_slots[i];
        if (s.window == kEmpty) {
            s = Slot{addr, window, 0, 0};
            ++m_count;
            return s;
        }
        if (s.addr == addr && s.window == window) return s;
    }
}

void AtomicUnit::rebuild(uint64_t oldest_window, uint32_t ops) {
    std::vector<Slot> old;
    old.swap(m_slots);
    size_t live = 0;
    for (const Slot& s : old) live += s.window != kEmpty && s.window >= oldest_window;
    size_t size = kMinSlots;
    while (size < 4 * (live + ops + 64)) size *= 2;   // at most a quarter full, with room for the request
    m_slots.assign(size, Slot{});
    m_count = 0;
    for (const Slot& s : old)
        if (s.window != kEmpty && s.window >= oldest_window) slot(s.addr, s.window) = s;
}

} // namespace gpusim
