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
    s.key("slices", &L2Config::slices, "slices", "The L2's slices (0: not modelled). Each has an atomic unit, which serves "
          "one request at a time: a warp's lanes on one sector, for `l2.atomic_cycles` per lane on its busiest word (lanes on "
          "different words of the sector are served together; without slices, atomics are serialized per address as "
          "`l2.atomic_cycles` says); and a read and a write port (`l2.slice_read_bytes`, `l2.slice_write_bytes`).").or_default(0);
    s.key("slice_bytes", &L2Config::slice_bytes, "bytes", "Consecutive bytes of the address space on one slice (`l2.slices`); "
          "slices take turns by address.").at_least(1).or_default(256);
    s.key("slice_read_bytes", &L2Config::slice_read_bytes, "bytes/cycle", "Bytes a slice's read port returns per cycle (line "
          "fills of the SMs' caches, loads past the L1); a request waits for room, accounted per window as device memory's "
          "bandwidth. 0: not limited.").at_least(0).or_default(0);
    s.key("slice_write_bytes", &L2Config::slice_write_bytes, "bytes/cycle", "Bytes of store data a slice's write port takes "
          "per cycle; a store's acknowledgement waits for room (what a warp's exit waits for under `sm.drain_stores`). 0: not "
          "limited.").at_least(0).or_default(0);
    s.key("write_back", &L2Config::write_back, "", "Stores stay in the L2 as dirty lines, and a line reaches device memory "
          "when it is evicted (the access that evicts it waits until device memory has taken it). false: every store is "
          "posted to device memory at once, taking its bandwidth then.").or_default(false);
    s.key("atomic_latency", &L2Config::atomic_latency, "cycles", "Cycles an atomic's trip adds to a read's: the "
          "read-modify-write at the L2 (a result reaches the SM this much later than a load's would).").or_default(0);
}

} // namespace gpusim
