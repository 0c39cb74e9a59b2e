#include "runtime/platform.h"

#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim {

namespace {
void access(HostPort& port, tlm::tlm_command cmd, uint32_t offset, uint32_t& value) {
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(cmd);
    p.set_address(offset);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    port.socket->b_transport(p, delay);
    if (p.is_response_error())
        throw std::logic_error(fmt::format("GPU register access at 0x{:x} failed: {}", offset, p.get_response_string()));
}
} // namespace

void HostPort::write32(uint32_t offset, uint32_t value) { access(*this, tlm::TLM_WRITE_COMMAND, offset, value); }

uint32_t HostPort::read32(uint32_t offset) {
    uint32_t v = 0;
    access(*this, tlm::TLM_READ_COMMAND, offset, v);
    return v;
}

HostWaiter::HostWaiter(const sc_core::sc_module_name& name, const sc_core::sc_event& progress)
    : sc_module(name), m_progress(progress) {
    SC_HAS_PROCESS(HostWaiter);
    SC_THREAD(thread);
}

void HostWaiter::thread() {
    for (;;) {
        wait(m_progress);
        if (m_done && (*m_done)()) {
            m_done = nullptr;
            sc_core::sc_pause();
        }
    }
}

Platform::Platform(const sc_core::sc_module_name& name, const GpuConfig& cfg, const VcdOptions& vcd)
    : sc_module(name), host_memory("host_memory"), gpu("gpu", cfg), cpu("cpu"),
      waiter("waiter", gpu.command_processor().progress_event()), irq("irq") {
    cpu.socket.bind(gpu.regs);
    gpu.host_mem.bind(host_memory.socket);
    gpu.irq.bind(irq);
    if (vcd.path.empty()) return;
    m_vcd = std::make_unique<VcdRecorder>("vcd", vcd.path, vcd.signals, gpu.name(), sc_core::sc_time(cfg.cycle_ns(), sc_core::SC_NS));
    gpu.record_signals(*m_vcd);
    m_vcd->start_tracing();
}

} // namespace gpusim

namespace gpusim {
void Platform::flush_device_output() {
    for (const auto& [to_stderr, text] : gpu.device_runtime().take_output()) {
        std::fputs(text.c_str(), to_stderr ? stderr : stdout);
        std::fflush(to_stderr ? stderr : stdout);
    }
}
} // namespace gpusim
