// Floating-point instructions of the ALU (fp32/fp64, round-to-nearest forms) with the GPU's rules:
// .ftz flushes subnormal inputs and results, .sat clamps to [0, 1] with NaN to +0, and fp32 NaN
// results are the canonical 0x7FFFFFFF (fp64 keeps NaN payloads).
#include <cmath>
#include <cstring>
#include <limits>

#include "sm/exec_context.h"
#include "sm/op_select.h"

namespace gpusim {
namespace {

template <class T> T flush(T x) {
    if (std::fpclassify(x) == FP_SUBNORMAL) return std::signbit(x) ? T(-0.0) : T(0.0);
    return x;
}

template <class T, bool Ftz, bool Sat>
uint64_t finish(T r) {
    if constexpr (Ftz) r = flush(r);
    if constexpr (Sat) r = std::isnan(r) ? T(0) : r < T(0) ? T(0) : r > T(1) ? T(1) : r;
    if constexpr (std::is_same_v<T, float>)
        if (std::isnan(r)) return 0x7FFFFFFFu;
    return put<T>(r);
}

template <class T, bool Ftz> T in(uint64_t v) {
    T x = get<T>(v);
    if constexpr (Ftz) x = flush(x);
    return x;
}

struct FAdd { template <class T> static T apply(T a, T b) { return a + b; } };
struct FSub { template <class T> static T apply(T a, T b) { return a - b; } };
struct FMul { template <class T> static T apply(T a, T b) { return a * b; } };
struct FDiv { template <class T> static T apply(T a, T b) { return a / b; } };
// IEEE minNum/maxNum: a NaN operand yields the other one; -0 orders below +0.
struct FMin { template <class T> static T apply(T a, T b) {
        if (std::isnan(a)) return b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? a : b;
        return a < b ? a : b;
    } };
struct FMax { template <class T> static T apply(T a, T b) {
        if (std::isnan(a)) return b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? b : a;
        return a > b ? a : b;
    } };

template <class T, class Op, bool Ftz, bool Sat>
void fbinary(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    for_lanes(m, [&](int l) { d[l] = finish<T, Ftz, Sat>(Op::apply(in<T, Ftz>(a[l]), in<T, Ftz>(b[l]))); });
}

template <class T, bool Ftz, bool Sat>
void ffma(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    const uint64_t* cc = c.src(w, inst.c);
    for_lanes(m, [&](int l) {
        d[l] = finish<T, Ftz, Sat>(std::fma(in<T, Ftz>(a[l]), in<T, Ftz>(b[l]), in<T, Ftz>(cc[l])));
    });
}

// Sign manipulation is exact bit work, NaN included.
template <class T, bool Ftz, bool Negate>
void fsign(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    constexpr uint64_t sign = sizeof(T) == 4 ? 0x80000000ull : 0x8000000000000000ull;
    for_lanes(m, [&](int l) {
        uint64_t x = put<T>(in<T, Ftz>(a[l]));
        d[l] = Negate ? (x ^ sign) : (x & ~sign);
    });
}

template <class T, bool Ftz>
void fsqrt(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    for_lanes(m, [&](int l) { d[l] = finish<T, Ftz, false>(std::sqrt(in<T, Ftz>(a[l]))); });
}

template <class T, bool Ftz>
void frcp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    for_lanes(m, [&](int l) { d[l] = finish<T, Ftz, false>(T(1) / in<T, Ftz>(a[l])); });
}

// Float compares: ordered forms are false when either input is NaN, the "u" forms are true.
enum FCmp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kEqu, kNeu, kLtu, kLeu, kGtu, kGeu, kNum, kNan };

template <class T, int C>
bool fcompare(T a, T b) {
    bool un = std::isnan(a) || std::isnan(b);
    switch (C) {
    case kEq: return !un && a == b;
    case kNe: return !un && a != b;
    case kLt: return !un && a < b;
    case kLe: return !un && a <= b;
    case kGt: return !un && a > b;
    case kGe: return !un && a >= b;
    case kEqu: return un || a == b;
    case kNeu: return un || a != b;
    case kLtu: return un || a < b;
    case kLeu: return un || a <= b;
    case kGtu: return un || a > b;
    case kGeu: return un || a >= b;
    case kNum: return !un;
    default: return un;
    }
}

} // namespace

void write_predicate(Warp& w, const Inst& in, LaneMask m, LaneMask result);

