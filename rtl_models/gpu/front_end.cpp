#include "gpu/front_end.h"

#include <cstring>

#include <fmt/format.h>

namespace gpusim {

FrontEnd::FrontEnd(const sc_core::sc_module_name& name, const GpuConfig& cfg, ProgramStore& programs, DmaEngine& dma,
                   MemoryTarget& dram, std::vector<Sm*>& sms)
    : sc_module(name), regs("regs"), mem("mem"), irq("irq"), m_cfg(cfg), m_programs(programs), m_dma(dma),
      m_dram(dram), m_sms(sms) {
    regs.register_b_transport(this, &FrontEnd::b_transport);
    regs.register_transport_dbg(this, &FrontEnd::transport_dbg);
    SC_HAS_PROCESS(FrontEnd);
    SC_THREAD(launch_thread);
    SC_THREAD(dma_watch_thread);
    SC_THREAD(irq_thread);
}

unsigned FrontEnd::transport_dbg(tlm::tlm_generic_payload& p) {
    if (!p.is_read() || p.get_data_length() != 4 || p.get_address() >= reg::kEnd) return 0;
    uint32_t v = read_reg(uint32_t(p.get_address()));
    std::memcpy(p.get_data_ptr(), &v, 4);
    return 4;
}

void FrontEnd::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    uint64_t off = p.get_address();
    if (p.get_data_length() != 4 || (off & 3) || off >= reg::kEnd || p.get_byte_enable_ptr()) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    uint32_t v;
    if (p.is_read()) {
        v = read_reg(uint32_t(off));
        std::memcpy(p.get_data_ptr(), &v, 4);
    } else if (p.is_write()) {
        std::memcpy(&v, p.get_data_ptr(), 4);
        write_reg(uint32_t(off), v);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

uint32_t FrontEnd::read_reg(uint32_t off) {
    switch (off) {
    case reg::kId: return reg::kIdValue;
    case reg::kStatus: return m_status | (m_dma.busy() ? uint32_t(reg::kStatusDmaBusy) : 0u) | (m_dma.error() ? uint32_t(reg::kStatusDmaFault) : 0u);
    case reg::kIrq: return m_irq;
    case reg::kCyclesLo: return uint32_t(m_result.cycles);
    case reg::kCyclesHi: return uint32_t(m_result.cycles >> 32);
    case reg::kWarpInstLo: return uint32_t(m_result.warp_instructions);
    case reg::kWarpInstHi: return uint32_t(m_result.warp_instructions >> 32);
    case reg::kThreadInstLo: return uint32_t(m_result.thread_instructions);
    case reg::kThreadInstHi: return uint32_t(m_result.thread_instructions >> 32);
    default:
        if (off >= reg::kPmEventBase && off < reg::kPmEventBase + 8 * kPmCounters) {
            uint64_t v = m_result.pm_events[(off - reg::kPmEventBase) / 8];
            return uint32_t(off % 8 ? v >> 32 : v);
        }
        return m_regs[off / 4];
    }
}

void FrontEnd::write_reg(uint32_t off, uint32_t v) {
    switch (off) {
    case reg::kIrq: m_irq &= ~v; m_irq_ev.notify(sc_core::SC_ZERO_TIME); return;
    case reg::kControl:
        if (v & 1) { m_status &= ~(reg::kStatusKernelFault | reg::kStatusLaunchRejected); m_dma.clear_error(); m_fault.clear(); }
        return;
    case reg::kDmaCmd: queue_dma(v); return;
    case reg::kMapCmd:
        if (v == 1) m_dram.map(reg64(reg::kMapBaseLo), reg64(reg::kMapSizeLo));
        if (v == 2) m_dram.unmap(reg64(reg::kMapBaseLo), reg64(reg::kMapSizeLo));
        return;
    case reg::kLaunch:
        if (!(v & 1)) return;
        if (m_status & reg::kStatusKernelBusy) {  // one launch at a time: refuse, visibly
            m_fault = "launch rejected: a kernel is already running";
            m_status |= reg::kStatusLaunchRejected;
            raise(reg::kIrqFault);
            return;
        }
        m_status |= reg::kStatusKernelBusy;
        m_launch_pending = true;
        m_launch_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    default: m_regs[off / 4] = v;
    }
}

void FrontEnd::queue_dma(uint32_t cmd) {
    uint32_t kind = cmd & 0xFF;
    if (kind < 1 || kind > 4) {
        m_fault = fmt::format("DMA command with unknown kind {}", kind);
        m_status |= reg::kStatusLaunchRejected;
        raise(reg::kIrqFault);
        return;
    }
    DmaDescriptor d;
    d.kind = DmaDescriptor::Kind(cmd & 0xFF);
    d.fill = uint8_t(cmd >> 8);
    d.src = reg64(reg::kDmaSrcLo);
    d.dst = reg64(reg::kDmaDstLo);
    d.size = reg64(reg::kDmaSizeLo);
    m_dma.submit(d);
}

std::string FrontEnd::validate_launch() const {
    auto k = m_programs.get(m_regs[reg::kKernel / 4]);
    if (!k) return fmt::format("invalid kernel handle {}", m_regs[reg::kKernel / 4]);
    Dim3 g{m_regs[reg::kGridX / 4], m_regs[reg::kGridY / 4], m_regs[reg::kGridZ / 4]};
    Dim3 b{m_regs[reg::kBlockX / 4], m_regs[reg::kBlockY / 4], m_regs[reg::kBlockZ / 4]};
    if (!g.count() || !b.count()) return "grid and block dimensions must be at least 1";
    if (g.x > m_cfg.max_grid_x) return fmt::format("grid x {} exceeds the maximum {}", g.x, m_cfg.max_grid_x);
    if (b.count() > m_cfg.max_threads_per_block)
        return fmt::format("block of {} threads exceeds the maximum {}", b.count(), m_cfg.max_threads_per_block);
    uint64_t shared = k->static_shared_bytes + uint64_t(m_regs[reg::kDynShared / 4]);
    if (shared > m_cfg.max_shared_per_block)
        return fmt::format("block needs {} bytes of shared memory, the maximum is {}", shared, m_cfg.max_shared_per_block);
    LaunchInfo probe;
    probe.kernel = k;
    probe.block = b;
    probe.dynamic_shared = m_regs[reg::kDynShared / 4];
    if (SmCore::occupancy_limit(m_cfg.sm, probe) == 0)
        return fmt::format("a block of {} threads using {} registers per thread and {} bytes of shared memory does not fit on an SM",
                           b.count(), k->regs_per_thread, probe.shared_per_cta());
    if (m_regs[reg::kParamSize / 4] != k->param_bytes)
        return fmt::format("parameter block of {} bytes, kernel '{}' takes {}", m_regs[reg::kParamSize / 4], k->name, k->param_bytes);
    return "";
}

void FrontEnd::launch_thread() {
    for (;;) {
        while (!m_launch_pending) wait(m_launch_ev);
        m_launch_pending = false;
        if (std::string err = validate_launch(); !err.empty()) {
            m_fault = "launch rejected: " + err;
            m_status = (m_status & ~reg::kStatusKernelBusy) | reg::kStatusLaunchRejected;
            raise(reg::kIrqFault);
            continue;
        }
        m_launch = LaunchInfo{};
        m_launch.kernel = m_programs.get(m_regs[reg::kKernel / 4]);
        m_launch.grid = {m_regs[reg::kGridX / 4], m_regs[reg::kGridY / 4], m_regs[reg::kGridZ / 4]};
        m_launch.block = {m_regs[reg::kBlockX / 4], m_regs[reg::kBlockY / 4], m_regs[reg::kBlockZ / 4]};
        m_launch.dynamic_shared = m_regs[reg::kDynShared / 4];
        m_launch.grid_id = ++m_grid_id;
        m_launch.num_sms = uint32_t(m_sms.size());
        m_launch.params.resize(m_launch.kernel->param_bytes);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (!m_launch.params.empty()) {
            tlm::tlm_generic_payload p;
            p.set_command(tlm::TLM_READ_COMMAND);
            p.set_address(reg64(reg::kParamLo));
            p.set_data_ptr(m_launch.params.data());
            p.set_data_length(uint32_t(m_launch.params.size()));
            p.set_streaming_width(uint32_t(m_launch.params.size()));
            p.set_byte_enable_ptr(nullptr);
            p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            mem->b_transport(p, delay);
            if (p.is_response_error()) {
                m_fault = fmt::format("launch rejected: parameter block at 0x{:x} is not mapped", reg64(reg::kParamLo));
                m_status = (m_status & ~reg::kStatusKernelBusy) | reg::kStatusLaunchRejected;
                raise(reg::kIrqFault);
                continue;
            }
        }
        wait(delay);
        m_result = LaunchResult{};
        m_result.start = sc_core::sc_time_stamp();
        std::vector<SmStats> before;
        for (Sm* sm : m_sms) before.push_back(sm->core().stats());
        m_dispatcher.start(m_launch.grid.count());
        for (Sm* sm : m_sms) sm->start(&m_launch, &m_dispatcher);
        for (Sm* sm : m_sms)
            while (sm->busy()) wait(sm->done_event());
        m_result.end = sc_core::sc_time_stamp();
        m_result.cycles = uint64_t((m_result.end - m_result.start) / sc_core::sc_time(m_cfg.cycle_ns(), sc_core::SC_NS) + 0.5);
        for (size_t k = 0; k < m_sms.size(); ++k) {
            m_result.warp_instructions += m_sms[k]->core().stats().warp_instructions - before[k].warp_instructions;
            m_result.thread_instructions += m_sms[k]->core().stats().thread_instructions - before[k].thread_instructions;
            for (int e = 0; e < kPmCounters; ++e)
                m_result.pm_events[e] += m_sms[k]->core().stats().pm_events[e] - before[k].pm_events[e];
        }
        m_status &= ~reg::kStatusKernelBusy;
        if (m_dispatcher.aborted()) {
            m_fault = m_dispatcher.fault();
            m_status |= reg::kStatusKernelFault;
            raise(reg::kIrqFault);
        } else {
            raise(reg::kIrqKernelDone);
        }
    }
}

void FrontEnd::dma_watch_thread() {
    for (;;) {
        wait(m_dma.done_event());
        raise(m_dma.error() ? reg::kIrqFault : reg::kIrqDmaDone);
    }
}

void FrontEnd::raise(uint32_t bits) {
    m_irq |= bits;
    m_irq_ev.notify(sc_core::SC_ZERO_TIME);
}

void FrontEnd::irq_thread() {
    for (;;) {
        wait(m_irq_ev);
        irq.write(m_irq != 0);
    }
}

} // namespace gpusim
