// Flat test memory for unit tests that run SmCore without a simulation: 64 KiB at address 0x1000,
// reached through DMI as the SM's socket would give it.
#pragma once

#include <cstring>
#include <vector>

#include "isa/memory_view.h"

namespace gpusim::test {

class TestMemory : public MemoryBackend {
public:
    static constexpr uint64_t kBase = 0x1000;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(1 << 16, 0);

    bool get_dmi(uint64_t addr, bool, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) override {
        if (addr < kBase || addr >= kBase + bytes.size()) return false;
        start = kBase;
        end = kBase + bytes.size() - 1;
        ptr = bytes.data();
        writable = true;
        return true;
    }
    bool transport(bool, uint64_t, uint8_t*, uint32_t) override { return false; }
    uint32_t u32(size_t i) const { uint32_t v; std::memcpy(&v, &bytes[4 * i], 4); return v; }
};

} // namespace gpusim::test
