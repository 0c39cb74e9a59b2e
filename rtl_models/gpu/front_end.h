// The GPU front end: the register block a host programs over TLM, the DMA descriptor queue, the
// device page table, and the launch sequencer that reads the parameter block, starts every SM and
// raises the completion interrupt.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "../../tlm/dma/dma_engine.h"
#include "../../tlm/memory/memory_target.h"
#include "gpu/cta_dispatcher.h"
#include "gpu/gpu_config.h"
#include "gpu/program_store.h"
#include "gpu/registers.h"
#include "sm/sm.h"

namespace gpusim {

struct LaunchResult {
    uint64_t cycles = 0;
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    uint64_t pm_events[kPmCounters] = {};
    sc_core::sc_time start, end;
};

class FrontEnd : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<FrontEnd> regs;
    tlm_utils::simple_initiator_socket<FrontEnd> mem;   // reads launch parameter blocks
    sc_core::sc_out<bool> irq;

    FrontEnd(const sc_core::sc_module_name& name, const GpuConfig& cfg, ProgramStore& programs, DmaEngine& dma,
             MemoryTarget& dram, std::vector<Sm*>& sms);

    const std::string& fault_message() const { return m_fault; }
    const LaunchResult& last_launch() const { return m_result; }

private:
    const GpuConfig& m_cfg;
    ProgramStore& m_programs;
    DmaEngine& m_dma;
    MemoryTarget& m_dram;
    std::vector<Sm*>& m_sms;
    uint32_t m_regs[reg::kEnd / 4] = {};
    uint32_t m_status = 0;
    uint32_t m_irq = 0;
    bool m_launch_pending = false;
    sc_core::sc_event m_launch_ev;
    sc_core::sc_event m_irq_ev;
    CtaDispatcher m_dispatcher;
    LaunchInfo m_launch;
    LaunchResult m_result;
    std::string m_fault;
    uint32_t m_grid_id = 0;

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& p);
    uint32_t read_reg(uint32_t off);
    void write_reg(uint32_t off, uint32_t v);
    uint64_t reg64(uint32_t lo) const { return uint64_t(m_regs[lo / 4]) | (uint64_t(m_regs[lo / 4 + 1]) << 32); }
    void queue_dma(uint32_t cmd);
    std::string validate_launch() const;
    void launch_thread();
    void dma_watch_thread();
    void irq_thread();
    void raise(uint32_t bits);
};

} // namespace gpusim
