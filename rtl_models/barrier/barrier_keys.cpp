#include "barrier/barrier_unit.h"
#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<BarrierConfig>& s) {
    s.key("release_latency", &BarrierConfig::release_latency, "cycles",
          "Cycles from the last arrival at a barrier until the waiting warps may issue.");
}

} // namespace gpusim
