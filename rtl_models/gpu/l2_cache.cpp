#include "gpu/l2_cache.h"

namespace gpusim {

L2Cache::L2Cache(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg)
    : UnitModule(name), m_tags(cfg.l2), m_dram_latency(cfg.dram_latency) {}

uint32_t L2Cache::read(uint64_t addr, uint32_t bytes) {
    ++m_reads;
    if (!m_tags.present()) {
        m_dram_read_bytes += bytes;
        return m_dram_latency;
    }
    if (m_tags.access(addr)) return m_tags.latency();
    m_dram_read_bytes += m_tags.line_bytes();
    return m_tags.latency() + m_dram_latency;
}

uint32_t L2Cache::write(uint64_t addr, uint32_t bytes) {
    ++m_writes;
    if (!m_tags.present()) {
        m_dram_write_bytes += bytes;
        return m_dram_latency;
    }
    // Write-allocate without a fill: a partial line is merged when it is evicted.
    m_tags.access(addr);
    return m_tags.latency();
}

void L2Cache::report(nlohmann::json& out) const {
    stat(out, "reads", double(m_reads), "transactions", "read transactions that reached the L2 (or device memory)");
    stat(out, "writes", double(m_writes), "transactions", "write transactions");
    stat(out, "hits", double(m_tags.hits()), "lookups", "L2 hits");
    stat(out, "misses", double(m_tags.misses()), "lookups", "L2 misses (every read without an L2)");
    stat(out, "dram_read_bytes", double(m_dram_read_bytes), "bytes", "bytes read from device memory");
    stat(out, "dram_write_bytes", double(m_dram_write_bytes), "bytes", "bytes written to device memory without an L2");
}

} // namespace gpusim
