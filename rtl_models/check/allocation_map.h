// What the program allocated, byte for byte: every range the SMs may reach (cudaMalloc, managed
// and mapped host memory, module variables), with the size asked for, the pages mapped for it and
// a name for reports. Faults name the nearest allocation from it, and --memcheck (sim.memcheck)
// checks each global access against the exact bounds of the allocation whose pages it lands in.
#pragma once

#include <atomic>

#include <cstdint>
#include <map>
#include <string>

namespace gpusim {

struct AccessFault;
template <class T>
class ConfigSection;

// What the checks do (docs/checks.md): filled from sim.memcheck, sim.racecheck and
// sim.racecheck_shadow_mib (check_keys.cpp).
struct CheckConfig {
    bool memcheck = false;                  // global accesses checked against exact allocation bounds
    bool racecheck = false;                 // shared and global races reported
    uint64_t racecheck_shadow_mib = 4096;   // host memory for the global shadow
};
void declare_keys(ConfigSection<CheckConfig>& s);

class AllocationMap {
public:
    struct Allocation {
        uint64_t base = 0;
        uint64_t bytes = 0;        // what was asked for
        uint64_t mapped = 0;       // what the pages cover (>= bytes)
        std::string origin;        // "cudaMalloc #3", "variable 'x' of k.ptx"
        std::string name;          // a manifest buffer's name, if it has one
    };

    void add(uint64_t base, uint64_t bytes, uint64_t mapped, std::string origin);
    void remove(uint64_t base);
    void clear() {
        m_by_base.clear();
        m_heap_ranges.clear();
        m_last = nullptr;
    }
    void name(uint64_t base, const std::string& name);
    const Allocation* find(uint64_t base) const;

    // "buffer 'J' (16 MiB, cudaMalloc #3)".
    static std::string describe(const Allocation& a);
    // Where `addr` lies relative to the nearest allocation: "1024 bytes before buffer 'J' (...)",
    // "at offset 8 of ...", "4 bytes past the end of ..."; empty when nothing is allocated.
    std::string locate(uint64_t addr) const;

    // Device memory the heap maps around its allocations (the driver's layout,
    // sw/runtime/device_heap.h): an access there that lies in no allocation is out of bounds.
    void add_heap_range(uint64_t base, uint64_t bytes) { m_heap_ranges[base] = bytes; }
    void remove_heap_range(uint64_t base) { m_heap_ranges.erase(base); }

    // --memcheck: throws AccessFault when [addr, addr + size) lies in the pages of an allocation
    // but reaches past the bytes it asked for, or lies in a heap range outside every allocation.
    // Other addresses in no allocation's pages are left to the memory system, which faults on
    // unmapped ones.
    void check(uint64_t addr, uint32_t size, bool write) const {
        const Allocation* a = m_last.load(std::memory_order_relaxed);
        if (!a || addr < a->base || addr >= a->base + a->mapped) a = containing(addr);
        if (!a) {
            if (!m_heap_ranges.empty() && in_heap_range(addr)) out_of_bounds(addr, size, write);
            return;
        }
        m_last.store(a, std::memory_order_relaxed);
        if (addr + size > a->base + a->bytes) out_of_bounds(addr, size, write);
    }

private:
    std::map<uint64_t, Allocation> m_by_base;
    std::map<uint64_t, uint64_t> m_heap_ranges;   // base -> bytes
    bool in_heap_range(uint64_t addr) const;
    // The allocation the last check found (SMs on host threads share it; any value is a valid guess).
    mutable std::atomic<const Allocation*> m_last{nullptr};

    const Allocation* containing(uint64_t addr) const;
    [[noreturn]] static void out_of_bounds(uint64_t addr, uint32_t size, bool write);
};

} // namespace gpusim
