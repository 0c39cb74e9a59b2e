#include "dma/dma_engine.h"

#include <cstring>
#include <vector>

#include "protocol/copy_engine_access.h"
#include "protocol/memory_map.h"

namespace gpusim {

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const PcieConfig& cfg, double device_gb_s)
    : sc_module(name), host("host"), device("device"), m_cfg(cfg), m_device_gb_s(device_gb_s) {
    SC_HAS_PROCESS(DmaEngine);
    SC_THREAD(run);
    device.register_invalidate_direct_mem_ptr(this, &DmaEngine::invalidate_device);
    m_payload.set_extension(&m_marker);
}

DmaEngine::~DmaEngine() { m_payload.clear_extension(&m_marker); }   // the payload would delete it

void DmaEngine::submit(const DmaDescriptor& d) {
    m_queue.push_back(d);
    m_kick.notify(sc_core::SC_ZERO_TIME);
}

bool DmaEngine::transfer(tlm_utils::simple_initiator_socket<DmaEngine>& s, tlm::tlm_command cmd, uint64_t addr,
                         uint8_t* data, uint32_t len, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload& p = m_payload;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_byte_enable_ptr(nullptr);
    p.set_dmi_allowed(false);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    s->b_transport(p, delay);
    if (p.is_response_error()) {
        m_error = true;
        m_error_address = addr;
        return false;
    }
    return true;
}

uint8_t* DmaEngine::device_bytes(uint64_t addr, uint32_t len) {
    const auto covers = [&](const tlm::tlm_dmi& d) {
        return d.get_dmi_ptr() && addr >= d.get_start_address() && addr + len - 1 <= d.get_end_address();
    };
    // Host memory behind the device socket (a descriptor's device side naming a host address) keeps
    // its transactions: the link prices those by their direction, which IGNORE would not carry.
    if (memory_map::is_host_address(addr)) return nullptr;
    int slot = covers(m_dmi[0]) ? 0 : covers(m_dmi[1]) ? 1 : -1;
    if (slot < 0) {
        tlm::tlm_generic_payload p;
        p.set_address(addr);
        p.set_command(tlm::TLM_WRITE_COMMAND);
        CopyEngineAccess marker;
        p.set_extension(&marker);
        tlm::tlm_dmi granted;
        const bool ok = device->get_direct_mem_ptr(p, granted) && granted.is_read_write_allowed();
        p.clear_extension(&marker);
        // A refusal (managed memory) leaves both slots as they were: the copy's other side keeps its.
        if (!ok || !covers(granted)) return nullptr;   // or the burst crosses the region's end
        slot = m_dmi_next;
        m_dmi_next ^= 1;
        m_dmi[slot] = granted;
    }
    return m_dmi[slot].get_dmi_ptr() + (addr - m_dmi[slot].get_start_address());
}

void DmaEngine::invalidate_device(sc_dt::uint64 start, sc_dt::uint64 end) {
    for (tlm::tlm_dmi& d : m_dmi)
        if (d.get_dmi_ptr() && d.get_start_address() <= end && start <= d.get_end_address()) d.init();
}

// One burst. Where the engine reaches device memory directly, the bytes move once, between host
// memory and device memory, and the device side's transaction (TLM_IGNORE_COMMAND) brings only
// its time and its address check: the same time and the same errors as moving them through the
// engine's buffer, which the other bursts (a region's edge, managed memory) still do.
bool DmaEngine::burst(const DmaDescriptor& d, uint64_t done, uint32_t n, std::vector<uint8_t>& buf, sc_core::sc_time& delay) {
    using Kind = DmaDescriptor::Kind;
    const uint64_t src = d.src + done, dst = d.dst + done;
    const auto timed = [&](uint64_t addr) { return transfer(device, tlm::TLM_IGNORE_COMMAND, addr, nullptr, n, delay); };
    switch (d.kind) {
    case Kind::HostToDevice:
        if (uint8_t* to = device_bytes(dst, n)) return transfer(host, tlm::TLM_READ_COMMAND, src, to, n, delay) && timed(dst);
        return transfer(host, tlm::TLM_READ_COMMAND, src, buf.data(), n, delay) &&
               transfer(device, tlm::TLM_WRITE_COMMAND, dst, buf.data(), n, delay);
    case Kind::DeviceToHost:
        if (uint8_t* from = device_bytes(src, n)) return timed(src) && transfer(host, tlm::TLM_WRITE_COMMAND, dst, from, n, delay);
        return transfer(device, tlm::TLM_READ_COMMAND, src, buf.data(), n, delay) &&
               transfer(host, tlm::TLM_WRITE_COMMAND, dst, buf.data(), n, delay);
    case Kind::DeviceToDevice: {
        // The pointers stay valid through the burst (no simulation runs), whichever slot holds them.
        uint8_t* from = device_bytes(src, n);
        uint8_t* to = from ? device_bytes(dst, n) : nullptr;
        if (to) {
            if (!timed(src)) return false;
            std::memmove(to, from, n);
            return timed(dst);
        }
        return transfer(device, tlm::TLM_READ_COMMAND, src, buf.data(), n, delay) &&
               transfer(device, tlm::TLM_WRITE_COMMAND, dst, buf.data(), n, delay);
    }
    case Kind::Fill:
        if (uint8_t* to = device_bytes(dst, n)) {
            std::memset(to, d.fill, n);
            return timed(dst);
        }
        return transfer(device, tlm::TLM_WRITE_COMMAND, dst, buf.data(), n, delay);
    }
    return false;
}

