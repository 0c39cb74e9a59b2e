#include "config/config_schema.h"
#include "dram/dram_controller.h"

namespace gpusim {

void declare_keys(ConfigSection<DramConfig>& s) {
    using C = DramConfig;
    s.key("dram.latency", &C::latency, "cycles", "Cycles device memory adds to an access that misses the L2 (or to every "
          "access without an L2).");
    s.key("dram.channels", &C::channels, "channels", "Memory controllers, each with its share of the bandwidth; addresses are "
          "interleaved over them.").at_least(1);
    s.key("dram.bandwidth_gb_s", &C::bandwidth_gb_s, "GB/s, all channels", "Device memory bandwidth of the chip; a transfer "
          "takes its bytes from its channel's share, window by window.").above(0);
    s.key("dram.interleave_bytes", &C::interleave_bytes, "bytes", "Consecutive bytes on one channel.").at_least(1);
    s.key("sim.dram_window_cycles", &C::window_cycles, "cycles", "Simulator knob: the window over which channel bandwidth (and "
          "the L2's per-address atomic throughput) is accounted, since temporal decoupling makes requests arrive out of order.")
        .at_least(1).or_default(64);
}

} // namespace gpusim
