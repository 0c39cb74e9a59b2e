#include "sfu/approx_sequences.h"

#include <cmath>
#include <limits>

#include "sfu/fp32_bits.h"
#include "sfu/mufu.h"

namespace gpusim::approx {
namespace {

constexpr uint32_t kNan = 0x7FFFFFFFu;
constexpr float kTiny = std::numeric_limits<float>::min();  // 2^-126: below it, operands are scaled up
constexpr float kHuge = 0x1p126f;                           // above it, a reciprocal would be subnormal
constexpr float kUp = 0x1p24f;                              // the scale for tiny operands
constexpr float kSqrtUp = 0x1p12f, kSqrtUpInv = 0x1p-12f;   // its square root, to undo it
constexpr float kUpLog2 = 24.0f;

float f(uint32_t bits) { return sfu::as_float(bits); }
uint32_t u(float v) { return sfu::as_bits(v); }

// Every fp32 NaN a GPU instruction produces is 0x7FFFFFFF.
uint32_t canon(uint32_t r) { return (r & 0x7FFFFFFFu) > 0x7F800000u ? kNan : r; }

float flush(float v) { return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v; }

// FMUL.FTZ: subnormal operands read as zero, and a product whose exact value is below the normal
// range is zero (tininess before rounding).
float mul_ftz(float a, float b) {
    a = flush(a);
    b = flush(b);
    const double wide = double(a) * double(b);
    if (wide != 0 && std::fabs(wide) < double(kTiny)) return float(std::copysign(0.0, wide));
    return a * b;
}

// FMUL.RZ: the exact product (a double holds it) truncated to fp32.
float mul_rz(float a, float b) { return sfu::to_f32_toward_zero(double(a) * double(b)); }

bool tiny(float v) { return std::fabs(v) < kTiny; }  // the negated FSETP.GEU: NaN is not tiny

// 1/(2*pi) as the compiler writes it into FMUL.RZ before MUFU.SIN and MUFU.COS.
constexpr float kInvTwoPi = 0.15915493667125701904f;

} // namespace

uint32_t rcp(uint32_t x, bool ftz) {
    if (ftz) return mufu::rcp(x);
    const float v = f(x);
    const float scale = std::fabs(v) > kHuge ? 0.25f : tiny(v) ? kUp : 1.0f;
    return canon(u(scale * f(mufu::rcp(u(scale * v)))));
}

uint32_t sqrt(uint32_t x, bool ftz) {
    if (ftz || !tiny(f(x))) return mufu::sqrt(x);
    return canon(u(f(mufu::sqrt(u(f(x) * kUp))) * kSqrtUpInv));
}

uint32_t rsqrt(uint32_t x, bool ftz) {
    if (ftz || !tiny(f(x))) return mufu::rsqrt(x);
    return canon(u(f(mufu::rsqrt(u(f(x) * kUp))) * kSqrtUp));
}

// Below -126 the result is subnormal: the sequence halves the argument and squares the result.
uint32_t ex2(uint32_t x, bool ftz) {
    if (ftz || !(f(x) < -126.0f)) return mufu::ex2(x);
    const float half = f(mufu::ex2(u(f(x) * 0.5f)));
    return canon(u(half * half));
}

uint32_t lg2(uint32_t x, bool ftz) {
    if (ftz || !tiny(f(x))) return mufu::lg2(x);
    return canon(u(f(mufu::lg2(u(f(x) * kUp))) - kUpLog2));
}

uint32_t sin(uint32_t x) { return mufu::sin(u(mul_rz(f(x), kInvTwoPi))); }
uint32_t cos(uint32_t x) { return mufu::cos(u(mul_rz(f(x), kInvTwoPi))); }

namespace {
// What div.approx and div.full hand to their last multiply: the dividend scaled as the divisor
// was, and MUFU.RCP of the scaled divisor. Without .ftz a subnormal divisor scales both operands
// by 2^24; div.full also scales a divisor above 2^126 down by 4, so its reciprocal stays normal.
struct Quotient {
    float x, r;
};

Quotient scaled_quotient(uint32_t a, uint32_t b, bool ftz, bool full) {
    float x = f(a), y = f(b);
    if (ftz) {
        if (full && std::fabs(flush(y)) > kHuge) {
            y = mul_ftz(y, 0.25f);
            x = mul_ftz(x, 0.25f);
        }
        return {x, f(mufu::rcp(u(y)))};
    }
    if (full && std::fabs(y) > kHuge) {
        y *= 0.25f;
        x *= 0.25f;
    }
    if (tiny(y)) {
        y *= kUp;
        x *= kUp;
    }
    return {x, f(mufu::rcp(u(y)))};
}

// FFMA(.FTZ): x*y+z rounded once; .ftz reads subnormal inputs as zero and gives zero for a result
// whose exact value is below the normal range.
float fma_f32(float x, float y, float z, bool ftz) {
    if (!ftz) return std::fma(x, y, z);
    x = flush(x);
    y = flush(y);
    z = flush(z);
    const double wide = std::fma(double(x), double(y), double(z));
    if (wide != 0 && std::fabs(wide) < double(kTiny)) return float(std::copysign(0.0, wide));
    return std::fma(x, y, z);
}
} // namespace

uint32_t div_approx(uint32_t a, uint32_t b, bool ftz) {
    const Quotient q = scaled_quotient(a, b, ftz, false);
    return canon(u(ftz ? mul_ftz(q.r, q.x) : q.r * q.x));
}

uint32_t div_full(uint32_t a, uint32_t b, bool ftz) {
    const Quotient q = scaled_quotient(a, b, ftz, true);
    return canon(u(ftz ? mul_ftz(q.r, q.x) : q.r * q.x));
}

uint32_t div_add(uint32_t a, uint32_t b, uint32_t c, bool ftz, bool full) {
    const Quotient q = scaled_quotient(a, b, ftz, full);
    return canon(u(fma_f32(q.r, q.x, f(c), ftz)));
}

namespace {
// Lanes whose operand is above 2^126 in magnitude (rcp and the divisions scale them).
uint32_t huge_lanes(const uint32_t* x) {
    uint32_t lanes = 0;
    for (int l = 0; l < 32; ++l) lanes |= uint32_t((x[l] & 0x7FFFFFFFu) > u(kHuge)) << l;
    return lanes;
}
} // namespace

// Where no sequence scales the operand, the instruction's result is MUFU's: the lanes of special
// operands (tiny ones among them) come back set from mufu's warp functions, and the other scaled
// cases are set here.
uint32_t warp(uint8_t fn, bool ftz, const uint32_t* x, uint32_t* out) {
    switch (fn) {
    case 0: return mufu::rcp_warp(x, out) | (ftz ? 0 : huge_lanes(x));
    case 1: return mufu::sqrt_warp(x, out);
    case 2: return mufu::rsqrt_warp(x, out);
    case 3: {
        uint32_t below = 0;
        if (!ftz)
            for (int l = 0; l < 32; ++l) below |= uint32_t(f(x[l]) < -126.0f) << l;
        return mufu::ex2_warp(x, out) | below;
    }
    case 4: return mufu::lg2_warp(x, out);   // the lanes it hands back include the tiny ones the sequence scales
    case 5:
    case 6: {
        uint32_t revolutions[32];
        for (int l = 0; l < 32; ++l) revolutions[l] = u(mul_rz(f(x[l]), kInvTwoPi));
        return fn == 5 ? mufu::sin_warp(revolutions, out) : mufu::cos_warp(revolutions, out);
    }
    default: return 0xFFFFFFFFu;   // tanh: lane by lane
    }
}

// A divisor that is neither tiny (rcp_warp sets those) nor above 2^126 leaves both operands as
// they are, in div.approx and div.full alike.
uint32_t div_warp(bool ftz, const uint32_t* a, const uint32_t* b, uint32_t* out) {
    const uint32_t slow = mufu::rcp_warp(b, out) | huge_lanes(b);
    for (int l = 0; l < 32; ++l) {
        const float r = f(out[l]), x = f(a[l]);
        out[l] = canon(u(ftz ? mul_ftz(r, x) : r * x));
    }
    return slow;
}

} // namespace gpusim::approx
