// cvt to and from the 8-bit floats of sm_89, two at a time (PTX ISA, cvt):
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32    d, a, b   a into the high byte of d, b the low
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2  d, a      each half of a into its byte
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}            d, a      each byte of a into its half (exact)
// Formats and rounding: alu/narrow_float.h.
#include <cmath>

#include "alu/alu_ops.h"
#include "alu/narrow_float.h"
#include "isa/exec_context.h"

namespace gpusim {
namespace {

// .relu: a negative result (and -0) gives +0; NaN stays NaN.
long double relu(long double x) { return std::signbit(x) && !std::isnan(x) ? 0.0L : x; }

template <bool E5m2>
constexpr const NarrowFormat& fp8() { return E5m2 ? kE5m2Format : kE4m3Format; }

template <bool E5m2, bool Relu>
uint64_t to_fp8(long double x) {
    return round_to_narrow(Relu ? relu(x) : x, kRn, fp8<E5m2>(), true);
}

template <bool E5m2, bool Relu>
void from_f32_pair(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    for_lanes(m, [&](int l) {
        d[l] = to_fp8<E5m2, Relu>(get<float>(a[l])) << 8 | to_fp8<E5m2, Relu>(get<float>(b[l]));
    });
}

template <bool E5m2, bool Relu>
void from_f16x2(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) {
        const long double hi = narrow_value(uint16_t(a[l] >> 16), kF16Format), lo = narrow_value(uint16_t(a[l]), kF16Format);
        d[l] = to_fp8<E5m2, Relu>(hi) << 8 | to_fp8<E5m2, Relu>(lo);
    });
}

template <bool E5m2, bool Relu>
uint64_t widen(uint64_t byte) {
    const long double x = narrow_value(uint32_t(byte & 0xFF), fp8<E5m2>());
    return round_to_narrow(Relu ? relu(x) : x, kRn, kF16Format);
}

template <bool E5m2, bool Relu>
void to_f16x2(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = widen<E5m2, Relu>(a[l] >> 8) << 16 | widen<E5m2, Relu>(a[l]); });
}

OpChoice make(ExecFn fn, Layout layout) {
    OpChoice c;
    c.fn = fn;
    c.layout = layout;
    return c;
}

template <bool E5m2>
OpChoice select_format(const OpSpec& s, bool relu) {
    const std::string d = s.type(0), a = s.type(1);
    if (d == "f16x2") return make(relu ? to_f16x2<E5m2, true> : to_f16x2<E5m2, false>, Layout::D_A);
    if (a == "f32") return make(relu ? from_f32_pair<E5m2, true> : from_f32_pair<E5m2, false>, Layout::D_A_B);
    return make(relu ? from_f16x2<E5m2, true> : from_f16x2<E5m2, false>, Layout::D_A);
}

} // namespace

OpChoice select_cvt_fp8(const OpSpec& s) {
    const std::string d = s.type(0), a = s.type(1);
    const bool down = d == "e4m3x2" || d == "e5m2x2", up = d == "f16x2" && (a == "e4m3x2" || a == "e5m2x2");
    if (s.opcode != "cvt" || (!down && !up)) return {};
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "': ";
    if (!s.has("rn") || s.has("rz") || s.has("ftz") || s.has("sat")) return c.error += "fp8 conversions round with .rn", c;
    if (down && (!s.has("satfinite") || (a != "f32" && a != "f16x2")))
        return c.error += "conversions to fp8 need .satfinite and read .f32 or .f16x2", c;
    if (up && s.has("satfinite")) return c.error += "conversions from fp8 take no .satfinite", c;
    const bool e5m2 = (down ? d : a) == "e5m2x2";
    return e5m2 ? select_format<true>(s, s.has("relu")) : select_format<false>(s, s.has("relu"));
}

} // namespace gpusim
