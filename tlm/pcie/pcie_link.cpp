#include "pcie/pcie_link.h"

#include <algorithm>

#include "protocol/memory_request.h"

namespace gpusim {

PcieLink::PcieLink(const sc_core::sc_module_name& name, const PcieConfig& cfg)
    : sc_module(name), gpu_side("gpu_side"), host_side("host_side"), m_cfg(cfg) {
    gpu_side.register_b_transport(this, &PcieLink::b_transport);
    gpu_side.register_transport_dbg(this, &PcieLink::transport_dbg);
    gpu_side.register_get_direct_mem_ptr(this, &PcieLink::get_direct_mem_ptr);
    host_side.register_invalidate_direct_mem_ptr(this, &PcieLink::invalidate_direct_mem_ptr);
}

// A read of host memory carries data to the device; a write carries it to the host. The transfer
// starts when the caller's local time reaches it and the direction is free, and occupies the
// direction for bytes / bandwidth.
// A timing request (TLM_IGNORE_COMMAND with a MemoryRequest, from the L2: a kernel's access to
// mapped host memory) also pays the link's round trip.
void PcieLink::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    host_side->b_transport(p, delay);
    if (p.is_response_error()) return;
    const MemoryRequest* request = p.get_extension<MemoryRequest>();
    const bool to_device = request ? request->kind != MemoryRequest::Kind::Write : p.is_read();
    if (request) delay += sc_core::sc_time(m_cfg.access_latency_ns, sc_core::SC_NS);
    const int dir = to_device ? 0 : 1;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time start = std::max(now + delay, m_free[dir]);
    const sc_core::sc_time span(double(p.get_data_length()) / m_cfg.bandwidth_gb_s, sc_core::SC_NS);
    m_free[dir] = start + span;
    m_busy[dir] += span;
    m_bytes[dir] += p.get_data_length();
    delay = m_free[dir] - now;
}

unsigned PcieLink::transport_dbg(int, tlm::tlm_generic_payload& p) { return host_side->transport_dbg(p); }

// Functional accesses to mapped host memory go straight to it; their timing is the timing
// requests' above.
bool PcieLink::get_direct_mem_ptr(int, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    return host_side->get_direct_mem_ptr(p, dmi);
}

void PcieLink::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    for (unsigned k = 0; k < gpu_side.size(); ++k) gpu_side[int(k)]->invalidate_direct_mem_ptr(start, end);
}

void PcieLink::report(nlohmann::json& out) const {
    out["bytes_to_device"] = m_bytes[0];
    out["bytes_to_host"] = m_bytes[1];
    out["busy_ns_to_device"] = m_busy[0].to_seconds() * 1e9;
    out["busy_ns_to_host"] = m_busy[1].to_seconds() * 1e9;
}

} // namespace gpusim