void DmaEngine::row_bursts(const DmaDescriptor& d, std::vector<uint8_t>& buf, sc_core::sc_time& delay, bool wait_each) {
    using Kind = DmaDescriptor::Kind;
    for (uint64_t done = 0; done < d.size && !m_error;) {
        uint32_t n = uint32_t(std::min<uint64_t>(m_cfg.burst_bytes, d.size - done));
        const sc_core::sc_time stage = d.staged ? sc_core::sc_time(double(n) / m_cfg.staging_gb_s, sc_core::SC_NS) : sc_core::SC_ZERO_TIME;
        if (d.kind == Kind::HostToDevice) delay += stage;   // the CPU fills the bounce buffer first
        if (!burst(d, done, n, buf, delay)) break;
        if (d.kind == Kind::DeviceToHost) delay += stage;   // and drains it after
        const uint32_t device_bytes = d.kind == Kind::DeviceToDevice ? 2 * n : d.kind == Kind::Fill ? n : 0;
        if (device_bytes && m_device_gb_s > 0) delay += sc_core::sc_time(double(device_bytes) / m_device_gb_s, sc_core::SC_NS);
        done += n;
        m_bytes += n;
        if (wait_each) {
            wait(delay);
            delay = sc_core::SC_ZERO_TIME;
        }
    }
}

void DmaEngine::execute(const DmaDescriptor& d) {
    if (d.rows > 1) return execute_rows(d);
    sc_core::sc_time delay = sc_core::sc_time(m_cfg.latency_ns, sc_core::SC_NS);
    std::vector<uint8_t> buf(m_cfg.burst_bytes, d.fill);   // a fill's bytes, or a burst on its way
    row_bursts(d, buf, delay, true);
    if (delay != sc_core::SC_ZERO_TIME) wait(delay);
}

// A 2D copy is one descriptor: its setup latency once, then the rows in turn, each taking at least
// the engine's time per row (pcie.row_ns over the link, pcie.device_row_ns within device memory:
// measured on the H200, a narrow row costs that much, a wide one its bytes). The engine runs
// ahead of simulated time by up to the global quantum before it waits, so that a copy of many
// short rows costs the host a loop, not a wait per row.
void DmaEngine::execute_rows(const DmaDescriptor& d) {
    using Kind = DmaDescriptor::Kind;
    const bool within_device = d.kind == Kind::DeviceToDevice || d.kind == Kind::Fill;
    const sc_core::sc_time least(within_device ? m_cfg.device_row_ns : m_cfg.row_ns, sc_core::SC_NS);
    const sc_core::sc_time quantum = tlm::tlm_global_quantum::instance().get();
    sc_core::sc_time delay(m_cfg.latency_ns, sc_core::SC_NS);
    std::vector<uint8_t> buf(m_cfg.burst_bytes, d.fill);
    DmaDescriptor row = d;
    for (uint32_t r = 0; r < d.rows && !m_error; ++r) {
        row.src = d.src + r * d.src_pitch;
        row.dst = d.dst + r * d.dst_pitch;
        const sc_core::sc_time start = delay;
        row_bursts(row, buf, delay, false);
        if (delay < start + least) delay = start + least;
        if (delay >= quantum) {
            wait(delay);
            delay = sc_core::SC_ZERO_TIME;
        }
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
