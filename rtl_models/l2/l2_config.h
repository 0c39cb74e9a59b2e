// The parameters of the chip's L2 and its atomic unit, filled from the GPU config file.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cache/tag_cache.h"

namespace gpusim {

template <class T>
class ConfigSection;

// How addresses spread over the L2's slices: `bytes` consecutive bytes to a slice, in turn. The
// slices' ports and their atomic units share it.
struct SliceMap {
    uint32_t slices = 0, bytes = 1;
    uint32_t of(uint64_t addr) const { return uint32_t(addr / bytes % slices); }
};

struct L2Config {
    CacheConfig cache;                 // per chip (bytes 0: none; requests pass on to device memory)
    uint32_t atomic_cycles = 0;        // per atomic operation on one address (0: not serialized)
    // The L2's slices (0: not modelled, atomics per address). A slice's atomic unit serves one
    // request (a warp's lanes on one sector) at a time, for atomic_cycles per lane on its busiest
    // word; its ports move slice_read_bytes and slice_write_bytes a cycle (0: not limited).
    uint32_t slices = 0;
    uint32_t slice_bytes = 256;        // consecutive bytes on one slice
    double slice_read_bytes = 0;
    double slice_write_bytes = 0;
    // Stores stay in the L2 as dirty lines, which reach device memory when evicted (false: each
    // store is posted to device memory at once).
    bool write_back = false;
    uint32_t atomic_latency = 0;       // cycles an atomic adds to a read's trip (the read-modify-write at the slice)
    // Managed memory's page faults (derived at load from memory.managed_fault_ns and _page_ns):
    // each faulting access waits for the fault unit, its page's service, then the fault latency.
    uint64_t fault_latency_cycles = 0;
    uint64_t fault_page_cycles = 0;
    uint32_t window_cycles = 64;       // sim.dram_window_cycles: the atomic unit's and the slices' accounting window
    uint64_t quantum_cycles = 10000;   // sim.quantum_cycles: how far apart in time requests may arrive
    double cycle_ns = 1.0;             // the chip cycle, for the TLM delays (derived at load)

    SliceMap slice_map() const { return {slices, std::max(slice_bytes, 1u)}; }
};

// The keys l2.* (l2_keys.cpp).
void declare_keys(ConfigSection<L2Config>& s);

} // namespace gpusim
