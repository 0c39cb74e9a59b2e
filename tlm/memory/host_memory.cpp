#include "memory/host_memory.h"

#include <cstring>

namespace gpusim {

HostMemory::HostMemory(const sc_core::sc_module_name& name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &HostMemory::b_transport);
    socket.register_transport_dbg(this, &HostMemory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &HostMemory::get_direct_mem_ptr);
}

void HostMemory::add_window(const void* base, uint64_t size) {
    if (size) m_windows[reinterpret_cast<uint64_t>(base)] = size;
}

void HostMemory::remove_window(const void* base) {
    auto it = m_windows.find(reinterpret_cast<uint64_t>(base));
    if (it == m_windows.end()) return;
    const uint64_t start = it->first, end = it->first + it->second - 1;
    m_windows.erase(it);
    socket->invalidate_direct_mem_ptr(start, end);
}

bool HostMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    const uint64_t addr = p.get_address();
    auto it = m_windows.upper_bound(addr);
    if (it == m_windows.begin()) return false;
    --it;
    if (addr >= it->first + it->second) return false;
    dmi.set_start_address(it->first);
    dmi.set_end_address(it->first + it->second - 1);
    dmi.set_dmi_ptr(reinterpret_cast<unsigned char*>(it->first));
    dmi.allow_read_write();
    return true;
}

bool HostMemory::contains(uint64_t addr, uint64_t len) const {
    auto it = m_windows.upper_bound(addr);
    if (it == m_windows.begin()) return false;
    --it;
    return addr + len >= addr && addr + len <= it->first + it->second;
}

bool HostMemory::access(tlm::tlm_generic_payload& p) {
    const uint64_t addr = p.get_address();
    const uint32_t len = p.get_data_length();
    if (p.get_byte_enable_ptr()) { p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE); return false; }
    // A timing request (no data: TLM_IGNORE_COMMAND) is priced wherever it goes; the functional
    // access that follows it is the one that faults outside the windows.
    if (p.get_command() == tlm::TLM_IGNORE_COMMAND) { p.set_response_status(tlm::TLM_OK_RESPONSE); return true; }
    if (!contains(addr, len)) { p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return false; }
    void* host = reinterpret_cast<void*>(addr);
    if (p.is_read()) std::memcpy(p.get_data_ptr(), host, len);
    else if (p.is_write()) std::memcpy(host, p.get_data_ptr(), len);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

void HostMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) { access(p); }

unsigned HostMemory::transport_dbg(tlm::tlm_generic_payload& p) { return access(p) ? p.get_data_length() : 0; }

} // namespace gpusim
