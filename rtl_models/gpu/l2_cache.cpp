#include "gpu/l2_cache.h"

#include <algorithm>

namespace gpusim {

L2Cache::L2Cache(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg)
    : UnitModule(name), m_tags(cfg.l2), m_dram_latency(cfg.dram_latency), m_interleave(std::max(cfg.dram_interleave_bytes, 1u)),
      m_bytes_per_cycle(cfg.dram_bytes_per_cycle), m_channels(std::max(cfg.dram_channels, 1u)),
      m_window(std::max(cfg.dram_window_cycles, 1u)), m_windows(size_t(m_channels) * kRing) {}

uint32_t L2Cache::dram(uint64_t addr, uint32_t bytes, uint64_t at) {
    const size_t channel = (addr / m_interleave) % m_channels;
    const double capacity = m_bytes_per_cycle * m_window;
    uint64_t id = at / m_window;
    for (;; ++id) {
        Window& w = m_windows[channel * kRing + id % kRing];
        if (w.id != id) w = Window{id, 0.0};   // a window not used yet (or long past)
        if (w.bytes + bytes <= capacity || w.bytes == 0) {
            w.bytes += bytes;
            break;
        }
    }
    m_busy_cycles += double(bytes) / m_bytes_per_cycle;
    const uint64_t start = id * m_window;
    const uint32_t wait = start > at ? uint32_t(start - at) : 0;
    m_queue_cycles += wait;
    return wait;
}

uint32_t L2Cache::read(uint64_t addr, uint32_t bytes, uint64_t now) {
    ++m_reads;
    if (!m_tags.present()) {
        m_dram_read_bytes += bytes;
        return m_dram_latency + dram(addr, bytes, now);
    }
    const uint64_t line = addr / m_tags.line_bytes();
    if (m_tags.access(addr)) {
        // A hit on a line whose fill is still on its way waits for the fill (the miss's MSHR).
        auto it = m_filling.find(line);
        if (it == m_filling.end()) return m_tags.latency();
        if (it->second <= now + m_tags.latency()) {
            m_filling.erase(it);
            return m_tags.latency();
        }
        ++m_hits_under_miss;
        return uint32_t(it->second - now);
    }
    m_dram_read_bytes += m_tags.line_bytes();
    const uint32_t latency = m_tags.latency() + m_dram_latency + dram(addr, m_tags.line_bytes(), now + m_tags.latency());
    if (m_filling.size() >= kMaxFilling) forget_filled(now);
    m_filling[line] = now + latency;
    return latency;
}

// Drops the fills that have completed by `now` (requests a quantum behind may still ask, but a
// completed fill no longer delays them).
void L2Cache::forget_filled(uint64_t now) {
    for (auto it = m_filling.begin(); it != m_filling.end();)
        it = it->second <= now ? m_filling.erase(it) : std::next(it);
}

uint32_t L2Cache::write(uint64_t addr, uint32_t bytes, uint64_t now) {
    ++m_writes;
    if (!m_tags.present()) {
        m_dram_write_bytes += bytes;
        return m_dram_latency + dram(addr, bytes, now);
    }
    // Write-allocate without a fill: a partial line is merged when it is evicted. The written
    // bytes reach device memory eventually; their bandwidth is taken now (posted: the writer does
    // not wait), since evictions are not tracked.
    m_tags.access(addr);
    m_dram_write_bytes += bytes;
    dram(addr, bytes, now + m_tags.latency());
    return m_tags.latency();
}

void L2Cache::report(nlohmann::json& out) const {
    stat(out, "reads", double(m_reads), "transactions", "read transactions that reached the L2 (or device memory)");
    stat(out, "writes", double(m_writes), "transactions", "write transactions");
    stat(out, "hits", double(m_tags.hits()), "lookups", "L2 hits");
    stat(out, "misses", double(m_tags.misses()), "lookups", "L2 misses (every read without an L2)");
    stat(out, "dram_read_bytes", double(m_dram_read_bytes), "bytes", "bytes read from device memory");
    stat(out, "dram_write_bytes", double(m_dram_write_bytes), "bytes", "bytes written to device memory (through the L2, counted when written)");
    stat(out, "dram_busy_cycles", m_busy_cycles, "cycles", "cycles the device memory channels were transferring, summed over channels");
    stat(out, "hits_under_miss", double(m_hits_under_miss), "lookups", "hits on a line still being filled, which waited for the fill");
    stat(out, "dram_channels", double(m_channels), "channels", "device memory channels");
    stat(out, "dram_queue_cycles", double(m_queue_cycles), "cycles", "cycles requests waited for a busy channel, summed");
}

} // namespace gpusim
