#include "memory/host_memory.h"

#include <cstring>
#include <iterator>

#include "memory/copy_bytes.h"
#include "protocol/copy_engine_access.h"

namespace gpusim {

HostMemory::HostMemory(const sc_core::sc_module_name& name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &HostMemory::b_transport);
    socket.register_transport_dbg(this, &HostMemory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &HostMemory::get_direct_mem_ptr);
}

void HostMemory::add_window(const void* base, uint64_t size, bool copy_engines_only) {
    if (size) m_windows[reinterpret_cast<uint64_t>(base)] = Window{size, copy_engines_only};
}

void HostMemory::remove_window(const void* base) {
    auto it = m_windows.find(reinterpret_cast<uint64_t>(base));
    if (it == m_windows.end()) return;
    const uint64_t start = it->first, end = it->first + it->second.size - 1;
    const bool granted_direct_access = !it->second.copy_engines_only;
    m_windows.erase(it);
    // Only an open window can have granted direct access (a 2D copy opens and closes a window a
    // row, and each invalidation reaches every SM).
    if (granted_direct_access) socket->invalidate_direct_mem_ptr(start, end);
}

const HostMemory::Window* HostMemory::holding(uint64_t addr, uint64_t len) const {
    auto it = m_windows.upper_bound(addr);
    if (it == m_windows.begin()) return nullptr;
    --it;
    const bool inside = addr + len >= addr && addr + len <= it->first + it->second.size;
    return inside ? &it->second : nullptr;
}

bool HostMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    const uint64_t addr = p.get_address();
    const Window* w = holding(addr, 1);
    if (!w || w->copy_engines_only) return false;
    auto it = std::prev(m_windows.upper_bound(addr));
    dmi.set_start_address(it->first);
    dmi.set_end_address(it->first + w->size - 1);
    dmi.set_dmi_ptr(reinterpret_cast<unsigned char*>(it->first));
    dmi.allow_read_write();
    return true;
}

bool HostMemory::contains(uint64_t addr, uint64_t len) const {
    const Window* w = holding(addr, len);
    return w && !w->copy_engines_only;
}

bool HostMemory::overlaps(uint64_t addr, uint64_t len) const {
    if (!len) return false;
    auto it = m_windows.lower_bound(addr + len);   // the first window starting past the range
    if (it == m_windows.begin()) return false;
    --it;
    return it->first + it->second.size > addr;
}

bool HostMemory::access(tlm::tlm_generic_payload& p) {
    const uint64_t addr = p.get_address();
    const uint32_t len = p.get_data_length();
    if (p.get_byte_enable_ptr()) { p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE); return false; }
    // A timing request (no data: TLM_IGNORE_COMMAND) is priced wherever it goes; the functional
    // access that follows it is the one that faults outside the windows.
    if (p.get_command() == tlm::TLM_IGNORE_COMMAND) { p.set_response_status(tlm::TLM_OK_RESPONSE); return true; }
    const Window* w = holding(addr, len);
    if (!w || (w->copy_engines_only && !p.get_extension<CopyEngineAccess>())) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
    }
    void* host = reinterpret_cast<void*>(addr);
    if (p.is_read()) copy_bytes(p.get_data_ptr(), host, len);
    else if (p.is_write()) copy_bytes(host, p.get_data_ptr(), len);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

void HostMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) { access(p); }

unsigned HostMemory::transport_dbg(tlm::tlm_generic_payload& p) { return access(p) ? p.get_data_length() : 0; }

} // namespace gpusim
