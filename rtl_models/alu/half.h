// IEEE binary16 conversions done in integer arithmetic, so every rounding mode is exact and does
// not depend on host support for half precision.
#pragma once

#include <cmath>
#include <cstdint>

#include "alu/rounding.h"

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
    if (std::isnan(x)) return kCanonicalNanF16;
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    long double ax = std::fabs(x);
    if (std::isinf(ax)) return uint16_t(sign | (satfinite ? 0x7BFF : 0x7C00));
    if (ax == 0) return sign;
    int e;
    std::frexp(ax, &e);                       // ax = m * 2^e, m in [0.5, 1)
    int q = (e - 1 < -14 ? -14 : e - 1) - 10;  // exponent of one unit in the last place
    long double scaled = std::ldexp(ax, -q);
    long double n = std::floor(scaled), frac = scaled - n;
    bool up;
    switch (r) {
    case kRz: up = false; break;
    case kRm: up = sign && frac > 0; break;
    case kRp: up = !sign && frac > 0; break;
    default: up = frac > 0.5L || (frac == 0.5L && std::fmod(n, 2.0L) != 0); break;
    }
    uint32_t mant = uint32_t(n) + (up ? 1 : 0);
    if (mant == 2048) { mant = 1024; ++q; }
    bool overflow = q > 5 || (q == 5 && mant > 2047);
    if (overflow) {
        bool to_inf = !satfinite && (r == kRn || (r == kRp && !sign) || (r == kRm && sign));
        return sign | (to_inf ? 0x7C00 : 0x7BFF);
    }
    if (mant < 1024) return uint16_t(sign | mant);  // subnormal (q == -24)
    return uint16_t(sign | uint32_t(q + 25) << 10 | (mant - 1024));
}

} // namespace gpusim
