// Host memory as the GPU sees it: the process's own memory, reachable only inside the windows
// the driver registered (pinned allocations, its bounce buffers, event semaphores, a pageable
// buffer during a synchronous copy). A copy engine
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

    // Makes [base, base+size) of this process visible to the GPU, or hides it again. A window for
    // the copy engines alone answers only payloads marked CopyEngineAccess, and grants no direct
    // access: the runtime opens one on a pageable buffer while a copy it waits for reads or writes
    // the buffer in place.
    void add_window(const void* base, uint64_t size, bool copy_engines_only = false);
    void remove_window(const void* base);
    // Whether a window open to every initiator holds all of [addr, addr+len).
    bool contains(uint64_t addr, uint64_t len) const;
    // Whether any window holds a byte of [addr, addr+len).
    bool overlaps(uint64_t addr, uint64_t len) const;

private:
    struct Window {
        uint64_t size = 0;
        bool copy_engines_only = false;
    };
    std::map<uint64_t, Window> m_windows;   // by base

    // The window holding all of [addr, addr+len), or null.
    const Window* holding(uint64_t addr, uint64_t len) const;

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& p);
    // Direct access to the window holding the address (kernels reading mapped memory); revoked
    // when the window goes.
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
    bool access(tlm::tlm_generic_payload& p);
};

} // namespace gpusim
