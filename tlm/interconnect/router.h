// Address-decoding interconnect: any number of initiators, targets selected by address range.
// Forwards b_transport, transport_dbg and DMI requests, and DMI invalidations back to every initiator.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace gpusim {

class Router : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<Router> in;
    tlm_utils::multi_passthrough_initiator_socket<Router> out;

    explicit Router(const sc_core::sc_module_name& name);

    // Routes [start, end] to the target bound as out[index].
    void add_range(uint64_t start, uint64_t end, unsigned index);

private:
    struct Range { uint64_t start, end; unsigned index; };
    std::vector<Range> m_ranges;

    const Range* decode(uint64_t addr) const;
    void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload& p);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
    void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
};

} // namespace gpusim
