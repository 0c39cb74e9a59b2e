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
    s.key("atomic_slices", &L2Config::atomic_slices, "slices", "Atomic units, one per L2 slice (0: one per address, as "
          "`l2.atomic_cycles` says). A slice serves one request at a time: a warp's lanes on one sector, for `l2.atomic_cycles` "
          "per lane on its busiest word (lanes on different words of the sector are served together); requests on one slice "
          "are serialized, those on different slices overlap.").or_default(0);
    s.key("atomic_slice_bytes", &L2Config::atomic_slice_bytes, "bytes", "Consecutive bytes of the address space on one "
          "slice (`l2.atomic_slices`); slices take turns by address.").at_least(1).or_default(256);
    s.key("atomic_latency", &L2Config::atomic_latency, "cycles", "Cycles an atomic's trip adds to a read's: the "
          "read-modify-write at the L2 (a result reaches the SM this much later than a load's would).").or_default(0);
}

} // namespace gpusim
