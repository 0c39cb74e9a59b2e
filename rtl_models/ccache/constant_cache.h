// The SM's constant cache: a warp's constant (and kernel parameter) load is served in groups of
// threads (a half-warp on cc 1.x, the whole warp later); each distinct address in a group is one
// more pass (a uniform address is a broadcast), and a line that misses is fetched from the L2.
#pragma once

#include <cstdint>

#include "cache/tag_cache.h"
#include "isa/isa.h"
#include "isa/unit_module.h"

namespace gpusim {

struct ConstantCacheConfig {
    CacheConfig cache;
    uint32_t group_threads = 32;     // threads whose addresses are served together (16 on cc 1.x)
    uint32_t pass_cycles = 2;        // cycles each further distinct address adds
};

// The keys ccache.* (ccache_keys.cpp).
void declare_keys(ConfigSection<ConstantCacheConfig>& s);

class ConstantCache : public UnitModule {
public:
    ConstantCache(const sc_core::sc_module_name& name, const ConstantCacheConfig& cfg);

    struct Cost {
        uint32_t passes = 0;
        uint32_t groups = 0;             // thread groups with an active thread (passes without divergence)
        uint32_t misses = 0;
        uint64_t miss_lines[kWarpSize];   // line addresses that missed, for the fill latency
    };
    Cost access(const uint64_t* addr, LaneMask mask);
    uint32_t latency(uint32_t passes) const { return m_cfg.cache.latency + (passes - 1) * m_cfg.pass_cycles; }
    uint32_t line_bytes() const { return m_cfg.cache.line_bytes; }

    void report(nlohmann::json& out) const override;

private:
    ConstantCacheConfig m_cfg;
    TagCache m_tags;
    uint64_t m_accesses = 0, m_passes = 0;
};

} // namespace gpusim
