// The chip's L2 cache and the device memory behind it, as the SMs' timing sees them: a line
// lookup that answers with the latency of the access, and the DRAM traffic it caused. Without an
// L2 (cc 1.x) every access pays the device memory latency.
#pragma once

#include <cstdint>

#include "ldst/tag_cache.h"
#include "sm/timing_config.h"
#include "sm/unit_module.h"

namespace gpusim {

class L2Cache : public UnitModule {
public:
    L2Cache(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg);

    // Latency in cycles of reading (or filling) the `bytes` at `addr`.
    uint32_t read(uint64_t addr, uint32_t bytes);
    // Latency of a write (write-back into L2, or straight to device memory without one).
    uint32_t write(uint64_t addr, uint32_t bytes);

    void report(nlohmann::json& out) const override;

private:
    TagCache m_tags;
    uint32_t m_dram_latency;
    uint64_t m_reads = 0, m_writes = 0;
    uint64_t m_dram_read_bytes = 0, m_dram_write_bytes = 0;
};

} // namespace gpusim
