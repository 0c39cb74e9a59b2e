#include "tex/texture_cache.h"

#include <algorithm>

namespace gpusim {

TextureCache::TextureCache(const sc_core::sc_module_name& name, const TextureCacheConfig& cfg)
    : UnitModule(name), m_cfg(cfg), m_tags(cfg.cache) {}

TextureCache::Cost TextureCache::access(const uint64_t* addr, uint32_t n) {
    Cost c;
    uint64_t lines[kMaxTexels];
    const uint64_t line = std::max<uint32_t>(m_cfg.cache.line_bytes, 1);
    for (uint32_t k = 0; k < n; ++k) lines[k] = addr[k] / line * line;
    std::sort(lines, lines + n);
    const uint32_t distinct = uint32_t(std::unique(lines, lines + n) - lines);
    for (uint32_t k = 0; k < distinct; ++k)
        if (!m_tags.access(lines[k])) c.miss_lines[c.misses++] = lines[k];
    c.passes = distinct;
    ++m_accesses;
    m_passes += distinct;
    m_texels += n;
    return c;
}

void TextureCache::report(nlohmann::json& out) const {
    stat(out, "requests", double(m_accesses), "warp instructions", "tex, tld4 and surface instructions");
    stat(out, "texels", double(m_texels), "texels", "texels and surface elements read or written");
    stat(out, "passes", double(m_passes), "passes", "one per distinct cache line of a warp instruction");
    stat(out, "hits", double(m_tags.hits()), "lookups", "texture cache hits");
    stat(out, "misses", double(m_tags.misses()), "lookups", "texture cache misses, filled from the L2");
}

} // namespace gpusim
