#include "dram/dram_controller.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpusim {

namespace {
// Requests arrive up to a quantum out of time order and may queue well beyond it: the ring covers
// four quanta, and at least 4096 windows.
size_t ring_size(const DramConfig& cfg) {
    const uint64_t quantum_windows = cfg.quantum_cycles / std::max(cfg.window_cycles, 1u) + 1;
    return size_t(std::max<uint64_t>(4096, 4 * quantum_windows));
}
} // namespace

DramController::DramController(const sc_core::sc_module_name& name, const DramConfig& cfg)
    : UnitModule(name), socket("socket"), m_clock(cfg.cycle_ns), m_latency(cfg.latency),
      m_interleave(std::max(cfg.interleave_bytes, 1u)), m_channels(std::max(cfg.channels, 1u)),
      m_window(std::max(cfg.window_cycles, 1u)), m_bytes_per_cycle(cfg.bytes_per_cycle),
      m_ring(ring_size(cfg)), m_windows(size_t(m_channels) * m_ring) {
    socket.register_b_transport(this, &DramController::b_transport);
}

void DramController::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint32_t bytes = p.get_data_length();
    const uint64_t at = m_clock.cycle_at(delay);
    (request_of(p).kind == MemoryRequest::Kind::Read ? m_read_bytes : m_write_bytes) += bytes;
    if (m_trace) m_trace->dram_bytes(at, bytes);
    const uint32_t wait = queue(p.get_address(), bytes, at);
    if (!m_busy.empty())
        m_busy[channel_of(p.get_address())].span(at + wait, at + wait + uint64_t(std::ceil(double(bytes) / m_bytes_per_cycle)));
    delay += m_clock.span(m_latency + wait);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

uint32_t DramController::queue(uint64_t addr, uint32_t bytes, uint64_t at) {
    const size_t channel = channel_of(addr);
    const double capacity = m_bytes_per_cycle * m_window;
    uint64_t id = at / m_window;
    for (;; ++id) {
        Window& w = m_windows[channel * m_ring + id % m_ring];
        if (w.id != id) w = Window{id, 0.0};   // a window not used yet (or long past)
        if (w.bytes + bytes <= capacity || w.bytes == 0) {
            w.bytes += bytes;
            break;
        }
    }
    m_busy_cycles += double(bytes) / m_bytes_per_cycle;
    const uint64_t start = id * m_window;
    const uint32_t wait = start > at ? uint32_t(start - at) : 0;
    m_queue_cycles += wait;
    return wait;
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
    stat(out, "busy_cycles", m_busy_cycles, "cycles", "cycles the channels were transferring, summed over channels");
    stat(out, "queue_cycles", double(m_queue_cycles), "cycles", "cycles requests waited for a busy channel, summed");
}

} // namespace gpusim
