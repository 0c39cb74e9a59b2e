// Floating-point instructions of the ALU (fp32/fp64) with the GPU's rules: every IEEE rounding
// mode (.rn .rz .rm .rp, through the host FPU, see rounding.h), .ftz flushes subnormal inputs and
// results, .sat clamps to [0, 1] with NaN to +0, and fp32 NaN results are the canonical 0x7FFFFFFF
// (fp64 keeps NaN payloads). Conversions are in cvt_ops.cpp, the approximations in sfu/.
#include <cmath>
#if defined(__FMA__) && defined(__AVX__)
#include <immintrin.h>
#endif
#include <cstring>
#include <limits>

#include "alu/float_common.h"
#include "alu/rounding.h"
#include "isa/exec_context.h"
#include "alu/alu_ops.h"

namespace gpusim {
namespace {

// kNanIn: a NaN operand makes the result NaN; kAWins (with kNanIn): of two fp64 NaN operands a's payload is
// the result, else b's (measured on the H200; see propagate_nan).
struct FAdd { static constexpr bool kNanIn = true, kAWins = false; template <class T> static T apply(T a, T b) { return a + b; } };
struct FSub { static constexpr bool kNanIn = true, kAWins = false; template <class T> static T apply(T a, T b) { return a - b; } };
struct FMul { static constexpr bool kNanIn = true, kAWins = false; template <class T> static T apply(T a, T b) { return a * b; } };
struct FDiv { static constexpr bool kNanIn = true, kAWins = true; template <class T> static T apply(T a, T b) { return a / b; } };
// IEEE minNum/maxNum: a NaN operand yields the other one; -0 orders below +0. Two NaNs give b,
// quieted (fp64, measured; fp32 NaN results are canonical anyway).
struct FMin { static constexpr bool kNanIn = false; template <class T> static T apply(T a, T b) {
        if (std::isnan(a) && std::isnan(b)) return T(quiet(double(b)));
        if (std::isnan(a)) return b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? a : b;
        return a < b ? a : b;
    } };
struct FMax { static constexpr bool kNanIn = false; template <class T> static T apply(T a, T b) {
        if (std::isnan(a) && std::isnan(b)) return T(quiet(double(b)));
        if (std::isnan(a)) return b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? b : a;
        return a > b ? a : b;
    } };

// min/max with the result modes of sm_80 and later (PTX ISA, min/max; regress/golden/fp_modes):
// .NaN makes any NaN operand give NaN; .xorsign.abs compares magnitudes and gives the result the
// sign a ^ b. Otherwise as minNum/maxNum.
template <bool Max, bool NanOut, bool XorSign>
struct FMinMaxMode { static constexpr bool kNanIn = false; template <class T> static T apply(T a, T b) {
        return min_max_mode<Max, NanOut, XorSign>(a, b);
    } };

// fp32 lanes without .ftz or .sat, a warp at once: every lane's result into a buffer first (an
// inactive lane's is computed and dropped: the arithmetic has no side effect), then the NaNs made
// canonical and the mask's lanes written, in loops the compiler vectorises (one loop with the NaN
// test per lane stays scalar). The results are the lane-by-lane path's.
template <class F>
void warp_f32(uint64_t* d, LaneMask m, F&& op) {
    float r[kWarpSize];
    for (int l = 0; l < kWarpSize; ++l) r[l] = op(l);
    uint32_t u[kWarpSize];
    std::memcpy(u, r, sizeof u);
    for (int l = 0; l < kWarpSize; ++l) u[l] = (u[l] & 0x7FFFFFFFu) > 0x7F800000u ? kCanonicalNanF32 : u[l];
    if (m == 0xFFFFFFFFu) {
        for (int l = 0; l < kWarpSize; ++l) d[l] = u[l];
        return;
    }
    for (int l = 0; l < kWarpSize; ++l) d[l] = (m >> l) & 1 ? uint64_t(u[l]) : d[l];
}

// The fp32 values of a row's 32 lanes (the low halves of its 64-bit slots), packed in a loop the
// compiler vectorises: arithmetic on them then runs on whole vectors.
inline void lanes_f32(const uint64_t* row, float* out) {
    uint32_t u[kWarpSize];
    for (int l = 0; l < kWarpSize; ++l) u[l] = uint32_t(row[l]);
    std::memcpy(out, u, sizeof u);
}

// z = x * y + z, each rounded once, on whole vectors: a compiler keeps std::fma scalar where it
// may set errno, and the host's FMA instruction rounds as std::fma does (in the current mode).
inline void fma_lanes(const float* x, const float* y, float* z) {
#if defined(__FMA__) && defined(__AVX__)
    for (int l = 0; l < kWarpSize; l += 8)
        _mm256_storeu_ps(z + l, _mm256_fmadd_ps(_mm256_loadu_ps(x + l), _mm256_loadu_ps(y + l), _mm256_loadu_ps(z + l)));
#else
    for (int l = 0; l < kWarpSize; ++l) z[l] = std::fma(x[l], y[l], z[l]);
#endif
}

template <class T, bool Ftz, bool Sat>
constexpr bool plain_f32 = std::is_same_v<T, float> && !Ftz && !Sat;

template <class T, class Op, bool Ftz, bool Sat>
void fbinary(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    RoundScope rs(inst.round);
    if constexpr (plain_f32<T, Ftz, Sat>) {
        float x[kWarpSize], y[kWarpSize];
        lanes_f32(a, x);
        lanes_f32(b, y);
        return warp_f32(d, m, [&](int l) { return Op::apply(x[l], y[l]); });
    }
    for_lanes(m, [&](int l) {
        T x = in<T, Ftz>(a[l]), y = in<T, Ftz>(b[l]);
        if constexpr (std::is_same_v<T, double> && Op::kNanIn) {
            double n;
            if (Op::kAWins ? propagate_nan(n, y, x) : propagate_nan(n, x, y)) { d[l] = put<double>(n); return; }
        }
        T r = Op::apply(x, y);
        if constexpr (Ftz && std::is_same_v<T, float>) r = flush_tiny(r, Op::apply(double(x), double(y)));
        d[l] = finish<T, Ftz, Sat>(r);
    });
}

// Negated: a contracted pair's negations (sw/loader/contraction.h), from Inst::aux. As with
// neg.f64, a NaN keeps its sign (the H200's DFMA -a, b, -c returns a NaN operand as it came); an
// fp32 NaN result is canonical anyway.
template <class T, bool Ftz, bool Sat, bool Negated>
void ffma_lanes(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    const uint64_t* cc = c.src(w, inst.c);
    const bool na = Negated && (inst.aux & kNegateProduct), nc = Negated && (inst.aux & kNegateAddend);
    RoundScope rs(inst.round);
    if constexpr (plain_f32<T, Ftz, Sat> && !Negated) {
        float x[kWarpSize], y[kWarpSize], z[kWarpSize];
        lanes_f32(a, x);
        lanes_f32(b, y);
        lanes_f32(cc, z);
        fma_lanes(x, y, z);
        return warp_f32(d, m, [&](int l) { return z[l]; });
    }
    for_lanes(m, [&](int l) {
        T x = in<T, Ftz>(a[l]), y = in<T, Ftz>(b[l]), z = in<T, Ftz>(cc[l]);
        if constexpr (Negated) {
            if (na && !std::isnan(x)) x = -x;
            if (nc && !std::isnan(z)) z = -z;
        }
        if constexpr (std::is_same_v<T, double>) {
            double n;
            if (propagate_nan(n, x, z, y)) { d[l] = put<double>(n); return; }  // b over c over a
        }
        T r = std::fma(x, y, z);
        if constexpr (Ftz && std::is_same_v<T, float>) r = flush_tiny(r, std::fma(double(x), double(y), double(z)));
        d[l] = finish<T, Ftz, Sat>(r);
    });
}

template <class T, bool Ftz, bool Sat>
void ffma(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    if (inst.aux & (kNegateProduct | kNegateAddend)) return ffma_lanes<T, Ftz, Sat, true>(c, w, inst, m);
    ffma_lanes<T, Ftz, Sat, false>(c, w, inst, m);
}

// Sign manipulation is exact bit work, except on NaNs: an fp64 NaN comes back quieted with its
// sign untouched, an fp32 NaN as the canonical NaN (both measured on the H200).
template <class T, bool Ftz, bool Negate>
void fsign(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    constexpr uint64_t sign = sizeof(T) == 4 ? 0x80000000ull : 0x8000000000000000ull;
    for_lanes(m, [&](int l) {
        T v = in<T, Ftz>(a[l]);
        if (std::isnan(v)) {
            d[l] = std::is_same_v<T, float> ? uint64_t(kCanonicalNanF32) : put<double>(quiet(double(v)));
            return;
        }
        uint64_t x = put<T>(v);
        d[l] = Negate ? (x ^ sign) : (x & ~sign);
    });
}

template <class T, bool Ftz>
void fsqrt(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    RoundScope rs(inst.round);
    for_lanes(m, [&](int l) { d[l] = finish<T, Ftz, false>(std::sqrt(in<T, Ftz>(a[l]))); });
}

template <class T, bool Ftz>
void frcp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    RoundScope rs(inst.round);
    for_lanes(m, [&](int l) { d[l] = finish<T, Ftz, false>(T(1) / in<T, Ftz>(a[l])); });
}

} // namespace

