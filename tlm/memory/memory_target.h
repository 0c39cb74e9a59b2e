// A TLM-2.0 memory target over a SparseStore: b_transport with an access latency, transport_dbg,
// and DMI one page at a time. When `checked`, only mapped pages may be accessed (device memory
// behind the GPU's page table); otherwise the whole space is backed (host memory).
#pragma once

#include <cstdint>
#include <atomic>
#include <set>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "memory/managed_pages.h"
#include "memory/sparse_store.h"

namespace gpusim {

class MemoryTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<MemoryTarget> socket;

    MemoryTarget(const sc_core::sc_module_name& name, bool checked, sc_core::sc_time latency);

    // Page table maintenance (device memory): makes [base, base+size) accessible, or not.
    void map(uint64_t base, uint64_t size);
    // Maps [base, base+size) onto memory the caller owns (page-aligned; managed memory).
    void attach(uint64_t base, uint64_t size, uint8_t* host);
    void unmap(uint64_t base, uint64_t size);
    bool is_mapped(uint64_t addr, uint64_t len) const;
    // Managed memory: the SMs' direct access to one of its pages (granted one managed page at a
    // time) tells it the device touched the page. Copy engines' transfers do not.
    void set_managed(ManagedPages* m) { m_managed = m; }
    // Takes back the direct access granted to [start, end] (a managed page the host took back).
    void revoke(uint64_t start, uint64_t end) { socket->invalidate_direct_mem_ptr(start, end); }

    SparseStore& store() { return m_store; }

private:
    bool m_checked;
    ManagedPages* m_managed = nullptr;
    sc_core::sc_time m_latency;
    SparseStore m_store;
    std::set<uint64_t> m_mapped;        // page numbers
    static constexpr uint64_t kNoPage = ~uint64_t(0);
    // The page is_mapped last found mapped (atomic, cheaply: the runtime asks between quanta and
    // SMs under the memory map's lock, but nothing here relies on that).
    mutable std::atomic<uint64_t> m_last_mapped{kNoPage};

    void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& p);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
    bool access(tlm::tlm_generic_payload& p);
};

} // namespace gpusim
