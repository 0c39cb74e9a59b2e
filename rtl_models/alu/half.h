// IEEE binary16 conversions done in integer arithmetic, so every rounding mode is exact and does
// not depend on host support for half precision.
#pragma once

#include <cmath>
#include <cstdint>

#include "alu/narrow_float.h"

namespace gpusim {

constexpr uint16_t kCanonicalNanF16 = 0x7FFF;

inline double half_to_double(uint16_t h) { return double(narrow_value(h, kF16Format)); }

// Rounds x (exact as long double) to binary16 with mode r; with `satfinite` an overflow gives the
// largest finite value instead of infinity.
inline uint16_t double_to_half(long double x, uint8_t r, bool satfinite = false) {
    return uint16_t(round_to_narrow(x, r, kF16Format, satfinite));
}

} // namespace gpusim