void write_predicate(Warp& w, const Inst& in, LaneMask m, LaneMask result);

namespace {

template <class T, int C, bool Ftz>
void fsetp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    const LaneMask r = lane_mask(m, [&](int l) { return fcompare<T, C>(in<T, Ftz>(a[l]), in<T, Ftz>(b[l])); });
    write_predicate(w, inst, m, r);
}

template <class T>
void fselp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    LaneMask p = w.preds[inst.pc] ^ (inst.pc_negated ? ~0u : 0u);
    for_lanes(m, [&](int l) { d[l] = ((p >> l) & 1) ? a[l] : b[l]; });
}

template <class T>
void fmov(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    constexpr uint64_t mask = sizeof(T) == 4 ? 0xFFFFFFFFull : ~0ull;
    for_lanes(m, [&](int l) { d[l] = a[l] & mask; });
}

// copysign d, a, b: the sign of a with the magnitude of b (NaN payloads kept).
template <class T>
void copysign_op(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    constexpr uint64_t sign = sizeof(T) == 4 ? 0x80000000ull : 0x8000000000000000ull;
    for_lanes(m, [&](int l) { d[l] = (a[l] & sign) | (b[l] & (sign - 1)); });
}

// testp: classify; zero counts as normal (PTX ISA).
enum TestP : uint8_t { kFinite, kInfinite, kNumber, kNotANumber, kNormal, kSubnormal };
template <class T>
void testp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    const uint64_t* a = c.src(w, inst.a);
    LaneMask r = 0;
    for_lanes(m, [&](int l) {
        int k = std::fpclassify(get<T>(a[l]));
        bool v = false;
        switch (inst.aux) {
        case kFinite: v = k != FP_INFINITE && k != FP_NAN; break;
        case kInfinite: v = k == FP_INFINITE; break;
        case kNumber: v = k != FP_NAN; break;
        case kNotANumber: v = k == FP_NAN; break;
        case kNormal: v = k == FP_NORMAL || k == FP_ZERO; break;
        default: v = k == FP_SUBNORMAL; break;
        }
        if (v) r |= 1u << l;
    });
    w.preds[inst.pd] = (w.preds[inst.pd] & ~m) | (r & m);
}

