#include "gpu/device_runtime.h"

#include "memory/memory_lock.h"
#include "protocol/memory_map.h"

namespace gpusim {

// First fit over the gaps between live allocations, in address order.
uint64_t DeviceRuntime::heap_alloc(uint64_t bytes) {
    const uint64_t size = (std::max<uint64_t>(bytes, 1) + kAlign - 1) / kAlign * kAlign;
    if (!m_mapped && m_heap_bytes) {
        // Timing mode's turns may run while other SMs, apart, ask for regions of the same map.
        std::lock_guard<std::mutex> lock(memory_map_lock());
        m_dram.map(memory_map::kDeviceHeapBase, m_heap_bytes);
        m_mapped = true;
    }
    uint64_t at = memory_map::kDeviceHeapBase;
    for (const auto& [addr, used] : m_used) {
        if (addr - at >= size) break;
        at = addr + used;
    }
    if (at + size > memory_map::kDeviceHeapBase + m_heap_bytes) return 0;
    m_used[at] = size;
    return at;
}

bool DeviceRuntime::heap_free(uint64_t addr) { return m_used.erase(addr) == 1; }

void DeviceRuntime::print(const std::string& text, bool to_stderr) {
    if (!m_output.empty() && m_output.back().first == to_stderr) m_output.back().second += text;
    else m_output.emplace_back(to_stderr, text);
}

void DeviceRuntime::set_heap_size(uint64_t bytes) {
    if (m_mapped) m_dram.unmap(memory_map::kDeviceHeapBase, m_heap_bytes);
    m_mapped = false;
    m_heap_bytes = bytes;
}

std::vector<std::pair<bool, std::string>> DeviceRuntime::take_output() {
    std::vector<std::pair<bool, std::string>> out;
    out.swap(m_output);
    return out;
}

} // namespace gpusim
