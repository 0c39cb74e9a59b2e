#include "ccache/constant_cache.h"
#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<ConstantCacheConfig>& s) {
    using C = ConstantCacheConfig;
    ConfigSection<CacheConfig> cache = s.part(&C::cache);
    declare_keys(cache, "the SM's constant cache (a line that misses is fetched from the L2)");
    s.key("group_threads", &C::group_threads, "threads", "Threads whose addresses are served together (16: the half-warp of "
          "cc 1.x); each distinct address in a group is one more pass, a uniform address is a broadcast.").at_least(1);
    s.key("pass_cycles", &C::pass_cycles, "cycles", "Cycles each further distinct address adds.");
    s.check([](const C& c, std::vector<std::string>& p) {
        if (c.cache.bytes == 0) p.push_back("ccache.bytes must be positive");
    });
}

} // namespace gpusim
