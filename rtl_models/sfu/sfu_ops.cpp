// The special function unit: the .approx instructions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh)
// in fp32, fp16 and bf16, div.approx and div.full.
//
// `sfu.approx` in the config chooses between two behaviours (ExecContext::sfu_ideal):
// - hardware (every bundled config): the results of a Hopper GPU, bit for bit, from tables captured on an
//   H100 and the instruction sequences the GPU runs (mufu.h, approx_sequences.h, docs/sfu.md);
// - ideal: each function computed in double precision and rounded once, which lies within every
//   error bound the PTX ISA documents (reference §8.2).
#include <cmath>

#include "alu/float_common.h"
#include "alu/half.h"
#include "sfu/approx_sequences.h"
#include "sfu/fp32_bits.h"
#include "sfu/mufu.h"
#include "sfu/sfu_ops.h"

namespace gpusim {
namespace {

enum Fn : uint8_t { kRcp, kSqrt, kRsqrt, kEx2, kLg2, kSin, kCos, kTanh };

double ideal(uint8_t fn, double x) {
    switch (fn) {
    case kRcp: return 1.0 / x;
    case kSqrt: return std::sqrt(x);
    case kRsqrt: return 1.0 / std::sqrt(x);
    case kEx2: return std::exp2(x);
    case kLg2: return std::log2(x);
    case kSin: return std::sin(x);
    case kCos: return std::cos(x);
    default: return std::tanh(x);
    }
}

uint32_t hw_sin(uint32_t x, bool) { return approx::sin(x); }
uint32_t hw_cos(uint32_t x, bool) { return approx::cos(x); }
uint32_t hw_tanh(uint32_t x, bool) { return mufu::tanh(x); }

static_assert(kRcp == 0 && kSqrt == 1 && kRsqrt == 2 && kEx2 == 3 && kLg2 == 4 && kSin == 5 && kCos == 6,
              "approx::warp numbers the functions as Fn does");

using HwUnary = uint32_t (*)(uint32_t, bool);
const HwUnary kHardware[] = {approx::rcp, approx::sqrt, approx::rsqrt, approx::ex2, approx::lg2, hw_sin, hw_cos, hw_tanh};  // as Fn
static_assert(sizeof(kHardware) / sizeof(kHardware[0]) == kTanh + 1, "one entry per Fn");

template <bool Ftz>
void approx_f32(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    if (c.sfu_ideal) {
        for_lanes(m, [&](int l) { d[l] = finish<float, Ftz, false>(float(ideal(in.aux, double(gpusim::in<float, Ftz>(a[l]))))); });
        return;
    }
    const HwUnary hw = kHardware[in.aux];
    uint32_t x[kWarpSize], r[kWarpSize];
    for (int l = 0; l < kWarpSize; ++l) x[l] = uint32_t(a[l]);
    const uint32_t slow = approx::warp(in.aux, Ftz, x, r);
    for_lanes(m, [&](int l) { d[l] = (slow >> l) & 1 ? hw(x[l], Ftz) : r[l]; });
}

// div.approx: a * (1/b); for 2^126 < |b| < 2^128 the reciprocal underflows, giving a signed zero,
// or NaN when a is infinite (PTX ISA). div.full scales the operands and is accurate over the range.
template <bool Ftz, bool Full>
void div_f32(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    if (!c.sfu_ideal) {
        uint32_t x[kWarpSize], y[kWarpSize], r[kWarpSize];
        for (int l = 0; l < kWarpSize; ++l) x[l] = uint32_t(a[l]), y[l] = uint32_t(b[l]);
        const uint32_t slow = approx::div_warp(Ftz, x, y, r);
        for_lanes(m, [&](int l) {
            d[l] = !((slow >> l) & 1) ? r[l] : Full ? approx::div_full(x[l], y[l], Ftz) : approx::div_approx(x[l], y[l], Ftz);
        });
        return;
    }
    for_lanes(m, [&](int l) {
        float x = gpusim::in<float, Ftz>(a[l]), y = gpusim::in<float, Ftz>(b[l]);
        double r;
        if (!Full && std::isfinite(y) && std::fabs(y) > 0x1p126f)
            r = double(x) * std::copysign(0.0, double(y));
        else
            r = double(x) / double(y);
        d[l] = finish<float, Ftz, false>(float(r));
    });
}

// A div.approx or div.full whose last multiply ptxas fused with the add after it
// (sw/loader/contraction.h): d = [-](a / b) + [-]c, rounded once.
template <bool Ftz, bool Full>
void div_add_f32(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* z = c.src(w, in.c);
    const uint32_t na = (in.aux & kNegateProduct) ? 0x80000000u : 0, nc = (in.aux & kNegateAddend) ? 0x80000000u : 0;
    if (!c.sfu_ideal) {
        for_lanes(m, [&](int l) { d[l] = approx::div_add(uint32_t(a[l]) ^ na, uint32_t(b[l]), uint32_t(z[l]) ^ nc, Ftz, Full); });
        return;
    }
    for_lanes(m, [&](int l) {
        const float x = gpusim::in<float, Ftz>(a[l] ^ na), y = gpusim::in<float, Ftz>(b[l]), s = gpusim::in<float, Ftz>(z[l] ^ nc);
        d[l] = finish<float, Ftz, false>(float(double(x) / double(y) + double(s)));
    });
}

// ---- 16-bit forms: tanh.approx.{f16,bf16}{,x2}, ex2.approx.f16{,x2}, ex2.approx.ftz.bf16{,x2} ----

enum HalfFn : uint8_t { kTanhF16, kTanhBf16, kEx2F16, kEx2Bf16 };

double bf16_to_double(uint16_t h) { return sfu::as_float(uint32_t(h) << 16); }

// Rounds to nearest even bf16 through a float rounded to odd, which is exact for any narrower format.
uint16_t double_to_bf16(double x) {
    if (std::isnan(x)) return 0x7FFF;
    const float f = sfu::to_f32_toward_zero(x);
    uint32_t bits = sfu::as_bits(f);
    if (double(f) != x) bits |= 1;
    if ((bits & 0x7F800000u) == 0x7F800000u) return uint16_t(bits >> 16);  // overflowed to inf
    bits += 0x7FFF + ((bits >> 16) & 1);
    return uint16_t(bits >> 16);
}

uint16_t flush_bf16(uint16_t h) { return (h & 0x7F80) == 0 ? uint16_t(h & 0x8000) : h; }

uint16_t half_ideal(uint8_t fn, uint16_t h) {
    switch (fn) {
    case kTanhF16: return double_to_half(std::tanh(half_to_double(h)), kRn);
    case kEx2F16: return double_to_half(std::exp2(half_to_double(h)), kRn);
    case kTanhBf16: return double_to_bf16(std::tanh(bf16_to_double(h)));
    default: return flush_bf16(double_to_bf16(std::exp2(bf16_to_double(flush_bf16(h)))));
    }
}

uint16_t half_hardware(uint8_t fn, uint16_t h) {
    switch (fn) {
    case kTanhF16: return mufu::tanh_f16(h);
    case kEx2F16: return mufu::ex2_f16(h);
    case kTanhBf16: return mufu::tanh_bf16(h);
    default: return mufu::ex2_bf16(h);
    }
}

// One value in the low 16 bits, or two independent halves for the x2 forms (two MUFU operations).
template <bool X2>
void approx_16(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    auto one = c.sfu_ideal ? half_ideal : half_hardware;
    for_lanes(m, [&](int l) {
        uint64_t r = one(in.aux, uint16_t(a[l]));
        if constexpr (X2) r |= uint64_t(one(in.aux, uint16_t(a[l] >> 16))) << 16;
        d[l] = r;
    });
}

// rcp/rsqrt.approx.ftz.f64 read only the upper word of the operand (sign, exponent and 20 mantissa
// bits), flush subnormals, give the canonical NaN 0x7FFFFFFF00000000 and clear the low word.
template <bool Rsqrt>
void approx_ftz_f64(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) {
        double x = flush(get<double>(a[l] & 0xFFFFFFFF00000000ull));
        double r = Rsqrt ? 1.0 / std::sqrt(x) : 1.0 / x;
        d[l] = std::isnan(r) ? 0x7FFFFFFF00000000ull : put<double>(r) & 0xFFFFFFFF00000000ull;
    });
}

