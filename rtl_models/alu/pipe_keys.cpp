#include "alu/pipe.h"
#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<PipeConfig>& s) {
    s.key("lanes", &PipeConfig::lanes, "operations per cycle", "Operations the pipe (one copy) accepts per cycle.").at_least(1);
    s.key("per_scheduler", &PipeConfig::per_scheduler, "", "Each warp scheduler has its own copy (Fermi's 16-lane halves of "
          "the cores), rather than one copy they share.");
    s.key("exclusive", &PipeConfig::exclusive, "", "No other scheduler issues in the cycle this pipe accepts a warp "
          "(Fermi's fp64).");
}

} // namespace gpusim
