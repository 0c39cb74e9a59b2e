// Device memory as the timing path sees it: dram.channels channels, addresses interleaved over
// them every dram.interleave_bytes, each moving dram.bandwidth_gb_s / channels, behind a fixed
// access latency. A TLM target of the timing protocol (protocol/memory_request.h): it adds the
// latency and any queueing for a busy channel to the request's delay.
//
// The requests come from SMs that each run ahead of SystemC time by up to a quantum (temporal
// decoupling), so they do not arrive in time order; bandwidth is therefore accounted per window of
// sim.dram_window_cycles chip cycles (protocol/bandwidth_windows.h).
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "isa/unit_module.h"
#include "protocol/bandwidth_windows.h"
#include "protocol/memory_request.h"
#include "trace/trace_recorder.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct DramConfig {
    uint32_t latency = 400;            // cycles beyond the L2 (or beyond the SM when there is no L2)
    uint32_t channels = 6;             // memory controllers, each with its share of the bandwidth
    double bandwidth_gb_s = 177.4;
    uint32_t interleave_bytes = 256;   // consecutive bytes on one channel
    double bytes_per_cycle = 21.1;     // per channel, per core cycle (derived at load)
    uint32_t window_cycles = 64;       // bandwidth is accounted per window of this many cycles
    double cycle_ns = 1.0;             // the chip cycle, for the TLM delays (derived at load)
    uint64_t quantum_cycles = 10000;   // sim.quantum_cycles: how far apart in time requests may arrive
};

// The keys dram.* and sim.dram_window_cycles (dram_keys.cpp); the section's prefix is empty.
void declare_keys(ConfigSection<DramConfig>& s);

class DramController : public UnitModule {
public:
    tlm_utils::simple_target_socket<DramController> socket;

    DramController(const sc_core::sc_module_name& name, const DramConfig& cfg);

    void report(nlohmann::json& out) const override;

    void set_trace(TraceRecorder* t) { m_trace = t; }
    // Declares the waveform signals "dram_ctrl.channel_<k>.busy" (the channel transfers: each transfer
    // takes its bytes over the channel's bandwidth from when it gets the channel) and
    // "dram_ctrl.busy_channels".
    void record_signals(VcdRecorder& vcd);

private:
    std::vector<VcdSignal> m_busy;
    TraceRecorder* m_trace = nullptr;
    ChipClock m_clock;
    uint32_t m_latency;
    uint32_t m_interleave;
    uint32_t m_channels;
    BandwidthWindows m_bandwidth;         // per channel
    uint64_t m_read_bytes = 0, m_write_bytes = 0;

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    size_t channel_of(uint64_t addr) const { return (addr / m_interleave) % m_channels; }
};

} // namespace gpusim
