// The special function unit: the .approx instructions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh),
// div.approx and div.full. Real SFUs use table-driven approximations whose exact bits differ
// between GPU generations; the model computes each function in double precision and rounds once,
// which lies within every error bound the PTX ISA documents (reference §8.2). The golden tests
// compare these with a tolerance and say which bound they check.
#include <cmath>

#include "alu/float_common.h"
#include "sm/op_select.h"

namespace gpusim {
namespace {

enum Fn : uint8_t { kRcp, kSqrt, kRsqrt, kEx2, kLg2, kSin, kCos, kTanh };

double apply(uint8_t fn, double x) {
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

template <bool Ftz>
void approx_f32(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = finish<float, Ftz, false>(float(apply(in.aux, double(gpusim::in<float, Ftz>(a[l]))))); });
}

// div.approx: a * (1/b); for 2^126 < |b| < 2^128 the reciprocal underflows, giving a signed zero,
// or NaN when a is infinite (PTX ISA). div.full scales the operands and is accurate over the range.
template <bool Ftz, bool Full>
void div_f32(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
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

} // namespace

OpChoice select_sfu_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    bool ftz = s.has("ftz");
    if (op == "div" && t == "f32" && (s.has("approx") || s.has("full"))) {
        bool full = s.has("full");
        return pick(ftz ? (full ? div_f32<true, true> : div_f32<true, false>) : (full ? div_f32<false, true> : div_f32<false, false>),
                    0, Layout::D_A_B);
    }
    if (!s.has("approx")) return {};
    static const char* const names[] = {"rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh"};
    int fn = -1;
    for (int k = 0; k < 8; ++k)
        if (op == names[k]) fn = k;
    if (fn < 0) return {};
    if (t == "f32") return pick(ftz ? approx_f32<true> : approx_f32<false>, uint8_t(fn));
    if (t == "f64" && fn == kRcp && ftz) return pick(approx_ftz_f64<false>, uint8_t(fn));
    if (t == "f64" && fn == kRsqrt) return pick(ftz ? approx_ftz_f64<true> : rsqrt_f64, uint8_t(fn));
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

} // namespace gpusim
