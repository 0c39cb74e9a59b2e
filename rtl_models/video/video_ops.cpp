// Scalar video instructions: vadd vsub vabsdiff vmin vmax vshl vshr vset and vmad, per PTX ISA
// §9.7.18.1 (docs/reference/ptx_semantics.md §1). Each source is a selected byte,
// half-word or word, sign- or zero-extended to 33 bits; the operation gives a 34-bit
// intermediate that is optionally saturated, then combined with c (secondary op or merge) and
// truncated to 32 bits.
#include "isa/exec_context.h"
#include "video/video_code.h"

namespace gpusim::video {
namespace {

constexpr int kByteBits = 8;
constexpr int kHalfBits = 16;
constexpr int kIntermediateBits = 34;   // the ISA's ".s34" intermediate
constexpr uint32_t kMaxShift = 32;      // .clamp limit of vshl/vshr
constexpr uint32_t kWrapMask = 31;      // .wrap keeps the shift amount mod 32
constexpr int kShr7 = 7, kShr15 = 15;

// The ISA's partSelectSignExtend: the selected field, extended to a signed 33-bit value.
int64_t part_select(uint32_t x, bool is_signed, uint8_t sel) {
    if (sel >= kB0 && sel <= kB3) return extend(x >> (kByteBits * (sel - kB0)), kByteBits, is_signed);
    if (sel == kH0 || sel == kH1) return extend(x >> (kHalfBits * (sel - kH0)), kHalfBits, is_signed);
    return extend(x, kWordBits, is_signed);
}

// .sat clamps to the range of the destination field: a byte or half-word when d has a selector.
int64_t saturate(int64_t t, bool is_signed, uint8_t dsel) {
    int bits = dsel == kWord ? kWordBits : (dsel == kH0 || dsel == kH1) ? kHalfBits : kByteBits;
    return clamp_to(t, bits, is_signed);
}

// Writes the low byte or half-word of t into the selected field of c.
uint32_t merge(uint8_t dsel, int64_t t, uint32_t c) {
    const uint32_t v = uint32_t(t);
    const bool half = dsel == kH0 || dsel == kH1;
    const int shift = half ? kHalfBits * (dsel - kH0) : kByteBits * (dsel - kB0);
    const uint32_t field = (half ? 0xFFFFu : 0xFFu) << shift;
    return ((v << shift) & field) | (c & ~field);
}

// Saturation, then the secondary op or the merge, then the low 32 bits. Saturation comes first,
// and the secondary op itself never saturates (measured on the H200: S12).
//
// MEASURED≠DOC (S9-S11): for the all-unsigned vadd.u32.u32.u32.sat, ptxas 13 on the H200 wraps the
// sum at 32 bits before saturating (0xFFFFFFF0 + 0x20 gives 0x10). We follow the ISA, as the native
// video units of Fermi/Kepler did: the 34-bit sum is clamped (gives 0xFFFFFFFF).
//
// UNCLEAR: the ISA types the intermediate as .s33 in the secondary op and merge; we keep the full
// 34-bit value there (it only matters for unsaturated results beyond 33 bits).
uint32_t finish(const Code& k, int64_t t, uint32_t c) {
    if (k.sat) t = saturate(t, k.d_signed, k.dsel);
    if (k.op2 != Op2::None) {
        // c takes the signedness of dtype; vset has none and follows atype (measured on the H200:
        // vset.s32.s32.ne.min 15, 0, c=0xFFFFFFFF gives 0xFFFFFFFF, vset.u32.s32.le.min keeps c
        // unsigned; the ISA does not say how c is extended).
        const bool c_signed = k.op == Op::Set ? k.a_signed : k.d_signed;
        const int64_t cc = extend(c, kWordBits, c_signed);
        if (k.op2 == Op2::Add) t += cc;
        else if (k.op2 == Op2::Min) t = t < cc ? t : cc;
        else t = t > cc ? t : cc;
        return uint32_t(t);
    }
    if (k.dsel != kWord) return merge(k.dsel, t, c);
    return uint32_t(t);
}

// vshl/vshr: b is an unsigned shift amount, clamped to 32 or taken mod 32. A left shift wraps
// into the 34-bit intermediate (measured: S18, vshl.s32.clamp.sat 3,32 gives 0x80000000).
int64_t shift(const Code& k, int64_t ta, int64_t tb) {
    uint32_t n = uint32_t(tb);
    n = k.wrap ? (n & kWrapMask) : (n > kMaxShift ? kMaxShift : n);
    if (k.op == Op::Shl) return extend(uint64_t(ta) << n, kIntermediateBits, true);
    return ta >> n;   // arithmetic for .s32 sources; unsigned sources are non-negative
}

int64_t core(const Code& k, int64_t ta, int64_t tb) {
    if (k.op == Op::Shl || k.op == Op::Shr) return shift(k, ta, tb);
    return operate(k, ta, tb);   // vmad has its own function
}

template <bool HasC>
void scalar(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const Code k = unpack(uint64_t(in.offset));
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = HasC ? c.src(w, in.c) : nullptr;
    for_lanes(m, [&](int l) {
        int64_t ta = part_select(uint32_t(a[l]), k.a_signed, k.asel);
        int64_t tb = part_select(uint32_t(b[l]), k.b_signed, k.bsel);
        d[l] = finish(k, core(k, ta, tb), HasC ? uint32_t(cc[l]) : 0);
    });
}

void scalar_any(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (in.c == kNoRow) scalar<false>(c, w, in, m);
    else scalar<true>(c, w, in, m);
}

// vmad per the ISA pseudocode. The product is signed when either source type is signed or
// exactly one of a, b is negated; c takes the product's sign, and the final result is signed when
// the product is or c is negated. dtype plays no part (measured: S15). Negating the product is
// ~(a*b) + 1, negating c is ~c + 1; .po adds 1 instead.
//
// MEASURED≠DOC (S16): ptxas 13 on the H200 multiplies .u32 operands >= 2^31 as if signed
// (vmad.u32.u32.u32.shr7 0xFFFFFFFF, 0xFFFFFFFF, 0 gives 0). We follow the ISA, as Fermi/Kepler's
// native units did: the unsigned product 0xFFFFFFFE00000001 >> 7 gives 0xFC000000.
uint32_t vmad(const Code& k, int64_t ta, int64_t tb, uint32_t c) {
    const bool neg_product = k.neg_a != k.neg_b;
    const bool signed_final = k.a_signed || k.b_signed || neg_product || k.neg_c;
    __int128 t = __int128(ta) * tb;
    int lsb = 0;
    if (k.plus_one) {
        lsb = 1;
    } else if (neg_product) {
        t = ~t;
        lsb = 1;
    } else if (k.neg_c) {
        c = ~c;
        lsb = 1;
    }
    t += (signed_final ? __int128(int32_t(c)) : __int128(c)) + lsb;
    const int scale = k.scale == Scale::Shr7 ? kShr7 : k.scale == Scale::Shr15 ? kShr15 : 0;
    t = signed_final ? (t >> scale) : __int128((unsigned __int128)t >> scale);
    if (k.sat) {
        const __int128 lo = signed_final ? __int128(INT32_MIN) : 0;
        const __int128 hi = signed_final ? __int128(INT32_MAX) : __int128(UINT32_MAX);
        t = t < lo ? lo : t > hi ? hi : t;
    }
    return uint32_t(t);
}

void vmad_op(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const Code k = unpack(uint64_t(in.offset));
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = c.src(w, in.c);
    for_lanes(m, [&](int l) {
        int64_t ta = part_select(uint32_t(a[l]), k.a_signed, k.asel);
        int64_t tb = part_select(uint32_t(b[l]), k.b_signed, k.bsel);
        d[l] = vmad(k, ta, tb, uint32_t(cc[l]));
    });
}

} // namespace

ExecFn scalar_fn(Op op) {
    if (op == Op::Mad) return vmad_op;
    if (op == Op::Avrg) return nullptr;
    return scalar_any;
}

} // namespace gpusim::video
