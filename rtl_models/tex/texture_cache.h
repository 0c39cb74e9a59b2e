// The SM's texture cache (timing mode): the texels a warp's tex, tld4 and surface instructions
// touch are looked up by line; each distinct line is one pass of the unit, and lines that miss are
// filled from the L2 through the LD/ST unit's path, like the constant cache's.
#pragma once

#include <cstdint>

#include "cache/tag_cache.h"
#include "isa/isa.h"
#include "isa/unit_module.h"

namespace gpusim {

struct TextureCacheConfig {
    CacheConfig cache;
    uint32_t pass_cycles = 2;        // cycles each further distinct line of a warp instruction adds
};

// The keys tex.* (tex_keys.cpp).
void declare_keys(ConfigSection<TextureCacheConfig>& s);

class TextureCache : public UnitModule {
public:
    TextureCache(const sc_core::sc_module_name& name, const TextureCacheConfig& cfg);

    static constexpr uint32_t kMaxTexels = kWarpSize * 8;   // a trilinear fetch reads eight texels per lane
    struct Cost {
        uint32_t passes = 0;             // distinct lines
        uint32_t misses = 0;
        uint64_t miss_lines[kMaxTexels];
    };
    // `n` texel addresses of one warp instruction.
    Cost access(const uint64_t* addr, uint32_t n);
    // Cycles from issue until the results can be used, after `passes` lines were looked up.
    uint32_t latency(uint32_t passes) const { return m_cfg.cache.latency + (passes > 1 ? passes - 1 : 0) * m_cfg.pass_cycles; }
    uint32_t line_bytes() const { return m_cfg.cache.line_bytes; }

    void report(nlohmann::json& out) const override;

private:
    TextureCacheConfig m_cfg;
    TagCache m_tags;
    uint64_t m_accesses = 0, m_passes = 0, m_texels = 0;
};

} // namespace gpusim
