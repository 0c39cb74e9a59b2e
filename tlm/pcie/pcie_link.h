// The PCIe link between the GPU and host memory: every initiator on the GPU side (copy engines,
// the command processor's semaphore writes) reaches host memory through it. Each direction is a
// separate resource with the link's bandwidth, so two copies the same way share it and copies in
// opposite directions overlap (the link is full duplex).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "pcie/pcie_config.h"

namespace gpusim {

class PcieLink : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<PcieLink> gpu_side;
    tlm_utils::simple_initiator_socket<PcieLink> host_side;

    PcieLink(const sc_core::sc_module_name& name, const PcieConfig& cfg);

    uint64_t bytes(bool to_device) const { return m_bytes[to_device ? 0 : 1]; }
    void report(nlohmann::json& out) const;

private:
    PcieConfig m_cfg;
    sc_core::sc_time m_free[2];     // when each direction is next free: [0] to the device, [1] to the host
    sc_core::sc_time m_busy[2];
    uint64_t m_bytes[2] = {};

    void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload& p);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
};

} // namespace gpusim
