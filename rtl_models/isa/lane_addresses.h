// The distinct addresses of a warp's active lanes, with how many lanes name each. Atomics are
// serialized by it: the operations of several lanes on one address are performed one after the
// other (CUDA documents this for a warp's atomics to one location).
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/exec_context.h"

namespace gpusim {

struct AddressUse {
    uint64_t addr;
    uint32_t lanes;
};

// Writes the distinct addresses in ascending order to `out` (room for a warp); returns how many.
inline uint32_t distinct_addresses(const uint64_t* addr, LaneMask mask, AddressUse* out) {
    uint64_t a[kWarpSize];
    uint32_t n = 0;
    for_lanes(mask, [&](int l) { a[n++] = addr[l]; });
    std::sort(a, a + n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (k && out[k - 1].addr == a[i]) ++out[k - 1].lanes;
        else out[k++] = {a[i], 1};
    }
    return k;
}

// The most lanes that name one address.
inline uint32_t deepest_address(const uint64_t* addr, LaneMask mask) {
    AddressUse use[kWarpSize];
    const uint32_t n = distinct_addresses(addr, mask, use);
    uint32_t deepest = 0;
    for (uint32_t k = 0; k < n; ++k) deepest = std::max(deepest, use[k].lanes);
    return deepest;
}

} // namespace gpusim