// ---- selection ----
bool is_float(const std::string& t) { return t == "f32" || t == "f64"; }

OpChoice pick(ExecFn fn, Layout layout, const OpSpec& s) {
    OpChoice c;
    c.fn = fn;
    c.layout = layout;
    if (!fn) c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

template <class Op>
ExecFn binary_fn(const std::string& t, bool ftz, bool sat) {
    if (t == "f64") return (ftz || sat) ? nullptr : fbinary<double, Op, false, false>;
    if (ftz) return sat ? fbinary<float, Op, true, true> : fbinary<float, Op, true, false>;
    return sat ? fbinary<float, Op, false, true> : fbinary<float, Op, false, false>;
}

template <bool Max>
ExecFn min_max_of(const std::string& t, bool ftz, bool nan, bool xorsign) {
    if (!nan && !xorsign) return binary_fn<std::conditional_t<Max, FMax, FMin>>(t, ftz, false);
    if (t != "f32") return nullptr;                     // the modes exist for f32 (and f16, bf16)
    if (nan && xorsign) return binary_fn<FMinMaxMode<Max, true, true>>(t, ftz, false);
    if (nan) return binary_fn<FMinMaxMode<Max, true, false>>(t, ftz, false);
    return binary_fn<FMinMaxMode<Max, false, true>>(t, ftz, false);
}

ExecFn min_max_fn(const OpSpec& s, const std::string& t, bool ftz) {
    const bool nan = s.has("NaN"), xorsign = s.has("xorsign");
    if (xorsign != s.has("abs") || s.has("relu")) return nullptr;   // .xorsign comes with .abs
    return s.opcode == "max" ? min_max_of<true>(t, ftz, nan, xorsign) : min_max_of<false>(t, ftz, nan, xorsign);
}

ExecFn fma_fn(const std::string& t, bool ftz, bool sat) {
    if (t == "f64") return (ftz || sat) ? nullptr : ffma<double, false, false>;
    if (ftz) return sat ? ffma<float, true, true> : ffma<float, true, false>;
    return sat ? ffma<float, false, true> : ffma<float, false, false>;
}

template <class T, bool Ftz>
ExecFn fsetp_fn(int cmp) {
    switch (cmp) {
    case kEq: return fsetp<T, kEq, Ftz>;
    case kNe: return fsetp<T, kNe, Ftz>;
    case kLt: return fsetp<T, kLt, Ftz>;
    case kLe: return fsetp<T, kLe, Ftz>;
    case kGt: return fsetp<T, kGt, Ftz>;
    case kGe: return fsetp<T, kGe, Ftz>;
    case kEqu: return fsetp<T, kEqu, Ftz>;
    case kNeu: return fsetp<T, kNeu, Ftz>;
    case kLtu: return fsetp<T, kLtu, Ftz>;
    case kLeu: return fsetp<T, kLeu, Ftz>;
    case kGtu: return fsetp<T, kGtu, Ftz>;
    case kGeu: return fsetp<T, kGeu, Ftz>;
    case kNum: return fsetp<T, kNum, Ftz>;
    case kNan: return fsetp<T, kNan, Ftz>;
    }
    return nullptr;
}

OpChoice select_float_arith(const OpSpec& s, const std::string& t, bool ftz, bool sat, bool f32) {
    const std::string& op = s.opcode;
    bool rounded = float_round(s) >= 0;
    if (op == "add") return pick(binary_fn<FAdd>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "sub") return pick(binary_fn<FSub>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "mul") return pick(binary_fn<FMul>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "min" || op == "max") return pick(sat ? nullptr : min_max_fn(s, t, ftz), Layout::D_A_B, s);
    if (op == "fma" || op == "mad") {
        // mad.f32 without a rounding modifier is the sm_20 fused form (round to nearest).
        if (!rounded && !(op == "mad" && f32)) return pick(nullptr, Layout::D_A_B_C, s);
        return pick(fma_fn(t, ftz, sat), Layout::D_A_B_C, s);
    }
    if (op == "div" && rounded) return pick(binary_fn<FDiv>(t, ftz, false), Layout::D_A_B, s);
    if (op == "neg") return pick(f32 ? (ftz ? fsign<float, true, true> : fsign<float, false, true>) : fsign<double, false, true>, Layout::D_A, s);
    if (op == "abs") return pick(f32 ? (ftz ? fsign<float, true, false> : fsign<float, false, false>) : fsign<double, false, false>, Layout::D_A, s);
    if (op == "sqrt" && rounded) return pick(f32 ? (ftz ? fsqrt<float, true> : fsqrt<float, false>) : fsqrt<double, false>, Layout::D_A, s);
    if (op == "rcp" && rounded) return pick(f32 ? (ftz ? frcp<float, true> : frcp<float, false>) : frcp<double, false>, Layout::D_A, s);
    if (op == "mov") return pick(f32 ? fmov<float> : fmov<double>, Layout::D_A, s);
    if (op == "selp") return pick(f32 ? fselp<float> : fselp<double>, Layout::D_A_B_PC, s);
    if (op == "copysign") return pick(f32 ? copysign_op<float> : copysign_op<double>, Layout::D_A_B, s);
    if (op == "testp") {
        static const char* const kinds[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        for (int k = 0; k < 6; ++k)
            if (s.has(kinds[k])) {
                OpChoice c = pick(f32 ? testp<float> : testp<double>, Layout::PD_A, s);
                c.aux = uint8_t(k);
                return c;
            }
        return pick(nullptr, Layout::PD_A, s);
    }
    if (op == "setp") {
        int cmp = fcompare_code(s);
        ExecFn fn = f32 ? (ftz ? fsetp_fn<float, true>(cmp) : fsetp_fn<float, false>(cmp)) : fsetp_fn<double, false>(cmp);
        OpChoice c = pick(fn, Layout::PD_A_B, s);
        c.aux = s.has("and") ? 1 : s.has("or") ? 2 : s.has("xor") ? 3 : 0;
        return c;
    }
    return {};
}

} // namespace

OpChoice select_float_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    if (!is_float(t) || op == "cvt") return {};
    bool ftz = s.has("ftz"), sat = s.has("sat");
    bool f32 = t == "f32";
    int round = float_round(s);
    OpChoice c = select_float_arith(s, t, ftz, sat, f32);
    c.round = uint8_t(round < 0 ? kRn : round);
    return c;
}

} // namespace gpusim
