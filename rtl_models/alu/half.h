// IEEE binary16 conversions done in integer arithmetic, so every rounding mode is exact and does
// not depend on host support for half precision.
#pragma once

#include <cmath>
#include <cstdint>

#include "alu/narrow_float.h"

namespace gpusim {

constexpr uint16_t kCanonicalNanF16 = 0x7FFF;

inline double half_to_double(uint16_t h) {
    int sign = h >> 15, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    double v;
    if (exp == 0x1F) v = man ? NAN : INFINITY;
    else if (exp == 0) v = std::ldexp(double(man), -24);
    else v = std::ldexp(double(man | 0x400), exp - 25);
    return sign ? -v : v;
}

// Rounds x (exact as long double) to binary16 with mode r; with `satfinite` an overflow gives the
// largest finite value instead of infinity.
inline uint16_t double_to_half(long double x, uint8_t r, bool satfinite = false) {
    return uint16_t(round_to_narrow(x, r, kF16Format, satfinite));
}

} // namespace gpusim
