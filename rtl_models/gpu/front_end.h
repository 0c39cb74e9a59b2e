// The GPU front end: the register block a host programs over TLM. It keeps the device page table
// and turns the host's writes into commands on the command processor's channels (copies, launches,
// semaphores); it reports status, the last launch's counters, and raises the interrupt.
#pragma once

#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "memory/memory_target.h"
#include "gpu/command_processor.h"
#include "gpu/gpu_config.h"
#include "gpu/registers.h"

namespace gpusim {

class FrontEnd : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<FrontEnd> regs;
    sc_core::sc_out<bool> irq;

    FrontEnd(const sc_core::sc_module_name& name, MemoryTarget& dram, uint32_t copy_engines);

    // Wired by the GPU once the command processor exists (it raises interrupts through us).
    void attach(CommandProcessor& cp) { m_cp = &cp; }
    void raise(uint32_t bits);
    const std::string& fault_message() const { return m_cp->fault(); }

private:
    MemoryTarget& m_dram;
    uint32_t m_copy_engines;
    CommandProcessor* m_cp = nullptr;
    uint32_t m_regs[reg::kEnd / 4] = {};
    std::vector<uint8_t> m_params;   // the parameter block being assembled
    uint32_t m_irq = 0;
    sc_core::sc_event m_irq_ev;

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& p);
    uint32_t read_reg(uint32_t off);
    uint32_t status() const;
    void write_reg(uint32_t off, uint32_t v);
    uint64_t reg64(uint32_t lo) const { return uint64_t(m_regs[lo / 4]) | (uint64_t(m_regs[lo / 4 + 1]) << 32); }
    uint32_t channel() const { return m_regs[reg::kChannel / 4]; }
    void queue_copy(uint32_t cmd);
    void queue_launch();
    void queue_semaphore(uint32_t cmd);
    void reject(const std::string& why);
    void irq_thread();
};

} // namespace gpusim
