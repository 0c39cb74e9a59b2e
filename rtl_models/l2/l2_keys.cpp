#include "config/config_schema.h"
#include "l2/l2_config.h"

namespace gpusim {

void declare_keys(ConfigSection<L2Config>& s) {
    ConfigSection<CacheConfig> cache = s.part(&L2Config::cache);
    declare_keys(cache, "the chip's L2 (shared by every SM; 0: requests pass on to device memory); its latency is the whole "
                        "trip from the SM on a hit");
    s.key("atomic_cycles", &L2Config::atomic_cycles, "cycles", "Cycles per atomic operation on one address at the L2 (at "
          "device memory without one; one unit for the chip): operations on one address are serialized, those on different "
          "addresses overlap. 0: not serialized.");
}

} // namespace gpusim
