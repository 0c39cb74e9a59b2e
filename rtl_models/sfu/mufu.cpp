#include "sfu/mufu.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "sfu/fp32_bits.h"
#include "sfu/interpolator.h"
#include "sfu/mufu_coefficients.h"
#include "sfu/mufu_table_fits.h"
#include "sfu/sfu_tables.h"

namespace gpusim::mufu {
namespace {

constexpr uint32_t kSign = 0x80000000u, kInf = 0x7F800000u, kNan = 0x7FFFFFFFu, kMant = 0x7FFFFFu;

using sfu::as_bits;
using sfu::as_float;

int biased_exp(uint32_t x) { return int((x >> 23) & 0xFF); }

// Moves a positive normal table entry, given as its biased exponent and mantissa, by `shift`
// binades; results below the normal range flush to zero and those above it are infinite, as
// MUFU's output does. (No branches: the warp functions' loops vectorise it.)
inline uint32_t rescaled(int32_t bexp, uint32_t mant, int32_t shift) {
    const int32_t e = bexp + shift;
    return e <= 0 ? 0 : e >= 255 ? kInf : uint32_t(e) << 23 | mant;
}
uint32_t rescale(uint32_t entry, int32_t shift) { return rescaled(biased_exp(entry), entry & kMant, shift); }

// rsqrt and sqrt look up the mantissa together with the exponent's parity, in [1, 4), and the
// rest of the exponent, halved, scales the result.
uint32_t root_index(uint32_t x) { return (x & kMant) | uint32_t((biased_exp(x) - 127) & 1) << 23; }
int32_t root_half(uint32_t x) {
    const int32_t ue = biased_exp(x) - 127;
    return (ue - (ue & 1)) / 2;
}

// MUFU.LG2's fixed-point result is truncated to fp32.
uint32_t to_f32_rz(double v) { return as_bits(sfu::to_f32_toward_zero(v)); }

// tanh scales its sum differently: the whole truncated square.
int64_t truncated_square(uint32_t d) { return int64_t(square19_of(d)) << 19; }

// Where entry i of a fitted table lies: its segment and its offset there, as a 17-bit offset for
// the squarer too. (A template: each table's layout and place in kTableFits are constants.)
struct Place {
    const TableSegment* segment;
    uint32_t d, d17;
};
template <SfuTable T>
Place place_of(uint32_t i) {
    constexpr FitLayout kLayout = fit_layout(T);
    static_assert(kLayout.offset_bits != 0, "a fitted table");
    const uint32_t j = kLayout.complement ? ~i & kMant : i;
    const uint32_t d = j & ((1u << kLayout.offset_bits) - 1);
    return {&kTableFits[kFitStart[size_t(T)] + (j >> kLayout.offset_bits)], d, d << (17 - kLayout.offset_bits)};
}

// The truncation through a double in the warp functions needs every fitted sum positive and below
// 2^52, at every offset of its segment; so does the bit scan of truncate_to_f32.
constexpr bool sums_in_range() {
    constexpr int64_t kMaxSquare = int64_t(1) << 15;   // fsq(d) >> 19 for d < 2^17
    for (const TableSegment& s : kTableFits) {
        if (s.exp == kNotFitted) continue;
        const int64_t c1 = s.c1 < 0 ? -int64_t(s.c1) : s.c1, c2 = s.c2 < 0 ? -int64_t(s.c2) : s.c2;
        const int64_t spread = (c1 << 17) + c2 * kMaxSquare;
        if (s.k - spread <= 0 || s.k + spread >= (int64_t(1) << 52)) return false;
    }
    return true;
}
static_assert(sums_in_range(), "a fitted segment's sum leaves (0, 2^52)");

// rcp_warp, root_warp and ex2_warp leave out LaneFits' signs: their tables' entries are positive.
constexpr bool positive(SfuTable t) {
    for (uint32_t s = 0; s < fit_layout(t).segments; ++s)
        if (kTableFits[kFitStart[size_t(t)] + s].sign) return false;
    return true;
}
static_assert(positive(SfuTable::Rcp) && positive(SfuTable::Rsqrt) && positive(SfuTable::Sqrt) && positive(SfuTable::Ex2Pos) &&
              positive(SfuTable::Ex2Neg), "the warp functions' tables hold positive entries");

// Entry i of a table the interpolator was fitted to: evaluated, or, in the few segments that it
// does not reproduce, read from the table (unpacked on first use).
template <SfuTable T>
uint32_t table_entry(uint32_t i) {
    const Place p = place_of<T>(i);
    if (p.segment->exp == kNotFitted) return sfu_table(T)[i];
    return evaluate(*p.segment, p.d, square19_of(p.d17));
}

// The truncation of interpolator.h without a branch or a bit scan: an acc below 2^52 converts to
// a double exactly, whose exponent is the top bit's place and whose fraction's high 23 bits are
// the truncated mantissa. Returns the biased exponent of acc * 2^exp; *mant gets the mantissa.
inline int32_t truncate_parts(int64_t acc, int32_t exp, uint32_t* mant) {
    double wide;
    uint64_t bits = uint64_t(acc) | 0x4330000000000000ull;
    std::memcpy(&wide, &bits, 8);
    wide -= 0x1p52;
    std::memcpy(&bits, &wide, 8);
    *mant = uint32_t(bits >> 29) & kMant;
    return int32_t(bits >> 52) - 1023 + exp + 127;
}

// sin(2*pi*u/2^25) for u in the first quarter period [0, 2^23).
uint32_t sin_quarter(uint32_t u) {
    const SinSegment& s = kSinSegments[u >> 17];
    const uint32_t d = u & 0x1FFFF;
    return truncate_to_f32(s.k + int64_t(s.c1) * d + int64_t(s.c2) * square19_of(d), -37);
}

// The phase is |r| modulo 1 in 25-bit fixed point, truncated; the quarter table is read forwards in
// even quadrants and backwards (the ones' complement of the offset) in odd ones, and the result
// negated in the second half. Without a branch, so that the warp's loop vectorises it too.
struct SinPhase {
    uint32_t offset;   // into the first quarter period
    uint32_t sign;
};
template <bool Cosine>
inline SinPhase sin_phase(uint32_t r) {
    constexpr uint32_t kQuarter = 1u << 23;
    const double a = std::fabs(double(as_float(r)));
    const double whole = a < 0x1p52 ? a : 0.0;   // from 2^52 up (and for inf and NaN) the phase is 0
    uint32_t q = uint32_t(int32_t((whole - std::trunc(whole)) * 0x1p25));   // exact: a is a float; below 2^25
    if (Cosine) q = (q + kQuarter) & (4 * kQuarter - 1);
    const uint32_t quadrant = q >> 23;
    return {(q & (kQuarter - 1)) ^ ((0u - (quadrant & 1)) & (kQuarter - 1)), ((Cosine ? 0 : r >> 31) ^ (quadrant >> 1)) << 31};
}

template <bool Cosine>
uint32_t sin_cos(uint32_t r) {
    if (biased_exp(r) == 255) return kNan;
    const SinPhase p = sin_phase<Cosine>(r);
    return p.sign | sin_quarter(p.offset);
}

// Where each binade's segments start in kTanhSegments.
constexpr std::array<uint8_t, 12> tanh_first_segments() {
    std::array<uint8_t, 12> first{};
    for (int b = 0; b < 11; ++b) first[b + 1] = uint8_t(first[b] + (1 << kTanhSegmentBits[b]));
    return first;
}
constexpr std::array<uint8_t, 12> kTanhFirstSegment = tanh_first_segments();
static_assert(kTanhFirstSegment[11] == sizeof(kTanhSegments) / sizeof(kTanhSegments[0]), "one segment per entry");

constexpr bool tanh_segments_in_order() {
    for (int b = 0; b < 11; ++b)
        for (int k = 0; k < (1 << kTanhSegmentBits[b]); ++k) {
            const TanhSegment& s = kTanhSegments[kTanhFirstSegment[b] + k];
            if (s.binade != b - 8 || s.index != k) return false;
        }
    return true;
}
static_assert(tanh_segments_in_order(), "kTanhSegments is ordered by binade, then segment");

} // namespace

uint32_t rcp(uint32_t x) {
    const uint32_t s = x & kSign;
    const int e = biased_exp(x);
    if (e == 0) return s | kInf;
    if (e == 255) return (x & kMant) ? kNan : s;
    return s | rescale(table_entry<SfuTable::Rcp>(x & kMant), 127 - e);
}

uint32_t rsqrt(uint32_t x) {
    const int e = biased_exp(x);
    if (e == 0) return (x & kSign) | kInf;
    if ((x & kSign) || (e == 255 && (x & kMant))) return kNan;
    if (e == 255) return 0;
    return rescale(table_entry<SfuTable::Rsqrt>(root_index(x)), -root_half(x));
}

uint32_t sqrt(uint32_t x) {
    const int e = biased_exp(x);
    if (e == 0) return x & kSign;
    if ((x & kSign) || (e == 255 && (x & kMant))) return kNan;
    if (e == 255) return kInf;
    return rescale(table_entry<SfuTable::Sqrt>(root_index(x)), root_half(x));
}

// The argument becomes a sign and a fixed-point magnitude with 23 fraction bits (truncated): the
// fraction indexes the table of its sign and the integer part scales the result.
namespace {
int64_t ex2_fixed(uint32_t x) {
    const double mag = biased_exp(x) == 0 ? 0.0 : std::fabs(double(as_float(x)));
    return int64_t((mag < 1024.0 ? mag : 1024.0) * 0x1p23);  // truncation: mag is not negative (NaN: 1024)
}
} // namespace

uint32_t ex2(uint32_t x) {
    if (biased_exp(x) == 255 && (x & kMant)) return kNan;
    const int64_t fixed = ex2_fixed(x);
    const int32_t whole = int32_t(fixed >> 23);   // at most 1024
    const uint32_t frac = uint32_t(fixed) & kMant;
    if (x & kSign) return rescale(table_entry<SfuTable::Ex2Neg>(frac), 1 - whole);
    return rescale(table_entry<SfuTable::Ex2Pos>(frac), whole - 1);
}

// The unit adds the exponent to a fixed-point log2 of the mantissa and truncates the sum to fp32.
// The tables for exponents 0, -1 and -2 hold every result there; other exponents reuse them,
// since truncating to a coarser grid after a finer one changes nothing (docs/sfu.md).
uint32_t lg2(uint32_t x) {
    const int e = biased_exp(x);
    if (e == 0) return kSign | kInf;
    if ((x & kSign) || (e == 255 && (x & kMant))) return kNan;
    if (e == 255) return kInf;
    const int ue = e - 127;
    const uint32_t m = x & kMant;
    if (ue == 0) return table_entry<SfuTable::Lg2E0>(m);
    if (ue == -1) return table_entry<SfuTable::Lg2Em1>(m);
    if (ue >= 1) return to_f32_rz(ue + double(as_float(table_entry<SfuTable::Lg2E0>(m))));
    return to_f32_rz(ue + 2 + double(as_float(table_entry<SfuTable::Lg2Em2>(m))));
}

uint32_t sin(uint32_t r) { return sin_cos<false>(r); }
uint32_t cos(uint32_t r) { return sin_cos<true>(r); }

// Below 2^-8 tanh(x) is x; from 8 up it is 1. Between, each binade has 2^nb segments and the
// 17 mantissa bits after the segment's are the offset (the 6 - nb bits below them are dropped);
// the interpolated value is truncated.
uint32_t tanh(uint32_t x) {
    const uint32_t sign = x & kSign, mag = x & ~kSign;
    if (mag > kInf) return kNan;
    const int e = biased_exp(mag) - 127;
    if (e < -8) return x;
    if (e >= 3) return sign | 0x3F800000u;
    const int nb = kTanhSegmentBits[e + 8];
    const uint32_t mant = mag & kMant;
    const TanhSegment& s = kTanhSegments[kTanhFirstSegment[e + 8] + (nb ? int(mant >> (23 - nb)) : 0)];
    const uint32_t d = (mant >> (6 - nb)) & 0x1FFFF;
    const int64_t acc = s.k + int64_t(s.c1) * d * (int64_t(1) << 19) + int64_t(s.c2) * truncated_square(d);
    return sign | truncate_to_f32(acc, e - 55 - s.scale);
}

uint16_t tanh_f16(uint16_t x) { return uint16_t(sfu_table(SfuTable::TanhF16)[x]); }
uint16_t tanh_bf16(uint16_t x) { return uint16_t(sfu_table(SfuTable::TanhBf16)[x]); }
uint16_t ex2_f16(uint16_t x) { return uint16_t(sfu_table(SfuTable::Ex2F16)[x]); }
uint16_t ex2_bf16(uint16_t x) { return uint16_t(sfu_table(SfuTable::Ex2Bf16)[x]); }

namespace {

// A warp's lanes on the interpolator, as columns: gather, one lane at a time (the host's vector
// gathers are slow or missing), picks each lane's segment and offset; evaluate does the
// arithmetic for all 32, which the compiler vectorises. evaluate() gives the entries' magnitudes;
// sign[] holds their signs (lg2 below 1).
struct LaneFits {
    int64_t k[32];
    int32_t c1[32], c2[32], exp[32];
    uint32_t d[32], d17[32], sign[32];
    uint32_t slow = 0;   // lanes whose segment has no fit
    int32_t bexp[32];    // evaluate's results: each lane's table entry as biased exponent and mantissa
    uint32_t mant[32];

