// Lane addresses for the timing units' testbenches.
#pragma once

#include <array>
#include <cstdint>

namespace gpusim::test {

// Addresses base + lane * stride.
inline std::array<uint64_t, 32> strided(uint64_t stride, uint64_t base = 0) {
    std::array<uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = base + uint64_t(l) * stride;
    return a;
}

} // namespace gpusim::test
