// MUFU's quadratic interpolator (docs/sfu.md). The top bits of the operand pick a segment and the
// bits below them are the offset d; the unit sums K + C1*d + C2*(fsq(d) >> 19) in fixed point and
// truncates the sum to 24 significant bits. fsq is its truncated squarer. sin and cos evaluate one
// such table (mufu_coefficients.h); rcp, sqrt, rsqrt, ex2 and lg2 evaluate segments fitted to the
// captured tables (mufu_table_fits.h, written by testbench/sfu/fit/fit_tables.cpp).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>

#include "sfu/sfu_tables.h"

namespace gpusim::mufu {

// The squarer on a 17-bit offset: d*d keeping only the partial products of weight at least 2^19,
// each cross product b_i*b_j (i < j) counted once at weight 2^(i+j+1).
inline int64_t truncated_square_of(uint32_t d) {
    constexpr int kKeep = 19;
    int64_t sum = 0;
    for (int i = 0; i < 17; ++i) {
        if (!((d >> i) & 1)) continue;
        if (2 * i >= kKeep) sum += int64_t(1) << (2 * i);
        const int low = std::max(i + 1, kKeep - 1 - i);  // the partners j whose product is kept
        sum += int64_t((d >> low) << low) << (i + 1);
    }
    return sum;
}

// The same sum over 2^19, without a branch (it is a multiple of 2^19): bits 9-16 of the offset
// square exactly but for bit 9's own product (weight 2^18, dropped), and each of bits 0-8 keeps its
// cross products with bits 18-i and up, at weight 2^19 times the offset shifted down by 18-i.
// Plain 32-bit arithmetic, which a loop over a warp's lanes vectorises.
inline uint32_t square19_of(uint32_t d) {
    const uint32_t h = d >> 9;
    uint32_t sum = (h * h - (h & 1)) >> 1;
    for (int i = 0; i < 9; ++i) sum += ((d >> i) & 1) * (d >> (18 - i));
    return sum;
}

// The 24 most significant bits of a positive fixed-point value, truncated, times 2^exp: the
// encoding of a normal fp32 (the callers' results are), 0 for a sum that is not positive.
inline uint32_t truncate_to_f32(int64_t acc, int exp) {
    if (acc <= 0) return 0;
    const int top = 63 - __builtin_clzll(uint64_t(acc));
    const uint64_t mant = top >= 23 ? uint64_t(acc) >> (top - 23) : uint64_t(acc) << (23 - top);
    return uint32_t(exp + top + 127) << 23 | (uint32_t(mant) & 0x7FFFFFu);
}

// A segment fitted to a captured table: its results are sign | the truncated sum times 2^exp.
// Segments that no fit reproduces (lg2 next to 1, where the results approach zero, rsqrt's first
// and the negative ex2's last) have exp == kNotFitted, and their entries come from the table.
struct TableSegment {
    int64_t k;
    int32_t c1, c2;
    int32_t exp;
    uint32_t sign;
};
constexpr int32_t kNotFitted = INT32_MIN;

// The table's entry at offset d of segment s, `square` being fsq of d as a 17-bit offset, >> 19
// (a 16-bit offset d is the 17-bit 2d: the squarer's kept weights move by two).
inline uint32_t evaluate(const TableSegment& s, uint32_t d, int64_t square) {
    return s.sign | truncate_to_f32(s.k + int64_t(s.c1) * d + int64_t(s.c2) * square, s.exp);
}

// How a fitted table's index splits: the low offset_bits are the offset, the rest the segment.
// ex2 of a negative operand reads its table at the ones' complement of the index, as MUFU.EX2 does
// (the same segments as the positive side's, but for one at the edge).
struct FitLayout {
    uint8_t offset_bits = 0;   // 0: the table is looked up, not fitted
    bool complement = false;
    uint32_t segments = 0;
};
constexpr FitLayout fit_layout(SfuTable t) {
    switch (t) {
    case SfuTable::Rcp: return {16, false, 128};
    case SfuTable::Rsqrt:
    case SfuTable::Sqrt: return {17, false, 128};
    case SfuTable::Ex2Pos:
    case SfuTable::Lg2E0:
    case SfuTable::Lg2Em1:
    case SfuTable::Lg2Em2: return {17, false, 64};
    case SfuTable::Ex2Neg: return {17, true, 64};
    default: return {};
    }
}

} // namespace gpusim::mufu
