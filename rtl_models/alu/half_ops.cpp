// Half-precision arithmetic: .f16 and .bf16 in the low 16 bits of a register, and .f16x2 and
// .bf16x2, two independent halves of a 32-bit register. Each operation is computed in long double
// (exact for f16: a product has 22 significant bits, and a fused a*b+c spans at most 64; for bf16,
// whose exponent is f32's, the sum is rounded to odd: alu/narrow_float.h), then rounded once to
// the format, so results do not depend on host half-precision support. Only round-to-nearest
// exists for this arithmetic. NaN results are the canonical 0x7FFF of either format. bf16 has no
// .ftz or .sat forms.
#include <cmath>

#include "alu/float_common.h"
#include "alu/half.h"
#include "isa/exec_context.h"
#include "alu/alu_ops.h"

namespace gpusim {

void write_predicate_pair(Warp& w, const Inst& in, LaneMask m, LaneMask p, LaneMask q);

namespace {

constexpr uint16_t kOneF16 = 0x3C00;

template <bool Bf>
constexpr const NarrowFormat& format() { return Bf ? kBf16Format : kF16Format; }

template <bool Bf>
bool is_nan(uint16_t h) { return narrow_is_nan(h, format<Bf>()); }

template <bool Bf, bool Ftz>
long double h_in(uint16_t h) {
    if (Ftz && (h & format<Bf>().exp_mask()) == 0) return (h & 0x8000) ? -0.0L : 0.0L;
    return narrow_value(h, format<Bf>());
}

// .ftz flushes a result whose exact value is below the smallest normal (tininess before
// rounding, as the fp32 unit); .sat clamps to [0, 1] with NaN and -0 to +0.
template <bool Bf, bool Ftz, bool Sat>
uint16_t h_out(long double exact) {
    const long double min_normal = std::ldexp(1.0L, 1 - format<Bf>().bias());
    if (Ftz && exact != 0 && std::fabs(exact) < min_normal) exact = std::signbit(exact) ? -0.0L : 0.0L;
    uint16_t r = uint16_t(round_to_narrow(exact, kRn, format<Bf>()));
    if constexpr (Sat) {
        if (is_nan<Bf>(r) || (r & 0x8000)) return 0;
        if (r > kOneF16) return kOneF16;
    }
    return r;
}

enum HOp : uint8_t { kAdd, kSub, kMul, kFma };

template <bool Bf, int Op, bool Ftz, bool Sat>
uint16_t apply(uint16_t a, uint16_t b, uint16_t c) {
    const long double x = h_in<Bf, Ftz>(a), y = h_in<Bf, Ftz>(b);
    long double r;
    // f16 sums are exact in long double; bf16's may not be, and are rounded to odd first.
    const auto sum = [](long double p, long double q) { return Bf ? add_round_odd(p, q) : p + q; };
    if constexpr (Op == kAdd) r = sum(x, y);
    else if constexpr (Op == kSub) r = sum(x, -y);
    else if constexpr (Op == kMul) r = x * y;
    else r = sum(x * y, h_in<Bf, Ftz>(c));
    return h_out<Bf, Ftz, Sat>(r);
}

// fma.relu: a negative result gives +0; NaN stays the canonical NaN (PTX ISA, fma; golden fp_modes).
template <bool Bf>
uint16_t relu(uint16_t h) { return !is_nan<Bf>(h) && (h & 0x8000) ? 0 : h; }

// min/max: minNum/maxNum with -0 below +0, and the modes .NaN and .xorsign.abs (float_common.h);
// a NaN result is the canonical NaN.
template <bool Bf, bool Max, bool NanOut, bool XorSign, bool Ftz>
uint16_t min_max(uint16_t a, uint16_t b) {
    const long double r = min_max_mode<Max, NanOut, XorSign>(h_in<Bf, Ftz>(a), h_in<Bf, Ftz>(b));
    return std::isnan(r) ? uint16_t(format<Bf>().nan) : h_out<Bf, Ftz, false>(r);
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

template <bool Bf, int Op, bool Ftz, bool Sat, bool X2, bool Relu = false>
void arith(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    // A contracted pair's negations (sw/loader/contraction.h): exact sign flips of the inputs.
    uint16_t na = 0, nc = 0;
    if constexpr (Op == kFma) {
        na = (in.aux & kNegateProduct) ? 0x8000 : 0;
        nc = (in.aux & kNegateAddend) ? 0x8000 : 0;
    }
    halves<X2>(ctx, w, in, m, [na, nc](uint16_t a, uint16_t b, uint16_t c) {
        const uint16_t r = apply<Bf, Op, Ftz, Sat>(uint16_t(a ^ na), b, uint16_t(c ^ nc));
        return Relu ? relu<Bf>(r) : r;
    });
}

template <bool Bf, bool Max, bool NanOut, bool XorSign, bool Ftz, bool X2>
void min_max_op(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    halves<X2>(ctx, w, in, m, [](uint16_t a, uint16_t b, uint16_t) { return min_max<Bf, Max, NanOut, XorSign, Ftz>(a, b); });
}

// neg/abs are sign-bit operations; a NaN gives the canonical NaN, as in fp32.
template <bool Bf, bool Neg, bool Ftz>
uint16_t sign_op(uint16_t h) {
    if (is_nan<Bf>(h)) return uint16_t(format<Bf>().nan);
    if (Ftz && (h & format<Bf>().exp_mask()) == 0) h &= 0x8000;
    return Neg ? uint16_t(h ^ 0x8000) : uint16_t(h & 0x7FFF);
}

template <bool Bf, bool Neg, bool Ftz, bool X2>
void sign(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = ctx.src(w, in.a);
    for_lanes(m, [&](int l) {
        uint64_t r = sign_op<Bf, Neg, Ftz>(uint16_t(a[l]));
        if constexpr (X2) r |= uint64_t(sign_op<Bf, Neg, Ftz>(uint16_t(a[l] >> 16))) << 16;
        d[l] = r;
    });
}

// setp.f16 p[|q]: q is the complement; setp.f16x2 p|q: p compares the low halves, q the high.
// The .and/.or/.xor combination travels in Inst::aux.
template <bool Bf, int C, bool Ftz, bool X2>
void setp(ExecContext& ctx, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* a = ctx.src(w, in.a);
    const uint64_t* b = ctx.src(w, in.b);
    LaneMask lo = 0, hi = 0;
    for_lanes(m, [&](int l) {
        if (fcompare<long double, C>(h_in<Bf, Ftz>(uint16_t(a[l])), h_in<Bf, Ftz>(uint16_t(b[l])))) lo |= 1u << l;
        if (X2 && fcompare<long double, C>(h_in<Bf, Ftz>(uint16_t(a[l] >> 16)), h_in<Bf, Ftz>(uint16_t(b[l] >> 16)))) hi |= 1u << l;
    });
    write_predicate_pair(w, in, m, lo, X2 ? hi : ~lo);
}

template <bool Bf, int C>
ExecFn setp_of(bool ftz, bool x2) {
    return ftz ? (x2 ? setp<Bf, C, true, true> : setp<Bf, C, true, false>) : (x2 ? setp<Bf, C, false, true> : setp<Bf, C, false, false>);
}

template <bool Bf>
ExecFn setp_fn(int cmp, bool ftz, bool x2) {
    switch (cmp) {
    case kEq: return setp_of<Bf, kEq>(ftz, x2);
    case kNe: return setp_of<Bf, kNe>(ftz, x2);
    case kLt: return setp_of<Bf, kLt>(ftz, x2);
    case kLe: return setp_of<Bf, kLe>(ftz, x2);
    case kGt: return setp_of<Bf, kGt>(ftz, x2);
    case kGe: return setp_of<Bf, kGe>(ftz, x2);
    case kEqu: return setp_of<Bf, kEqu>(ftz, x2);
    case kNeu: return setp_of<Bf, kNeu>(ftz, x2);
    case kLtu: return setp_of<Bf, kLtu>(ftz, x2);
    case kLeu: return setp_of<Bf, kLeu>(ftz, x2);
    case kGtu: return setp_of<Bf, kGtu>(ftz, x2);
    case kGeu: return setp_of<Bf, kGeu>(ftz, x2);
    case kNum: return setp_of<Bf, kNum>(ftz, x2);
    case kNan: return setp_of<Bf, kNan>(ftz, x2);
    }
    return nullptr;
}

template <bool Bf, int Op, bool X2>
ExecFn arith_fn(bool ftz, bool sat) {
    if (ftz) return sat ? arith<Bf, Op, true, true, X2> : arith<Bf, Op, true, false, X2>;
    return sat ? arith<Bf, Op, false, true, X2> : arith<Bf, Op, false, false, X2>;
}

template <bool Bf, bool Max, bool X2>
ExecFn min_max_fn(bool ftz, bool nan, bool xorsign) {
    if (nan && xorsign) return ftz ? min_max_op<Bf, Max, true, true, true, X2> : min_max_op<Bf, Max, true, true, false, X2>;
    if (nan) return ftz ? min_max_op<Bf, Max, true, false, true, X2> : min_max_op<Bf, Max, true, false, false, X2>;
    if (xorsign) return ftz ? min_max_op<Bf, Max, false, true, true, X2> : min_max_op<Bf, Max, false, true, false, X2>;
    return ftz ? min_max_op<Bf, Max, false, false, true, X2> : min_max_op<Bf, Max, false, false, false, X2>;
}

template <bool Bf, bool X2>
ExecFn fma_relu_fn(bool ftz, bool sat) {
    if (sat) return nullptr;                     // .relu and .sat do not combine
    return ftz ? arith<Bf, kFma, true, false, X2, true> : arith<Bf, kFma, false, false, X2, true>;
}

template <bool Bf, bool X2>
ExecFn pick_arith(const std::string& op, bool ftz, bool sat) {
    if (op == "add") return arith_fn<Bf, kAdd, X2>(ftz, sat);
    if (op == "sub") return arith_fn<Bf, kSub, X2>(ftz, sat);
    if (op == "mul") return arith_fn<Bf, kMul, X2>(ftz, sat);
    if (op == "fma") return arith_fn<Bf, kFma, X2>(ftz, sat);
    return nullptr;
}

template <bool Bf, bool X2>
void select_form(const OpSpec& s, OpChoice& c) {
    const std::string& op = s.opcode;
    const bool ftz = s.has("ftz"), sat = s.has("sat");
    const bool relu = s.has("relu"), nan = s.has("NaN"), xorsign = s.has("xorsign");
    if ((op == "min" || op == "max") && !sat) {
        c.fn = op == "max" ? min_max_fn<Bf, true, X2>(ftz, nan, xorsign) : min_max_fn<Bf, false, X2>(ftz, nan, xorsign);
        c.layout = Layout::D_A_B;
    } else if (op == "add" || op == "sub" || op == "mul") {
        c.fn = pick_arith<Bf, X2>(op, ftz, sat);
        c.layout = Layout::D_A_B;
    } else if (op == "fma") {
        c.fn = relu ? fma_relu_fn<Bf, X2>(ftz, sat) : pick_arith<Bf, X2>(op, ftz, sat);
        c.layout = Layout::D_A_B_C;
    } else if ((op == "neg" || op == "abs") && !sat) {
        c.fn = op == "neg" ? (ftz ? sign<Bf, true, true, X2> : sign<Bf, true, false, X2>)
                           : (ftz ? sign<Bf, false, true, X2> : sign<Bf, false, false, X2>);
        c.layout = Layout::D_A;
    } else if (op == "setp" && fcompare_code(s) >= 0) {
        c.fn = setp_fn<Bf>(fcompare_code(s), ftz, X2);
        c.layout = Layout::PD_A_B;
        c.aux = s.has("and") ? 1 : s.has("or") ? 2 : s.has("xor") ? 3 : 0;
    }
}

} // namespace

OpChoice select_half_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    const bool bf = t == "bf16" || t == "bf16x2", x2 = t == "f16x2" || t == "bf16x2";
    if ((t != "f16" && t != "f16x2" && !bf) || op == "cvt" || op == "set") return {};
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "'";
    // Only .rn exists for this arithmetic; fma must name it. .oob (fma of sm_90) is not modelled;
    // .relu exists on fma, .NaN and .xorsign.abs on min and max; bf16 has no .ftz or .sat.
    if (s.has("rz") || s.has("rm") || s.has("rp") || (op == "fma" && !s.has("rn")) || s.has("oob")) return c;
    const bool relu = s.has("relu"), nan = s.has("NaN"), xorsign = s.has("xorsign");
    if ((relu && op != "fma") || ((nan || xorsign) && op != "min" && op != "max") || xorsign != s.has("abs")) return c;
    if (bf && (s.has("ftz") || s.has("sat"))) return c;
    if (bf) x2 ? select_form<true, true>(s, c) : select_form<true, false>(s, c);
    else x2 ? select_form<false, true>(s, c) : select_form<false, false>(s, c);
    if (!c.fn && c.layout == Layout::None) return {};
    if (c.fn) c.error.clear();
    return c;
}

} // namespace gpusim
