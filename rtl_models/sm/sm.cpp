#include "sm/sm.h"

#include <algorithm>

namespace gpusim {

Sm::Sm(const sc_core::sc_module_name& name, const SmConfig& cfg, uint32_t smid, sc_core::sc_time cycle, L2Cache* l2)
    : sc_module(name), mem("mem"), m_cfg(cfg), m_cycle(cycle), m_view(this), m_core(cfg, smid, m_view, l2) {
    mem.register_invalidate_direct_mem_ptr(this, &Sm::invalidate_direct_mem_ptr);
    SC_HAS_PROCESS(Sm);
    SC_THREAD(run);
}

void Sm::start(const LaunchInfo* launch, CtaDispatcher* dispatcher) {
    m_launch = launch;
    m_dispatcher = dispatcher;
    m_busy = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void Sm::run() {
    for (;;) {
        wait(m_start);
        m_qk.reset();
        run_launch();
        m_qk.sync();
        m_busy = false;
        m_done.notify(sc_core::SC_ZERO_TIME);
    }
}

void Sm::run_launch() {
    m_core.begin_launch(m_launch);
    const uint64_t quantum = std::max<uint64_t>(uint64_t(tlm_utils::tlm_quantumkeeper::get_global_quantum() / m_cycle), 1);
    const uint64_t budget = quantum * m_cfg.warp_schedulers;
    bool first_fill = true;
    for (;;) {
        uint64_t cta;
        // The first CTAs go round-robin over the SMs, as the chip's distributor hands them out:
        // each SM takes one and lets the others take theirs. Later ones go to whichever SM has room.
        while (m_core.can_accept_cta() && m_dispatcher->next(cta)) {
            m_core.add_cta(cta);
            if (first_fill) wait(sc_core::SC_ZERO_TIME);
        }
        first_fill = false;
        if (m_core.idle() || m_dispatcher->aborted()) break;
        uint64_t before = m_core.cycles();
        m_core.set_time_ns(uint64_t(m_qk.get_current_time().to_seconds() * 1e9));
        m_core.set_chip_cycle(uint64_t(m_qk.get_current_time() / m_cycle + 0.5));
        try {
            // Timing mode runs a quantum of cycles; functional mode a quantum's worth of issue slots.
            if (m_core.timing()) m_core.step_until(before + quantum);
            else m_core.step(budget);
        } catch (const KernelFault& f) {
            m_dispatcher->abort(f.what(), f.kind());
            break;
        }
        m_qk.inc(m_cycle * double(m_core.cycles() - before));
        if (m_qk.need_sync()) m_qk.sync();
    }
    m_core.abort();
}

bool Sm::get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) {
    tlm::tlm_generic_payload p;
    tlm::tlm_dmi dmi;
    p.set_address(addr);
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    if (!mem->get_direct_mem_ptr(p, dmi)) return false;
    if (write ? !dmi.is_write_allowed() : !dmi.is_read_allowed()) return false;
    start = dmi.get_start_address();
    end = dmi.get_end_address();
    ptr = dmi.get_dmi_ptr();
    writable = dmi.is_write_allowed();
    return true;
}

bool Sm::transport(bool write, uint64_t addr, uint8_t* data, uint32_t size) {
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(size);
    p.set_streaming_width(size);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    mem->b_transport(p, delay);
    return p.is_response_ok();
}

void Sm::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) { m_view.invalidate(start, end); }

} // namespace gpusim
