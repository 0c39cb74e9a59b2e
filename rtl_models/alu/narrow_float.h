// Floats narrower than f32, done in integer and long double arithmetic so that every rounding mode
// is exact and nothing depends on host support: f16 (IEEE binary16), bf16 (f32's exponent, 7
// fraction bits), tf32 (f32's exponent, 10 fraction bits, kept in an f32 container), and the 8-bit
// floats e4m3 and e5m2 of sm_89 (OCP FP8: e5m2 is IEEE-like; e4m3 has no infinity, its largest
// exponent holds numbers up to 448, and only S.1111.111 is NaN).
#pragma once

#include <cmath>
#include <cstdint>

#include "alu/rounding.h"

namespace gpusim {

struct NarrowFormat {
    int exp_bits;
    int man_bits;
    bool has_inf;      // false: the all-ones exponent holds numbers, and only all ones is NaN (e4m3)
    uint32_t nan;      // the NaN the GPU writes (sign clear)
    int bias() const { return (1 << (exp_bits - 1)) - 1; }
    uint32_t sign_bit() const { return 1u << (exp_bits + man_bits); }
    uint32_t exp_mask() const { return ((1u << exp_bits) - 1) << man_bits; }
    uint32_t man_mask() const { return (1u << man_bits) - 1; }
    // The largest finite encoding (sign clear).
    uint32_t max_finite() const { return has_inf ? exp_mask() - (1u << man_bits) + man_mask() : exp_mask() | (man_mask() - 1); }
    uint32_t infinity() const { return exp_mask(); }
};

constexpr NarrowFormat kF16Format{5, 10, true, 0x7FFF};
constexpr NarrowFormat kBf16Format{8, 7, true, 0x7FFF};
constexpr NarrowFormat kTf32Format{8, 10, true, 0x3FFFF};
constexpr NarrowFormat kE4m3Format{4, 3, false, 0x7F};
constexpr NarrowFormat kE5m2Format{5, 2, true, 0x7F};

inline bool narrow_is_nan(uint32_t bits, const NarrowFormat& f) {
    const uint32_t mag = bits & (f.sign_bit() - 1);
    return f.has_inf ? (mag & f.exp_mask()) == f.exp_mask() && (mag & f.man_mask()) : mag == (f.exp_mask() | f.man_mask());
}

// The value of an encoding, exact in long double; NaN for a NaN.
inline long double narrow_value(uint32_t bits, const NarrowFormat& f) {
    const bool neg = bits & f.sign_bit();
    const int exp = int((bits & f.exp_mask()) >> f.man_bits);
    const uint32_t man = bits & f.man_mask();
    long double v;
    if (narrow_is_nan(bits, f)) return neg ? -NAN : NAN;
    if (f.has_inf && exp == (1 << f.exp_bits) - 1) v = INFINITY;
    else if (exp == 0) v = std::ldexp((long double)man, 1 - f.bias() - f.man_bits);
    else v = std::ldexp((long double)(man | (1u << f.man_bits)), exp - f.bias() - f.man_bits);
    return neg ? -v : v;
}

// Rounds x to format f with mode r (kRn, kRz, kRm, kRp, kRna). Without `satfinite` an overflow
// gives infinity where the mode rounds away from zero (and the format has one), else the largest
// finite value; e4m3 without an infinity overflows to NaN. With `satfinite` it gives the largest
// finite value, and infinity too. A NaN gives f.nan.
inline uint32_t round_to_narrow(long double x, uint8_t r, const NarrowFormat& f, bool satfinite = false) {
    if (std::isnan(x)) return f.nan;
    const uint32_t sign = std::signbit(x) ? f.sign_bit() : 0;
    const long double ax = std::fabs(x);
    if (std::isinf(ax)) return sign | (satfinite || !f.has_inf ? (satfinite ? f.max_finite() : f.nan) : f.infinity());
    if (ax == 0) return sign;
    int e;
    std::frexp(ax, &e);                                   // ax = m * 2^e, m in [0.5, 1)
    const int min_exp = 1 - f.bias();
    int q = (e - 1 < min_exp ? min_exp : e - 1) - f.man_bits;  // exponent of one unit in the last place
    const long double scaled = std::ldexp(ax, -q);
    const long double n = std::floor(scaled), frac = scaled - n;
    bool up;
    switch (r) {
    case kRz: up = false; break;
    case kRm: up = sign && frac > 0; break;
    case kRp: up = !sign && frac > 0; break;
    case kRna: up = frac >= 0.5L; break;
    default: up = frac > 0.5L || (frac == 0.5L && std::fmod(n, 2.0L) != 0); break;
    }
    uint64_t mant = uint64_t(n) + (up ? 1 : 0);
    const uint64_t hidden = uint64_t(1) << f.man_bits;
    if (mant == 2 * hidden) { mant = hidden; ++q; }
    if (mant < hidden) return sign | uint32_t(mant);     // subnormal
    const uint32_t enc = uint32_t(q + f.man_bits + f.bias()) << f.man_bits | uint32_t(mant - hidden);
    const bool overflow = (q + f.man_bits + f.bias()) >= (1 << f.exp_bits) || enc > f.max_finite();
    if (overflow) {
        const bool away = r == kRn || r == kRna || (r == kRp && !sign) || (r == kRm && sign);
        if (satfinite || !away) return sign | f.max_finite();
        return sign | (f.has_inf ? f.infinity() : f.nan);
    }
    return sign | enc;
}

// a + b rounded to odd in long double (the exact sum when it fits): a correct basis for rounding
// once more to any format at least two bits narrower, as a fused operation does. Exact sums
// wider than long double arise in bf16, whose exponent range is f32's.
inline long double add_round_odd(long double a, long double b) {
    const long double s = a + b;
    if (!std::isfinite(s)) return s;
    const long double bb = s - a, err = (a - (s - bb)) + (b - bb);  // s + err == a + b exactly
    if (err == 0) return s;
    int e;
    const long double m = std::frexp(s, &e);
    const long double ulp_units = std::ldexp(m, 64);               // the significand as an integer
    if (std::fmod(ulp_units, 2.0L) != 0) return s;
    return std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
}

} // namespace gpusim
