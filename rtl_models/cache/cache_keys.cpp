#include "cache/tag_cache.h"

#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<CacheConfig>& s, const std::string& what) {
    s.key("bytes", &CacheConfig::bytes, "bytes", "Capacity of " + what + "; 0: there is none.");
    s.key("line_bytes", &CacheConfig::line_bytes, "bytes", "Line size of " + what + "; at least 1 where there is a cache.");
    s.key("ways", &CacheConfig::ways, "ways", "Associativity of " + what + " (LRU replacement); at least 1 where there is a cache.");
    s.key("latency", &CacheConfig::latency, "cycles", "Cycles of a hit in " + what + ".");
    const std::string prefix = s.prefix();
    s.check([prefix](const CacheConfig& c, std::vector<std::string>& p) {
        if (c.bytes && (c.line_bytes < 1 || c.ways < 1)) p.push_back(prefix + ".line_bytes and " + prefix + ".ways must be at least 1");
    });
}

} // namespace gpusim
