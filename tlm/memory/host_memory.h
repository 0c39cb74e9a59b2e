// Host memory as the GPU sees it: the process's own memory, reachable only inside the windows
// the driver registered (pinned allocations, its bounce buffers, event semaphores). A copy engine
// therefore reads and writes the program's buffers at the simulated time of the transfer, and an
// access outside every window answers with an address error instead of touching the process.
#pragma once

#include <cstdint>
#include <map>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace gpusim {

class HostMemory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<HostMemory> socket;

    explicit HostMemory(const sc_core::sc_module_name& name);

    // Makes [base, base+size) of this process visible to the GPU, or hides it again.
    void add_window(const void* base, uint64_t size);
    void remove_window(const void* base);
    // The window holding all of [addr, addr+len), or false.
    bool contains(uint64_t addr, uint64_t len) const;

private:
    std::map<uint64_t, uint64_t> m_windows;   // base -> size

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& p);
    // Direct access to the window holding the address (kernels reading mapped memory); revoked
    // when the window goes.
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
    bool access(tlm::tlm_generic_payload& p);
};

} // namespace gpusim
