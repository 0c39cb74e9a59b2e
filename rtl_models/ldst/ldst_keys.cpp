#include "config/config_schema.h"
#include "ldst/ldst_unit.h"
#include "ldst/store_buffer.h"

namespace gpusim {

void declare_keys(ConfigSection<LdstConfig>& s) {
    using C = LdstConfig;
    s.key("memory.coalescing", &C::coalescing, "rule", "How a warp's global and local accesses combine into transactions: the rule of "
          "the generation, cc10, cc12 (compute capability 1.0 and 1.2-1.3, by half-warp), cc20, cc35 or cc90 (by warp; "
          "cc90 moves 32-byte sectors as cc35 does, and passes the LD/ST pipe once per 128-byte line the access touches "
          "instead of once per sector; rtl_models/ldst/coalescer.h, [timing.md](timing.md))")
        .one_of({"cc10", "cc12", "cc20", "cc35", "cc90"});
    s.key("memory.transaction_cycles", &C::transaction_cycles, "cycles", "LD/ST pipe cycles each transaction of a warp access "
          "beyond the first adds.");
    s.key("memory.store_bytes_per_cycle", &C::store_bytes_per_cycle, "bytes/cycle", "Bytes of store data an SM sends toward "
          "the L2 per cycle: a store holds the LD/ST pipe until the transactions it writes (whole sectors) have left. 0: not "
          "limited (a store passes the pipe as a load does).").at_least(0).or_default(0);
    ConfigSection<CacheConfig> l1 = s.part(&C::l1, "l1");
    declare_keys(l1, "the SM's L1 (global loads when `l1.caches_global`, and local memory)");
    l1.key("mshrs", &CacheConfig::mshrs, "entries", "Line misses of the L1 in flight at once; a miss that finds none free waits "
           "for the first to complete. 0: not limited.");
    s.key("l1.caches_global", &C::l1_caches_global, "", "Global loads are cached in the L1 (else only local memory is).");
    s.key("l1.cache_operators", &C::l1_cache_operators, "", "Global loads follow their cache operator: `.cg` and `.cv`, "
          "and strong loads (`.volatile`; `.relaxed` or `.acquire` at gpu or system scope), go past the L1 to the L2 (and "
          "drop no L1 line). false: every global load is cached as `l1.caches_global` says.").or_default(false);
}

void declare_keys(ConfigSection<StoreBufferConfig>& s) {
    using C = StoreBufferConfig;
    s.converted<std::string>("memory_model", [](C& c, const std::string& v) { c.enabled = v == "relaxed"; }, "name",
                             "`sc`: sequentially consistent, every access complete before the next instruction (fences are "
                             "no-ops). `relaxed`: each SM's plain and relaxed global stores leave through a store buffer, in an "
                             "order drawn from `sim.memory_seed`, and reach each other SM's view late; only fences, releases and "
                             "acquires of gpu or system scope, atomics and the SM's own accesses order them "
                             "([memory_model.md](memory_model.md)). Keeps the SMs on one host thread.")
        .one_of({"sc", "relaxed"}).or_default("sc");
    s.key("memory_seed", &C::seed, "seed", "Picks the relaxed model's reorderings: one seed, one run.").or_default(1);
    s.key("store_buffer_entries", &C::entries, "stores", "Stores an SM's buffer holds (relaxed model); when full, the half due "
          "first leave.").at_least(1).or_default(64);
    s.key("store_max_delay", &C::max_delay, "cycles", "A buffered store leaves the SM at a time drawn uniformly from 0 to this "
          "many cycles after it was made (relaxed model): about two L2 round trips of GF100, so reorderings show between SMs "
          "polling through the L2.").or_default(1000);
    s.key("load_max_delay", &C::load_max_delay, "cycles", "Once a store reaches memory, each other SM sees it after an "
          "invalidation delay of its own, drawn uniformly from 0 to this many cycles (relaxed model); until then its loads of "
          "those bytes return the old value.").or_default(1000);
    s.key("invalidation_entries", &C::stale_entries, "stores", "Replaced values the chip remembers for late invalidations "
          "(relaxed model); past it, the oldest one's invalidation arrives everywhere at once.").at_least(1).or_default(64);
}

} // namespace gpusim
