// A plain TLM initiator for the testbenches of the TLM blocks: reads, writes and DMI requests at
// its socket, and the last DMI invalidation it received.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace gpusim::test {

class Initiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Initiator> socket;
    uint64_t invalidated_start = 0, invalidated_end = 0;
    sc_core::sc_time last_delay;   // what the target added to the last access's delay

    explicit Initiator(const sc_core::sc_module_name& n) : sc_module(n), socket("socket") {
        socket.register_invalidate_direct_mem_ptr(this, &Initiator::invalidate);
    }
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, uint32_t len) {
        tlm::tlm_generic_payload p;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(static_cast<unsigned char*>(data));
        p.set_data_length(len);
        p.set_streaming_width(len);
        p.set_byte_enable_ptr(nullptr);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(p, d);
        last_delay = d;
        return p.get_response_status();
    }
    bool dmi(uint64_t addr, tlm::tlm_dmi& out) {
        tlm::tlm_generic_payload p;
        p.set_address(addr);
        p.set_command(tlm::TLM_READ_COMMAND);
        return socket->get_direct_mem_ptr(p, out);
    }

private:
    void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { invalidated_start = s; invalidated_end = e; }
};

} // namespace gpusim::test
