// Half-precision arithmetic: .f16 in the low 16 bits of a register, and .f16x2, two independent
// halves of a 32-bit register. Each operation is exact in long double (an f16 product has 22
// significant bits, and a fused a*b+c spans at most 64), then rounded once to binary16 by
// alu/half.h, so results do not depend on host half-precision support. Only round-to-nearest
// exists for f16 arithmetic. NaN results are the canonical 0x7FFF.
#include <cmath>

#include "alu/float_common.h"
#include "alu/half.h"
#include "isa/exec_context.h"
#include "alu/alu_ops.h"

namespace gpusim {

void write_predicate_pair(Warp& w, const Inst& in, LaneMask m, LaneMask p, LaneMask q);

namespace {

constexpr uint16_t kOneF16 = 0x3C00;
constexpr long double kMinNormalF16 = 6.103515625e-05L;  // 2^-14

bool is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

template <bool Ftz>
long double h_in(uint16_t h) {
    if (Ftz && (h & 0x7C00) == 0) return (h & 0x8000) ? -0.0L : 0.0L;
    return half_to_double(h);
}

// .ftz flushes a result whose exact value is below the smallest normal (tininess before
// rounding, as the fp32 unit); .sat clamps to [0, 1] with NaN and -0 to +0.
template <bool Ftz, bool Sat>
uint16_t h_out(long double exact) {
    if (Ftz && exact != 0 && std::fabs(exact) < kMinNormalF16) exact = std::signbit(exact) ? -0.0L : 0.0L;
    uint16_t r = double_to_half(exact, kRn);
    if constexpr (Sat) {
        if (is_nan(r) || (r & 0x8000)) return 0;
        if (r > kOneF16) return kOneF16;
    }
    return r;
}

enum HOp : uint8_t { kAdd, kSub, kMul, kFma };

template <int Op, bool Ftz, bool Sat>
uint16_t apply(uint16_t a, uint16_t b, uint16_t c) {
    const long double x = h_in<Ftz>(a), y = h_in<Ftz>(b);
    long double r;
    if constexpr (Op == kAdd) r = x + y;
    else if constexpr (Op == kSub) r = x - y;
    else if constexpr (Op == kMul) r = x * y;
    else r = x * y + h_in<Ftz>(c);
    return h_out<Ftz, Sat>(r);
}

// fma.relu: a negative result gives +0; NaN stays the canonical NaN (PTX ISA, fma; golden fp_modes).
uint16_t relu(uint16_t h) { return !is_nan(h) && (h & 0x8000) ? 0 : h; }

// min/max: minNum/maxNum with -0 below +0, and the modes .NaN and .xorsign.abs (float_common.h);
// a NaN result is the canonical NaN.
template <bool Max, bool NanOut, bool XorSign, bool Ftz>
uint16_t min_max(uint16_t a, uint16_t b) {
    const long double r = min_max_mode<Max, NanOut, XorSign>(h_in<Ftz>(a), h_in<Ftz>(b));
    return std::isnan(r) ? kCanonicalNanF16 : h_out<Ftz, false>(r);
}

// One f16 in the low half, or two independent halves for .f16x2: f(a, b, c) on each.
template <bool X2, class F>
void halves(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m, F f) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = ctx.src(w, in.a);
    const uint64_t* b = ctx.src(w, in.b);
    const uint64_t* c = in.c == kNoRow ? nullptr : ctx.src(w, in.c);
    for_lanes(m, [&](int l) {
        const uint64_t cv = c ? c[l] : 0;
        uint64_t r = f(uint16_t(a[l]), uint16_t(b[l]), uint16_t(cv));
        if constexpr (X2) r |= uint64_t(f(uint16_t(a[l] >> 16), uint16_t(b[l] >> 16), uint16_t(cv >> 16))) << 16;
        d[l] = r;
    });
}

template <int Op, bool Ftz, bool Sat, bool X2, bool Relu = false>
void arith(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    halves<X2>(ctx, w, in, m, [](uint16_t a, uint16_t b, uint16_t c) {
        const uint16_t r = apply<Op, Ftz, Sat>(a, b, c);
        return Relu ? relu(r) : r;
    });
}

template <bool Max, bool NanOut, bool XorSign, bool Ftz, bool X2>
void min_max_op(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    halves<X2>(ctx, w, in, m, [](uint16_t a, uint16_t b, uint16_t) { return min_max<Max, NanOut, XorSign, Ftz>(a, b); });
}

// neg/abs are sign-bit operations; a NaN gives the canonical NaN, as in fp32.
template <bool Neg, bool Ftz>
uint16_t sign_op(uint16_t h) {
    if (is_nan(h)) return kCanonicalNanF16;
    if (Ftz && (h & 0x7C00) == 0) h &= 0x8000;
    return Neg ? uint16_t(h ^ 0x8000) : uint16_t(h & 0x7FFF);
}

template <bool Neg, bool Ftz, bool X2>
void sign(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = ctx.src(w, in.a);
    for_lanes(m, [&](int l) {
        uint64_t r = sign_op<Neg, Ftz>(uint16_t(a[l]));
        if constexpr (X2) r |= uint64_t(sign_op<Neg, Ftz>(uint16_t(a[l] >> 16))) << 16;
        d[l] = r;
    });
}

// setp.f16 p[|q]: q is the complement; setp.f16x2 p|q: p compares the low halves, q the high.
// The .and/.or/.xor combination travels in Inst::aux.
template <int C, bool Ftz, bool X2>
void setp(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* a = ctx.src(w, in.a);
    const uint64_t* b = ctx.src(w, in.b);
    LaneMask lo = 0, hi = 0;
    for_lanes(m, [&](int l) {
        if (fcompare<long double, C>(h_in<Ftz>(uint16_t(a[l])), h_in<Ftz>(uint16_t(b[l])))) lo |= 1u << l;
        if (X2 && fcompare<long double, C>(h_in<Ftz>(uint16_t(a[l] >> 16)), h_in<Ftz>(uint16_t(b[l] >> 16)))) hi |= 1u << l;
    });
    write_predicate_pair(w, in, m, lo, X2 ? hi : ~lo);
}

template <int C>
ExecFn setp_of(bool ftz, bool x2) {
    return ftz ? (x2 ? setp<C, true, true> : setp<C, true, false>) : (x2 ? setp<C, false, true> : setp<C, false, false>);
}

ExecFn setp_fn(int cmp, bool ftz, bool x2) {
    switch (cmp) {
    case kEq: return setp_of<kEq>(ftz, x2);
    case kNe: return setp_of<kNe>(ftz, x2);
    case kLt: return setp_of<kLt>(ftz, x2);
    case kLe: return setp_of<kLe>(ftz, x2);
    case kGt: return setp_of<kGt>(ftz, x2);
    case kGe: return setp_of<kGe>(ftz, x2);
    case kEqu: return setp_of<kEqu>(ftz, x2);
    case kNeu: return setp_of<kNeu>(ftz, x2);
    case kLtu: return setp_of<kLtu>(ftz, x2);
    case kLeu: return setp_of<kLeu>(ftz, x2);
    case kGtu: return setp_of<kGtu>(ftz, x2);
    case kGeu: return setp_of<kGeu>(ftz, x2);
    case kNum: return setp_of<kNum>(ftz, x2);
    case kNan: return setp_of<kNan>(ftz, x2);
    }
    return nullptr;
}

template <int Op, bool X2>
ExecFn arith_fn(bool ftz, bool sat) {
    if (ftz) return sat ? arith<Op, true, true, X2> : arith<Op, true, false, X2>;
    return sat ? arith<Op, false, true, X2> : arith<Op, false, false, X2>;
}

template <bool Max, bool X2>
ExecFn min_max_fn(bool ftz, bool nan, bool xorsign) {
    if (nan && xorsign) return ftz ? min_max_op<Max, true, true, true, X2> : min_max_op<Max, true, true, false, X2>;
    if (nan) return ftz ? min_max_op<Max, true, false, true, X2> : min_max_op<Max, true, false, false, X2>;
    if (xorsign) return ftz ? min_max_op<Max, false, true, true, X2> : min_max_op<Max, false, true, false, X2>;
    return ftz ? min_max_op<Max, false, false, true, X2> : min_max_op<Max, false, false, false, X2>;
}

template <bool X2>
ExecFn fma_relu_fn(bool ftz, bool sat) {
    if (sat) return nullptr;                     // .relu and .sat do not combine
    return ftz ? arith<kFma, true, false, X2, true> : arith<kFma, false, false, X2, true>;
}

template <bool X2>
ExecFn pick_arith(const std::string& op, bool ftz, bool sat) {
    if (op == "add") return arith_fn<kAdd, X2>(ftz, sat);
    if (op == "sub") return arith_fn<kSub, X2>(ftz, sat);
    if (op == "mul") return arith_fn<kMul, X2>(ftz, sat);
    if (op == "fma") return arith_fn<kFma, X2>(ftz, sat);
    return nullptr;
}

} // namespace

