#include "config/config_schema.h"
#include "scheduler/warp_scheduler.h"

namespace gpusim {

void declare_keys(ConfigSection<SchedulerConfig>& s) {
    using C = SchedulerConfig;
    s.key("policy", &C::policy, "name", "The order in which a scheduler offers its warps each cycle: loose round-robin (lrr), "
          "greedy-then-oldest (gto), or two-level (two_level: an active set of `scheduler.active_warps`, round-robin).")
        .one_of({"lrr", "gto", "two_level"});
    s.key("dispatch", &C::dispatch, "warp instructions per cycle", "Warp instructions one scheduler issues per cycle.").at_least(1);
    s.key("serial_dispatch", &C::serial_dispatch, "", "The scheduler waits while a pipe takes a warp's operands (cc 1.x: a warp "
          "instruction on 8 lanes takes 4 cycles to issue).");
    s.key("active_warps", &C::active_warps, "warps", "two_level: the size of the active set.");
    s.key("long_latency_cycles", &C::long_latency_cycles, "cycles", "two_level: a memory access with a latency above this "
          "moves its warp out of the active set.");
}

} // namespace gpusim
