// The chip's side of CUDA's device runtime: the heap that device-side malloc and free use, and
// the buffer that device-side printf (and a failed assert's message) write into until the host
// prints it at its next synchronization.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "memory/memory_target.h"
#include "isa/device_services.h"

namespace gpusim {

class DeviceRuntime : public DeviceServices {
public:
    DeviceRuntime(MemoryTarget& dram, uint64_t heap_bytes) : m_dram(dram), m_heap_bytes(heap_bytes) {}

    uint64_t heap_alloc(uint64_t bytes) override;
    bool heap_free(uint64_t addr) override;
    void print(const std::string& text, bool to_stderr) override;

    uint64_t heap_size() const { return m_heap_bytes; }
    bool heap_in_use() const { return !m_used.empty(); }
    void set_heap_size(uint64_t bytes);   // only while nothing is allocated
    // The printed text since the last call, in order, each piece with whether it goes to stderr.
    std::vector<std::pair<bool, std::string>> take_output();

private:
    static constexpr uint64_t kAlign = 16;
    MemoryTarget& m_dram;
    uint64_t m_heap_bytes;
    bool m_mapped = false;
    std::map<uint64_t, uint64_t> m_used;   // address -> bytes
    std::vector<std::pair<bool, std::string>> m_output;
};

} // namespace gpusim
