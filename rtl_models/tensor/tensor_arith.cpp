#include "tensor/tensor_arith.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "alu/float_common.h"
#include "alu/narrow_float.h"

namespace gpusim::tensor {
namespace {

// Alignment of the H100's block sum (golden mma): 25 bits below the largest exponent, never
// below 2^-133.
constexpr int kAlignBits = 25;
constexpr int kExponentFloor = -133;

struct Format {
    int exp_bits, frac_bits;
    bool has_inf;
};

Format format_of(Elem e) {
    switch (e) {
    case Elem::F16: return {5, 10, true};
    case Elem::BF16: return {8, 7, true};
    case Elem::TF32: return {8, 23, true};   // its low 13 bits are ignored (masked by the caller)
    case Elem::E4M3: return {4, 3, false};
    case Elem::E5M2: return {5, 2, true};
    default: return {8, 23, true};
    }
}

// A finite value sig * 2^(exp - frac) with sig < 2^(frac+1) (or a product of two such), its
// exponent as the hardware aligns it (subnormals at the minimum exponent).
struct Term {
    bool negative = false;
    uint64_t sig = 0;
    int exp = 0;       // unbiased exponent of the leading position
    int frac = 0;      // fraction bits of sig
};

enum class Kind : uint8_t { Finite, Inf, NaN };

Kind decode(uint32_t bits, Elem e, Term& t) {
    const Format f = format_of(e);
    if (e == Elem::TF32) bits &= 0xFFFFE000u;
    const int total = f.exp_bits + f.frac_bits;
    t.negative = (bits >> total) & 1;
    const uint32_t ef = (bits >> f.frac_bits) & ((1u << f.exp_bits) - 1);
    const uint32_t m = bits & ((1u << f.frac_bits) - 1);
    const int bias = (1 << (f.exp_bits - 1)) - 1;
    const int frac = e == Elem::TF32 ? 23 : f.frac_bits;
    if (e == Elem::E4M3 && (bits & 0x7F) == 0x7F) return Kind::NaN;
    if (f.has_inf && ef == (1u << f.exp_bits) - 1) return m ? Kind::NaN : Kind::Inf;
    t.frac = frac;
    t.exp = (ef == 0 ? 1 : int(ef)) - bias;
    t.sig = ef == 0 ? m : (m | (1u << f.frac_bits));
    return Kind::Finite;
}

// The magnitude in units of 2^lsb, truncated toward zero.
int64_t on_grid(const Term& t, int lsb) {
    const int shift = t.exp - t.frac - lsb;
    if (shift >= 0) return int64_t(t.sig << shift);
    if (shift <= -64) return 0;
    return int64_t(t.sig >> -shift);
}

// sum * 2^lsb rounded toward zero to f32 (the H100's f32 results of a block).
uint32_t to_f32_rz(int64_t sum, int lsb) {
    if (sum == 0) return 0;
    const uint32_t sign = sum < 0 ? 0x80000000u : 0;
    uint64_t mag = uint64_t(sum < 0 ? -sum : sum);
    const int len = 64 - __builtin_clzll(mag);
    int exp = lsb + len - 1;                        // of the leading bit
    int keep = 24;
    if (exp < -126) keep -= -126 - exp;             // subnormal: fewer bits
    if (keep <= 0) return sign;
    const int drop = len - keep;
    uint64_t m = drop > 0 ? mag >> drop : mag << -drop;
    if (exp > 127) return sign | 0x7F7FFFFFu;       // toward zero: the largest finite value
    if (exp < -126) return sign | uint32_t(m);      // subnormal
    return sign | (uint32_t(exp + 127) << 23) | (uint32_t(m) & 0x7FFFFFu);
}

// sum * 2^lsb rounded to nearest even to f16.
uint32_t to_f16_rn(int64_t sum, int lsb) {
    if (sum == 0) return 0;
    const uint32_t sign = sum < 0 ? 0x8000u : 0;
    uint64_t mag = uint64_t(sum < 0 ? -sum : sum);
    const int len = 64 - __builtin_clzll(mag);
    int exp = lsb + len - 1;
    int keep = 11;
    if (exp < -14) keep -= -14 - exp;
    const int drop = len - keep;
    uint64_t m;
    if (drop <= 0) {
        m = mag << -drop;
    } else if (drop > 63) {
        m = 0;
    } else {
        m = mag >> drop;
        const uint64_t rest = mag & ((uint64_t(1) << drop) - 1), half = uint64_t(1) << (drop - 1);
        if (rest > half || (rest == half && (m & 1))) ++m;
    }
    if (exp < -14) exp = -14;
    if (m >> 11) { m >>= 1; ++exp; }                // rounding carried into a new bit
    if (m < (1u << 10)) return sign | uint32_t(m);  // subnormal (or rounded up into the normals below)
    if (exp > 15) return sign | 0x7C00u;
    return sign | (uint32_t(exp + 15) << 10) | (uint32_t(m) & 0x3FFu);
}

} // namespace

int elem_bits(Elem e) {
    switch (e) {
    case Elem::F16: case Elem::BF16: return 16;
    case Elem::E4M3: case Elem::E5M2: case Elem::S8: case Elem::U8: return 8;
    case Elem::S4: case Elem::U4: return 4;
    case Elem::B1: return 1;
    case Elem::F64: return 64;
    default: return 32;
    }
}

bool is_float(Elem e) {
    return e == Elem::F16 || e == Elem::BF16 || e == Elem::TF32 || e == Elem::E4M3 || e == Elem::E5M2 ||
           e == Elem::F32 || e == Elem::F64;
}

uint32_t dot_float(Elem in, Elem acc, const uint32_t* a, const uint32_t* b, int k, uint32_t c, int block) {
    // Blocks chain: each one's rounded result is the next one's addend.
    if (block > 0 && block < k) {
        for (int first = 0; first < k; first += block) c = dot_float(in, acc, a + first, b + first, std::min(block, k - first), c, 0);
        return c;
    }
    const bool half_out = acc == Elem::F16;
    const uint32_t nan = half_out ? 0x7FFFu : kCanonicalNanF32;
    Term terms[65];
    int n = 0;
    bool any_nan = false, pos_inf = false, neg_inf = false, negative_zeros = true;
    for (int i = 0; i < k; ++i) {
        Term x, y;
        const Kind kx = decode(a[i], in, x), ky = decode(b[i], in, y);
        if (kx == Kind::NaN || ky == Kind::NaN) { any_nan = true; continue; }
        if (kx == Kind::Inf || ky == Kind::Inf) {
            if ((kx == Kind::Finite && x.sig == 0) || (ky == Kind::Finite && y.sig == 0)) any_nan = true;
            else (x.negative != y.negative ? neg_inf : pos_inf) = true;
            continue;
        }
        if (x.sig == 0 || y.sig == 0) {
            negative_zeros &= x.negative != y.negative;
            continue;
        }
        terms[n++] = {x.negative != y.negative, x.sig * y.sig, x.exp + y.exp, x.frac + y.frac};
    }
    Term ct;
    const Kind kc = decode(c, half_out ? Elem::F16 : Elem::F32, ct);
    if (kc == Kind::NaN) any_nan = true;
    else if (kc == Kind::Inf) (ct.negative ? neg_inf : pos_inf) = true;
    else if (ct.sig != 0) terms[n++] = ct;
    if (any_nan || (pos_inf && neg_inf)) return nan;
    if (pos_inf || neg_inf) return half_out ? (neg_inf ? 0xFC00u : 0x7C00u) : (neg_inf ? 0xFF800000u : 0x7F800000u);
    if (n == 0)   // a sum of zeros: -0 only when every one is -0, as in IEEE addition
        return negative_zeros && ct.negative ? (half_out ? 0x8000u : 0x80000000u) : 0;
    int eta = kExponentFloor;
    for (int i = 0; i < n; ++i) eta = std::max(eta, terms[i].exp);
    const int lsb = eta - kAlignBits;
    int64_t sum = 0;
    for (int i = 0; i < n; ++i) {
        const int64_t v = on_grid(terms[i], lsb);
        sum += terms[i].negative ? -v : v;
    }
    return half_out ? to_f16_rn(sum, lsb) : to_f32_rz(sum, lsb);
}

uint32_t dot_fp8(Elem ea, Elem eb, Elem acc, const uint32_t* a, const uint32_t* b, int k, uint32_t c) {
    // Each fp8 element as the f16 it converts to exactly (F2FP.F16.E4M3.UNPACK_B).
    auto to_f16 = [](Elem e, uint32_t v) {
        const long double x = narrow_value(v, e == Elem::E4M3 ? kE4m3Format : kE5m2Format);
        return round_to_narrow(x, kRn, kF16Format);
    };
    uint32_t lo_a[32], lo_b[32], hi_a[32], hi_b[32];
    int nlo = 0, nhi = 0;
    for (int i = 0; i < k; ++i) {
        const bool low = i % 4 < 2;   // the first HMMA takes the lower half of each 4-byte group
        (low ? lo_a : hi_a)[low ? nlo : nhi] = to_f16(ea, a[i]);
        (low ? lo_b : hi_b)[low ? nlo++ : nhi++] = to_f16(eb, b[i]);
    }
    const uint32_t first = dot_float(Elem::F16, acc, lo_a, lo_b, nlo, 0);
    const uint32_t second = dot_float(Elem::F16, acc, hi_a, hi_b, nhi, first);
    // C joins last, in an IEEE add rounded to nearest (FADD or HADD).
    if (acc == Elem::F16) {
        const long double sum = narrow_value(second, kF16Format) + narrow_value(c, kF16Format);
        return round_to_narrow(sum, kRn, kF16Format);
    }
    const float sum = get<float>(second) + get<float>(c);
    return std::isnan(sum) ? kCanonicalNanF32 : uint32_t(put<float>(sum));
}

uint64_t dot_f64(const uint64_t* a, const uint64_t* b, int k, uint64_t c) {
    double acc = get<double>(c);
    for (int i = 0; i < k; ++i) {
        const double x = get<double>(a[i]), y = get<double>(b[i]);
        double r;
        if (!propagate_nan(r, x, acc, y)) r = std::fma(x, y, acc);
        acc = r;
    }
    return put<double>(acc);
}

uint32_t dot_int(Elem ia, Elem ib, const uint32_t* a, const uint32_t* b, int k, uint32_t c, bool satfinite) {
    auto value = [](Elem e, uint32_t v) -> int64_t {
        switch (e) {
        case Elem::S8: return int8_t(v);
        case Elem::U8: return uint8_t(v);
        case Elem::S4: return int64_t(int32_t(v << 28) >> 28);
        default: return v & 15;
        }
    };
    int64_t sum = int32_t(c);
    for (int i = 0; i < k; ++i) sum += value(ia, a[i]) * value(ib, b[i]);
    if (satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
    return uint32_t(sum);
}

uint32_t dot_b1(const uint32_t* a, const uint32_t* b, int words, uint32_t c, bool xor_op) {
    uint32_t sum = c;
    for (int i = 0; i < words; ++i) sum += uint32_t(__builtin_popcount(xor_op ? a[i] ^ b[i] : a[i] & b[i]));
    return sum;
}

} // namespace gpusim::tensor
