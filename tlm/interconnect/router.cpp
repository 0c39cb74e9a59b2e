#include "interconnect/router.h"

namespace gpusim {

Router::Router(const sc_core::sc_module_name& name) : sc_module(name), in("in"), out("out") {
    in.register_b_transport(this, &Router::b_transport);
    in.register_transport_dbg(this, &Router::transport_dbg);
    in.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
    out.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::add_range(uint64_t start, uint64_t end, unsigned index) { m_ranges.push_back({start, end, index}); }

const Router::Range* Router::decode(uint64_t addr) const {
    for (const auto& r : m_ranges)
        if (addr >= r.start && addr <= r.end) return &r;
    return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const Range* r = decode(p.get_address());
    if (!r) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return; }
    out[r->index]->b_transport(p, delay);
}

unsigned Router::transport_dbg(int, tlm::tlm_generic_payload& p) {
    const Range* r = decode(p.get_address());
    return r ? out[r->index]->transport_dbg(p) : 0;
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    const Range* r = decode(p.get_address());
    if (!r) return false;
    bool ok = out[r->index]->get_direct_mem_ptr(p, dmi);
    // Never grant beyond the routed range.
    if (dmi.get_start_address() < r->start) {
        if (dmi.get_dmi_ptr()) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (r->start - dmi.get_start_address()));
        dmi.set_start_address(r->start);
    }
    if (dmi.get_end_address() > r->end) dmi.set_end_address(r->end);
    return ok;
}

void Router::invalidate_direct_mem_ptr(int, sc_dt::uint64 start, sc_dt::uint64 end) {
    for (unsigned k = 0; k < in.size(); ++k) in[k]->invalidate_direct_mem_ptr(start, end);
}

} // namespace gpusim