OpChoice select_half_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    if ((t != "f16" && t != "f16x2") || op == "cvt" || op == "set") return {};
    const bool x2 = t == "f16x2", ftz = s.has("ftz"), sat = s.has("sat");
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "'";
    // Only .rn exists for f16 arithmetic; fma must name it. .oob (fma of sm_90) is not modelled;
    // .relu exists on fma, .NaN and .xorsign.abs on min and max.
    if (s.has("rz") || s.has("rm") || s.has("rp") || (op == "fma" && !s.has("rn")) || s.has("oob")) return c;
    const bool relu = s.has("relu"), nan = s.has("NaN"), xorsign = s.has("xorsign");
    if ((relu && op != "fma") || ((nan || xorsign) && op != "min" && op != "max") || xorsign != s.has("abs")) return c;
    if ((op == "min" || op == "max") && !sat) {
        const bool max = op == "max";
        c.fn = x2 ? (max ? min_max_fn<true, true>(ftz, nan, xorsign) : min_max_fn<false, true>(ftz, nan, xorsign))
                  : (max ? min_max_fn<true, false>(ftz, nan, xorsign) : min_max_fn<false, false>(ftz, nan, xorsign));
        c.layout = Layout::D_A_B;
    } else if (op == "add" || op == "sub" || op == "mul") {
        c.fn = x2 ? pick_arith<true>(op, ftz, sat) : pick_arith<false>(op, ftz, sat);
        c.layout = Layout::D_A_B;
    } else if (op == "fma") {
        c.fn = relu ? (x2 ? fma_relu_fn<true>(ftz, sat) : fma_relu_fn<false>(ftz, sat))
                    : (x2 ? pick_arith<true>(op, ftz, sat) : pick_arith<false>(op, ftz, sat));
        c.layout = Layout::D_A_B_C;
    } else if ((op == "neg" || op == "abs") && !sat) {
        const bool neg = op == "neg";
        c.fn = neg ? (ftz ? (x2 ? sign<true, true, true> : sign<true, true, false>) : (x2 ? sign<true, false, true> : sign<true, false, false>))
                   : (ftz ? (x2 ? sign<false, true, true> : sign<false, true, false>) : (x2 ? sign<false, false, true> : sign<false, false, false>));
        c.layout = Layout::D_A;
    } else if (op == "setp" && fcompare_code(s) >= 0) {
        c.fn = setp_fn(fcompare_code(s), ftz, x2);
        c.layout = Layout::PD_A_B;
        c.aux = s.has("and") ? 1 : s.has("or") ? 2 : s.has("xor") ? 3 : 0;
    } else {
        return {};
    }
    if (c.fn) c.error.clear();
    return c;
}

} // namespace gpusim
