#include "gpu/front_end.h"

#include <cstring>

#include <fmt/format.h>

namespace gpusim {

FrontEnd::FrontEnd(const sc_core::sc_module_name& name, MemoryTarget& dram, uint32_t copy_engines)
    : sc_module(name), regs("regs"), irq("irq"), m_dram(dram), m_copy_engines(copy_engines) {
    regs.register_b_transport(this, &FrontEnd::b_transport);
    regs.register_transport_dbg(this, &FrontEnd::transport_dbg);
    SC_HAS_PROCESS(FrontEnd);
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

uint32_t FrontEnd::status() const {
    uint32_t s = 0;
    switch (m_cp->fault_code()) {
    case reg::kFaultNone: break;
    case reg::kFaultLaunchRejected: s |= reg::kStatusLaunchRejected; break;
    case reg::kFaultDma: s |= reg::kStatusDmaFault; break;
    default: s |= reg::kStatusKernelFault; break;
    }
    if (m_cp->pending()) s |= reg::kStatusPending;
    if (m_cp->kernel_running()) s |= reg::kStatusKernelBusy;
    if (m_cp->copy_running()) s |= reg::kStatusDmaBusy;
    return s;
}

uint32_t FrontEnd::read_reg(uint32_t off) {
    const LaunchResult& r = m_cp->last_launch();
    const uint32_t ch = channel() < m_cp->channels() ? channel() : 0;
    switch (off) {
    case reg::kId: return reg::kIdValue;
    case reg::kStatus: return status();
    case reg::kIrq: return m_irq;
    case reg::kCyclesLo: return uint32_t(r.cycles);
    case reg::kCyclesHi: return uint32_t(r.cycles >> 32);
    case reg::kWarpInstLo: return uint32_t(r.warp_instructions);
    case reg::kWarpInstHi: return uint32_t(r.warp_instructions >> 32);
    case reg::kThreadInstLo: return uint32_t(r.thread_instructions);
    case reg::kThreadInstHi: return uint32_t(r.thread_instructions >> 32);
    case reg::kChanSubmitted: return m_cp->submitted(ch);
    case reg::kChanCompleted: return m_cp->completed(ch);
    case reg::kFaultCode: return m_cp->fault_code();
    case reg::kChannels: return m_cp->channels();
    case reg::kCopyEngines: return m_copy_engines;
    default:
        if (off >= reg::kPmEventBase && off < reg::kPmEventBase + 8 * kPmCounters) {
            uint64_t v = r.pm_events[(off - reg::kPmEventBase) / 8];
            return uint32_t(off % 8 ? v >> 32 : v);
        }
        return m_regs[off / 4];
    }
}

void FrontEnd::write_reg(uint32_t off, uint32_t v) {
    switch (off) {
    case reg::kIrq: m_irq &= ~v; m_irq_ev.notify(sc_core::SC_ZERO_TIME); return;
    case reg::kControl:
        if (v & 1) m_cp->clear_fault();
        return;
    case reg::kDmaCmd: queue_copy(v); return;
    case reg::kLaunch:
        if (v & 1) queue_launch();
        return;
    case reg::kSemCmd: queue_semaphore(v); return;
    case reg::kDoorbell: m_cp->doorbell(); return;
    case reg::kParamSize: m_regs[off / 4] = v; m_params.clear(); return;
    case reg::kParamData:
        for (int b = 0; b < 4; ++b) m_params.push_back(uint8_t(v >> (8 * b)));
        return;
    case reg::kChanFlags:
        if (channel() < m_cp->channels()) m_cp->set_flags(channel(), v & 1, (v >> 8) & 0xFF);
        return;
    case reg::kMapCmd:
        if (v == 1) m_dram.map(reg64(reg::kMapBaseLo), reg64(reg::kMapSizeLo));
        if (v == 2) m_dram.unmap(reg64(reg::kMapBaseLo), reg64(reg::kMapSizeLo));
        return;
    default: m_regs[off / 4] = v;
    }
}

// A command the front end cannot queue (unknown kind, no such channel) is a sticky fault, named.
void FrontEnd::reject(const std::string& why) { m_cp->reject("command rejected: " + why); }

void FrontEnd::queue_copy(uint32_t cmd) {
    const uint32_t kind = cmd & 0xFF;
    Command c;
    c.kind = Command::Kind::Copy;
    c.copy.kind = DmaDescriptor::Kind(kind);
    c.copy.fill = uint8_t(cmd >> 8);
    c.copy.staged = (cmd >> 16) & 1;
    c.copy.src = reg64(reg::kDmaSrcLo);
    c.copy.dst = reg64(reg::kDmaDstLo);
    c.copy.size = reg64(reg::kDmaSizeLo);
    c.copy.rows = std::max<uint32_t>(m_regs[reg::kDmaRows / 4], 1);
    c.copy.src_pitch = m_regs[reg::kDmaSrcPitch / 4];
    c.copy.dst_pitch = m_regs[reg::kDmaDstPitch / 4];
    m_regs[reg::kDmaRows / 4] = m_regs[reg::kDmaSrcPitch / 4] = m_regs[reg::kDmaDstPitch / 4] = 0;
    if (kind < 1 || kind > 4) return reject(fmt::format("DMA command with unknown kind {}", kind));
    if (channel() >= m_cp->channels()) return reject(fmt::format("no channel {}", channel()));
    m_cp->submit(channel(), c);
}

void FrontEnd::queue_launch() {
    Command c;
    c.kind = Command::Kind::Launch;
    c.launch.kernel = m_regs[reg::kKernel / 4];
    c.launch.grid = {m_regs[reg::kGridX / 4], m_regs[reg::kGridY / 4], m_regs[reg::kGridZ / 4]};
    c.launch.block = {m_regs[reg::kBlockX / 4], m_regs[reg::kBlockY / 4], m_regs[reg::kBlockZ / 4]};
    c.launch.dynamic_shared = m_regs[reg::kDynShared / 4];
    c.launch.params = m_params;
    c.launch.params.resize(m_regs[reg::kParamSize / 4], 0);
    for (int k = 0; k < kEnvRegs; ++k) {
        uint32_t& r = m_regs[reg::kEnvRegBase / 4 + k];
        c.launch.envreg[size_t(k)] = r;
        r = 0;
    }
    if (channel() >= m_cp->channels()) return reject(fmt::format("no channel {}", channel()));
    m_cp->submit(channel(), c);
}

void FrontEnd::queue_semaphore(uint32_t cmd) {
    Command c;
    c.kind = cmd == 1 ? Command::Kind::Release : Command::Kind::Acquire;
    c.sem_address = reg64(reg::kSemAddrLo);
    c.payload = reg64(reg::kSemPayloadLo);
    if (cmd != 1 && cmd != 2) return reject(fmt::format("semaphore command {} is neither 1 nor 2", cmd));
    if (channel() >= m_cp->channels()) return reject(fmt::format("no channel {}", channel()));
    m_cp->submit(channel(), c);
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
