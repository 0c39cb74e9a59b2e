#include "config/config_schema.h"
#include "tex/texture_cache.h"

namespace gpusim {

void declare_keys(ConfigSection<TextureCacheConfig>& s) {
    using C = TextureCacheConfig;
    ConfigSection<CacheConfig> cache = s.part(&C::cache);
    declare_keys(cache, "the SM's texture cache (timing mode: each distinct line of a warp instruction's texels is one pass, "
                        "and misses are filled from the L2)");
    s.key("pass_cycles", &C::pass_cycles, "cycles", "Cycles each further distinct line of a warp instruction adds.");
    s.check([](const C& c, std::vector<std::string>& p) {
        if (c.cache.bytes == 0) p.push_back("tex.bytes must be positive");
    });
}

} // namespace gpusim
