#include "dma/dma_engine.h"

#include <vector>

namespace gpusim {

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const PcieConfig& cfg, double device_gb_s)
    : sc_module(name), host("host"), device("device"), m_cfg(cfg), m_device_gb_s(device_gb_s) {
    SC_HAS_PROCESS(DmaEngine);
    SC_THREAD(run);
}

void DmaEngine::submit(const DmaDescriptor& d) {
    m_queue.push_back(d);
    m_kick.notify(sc_core::SC_ZERO_TIME);
}

bool DmaEngine::transfer(tlm_utils::simple_initiator_socket<DmaEngine>& s, tlm::tlm_command cmd, uint64_t addr,
                         uint8_t* data, uint32_t len, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    s->b_transport(p, delay);
    if (p.is_response_error()) {
        m_error = true;
        m_error_address = addr;
        return false;
    }
    return true;
}

void DmaEngine::execute(const DmaDescriptor& d) {
    using Kind = DmaDescriptor::Kind;
    sc_core::sc_time delay = sc_core::sc_time(m_cfg.latency_ns, sc_core::SC_NS);
    std::vector<uint8_t> buf(m_cfg.burst_bytes, d.fill);
    auto& src = d.kind == Kind::HostToDevice ? host : device;
    auto& dst = d.kind == Kind::DeviceToHost ? host : device;
    for (uint64_t done = 0; done < d.size && !m_error;) {
        uint32_t n = uint32_t(std::min<uint64_t>(m_cfg.burst_bytes, d.size - done));
        const sc_core::sc_time stage = d.staged ? sc_core::sc_time(double(n) / m_cfg.staging_gb_s, sc_core::SC_NS) : sc_core::SC_ZERO_TIME;
        if (d.kind == Kind::HostToDevice) delay += stage;   // the CPU fills the bounce buffer first
        if (d.kind != Kind::Fill && !transfer(src, tlm::TLM_READ_COMMAND, d.src + done, buf.data(), n, delay)) break;
        if (!transfer(dst, tlm::TLM_WRITE_COMMAND, d.dst + done, buf.data(), n, delay)) break;
        if (d.kind == Kind::DeviceToHost) delay += stage;   // and drains it after
        const uint32_t device_bytes = d.kind == Kind::DeviceToDevice ? 2 * n : d.kind == Kind::Fill ? n : 0;
        if (device_bytes && m_device_gb_s > 0) delay += sc_core::sc_time(double(device_bytes) / m_device_gb_s, sc_core::SC_NS);
        done += n;
        m_bytes += n;
        wait(delay);
        delay = sc_core::SC_ZERO_TIME;
    }
    if (delay != sc_core::SC_ZERO_TIME) wait(delay);
}

void DmaEngine::run() {
    for (;;) {
        while (m_queue.empty()) wait(m_kick);
        m_busy = true;
        DmaDescriptor d = m_queue.front();
        m_queue.pop_front();
        if (!m_error) execute(d);
        m_busy = false;
        ++m_completed;
        m_done.notify(sc_core::SC_ZERO_TIME);
    }
}

} // namespace gpusim
