// The streaming multiprocessor as a SystemC module: one process that fills the SM with CTAs from
// the dispatcher and runs them on SmCore, reaching device memory only through its TLM socket
// (DMI where granted) and running ahead of global time by a quantum.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "../gpu/cta_dispatcher.h"
#include "ldst/memory_view.h"
#include "sm/sm_core.h"

namespace gpusim {

class Sm : public sc_core::sc_module, private MemoryBackend {
public:
    tlm_utils::simple_initiator_socket<Sm> mem;

    // `l2` is the chip's L2 that the SM's timing mode looks lines up in (nullptr in functional mode).
    Sm(const sc_core::sc_module_name& name, const SmConfig& cfg, uint32_t smid, sc_core::sc_time cycle, L2Cache* l2 = nullptr);

    // Starts working on `launch`; done_event() fires when the SM has no more CTAs to run.
    void start(const LaunchInfo* launch, CtaDispatcher* dispatcher);
    const sc_core::sc_event& done_event() const { return m_done; }
    bool busy() const { return m_busy; }
    SmCore& core() { return m_core; }

private:
    SmConfig m_cfg;
    sc_core::sc_time m_cycle;
    MemoryView m_view;
    SmCore m_core;
    tlm_utils::tlm_quantumkeeper m_qk;
    const LaunchInfo* m_launch = nullptr;
    CtaDispatcher* m_dispatcher = nullptr;
    sc_core::sc_event m_start;
    sc_core::sc_event m_done;
    bool m_busy = false;

    void run();
    void run_launch();
    bool get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) override;
    bool transport(bool write, uint64_t addr, uint8_t* data, uint32_t size) override;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
};

} // namespace gpusim