// rsqrt.approx.f64 (no .ftz) is a full-precision software sequence on NVIDIA GPUs.
void rsqrt_f64(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = put<double>(1.0 / std::sqrt(get<double>(a[l]))); });
}

OpChoice pick(ExecFn fn, uint8_t aux, Layout layout = Layout::D_A) {
    OpChoice c;
    c.fn = fn;
    c.aux = aux;
    c.layout = layout;
    return c;
}

// The 16-bit forms PTX has, and no others: tanh.approx.{f16,f16x2,bf16,bf16x2} (sm_75, sm_90),
// ex2.approx.{f16,f16x2} and ex2.approx.ftz.{bf16,bf16x2}.
OpChoice select_16(const OpSpec& s, bool tanh) {
    static const char* const types[] = {"f16", "f16x2", "bf16", "bf16x2"};
    int type = -1, named = 0;
    for (int k = 0; k < 4; ++k)
        if (s.has(types[k])) type = k, ++named;
    const bool ftz = s.has("ftz"), bf = type >= 2, x2 = type == 1 || type == 3;
    if (named != 1 || ftz != (!tanh && bf) || s.mods.size() != size_t(ftz ? 3 : 2)) return {};
    const uint8_t fn = tanh ? (bf ? kTanhBf16 : kTanhF16) : (bf ? kEx2Bf16 : kEx2F16);
    return pick(x2 ? approx_16<true> : approx_16<false>, fn);
}

} // namespace

