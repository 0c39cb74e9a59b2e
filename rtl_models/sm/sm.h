// The streaming multiprocessor as a SystemC module: SmCore with its TLM socket toward device
// memory (DMI where granted) and its place on the timeline. The GPU's SmCluster runs the SMs'
// launches, quantum by quantum, ahead of SystemC time.
#pragma once

#include <mutex>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "isa/memory_view.h"
#include "sm/sm_core.h"

namespace gpusim {

class Sm : public sc_core::sc_module, private MemoryBackend {
public:
    tlm_utils::simple_initiator_socket<Sm> mem;

    // `l2` is the chip's L2 that the SM's timing mode looks lines up in (nullptr in functional mode).
    Sm(const sc_core::sc_module_name& name, const SmConfig& cfg, uint32_t smid, MemoryRequestTarget* l2 = nullptr);

    SmCore& core() { return m_core; }

    // Launches run under the GPU's SmCluster: the launch begins (now), each quantum begins at
    // `chip_cycle` (now), the launch ends; in between the cluster steps the core, and (functional
    // mode) samples the timeline after each quantum.
    void cluster_begin(const LaunchInfo* launch);
    void cluster_quantum(uint64_t chip_cycle);
    void trace_after_step();
    // Timing mode: the core's step_apart toward `target`, sampling the timeline at its interval
    // boundaries on the way (the pieces change nothing the core does).
    uint64_t step_apart(uint64_t target);
    void cluster_end();

private:
    MemoryView m_view;
    SmCore m_core;
    // The timeline's counters: where the current sampling interval began.
    struct Sample {
        uint64_t cycle = 0, warp_instructions = 0, warp_cycles = 0;
    } m_sample;
    uint64_t m_launch_cycle = 0;   // the SM's cycle and time when the launch began
    double m_launch_ns = 0;

    void trace_begin(double now_ns);
    void trace_end();
    // Timeline counters of the interval that ends now: issue rate and resident warps.
    void sample();
    // The chip-time nanosecond of one of the SM's cycles.
    double ns_at(uint64_t cycle) const { return m_launch_ns + m_core.trace()->ns_of_cycle(cycle - m_launch_cycle); }
    bool get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) override;
    bool transport(bool write, uint64_t addr, uint8_t* data, uint32_t size) override;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
};

} // namespace gpusim
