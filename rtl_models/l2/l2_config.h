// The parameters of the chip's L2 and its atomic unit, filled from the GPU config file.
#pragma once

#include <cstdint>

#include "cache/tag_cache.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct L2Config {
    CacheConfig cache;                 // per chip (bytes 0: none; requests pass on to device memory)
    uint32_t atomic_cycles = 0;        // per atomic operation on one address (0: not serialized)
    uint32_t window_cycles = 64;       // sim.dram_window_cycles: the atomic unit's accounting window
    double cycle_ns = 1.0;             // the chip cycle, for the TLM delays (derived at load)
};

// The keys l2.* (l2_keys.cpp).
void declare_keys(ConfigSection<L2Config>& s);

} // namespace gpusim