void register_sfu_ops(OpRegistry& r) { r.add("sfu", select_sfu_op); }

OpChoice select_sfu_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    bool ftz = s.has("ftz");
    // A rounding modifier makes the correctly rounded form (rcp.rn, sqrt.rz, div.rn), the float
    // unit's, whatever else the instruction says (rcp.approx.rn, div.full.rn).
    for (const char* rnd : {"rn", "rz", "rm", "rp"})
        if (s.has(rnd)) return {};
    if (op == "div" && t == "f32" && (s.has("approx") || s.has("full"))) {
        bool full = s.has("full");
        return pick(ftz ? (full ? div_f32<true, true> : div_f32<true, false>) : (full ? div_f32<false, true> : div_f32<false, false>),
                    0, Layout::D_A_B);
    }
    if (op == "div+add" && t == "f32" && (s.has("approx") || s.has("full"))) {
        const bool full = s.has("full");
        return pick(ftz ? (full ? div_add_f32<true, true> : div_add_f32<true, false>)
                        : (full ? div_add_f32<false, true> : div_add_f32<false, false>),
                    0, Layout::D_A_B_C);
    }
    if (!s.has("approx")) return {};
    static const char* const names[] = {"rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh"};
    int fn = -1;
    for (int k = 0; k < 8; ++k)
        if (op == names[k]) fn = k;
    if (fn < 0) return {};
    if (t == "f32" && !(fn == kTanh && ftz)) return pick(ftz ? approx_f32<true> : approx_f32<false>, uint8_t(fn));
    if (t == "f64" && fn == kRcp && ftz) return pick(approx_ftz_f64<false>, uint8_t(fn));
    if (t == "f64" && fn == kRsqrt) return pick(ftz ? approx_ftz_f64<true> : rsqrt_f64, uint8_t(fn));
    const bool sixteen = t == "f16" || t == "f16x2" || s.has("bf16") || s.has("bf16x2");
    if (sixteen && (fn == kTanh || fn == kEx2)) {
        OpChoice c = select_16(s, fn == kTanh);
        if (c.fn) return c;
    }
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

} // namespace gpusim
