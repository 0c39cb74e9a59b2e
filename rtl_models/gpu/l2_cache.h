// The chip's L2 cache and the device memory behind it, as the SMs' timing sees them: a line
// lookup that answers with the latency of the access, and the DRAM traffic it caused. Without an
// L2 (cc 1.x) every access pays the device memory latency.
//
// Device memory is dram.channels channels, addresses interleaved over them every
// dram.interleave_bytes. Each channel moves dram.bandwidth_gb_s / channels. The requests come
// from SMs that each run ahead of SystemC time by up to a quantum (temporal decoupling), so they
// do not arrive in time order; bandwidth is therefore accounted per window of
// sim.dram_window_cycles chip cycles: a transfer takes its bytes from the window of its cycle, or
// from the first later window with room, and waits until that window starts. Bandwidth is exact
// to a window; queueing is approximate to a window. A hit on a line whose fill has not arrived yet
// waits for it, as a request merged into the miss's MSHR does.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ldst/tag_cache.h"
#include "sm/timing_config.h"
#include "sm/unit_module.h"

namespace gpusim {

class L2Cache : public UnitModule {
public:
    L2Cache(const sc_core::sc_module_name& name, const MemoryTimingConfig& cfg);

    // Latency in cycles of reading (or filling) the `bytes` at `addr`, issued at chip cycle `now`.
    uint32_t read(uint64_t addr, uint32_t bytes, uint64_t now);
    // Latency of a write (write-back into L2, or straight to device memory without one).
    uint32_t write(uint64_t addr, uint32_t bytes, uint64_t now);

    void report(nlohmann::json& out) const override;

private:
    TagCache m_tags;
    uint32_t m_dram_latency;
    uint32_t m_interleave;
    double m_bytes_per_cycle;
    static constexpr size_t kRing = 4096;   // windows remembered per channel (covers SMs a quantum apart)
    uint32_t m_channels;
    uint32_t m_window;
    struct Window {
        uint64_t id = UINT64_MAX;
        double bytes = 0;
    };
    std::vector<Window> m_windows;        // a ring of recent windows per channel
    uint64_t m_queue_cycles = 0;          // cycles requests waited for a busy channel
    static constexpr size_t kMaxFilling = 4096;
    std::unordered_map<uint64_t, uint64_t> m_filling;   // line -> chip cycle its fill completes
    uint64_t m_hits_under_miss = 0;

    void forget_filled(uint64_t now);
    double m_busy_cycles = 0;

    // Queueing delay of a transfer reaching device memory at `at`; occupies its channel.
    uint32_t dram(uint64_t addr, uint32_t bytes, uint64_t at);
    uint64_t m_reads = 0, m_writes = 0;
    uint64_t m_dram_read_bytes = 0, m_dram_write_bytes = 0;
};

} // namespace gpusim
