#include "cache/tag_cache.h"

#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<CacheConfig>& s, const std::string& what) {
    s.key("bytes", &CacheConfig::bytes, "bytes", "Capacity of " + what + "; 0: there is none.");
    s.key("line_bytes", &CacheConfig::line_bytes, "bytes", "Line size of " + what + ".").at_least(1);
    s.key("ways", &CacheConfig::ways, "ways", "Associativity of " + what + " (LRU replacement).").at_least(1);
    s.key("latency", &CacheConfig::latency, "cycles", "Cycles of a hit in " + what + ".");
}

} // namespace gpusim
