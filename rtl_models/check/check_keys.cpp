#include "check/allocation_map.h"
#include "config/config_schema.h"

namespace gpusim {

void declare_keys(ConfigSection<CheckConfig>& s) {
    s.key("memcheck", &CheckConfig::memcheck, "", "Check every global access of a kernel against the exact bytes of the "
          "allocation whose pages it lands in, not only against the page table; an access that reaches past them is a memory "
          "fault, `(outside its allocation, found by memcheck)`. `gpusim run --memcheck` sets it; the runtime library takes "
          "`GPUSIM_MEMCHECK=1`. [checks.md](checks.md#memcheck).").or_default(false);
    s.key("racecheck", &CheckConfig::racecheck, "", "Report data races as they are found: in shared memory between warps of a "
          "block with no barrier between the accesses, in global memory between blocks of a launch with no fence or release of "
          "gpu or system scope after the first access. `gpusim run --racecheck` sets it (exit 7 when hazards are found); the "
          "runtime library takes `GPUSIM_RACECHECK=1`. It does not change what kernels compute. [checks.md](checks.md#racecheck).")
        .or_default(false);
    s.key("racecheck_shadow_mib", &CheckConfig::racecheck_shadow_mib, "MiB of host memory", "The most host memory "
          "`--racecheck` spends on its shadow of global memory (80 bytes for each byte a kernel touches, in 4 KiB pages). Past "
          "it, global memory first touched later is not checked, and one warning says so; shared memory is always checked.")
        .or_default(4096);
}

} // namespace gpusim
