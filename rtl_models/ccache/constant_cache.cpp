#include "ccache/constant_cache.h"

#include <algorithm>

#include "isa/exec_context.h"

namespace gpusim {

ConstantCache::ConstantCache(const sc_core::sc_module_name& name, const ConstantCacheConfig& cfg)
    : UnitModule(name), m_cfg(cfg), m_tags(cfg.cache) {}

ConstantCache::Cost ConstantCache::access(const uint64_t* addr, LaneMask mask) {
    Cost c;
    const uint32_t g = std::clamp<uint32_t>(m_cfg.group_threads, 1, kWarpSize);
    for (uint32_t first = 0; first < uint32_t(kWarpSize); first += g) {
        LaneMask group = mask & lane_group(first, g);
        uint64_t seen[kWarpSize];
        uint32_t n = 0;
        for_lanes(group, [&](int l) {
            // Most accesses are uniform (a broadcast): the address just seen comes up first.
            if (n && (seen[n - 1] == addr[l] || std::find(seen, seen + n - 1, addr[l]) != seen + n - 1)) return;
            seen[n++] = addr[l];
            if (!m_tags.access(addr[l])) c.miss_lines[c.misses++] = addr[l] / line_bytes() * line_bytes();
        });
        c.passes += n;
        c.groups += n ? 1 : 0;
    }
    ++m_accesses;
    m_passes += c.passes;
    return c;
}

void ConstantCache::report(nlohmann::json& out) const {
    stat(out, "accesses", double(m_accesses), "warp accesses", "constant and parameter loads");
    stat(out, "passes", double(m_passes), "passes", "one per distinct address in each thread group");
    stat(out, "hits", double(m_tags.hits()), "lookups", "constant cache hits");
    stat(out, "misses", double(m_tags.misses()), "lookups", "constant cache misses, filled from the L2");
}

} // namespace gpusim