    template <SfuTable T>
    void gather(int l, uint32_t i) { gather(l, place_of<T>(i)); }
    void gather(int l, const Place& p) {
        const TableSegment& s = *p.segment;
        k[l] = s.k;
        c1[l] = s.c1;
        c2[l] = s.c2;
        exp[l] = s.exp == kNotFitted ? 0 : s.exp;   // the lane is handed back; its sum must not overflow
        d[l] = p.d;
        d17[l] = p.d17;
        sign[l] = s.sign;
        slow |= uint32_t(s.exp == kNotFitted) << l;
    }

    void evaluate() {
        for (int l = 0; l < 32; ++l)
            bexp[l] = truncate_parts(k[l] + int64_t(c1[l]) * d[l] + int64_t(c2[l]) * square19_of(d17[l]), exp[l], &mant[l]);
    }
};

} // namespace

uint32_t rcp_warp(const uint32_t* x, uint32_t* out) {
    LaneFits f;
    uint32_t special = 0;
    for (int l = 0; l < 32; ++l) {
        const int e = biased_exp(x[l]);
        special |= uint32_t(e == 0 || e == 255) << l;
        f.gather<SfuTable::Rcp>(l, x[l] & kMant);
    }
    f.evaluate();
    for (int l = 0; l < 32; ++l) out[l] = (x[l] & kSign) | rescaled(f.bexp[l], f.mant[l], 127 - biased_exp(x[l]));
    return special | f.slow;
}

namespace {
template <SfuTable T, int Sign>
uint32_t root_warp(const uint32_t* x, uint32_t* out) {
    LaneFits f;
    uint32_t special = 0;
    for (int l = 0; l < 32; ++l) {
        const int e = biased_exp(x[l]);
        special |= uint32_t((x[l] & kSign) || e == 0 || e == 255) << l;
        f.gather<T>(l, root_index(x[l]));
    }
    f.evaluate();
    for (int l = 0; l < 32; ++l) out[l] = rescaled(f.bexp[l], f.mant[l], Sign * root_half(x[l]));
    return special | f.slow;
}
} // namespace

uint32_t rsqrt_warp(const uint32_t* x, uint32_t* out) { return root_warp<SfuTable::Rsqrt, -1>(x, out); }
uint32_t sqrt_warp(const uint32_t* x, uint32_t* out) { return root_warp<SfuTable::Sqrt, 1>(x, out); }

uint32_t ex2_warp(const uint32_t* x, uint32_t* out) {
    LaneFits f;
    uint32_t special = 0;
    int32_t whole[32];
    for (int l = 0; l < 32; ++l) {
        special |= uint32_t(biased_exp(x[l]) == 255 && (x[l] & kMant)) << l;
        const int64_t fixed = ex2_fixed(x[l]);
        whole[l] = int32_t(fixed >> 23);
        // Both places, then a select: the operands' signs decide, which the host cannot predict.
        const Place neg = place_of<SfuTable::Ex2Neg>(uint32_t(fixed) & kMant), pos = place_of<SfuTable::Ex2Pos>(uint32_t(fixed) & kMant);
        f.gather(l, x[l] & kSign ? neg : pos);
    }
    f.evaluate();
    for (int l = 0; l < 32; ++l) out[l] = rescaled(f.bexp[l], f.mant[l], x[l] & kSign ? 1 - whole[l] : whole[l] - 1);
    return special | f.slow;
}

namespace {
// sin_cos for a warp in three loops: each lane's phase (vectorised); its segment's coefficients,
// gathered one lane at a time (64 segments, in the host's L1); then the arithmetic and truncation
// (vectorised).
template <bool Cosine>
uint32_t sin_cos_warp(const uint32_t* r, uint32_t* out) {
    int64_t k[32];
    int32_t c1[32], c2[32];
    uint32_t u[32], sign[32];
    uint32_t special = 0;
    for (int l = 0; l < 32; ++l) special |= uint32_t(biased_exp(r[l]) == 255) << l;
    for (int l = 0; l < 32; ++l) {
        const SinPhase p = sin_phase<Cosine>(r[l]);
        u[l] = p.offset;
        sign[l] = p.sign;
    }
    for (int l = 0; l < 32; ++l) {
        const SinSegment& s = kSinSegments[u[l] >> 17];
        k[l] = s.k;
        c1[l] = s.c1;
        c2[l] = s.c2;
    }
    for (int l = 0; l < 32; ++l) {
        const uint32_t d = u[l] & 0x1FFFF;
        const int64_t acc = k[l] + int64_t(c1[l]) * d + int64_t(c2[l]) * square19_of(d);
        uint32_t mant;
        const int32_t bexp = truncate_parts(acc, -37, &mant);
        const uint32_t positive = 0u - uint32_t(acc > 0);   // sin(0) is 0 (a mask: a select here is a branch)
        out[l] = sign[l] | ((uint32_t(bexp) << 23 | mant) & positive);
    }
    return special;
}
} // namespace

uint32_t sin_warp(const uint32_t* r, uint32_t* out) { return sin_cos_warp<false>(r, out); }
uint32_t cos_warp(const uint32_t* r, uint32_t* out) { return sin_cos_warp<true>(r, out); }

// lg2 as lg2() computes it: the entry of the table for the operand's binade (exponents 0 and -1
// give the result; above, the E0 entry plus the exponent; below, the E-2 entry plus the exponent
// plus 2, each truncated to fp32), the table chosen by a select rather than a branch.
uint32_t lg2_warp(const uint32_t* x, uint32_t* out) {
    LaneFits f;
    uint32_t special = 0;
    int32_t add[32];
    for (int l = 0; l < 32; ++l) {
        const int e = biased_exp(x[l]);
        special |= uint32_t(e == 0 || e == 255 || (x[l] & kSign)) << l;
        const int ue = e - 127;
        const uint32_t m = x[l] & kMant;
        const Place e0 = place_of<SfuTable::Lg2E0>(m), em1 = place_of<SfuTable::Lg2Em1>(m), em2 = place_of<SfuTable::Lg2Em2>(m);
        f.gather(l, ue >= 0 ? e0 : ue == -1 ? em1 : em2);
        add[l] = ue >= 1 ? ue : ue <= -2 ? ue + 2 : 0;
    }
    f.evaluate();
    for (int l = 0; l < 32; ++l) {
        const uint32_t entry = f.sign[l] | uint32_t(f.bexp[l]) << 23 | f.mant[l];
        const uint32_t shifted = to_f32_rz(double(add[l]) + double(as_float(entry)));
        out[l] = add[l] ? shifted : entry;
    }
    return special | f.slow;
}

} // namespace gpusim::mufu
