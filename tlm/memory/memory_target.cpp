#include "memory/memory_target.h"

#include <algorithm>

#include "protocol/copy_engine_access.h"

namespace gpusim {

MemoryTarget::MemoryTarget(const sc_core::sc_module_name& name, bool checked, sc_core::sc_time latency)
    : sc_module(name), socket("socket"), m_checked(checked), m_latency(latency) {
    socket.register_b_transport(this, &MemoryTarget::b_transport);
    socket.register_transport_dbg(this, &MemoryTarget::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &MemoryTarget::get_direct_mem_ptr);
}

void MemoryTarget::map(uint64_t base, uint64_t size) {
    if (!size) return;
    for (uint64_t pg = base >> SparseStore::kPageBits; pg <= (base + size - 1) >> SparseStore::kPageBits; ++pg) {
        m_mapped.insert(pg);
        m_store.page(pg << SparseStore::kPageBits, true);
    }
}

void MemoryTarget::attach(uint64_t base, uint64_t size, uint8_t* host) {
    for (uint64_t off = 0; off < size; off += SparseStore::kPageSize) {
        m_mapped.insert((base + off) >> SparseStore::kPageBits);
        m_store.attach(base + off, host + off);
    }
}

void MemoryTarget::unmap(uint64_t base, uint64_t size) {
    if (!size) return;
    uint64_t first = base >> SparseStore::kPageBits, last = (base + size - 1) >> SparseStore::kPageBits;
    m_last_mapped.store(kNoPage, std::memory_order_relaxed);
    for (uint64_t pg = first; pg <= last; ++pg) {
        m_mapped.erase(pg);
        m_store.release(pg << SparseStore::kPageBits);
    }
    socket->invalidate_direct_mem_ptr(first << SparseStore::kPageBits, ((last + 1) << SparseStore::kPageBits) - 1);
}

bool MemoryTarget::is_mapped(uint64_t addr, uint64_t len) const {
    if (!m_checked) return true;
    if (len == 0) return true;
    const uint64_t first = addr >> SparseStore::kPageBits, last = (addr + len - 1) >> SparseStore::kPageBits;
    if (first == last && first == m_last_mapped.load(std::memory_order_relaxed)) return true;   // a copy's bursts ask of one page 16 times
    for (uint64_t pg = first; pg <= last; ++pg)
        if (!m_mapped.count(pg)) return false;
    m_last_mapped.store(last, std::memory_order_relaxed);
    return true;
}

bool MemoryTarget::access(tlm::tlm_generic_payload& p) {
    uint64_t addr = p.get_address();
    uint32_t len = p.get_data_length();
    if (p.get_byte_enable_ptr()) { p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE); return false; }
    if (addr + len < addr || !is_mapped(addr, len)) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return false; }
    if (p.is_read()) m_store.read(addr, p.get_data_ptr(), len);
    else if (p.is_write()) m_store.write(addr, p.get_data_ptr(), len);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

void MemoryTarget::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    if (access(p)) delay += m_latency;
    p.set_dmi_allowed(true);
}

unsigned MemoryTarget::transport_dbg(tlm::tlm_generic_payload& p) {
    uint64_t addr = p.get_address();
    uint32_t len = p.get_data_length();
    if (!is_mapped(addr, len)) return 0;
    if (p.is_read()) m_store.read(addr, p.get_data_ptr(), len);
    else if (p.is_write()) m_store.write(addr, p.get_data_ptr(), len);
    return len;
}

bool MemoryTarget::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    uint64_t addr = p.get_address();
    uint64_t start = addr & ~(SparseStore::kPageSize - 1);
    dmi.set_start_address(start);
    dmi.set_end_address(start + SparseStore::kPageSize - 1);
    if (!is_mapped(addr, 1)) {
        dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
        return false;
    }
    // A copy engine does not touch managed pages (it reaches them through the socket).
    if (m_managed && p.get_extension<CopyEngineAccess>() && m_managed->contains(addr)) return false;
    uint8_t* ptr = m_store.page(addr, true);
    if (m_managed && m_managed->contains(addr)) {
        // Direct access covers one managed page, so that the next page's first touch is seen.
        const uint64_t page = m_managed->page_bytes();
        const uint64_t first = std::max(start, addr / page * page);
        const uint64_t last = std::min(start + SparseStore::kPageSize, first + page) - 1;
        m_managed->device_touch(addr);
        ptr += first - start;
        dmi.set_start_address(first);
        dmi.set_end_address(last);
    }
    dmi.set_dmi_ptr(ptr);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
    dmi.set_read_latency(m_latency);
    dmi.set_write_latency(m_latency);
    return true;
}

} // namespace gpusim
