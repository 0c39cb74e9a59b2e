#include "config/config_schema.h"
#include "smem/shared_memory.h"

namespace gpusim {

void declare_keys(ConfigSection<SharedMemoryConfig>& s) {
    using C = SharedMemoryConfig;
    s.key("banks", &C::banks, "banks", "Banks of the SM's shared memory; the accesses of a thread group to different words of "
          "one bank take a pass each (a bank conflict).").within(1, 64);
    s.key("interleave_bytes", &C::interleave_bytes, "bytes", "Bytes mapped to one bank before the next bank's.").at_least(1);
    s.key("bank_width_bytes", &C::bank_width_bytes, "bytes", "Bytes a bank delivers per pass; a row of banks × this width is "
          "served together, and every thread reading inside the row is served with it (broadcast).").at_least(1);
    s.key("max_group_threads", &C::max_group_threads, "threads", "Threads served together at most (16: the half-warp of cc 1.x); "
          "fewer with a wide access, as many as one pass can feed.").at_least(1);
    s.key("single_broadcast", &C::single_broadcast, "", "cc 1.x: one broadcast word per pass.");
    s.key("split_wide", &C::split_wide, "", "cc 1.x: an access wider than a bank becomes one request per bank word.");
    s.key("latency", &C::latency, "cycles", "Cycles of a conflict-free shared load.");
    s.key("pass_cycles", &C::pass_cycles, "cycles", "Cycles each further pass (a bank conflict) adds.");
    s.key("impl", &C::impl, "name", "`rtl`: the verilated bank arbiter (rtl_models/rtl/smem_bank_arbiter.sv) finds every shared "
          "access's passes, clocked inside the timing model; same results, slower ([rtl.md](rtl.md)). Needs a build with Verilator 5.")
        .one_of({"systemc", "rtl"}).or_default("systemc");
    s.key("rtl_vcd", &C::rtl_vcd, "path", "With `smem.impl=rtl`: SM 0's arbiter writes its signals to this VCD file (GTKWave); "
          "empty for none.").or_default("");
}

} // namespace gpusim