namespace {

template <class T, int C, bool Ftz>
void fsetp(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    const uint64_t* a = c.src(w, inst.a);
    const uint64_t* b = c.src(w, inst.b);
    LaneMask r = 0;
    for_lanes(m, [&](int l) { r |= LaneMask(fcompare<T, C>(in<T, Ftz>(a[l]), in<T, Ftz>(b[l]))) << l; });
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

// Float to integer with an integer rounding mode; NaN gives 0 and out-of-range values saturate,
// as cvt does on NVIDIA GPUs.
enum IntRound : uint8_t { kRni, kRzi, kRmi, kRpi };

template <class D, class S, int R, bool Ftz>
void cvt_f2i(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    for_lanes(m, [&](int l) {
        S x = in<S, Ftz>(a[l]);
        D r;
        if (std::isnan(x)) {
            // NaN gives 0, except from f64 or into a 64-bit integer, where it gives 1 << (bits - 1).
            bool zero = std::is_same_v<S, float> && sizeof(D) < 8;
            r = zero ? D(0) : D(std::make_unsigned_t<D>(1) << (sizeof(D) * 8 - 1));
        } else {
            S t = R == kRni ? std::nearbyint(x) : R == kRzi ? std::trunc(x) : R == kRmi ? std::floor(x) : std::ceil(x);
            long double v = t;
            if (v <= (long double)std::numeric_limits<D>::min()) r = std::numeric_limits<D>::min();
            else if (v >= (long double)std::numeric_limits<D>::max()) r = std::numeric_limits<D>::max();
            else r = D(v);
        }
        d[l] = put<D>(r);
    });
}

template <class D, class S, bool Ftz, bool Sat>
void cvt_f2f(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    for_lanes(m, [&](int l) {
        S x = in<S, Ftz>(a[l]);
        if constexpr (std::is_same_v<D, double> && std::is_same_v<S, float>)
            if (std::isnan(x)) {  // widening keeps the payload, quieted
                uint32_t b = uint32_t(a[l]) | 0x00400000u;
                d[l] = (uint64_t(b >> 31) << 63) | (0x7FFull << 52) | (uint64_t(b & 0x7FFFFF) << 29);
                return;
            }
        d[l] = finish<D, Ftz, Sat>(D(x));
    });
}

template <class D, class S, bool Sat>
void cvt_i2f(ExecContext& c, Warp& w, const Inst& inst, LaneMask m) {
    uint64_t* d = w.row(inst.d);
    const uint64_t* a = c.src(w, inst.a);
    for_lanes(m, [&](int l) { d[l] = finish<D, false, Sat>(D(get<S>(a[l]))); });
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

ExecFn fma_fn(const std::string& t, bool ftz, bool sat) {
    if (t == "f64") return (ftz || sat) ? nullptr : ffma<double, false, false>;
    if (ftz) return sat ? ffma<float, true, true> : ffma<float, true, false>;
    return sat ? ffma<float, false, true> : ffma<float, false, false>;
}

int fcompare_code(const OpSpec& s) {
    static const std::pair<const char*, int> names[] = {
        {"eq", kEq}, {"ne", kNe}, {"lt", kLt}, {"le", kLe}, {"gt", kGt}, {"ge", kGe}, {"equ", kEqu},
        {"neu", kNeu}, {"ltu", kLtu}, {"leu", kLeu}, {"gtu", kGtu}, {"geu", kGeu}, {"num", kNum}, {"nan", kNan}};
    for (auto& [n, code] : names)
        if (s.has(n)) return code;
    return -1;
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

int int_round(const OpSpec& s) {
    if (s.has("rni")) return kRni;
    if (s.has("rzi")) return kRzi;
    if (s.has("rmi")) return kRmi;
    if (s.has("rpi")) return kRpi;
    return -1;
}

template <class D, class S, bool Ftz>
ExecFn f2i_round(int r) {
    switch (r) {
    case kRni: return cvt_f2i<D, S, kRni, Ftz>;
    case kRzi: return cvt_f2i<D, S, kRzi, Ftz>;
    case kRmi: return cvt_f2i<D, S, kRmi, Ftz>;
    case kRpi: return cvt_f2i<D, S, kRpi, Ftz>;
    }
    return nullptr;
}

template <class S, bool Ftz>
ExecFn f2i_fn(const std::string& dt, int r) {
    if (dt == "u8") return f2i_round<uint8_t, S, Ftz>(r);
    if (dt == "s8") return f2i_round<int8_t, S, Ftz>(r);
    if (dt == "u16") return f2i_round<uint16_t, S, Ftz>(r);
    if (dt == "s16") return f2i_round<int16_t, S, Ftz>(r);
    if (dt == "u32") return f2i_round<uint32_t, S, Ftz>(r);
    if (dt == "s32") return f2i_round<int32_t, S, Ftz>(r);
    if (dt == "u64") return f2i_round<uint64_t, S, Ftz>(r);
    if (dt == "s64") return f2i_round<int64_t, S, Ftz>(r);
    return nullptr;
}

template <class D, bool Sat>
ExecFn i2f_fn(const std::string& st) {
    if (st == "u8") return cvt_i2f<D, uint8_t, Sat>;
    if (st == "s8") return cvt_i2f<D, int8_t, Sat>;
    if (st == "u16") return cvt_i2f<D, uint16_t, Sat>;
    if (st == "s16") return cvt_i2f<D, int16_t, Sat>;
    if (st == "u32") return cvt_i2f<D, uint32_t, Sat>;
    if (st == "s32") return cvt_i2f<D, int32_t, Sat>;
    if (st == "u64") return cvt_i2f<D, uint64_t, Sat>;
    if (st == "s64") return cvt_i2f<D, int64_t, Sat>;
    return nullptr;
}

OpChoice select_cvt(const OpSpec& s) {
    std::string dt = s.type(0), st = s.type(1);
    if (!is_float(dt) && !is_float(st)) return {};
    bool ftz = s.has("ftz"), sat = s.has("sat");
    if (is_float(st) && !is_float(dt)) {  // float -> int
        int r = int_round(s);
        if (r < 0 || sat) return pick(nullptr, Layout::D_A, s);
        ExecFn fn = st == "f32" ? (ftz ? f2i_fn<float, true>(dt, r) : f2i_fn<float, false>(dt, r))
                                : (ftz ? nullptr : f2i_fn<double, false>(dt, r));
        return pick(fn, Layout::D_A, s);
    }
    bool rn = s.has("rn");
    bool other_round = s.has("rz") || s.has("rm") || s.has("rp") || s.has("rni") || s.has("rzi") ||
                       s.has("rmi") || s.has("rpi");
    if (other_round) return pick(nullptr, Layout::D_A, s);
    if (!is_float(st)) {  // int -> float, round to nearest (the default the ISA requires to be named)
        if (!rn || ftz) return pick(nullptr, Layout::D_A, s);
        ExecFn fn = dt == "f32" ? (sat ? i2f_fn<float, true>(st) : i2f_fn<float, false>(st))
                                : (sat ? nullptr : i2f_fn<double, false>(st));
        return pick(fn, Layout::D_A, s);
    }
    if (dt == "f64" && st == "f32") return pick(ftz || sat ? nullptr : cvt_f2f<double, float, false, false>, Layout::D_A, s);
    if (dt == "f32" && st == "f64") {
        if (!rn) return pick(nullptr, Layout::D_A, s);
        return pick(ftz ? (sat ? cvt_f2f<float, double, true, true> : cvt_f2f<float, double, true, false>)
                        : (sat ? cvt_f2f<float, double, false, true> : cvt_f2f<float, double, false, false>),
                    Layout::D_A, s);
    }
    return pick(nullptr, Layout::D_A, s);  // same-type cvt (rounding to integer) comes with the full ISA
}

} // namespace

OpChoice select_float_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    if (op == "cvt") return select_cvt(s);
    const std::string t = s.type();
    if (!is_float(t)) return {};
    bool ftz = s.has("ftz"), sat = s.has("sat");
    bool f32 = t == "f32";
    // Only round-to-nearest forms for now; the directed roundings arrive with the full ISA work.
    if (s.has("rz") || s.has("rm") || s.has("rp")) return pick(nullptr, Layout::None, s);
    if (op == "add") return pick(binary_fn<FAdd>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "sub") return pick(binary_fn<FSub>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "mul") return pick(binary_fn<FMul>(t, ftz, sat), Layout::D_A_B, s);
    if (op == "min") return pick(sat ? nullptr : binary_fn<FMin>(t, ftz, false), Layout::D_A_B, s);
    if (op == "max") return pick(sat ? nullptr : binary_fn<FMax>(t, ftz, false), Layout::D_A_B, s);
    if (op == "fma" || op == "mad") {
        if (!s.has("rn") && !(op == "mad" && f32)) return pick(nullptr, Layout::D_A_B_C, s);
        return pick(fma_fn(t, ftz, sat), Layout::D_A_B_C, s);
    }
    if (op == "div") {
        if (!s.has("rn")) return pick(nullptr, Layout::D_A_B, s);  // approx/full come with the SFU work
        return pick(binary_fn<FDiv>(t, ftz, false), Layout::D_A_B, s);
    }
    if (op == "neg") return pick(f32 ? (ftz ? fsign<float, true, true> : fsign<float, false, true>) : fsign<double, false, true>, Layout::D_A, s);
    if (op == "abs") return pick(f32 ? (ftz ? fsign<float, true, false> : fsign<float, false, false>) : fsign<double, false, false>, Layout::D_A, s);
    if (op == "sqrt" && s.has("rn")) return pick(f32 ? (ftz ? fsqrt<float, true> : fsqrt<float, false>) : fsqrt<double, false>, Layout::D_A, s);
    if (op == "rcp" && s.has("rn")) return pick(f32 ? (ftz ? frcp<float, true> : frcp<float, false>) : frcp<double, false>, Layout::D_A, s);
    if (op == "mov") return pick(f32 ? fmov<float> : fmov<double>, Layout::D_A, s);
    if (op == "selp") return pick(f32 ? fselp<float> : fselp<double>, Layout::D_A_B_PC, s);
    if (op == "setp") {
        int cmp = fcompare_code(s);
        ExecFn fn = f32 ? (ftz ? fsetp_fn<float, true>(cmp) : fsetp_fn<float, false>(cmp)) : fsetp_fn<double, false>(cmp);
        OpChoice c = pick(fn, Layout::PD_A_B, s);
        c.aux = s.has("and") ? 1 : s.has("or") ? 2 : s.has("xor") ? 3 : 0;
        return c;
    }
    return {};
}

} // namespace gpusim
