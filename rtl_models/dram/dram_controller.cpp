#include "dram/dram_controller.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpusim {

DramController::DramController(const sc_core::sc_module_name& name, const DramConfig& cfg)
    : UnitModule(name), socket("socket"), m_clock(cfg.cycle_ns), m_latency(cfg.latency),
      m_interleave(std::max(cfg.interleave_bytes, 1u)), m_channels(std::max(cfg.channels, 1u)),
      m_bandwidth(m_channels, cfg.bytes_per_cycle, cfg.window_cycles, cfg.quantum_cycles) {
    socket.register_b_transport(this, &DramController::b_transport);
}

void DramController::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint32_t bytes = p.get_data_length();
    const uint64_t at = m_clock.cycle_at(delay);
    (request_of(p).kind == MemoryRequest::Kind::Read ? m_read_bytes : m_write_bytes) += bytes;
    if (m_trace) m_trace->dram_bytes(at, bytes);
    const uint32_t wait = m_bandwidth.queue(uint32_t(channel_of(p.get_address())), bytes, at);
    if (!m_busy.empty())
        m_busy[channel_of(p.get_address())].span(at + wait, at + wait + uint64_t(std::ceil(double(bytes) / m_bandwidth.bytes_per_cycle())));
    delay += m_clock.span(m_latency + wait);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DramController::record_signals(VcdRecorder& vcd) {
    const std::string prefix = std::string(basename()) + ".";
    const VcdSignal channels = vcd.declare(prefix + "busy_channels", VcdRecorder::Kind::Count, VcdRecorder::bits_for(m_channels));
    m_busy.clear();
    for (uint32_t c = 0; c < m_channels; ++c)
        m_busy.push_back(vcd.declare(fmt::format("{}channel_{}.busy", prefix, c), VcdRecorder::Kind::Busy, 1, channels));
    if (std::none_of(m_busy.begin(), m_busy.end(), [](const VcdSignal& s) { return bool(s); })) m_busy.clear();
}

void DramController::report(nlohmann::json& out) const {
    stat(out, "read_bytes", double(m_read_bytes), "bytes", "bytes read from device memory (line fills, or every read without an L2)");
    stat(out, "write_bytes", double(m_write_bytes), "bytes", "bytes written to device memory (atomics without an L2 included)");
    stat(out, "busy_cycles", m_bandwidth.busy_cycles(), "cycles", "cycles the channels were transferring, summed over channels");
    stat(out, "queue_cycles", double(m_bandwidth.queue_cycles()), "cycles", "cycles requests waited for a busy channel, summed");
}

} // namespace gpusim
