// cvt with a float on either side: float <-> integer, float <-> float (f16, bf16, tf32, f32, f64),
// and rounding to an integral value. Rounding modes (.rn .rz .rm .rp and .rni .rzi .rmi .rpi), .ftz and .sat
// follow the PTX ISA; float -> integer saturates to the destination range and NaN gives 0, or
// 1 << (bits - 1) from .f64 or into a 64-bit integer (measured on the H200, reference §8.3).
#include <cmath>
#include <limits>

#include "alu/float_common.h"
#include "alu/half.h"
#include "alu/rounding.h"
#include "alu/alu_ops.h"

namespace gpusim {
namespace {

enum IntRound : uint8_t { kRni, kRzi, kRmi, kRpi };
enum Flags : uint8_t { kFtz = 1, kSat = 2, kSatFinite = 4, kRelu = 8 };

// Operand types: integers by signedness and width, and the three float formats.
enum class Kind : uint8_t { U8, S8, U16, S16, U32, S32, U64, S64, F16, F32, F64, BF16, TF32, None };

Kind kind_of(const std::string& t) {
    static const std::pair<const char*, Kind> names[] = {
        {"u8", Kind::U8}, {"s8", Kind::S8}, {"u16", Kind::U16}, {"s16", Kind::S16}, {"b16", Kind::U16},
        {"u32", Kind::U32}, {"s32", Kind::S32}, {"b32", Kind::U32}, {"u64", Kind::U64}, {"s64", Kind::S64},
        {"b64", Kind::U64}, {"f16", Kind::F16}, {"f32", Kind::F32}, {"f64", Kind::F64}, {"bf16", Kind::BF16},
        {"tf32", Kind::TF32}};
    for (auto& [n, k] : names)
        if (t == n) return k;
    return Kind::None;
}
bool is_float(Kind k) { return k >= Kind::F16 && k <= Kind::TF32; }
// Every value of s is one of d: the conversion is exact and takes no rounding modifier.
bool widens(Kind d, Kind s) {
    return (d == Kind::F64 && (s == Kind::F32 || s == Kind::F16 || s == Kind::BF16)) ||
           (d == Kind::F32 && (s == Kind::F16 || s == Kind::BF16));
}
int bits_of(Kind k) {
    switch (k) {
    case Kind::U8: case Kind::S8: return 8;
    case Kind::U16: case Kind::S16: case Kind::F16: case Kind::BF16: return 16;
    case Kind::U32: case Kind::S32: case Kind::F32: case Kind::TF32: return 32;
    default: return 64;
    }
}
bool is_signed(Kind k) { return k == Kind::S8 || k == Kind::S16 || k == Kind::S32 || k == Kind::S64; }

// A float source as long double (exact for all three formats); NaN stays NaN.
long double float_value(Kind k, uint64_t bits, bool ftz) {
    if (k == Kind::F16) return half_to_double(uint16_t(bits));
    if (k == Kind::BF16) return narrow_value(uint16_t(bits), kBf16Format);
    if (k == Kind::F32) {
        float f = get<float>(bits);
        return ftz ? flush(f) : f;
    }
    return get<double>(bits);
}

long double int_value(Kind k, uint64_t bits) {
    switch (k) {
    case Kind::U8: return uint8_t(bits);
    case Kind::S8: return int8_t(bits);
    case Kind::U16: return uint16_t(bits);
    case Kind::S16: return int16_t(bits);
    case Kind::U32: return uint32_t(bits);
    case Kind::S32: return int32_t(bits);
    case Kind::U64: return uint64_t(bits);
    default: return int64_t(bits);
    }
}

long double round_integral(long double x, uint8_t r) {
    switch (r) {
    case kRzi: return std::trunc(x);
    case kRmi: return std::floor(x);
    case kRpi: return std::ceil(x);
    default: return std::nearbyint(x);  // the host is in round-to-nearest-even here
    }
}

// Float -> integer: round, then clamp to the destination range (cvt always saturates).
uint64_t to_int(Kind d, long double x, uint8_t r, bool from_f64) {
    int bits = bits_of(d);
    if (std::isnan(x)) {
        bool zero = !from_f64 && bits < 64;
        return zero ? 0 : (uint64_t(1) << (bits - 1));
    }
    long double t = round_integral(x, r);
    long double lo = is_signed(d) ? -std::ldexp(1.0L, bits - 1) : 0.0L;
    long double hi = is_signed(d) ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
    if (t < lo) t = lo;
    if (t > hi) t = hi;
    uint64_t v = is_signed(d) ? uint64_t(int64_t(t)) : uint64_t(t);
    return bits == 64 ? v : v & ((uint64_t(1) << bits) - 1);
}

// A value (exact, as long double) rounded into float format d with rounding r.
uint64_t to_float(Kind d, long double x, uint8_t r, uint8_t flags) {
    bool ftz = flags & kFtz, sat = flags & kSat;
    if (d == Kind::F16 || d == Kind::BF16 || d == Kind::TF32) {  // .ftz flushes f32 inputs only
        if (sat) x = !(x > 0) ? 0.0L : x > 1 ? 1.0L : x;
        if ((flags & kRelu) && std::signbit(x)) x = 0.0L;   // .relu: negative results (and -0) give +0
        if (d == Kind::TF32) return uint64_t(round_to_narrow(x, r, kTf32Format, flags & kSatFinite)) << 13;
        return round_to_narrow(x, r, d == Kind::F16 ? kF16Format : kBf16Format, flags & kSatFinite);
    }
    RoundScope rs(r);
    if (d == Kind::F32) {
        float f = float(x);
        return ftz ? (sat ? finish<float, true, true>(f) : finish<float, true, false>(f))
                   : (sat ? finish<float, false, true>(f) : finish<float, false, false>(f));
    }
    double v = double(x);
    return sat ? finish<double, false, true>(v) : finish<double, false, false>(v);
}

struct CvtCode {
    Kind d, s;
    uint8_t round, flags;
    bool integral;  // float -> same float with .rni etc.
};

// The code travels in Inst::offset (unused by non-memory instructions).
uint64_t pack(const CvtCode& k) {
    return uint64_t(k.d) | uint64_t(k.s) << 8 | uint64_t(k.round) << 16 | uint64_t(k.flags) << 24 | uint64_t(k.integral) << 32;
}
CvtCode unpack(uint64_t v) {
    return {Kind(v & 0xFF), Kind((v >> 8) & 0xFF), uint8_t((v >> 16) & 0xFF), uint8_t((v >> 24) & 0xFF), ((v >> 32) & 1) != 0};
}

// NaN results as the H200 gives them: f64 keeps its payload, quieted; narrowing from f64 keeps
// the sign and the top payload bits, quieted; f32 -> f64 keeps the payload unless .ftz, which
// returns the canonical f32 NaN widened; f16 -> f64 keeps the sign and payload, quieted;
// everything else is the canonical NaN of the destination.
uint64_t nan_result(const CvtCode& k, uint64_t bits) {
    if (k.flags & kSat) return 0;
    const uint64_t sign = bits >> 63, mant = bits & 0xFFFFFFFFFFFFFull;
    if (k.d == Kind::F64 && k.s == Kind::F64) return bits | kQuietBitF64;
    if (k.s == Kind::BF16 && k.d == Kind::F32) return (bits & 0xFFFF) << 16;  // a shift: sign and payload kept
    if (k.s == Kind::BF16 && k.d == Kind::F64) return nan_result({k.d, Kind::F32, k.round, k.flags, false}, (bits & 0xFFFF) << 16);
    if (k.s == Kind::F64 && k.d == Kind::BF16) return (sign << 15) | 0x7FC0u | (mant >> 45);
    if (k.d == Kind::F64 && k.s == Kind::F32) {
        if (k.flags & kFtz) return 0x7FFFFFFFE0000000ull;
        uint32_t b = uint32_t(bits) | 0x00400000u;
        return (uint64_t(b >> 31) << 63) | (0x7FFull << 52) | (uint64_t(b & 0x7FFFFF) << 29);
    }
    if (k.d == Kind::F64 && k.s == Kind::F16)
        return (uint64_t(bits >> 15 & 1) << 63) | (0x7FFull << 52) | kQuietBitF64 | (uint64_t(bits & 0x3FF) << 42);
    if (k.s == Kind::F64 && k.d == Kind::F32) return (sign << 31) | 0x7FC00000u | (mant >> 29);
    if (k.s == Kind::F64 && k.d == Kind::F16) return (sign << 15) | 0x7E00u | (mant >> 42);
    if (k.d == Kind::BF16) return kBf16Format.nan;
    if (k.d == Kind::TF32) return uint64_t(kTf32Format.nan) << 13;
    return k.d == Kind::F32 ? kCanonicalNanF32 : k.d == Kind::F16 ? kCanonicalNanF16 : 0x7FFFFFFFFFFFFFFFull;
}

// cvt.rna{.satfinite}.tf32.f32, as the H100 does it: the f32 bits rounded half away from zero by
// an integer add, except that an all-ones exponent (NaN, infinity) is truncated; .satfinite then
// takes one unit off any result with that exponent, so NaN stays NaN with a smaller payload and
// infinity gives the largest finite value (regress/golden/narrow_float).
uint64_t tf32_rna(uint64_t bits, bool satfinite) {
    constexpr uint32_t kDropped = 0x1FFF, kExp = 0x7F800000;
    uint32_t b = uint32_t(bits);
    b = (b & kExp) == kExp ? b & ~kDropped : (b + 0x1000) & ~kDropped;
    if (satfinite && (b & kExp) == kExp) b -= kDropped + 1;
    return b;
}

uint64_t convert(const CvtCode& k, uint64_t bits) {
    if (k.d == Kind::TF32 && k.round == kRna) return tf32_rna(bits, k.flags & kSatFinite);
    bool ftz = k.flags & kFtz;
    if (!is_float(k.s)) return to_float(k.d, int_value(k.s, bits), k.round, k.flags);
    long double x = float_value(k.s, bits, ftz && k.s == Kind::F32);
    if (!is_float(k.d)) return to_int(k.d, x, k.round, k.s == Kind::F64);
    if (std::isnan(x)) return nan_result(k, bits);
    if (k.integral) x = round_integral(x, k.round);
    return to_float(k.d, x, k.integral ? uint8_t(kRn) : k.round, k.flags);
}

// cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a converted into the high half, b into
// the low.
void cvt_pair(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const CvtCode k = unpack(uint64_t(in.offset));
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    for_lanes(m, [&](int l) { d[l] = convert(k, a[l]) << 16 | convert(k, b[l]); });
}

void cvt(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const CvtCode k = unpack(uint64_t(in.offset));
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const bool sign = !is_float(k.d) && is_signed(k.d);
    for_lanes(m, [&](int l) { d[l] = extend_to_register(convert(k, a[l]), unsigned(bits_of(k.d) / 8), sign, in.width); });
}

OpChoice fail(const OpSpec& s, const char* why) {
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "': " + why;
    return c;
}

OpChoice select_cvt_pair(const OpSpec& s) {
    if (s.type(1) != "f32") return fail(s, "a .f16x2 or .bf16x2 cvt converts two .f32 values");
    const int fr = float_round(s);
    if (fr != kRn && fr != kRz) return fail(s, "a .f16x2 or .bf16x2 cvt rounds with .rn or .rz");
    if (s.has("ftz") || s.has("sat")) return fail(s, "a .f16x2 or .bf16x2 cvt takes .relu and .satfinite only");
    CvtCode k{s.type(0) == "bf16x2" ? Kind::BF16 : Kind::F16, Kind::F32, uint8_t(fr), 0, false};
    if (s.has("relu")) k.flags |= kRelu;
    if (s.has("satfinite")) k.flags |= kSatFinite;
    OpChoice c;
    c.fn = cvt_pair;
    c.layout = Layout::D_A_B;
    c.code = pack(k);
    return c;
}

} // namespace

OpChoice select_cvt_op(const OpSpec& s) {
    if (s.opcode != "cvt") return {};
    if (s.type(0) == "f16x2" && s.type(1) == "f32") return select_cvt_pair(s);
    if (s.type(0) == "bf16x2") return select_cvt_pair(s);
    if (OpChoice c = select_cvt_fp8(s); c.fn || !c.error.empty()) return c;
    CvtCode k{kind_of(s.type(0)), kind_of(s.type(1)), 0, 0, false};
    if (k.d == Kind::None || k.s == Kind::None || (!is_float(k.d) && !is_float(k.s))) return {};
    if (s.has("ftz")) k.flags |= kFtz;
    if (s.has("sat")) k.flags |= kSat;
    if (s.has("satfinite")) k.flags |= kSatFinite;
    if (s.has("relu")) {
        if ((k.d != Kind::F16 && k.d != Kind::BF16 && k.d != Kind::TF32) || k.s != Kind::F32)
            return fail(s, ".relu converts f32 to f16, bf16 or tf32 only");
        k.flags |= kRelu;
    }
    int fr = float_round(s);
    if (s.has("rna")) {                          // ties away: tf32 only
        if (k.d != Kind::TF32 || fr >= 0) return fail(s, ".rna rounds f32 to tf32 only");
        fr = kRna;
    }
    if (k.d == Kind::TF32 && (k.s != Kind::F32 || (fr != kRna && fr != kRn && fr != kRz)))
        return fail(s, "a .tf32 cvt converts .f32 with .rna, .rn or .rz");
    if (k.s == Kind::TF32) return fail(s, "no cvt reads .tf32");
    int ir = s.has("rni") ? kRni : s.has("rzi") ? kRzi : s.has("rmi") ? kRmi : s.has("rpi") ? kRpi : -1;
    if (fr >= 0 && ir >= 0) return fail(s, "two rounding modifiers");
    bool narrowing = is_float(k.d) && is_float(k.s) && k.d != k.s && !widens(k.d, k.s);
    if (!is_float(k.d)) {                        // float -> integer: integer rounding required
        if (ir < 0) return fail(s, "a float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
        k.round = uint8_t(ir);
    } else if (!is_float(k.s) || narrowing) {    // integer -> float or narrowing: float rounding required
        if (fr < 0) return fail(s, "this cvt needs .rn, .rz, .rm or .rp");
        k.round = uint8_t(fr);
    } else if (k.d == k.s) {                     // same format: round to integral
        if (ir < 0 && !k.flags) return fail(s, "a same-type float cvt needs .rni, .rzi, .rmi, .rpi, .ftz or .sat");
        k.integral = ir >= 0;
        k.round = uint8_t(ir < 0 ? kRni : ir);
    } else if (fr >= 0 || ir >= 0) {             // widening is exact
        return fail(s, "widening float cvt takes no rounding modifier");
    }
    OpChoice c;
    c.fn = cvt;
    c.layout = Layout::D_A;
    c.code = pack(k);
    return c;
}

} // namespace gpusim
