// fapprox: approximate f32/f64 instructions and the libm f32 functions, against the GPU.
//
// Covers rcp/sqrt/rsqrt/ex2/lg2/sin/cos.approx.f32 (each plain and .ftz), tanh.approx.f32,
// div.approx/div.full.f32 (+.ftz), rcp.approx.ftz.f64, rsqrt.approx.f64, rsqrt.approx.ftz.f64,
// the CUDA fast intrinsics (__expf __logf __powf __sinf __cosf __fdividef rsqrtf __frsqrt_rn) and
// the libm f32 functions (sinf cosf tanf expf exp2f logf log2f powf erff sqrtf atan2f).
//
// The GPU's approximations are not correctly rounded and the model computes them correctly
// rounded (from double-precision math), so each approximate case carries a tolerance (README:
// any of ulp/abs/rel passes). Bound = documented error bound (PTX ISA 9.2 section 9.7.3) + 0.5 ulp
// for the model's own rounding, with "rel" measured against the GPU's value:
//   rcp.approx           ulp 1 (ISA)            -> {"ulp":1.5}
//   sqrt.approx          rel 2^-23              -> {"rel":2^-23+2^-24 = 1.79e-7, "ulp":1}
//   rsqrt.approx         rel 2^-22.9 = 1.2777e-7 -> {"rel":1.2777e-7+2^-24 = 1.874e-7, "ulp":1}
//   ex2.approx           ulp 2 (full range)     -> {"ulp":2.5}
//   lg2.approx           abs 2^-22 in (0.5,2), else rel 2^-22
//                                               -> {"abs":2^-22+2^-25 = 2.69e-7, "rel":2^-22+2^-24 = 2.99e-7, "ulp":1}
//   sin/cos.approx       abs 2^-20.5 on [-2pi,2pi] -> {"abs":2^-20.5+2^-25 = 7.05e-7, "ulp":1}
//                        abs 2^-14.7 on [-100pi,100pi] (the *_100pi cases) -> {"abs":3.77e-5, "ulp":1}
//   tanh.approx          rel 2^-11              -> {"rel":2^-11+2^-24 = 4.884e-4, "ulp":1}
//   div.approx/div.full  ulp 2                  -> {"ulp":2.5}
//   rcp.approx.ftz.f64, rsqrt.approx.ftz.f64: no ISA bound ("gross approximation" from the top 20
//     mantissa bits, low result word 0): {"type":"f64","rel":2^-18 = 3.815e-6}, i.e. two 2^-20
//     quantizations (input, output) plus 2^-19 for the table; our choice, not a documented bound.
//   rsqrt.approx.f64 ("emulated in software", no ISA bound): CUDA Programming Guide gives 1 ulp for
//     double rsqrt(), which is this instruction -> {"type":"f64","ulp":1.5}.
// Domain notes:
//   - sin/cos (and __sinf/__cosf): the bound holds on [-2pi, 2pi] only, so the kernel maps the input
//     there with integer operations (to2pi below: keeps sign and mantissa, replaces the exponent
//     so |x| < 6; zero, subnormal, inf and NaN inputs are left as they are). The *_100pi cases map
//     into |x| < 288 (< 100pi) and use the 2^-14.7 bound.
//   - div.approx: "d = a * (1/b)"; the 2 ulp bound holds for |b| in [2^-126, 2^126], and for
//     2^126 < |b| < 2^128 the result is 0 (NaN for a = inf). The inputs are not restricted: the
//     model is expected to follow that definition, including subnormal divisors (1/b = inf).
//   - __powf: see C_LIST for its domain and bound.
// The composite intrinsics run the same PTX in the model, so only the approximate instructions in
// them differ: their bounds are derived from those, next to each case below. The libm functions
// whose PTX holds no .approx instruction are bit-exact (""); the ones that do are marked.
//
// Dropped variants: none rejected by ptxas for sm_75. ex2.approx.f16 / tanh.approx.f16 are left
// out (they need an f16 tolerance type).
#include "golden.cuh"
GOLDEN_FAMILY("fapprox", kF32, kF32, kF32)

// ---- tolerances ----------------------------------------------------------------------------
#define T_EXACT ""
#define T_RCP "{\"type\":\"f32\",\"ulp\":1.5}"
#define T_SQRT "{\"type\":\"f32\",\"rel\":1.79e-7,\"ulp\":1}"
#define T_RSQRT "{\"type\":\"f32\",\"rel\":1.874e-7,\"ulp\":1}"
#define T_EX2 "{\"type\":\"f32\",\"ulp\":2.5}"
#define T_LG2 "{\"type\":\"f32\",\"abs\":2.69e-7,\"rel\":2.99e-7,\"ulp\":1}"
#define T_SINCOS "{\"type\":\"f32\",\"abs\":7.05e-7,\"ulp\":1}"
#define T_SINCOS100 "{\"type\":\"f32\",\"abs\":3.77e-5,\"ulp\":1}"
#define T_TANH "{\"type\":\"f32\",\"rel\":4.884e-4,\"ulp\":1}"
#define T_DIV "{\"type\":\"f32\",\"ulp\":2.5}"
#define T_F64GROSS "{\"type\":\"f64\",\"rel\":3.815e-6}"
#define T_F64RSQRT "{\"type\":\"f64\",\"ulp\":1.5}"

// ---- input domains (integer operations only, so they are exact in the model) --------------
// |x| < 6 (< 2pi): exponent 2^-20 .. 2^2, mantissa limited to [4, 6) at the top exponent
static __device__ __forceinline__ u32 to2pi(u32 x) {
    u32 e = (x >> 23) & 0xFF;
    if (e == 0 || e == 0xFF) return x;
    u32 ne = 107 + e % 23, m = x & 0x7FFFFF;
    if (ne == 129) m &= 0x3FFFFF;
    return (x & 0x80000000u) | ne << 23 | m;
}
// |x| < 288 (< 100pi): exponent 2^-20 .. 2^8, mantissa limited to [256, 288) at the top exponent
static __device__ __forceinline__ u32 to100pi(u32 x) {
    u32 e = (x >> 23) & 0xFF;
    if (e == 0 || e == 0xFF) return x;
    u32 ne = 107 + e % 29, m = x & 0x7FFFFF;
    if (ne == 135) m &= 0x0FFFFF;
    return (x & 0x80000000u) | ne << 23 | m;
}
// __powf base: positive, in [2^-8, 2^9) (specials and subnormals kept)
static __device__ __forceinline__ u32 pow_base(u32 x) {
    u32 e = (x >> 23) & 0xFF;
    if (e == 0 || e == 0xFF) return x;
    return (119 + e % 17) << 23 | (x & 0x7FFFFF);
}
// __powf exponent: |y| < 8 (sign kept; specials and subnormals kept)
static __device__ __forceinline__ u32 pow_exp(u32 y) {
    u32 e = (y >> 23) & 0xFF;
    if (e == 0 || e == 0xFF) return y;
    return (y & 0x80000000u) | (110 + e % 20) << 23 | (y & 0x7FFFFF);
}
#define IDENT(x) (x)

// ---- kernel shapes -------------------------------------------------------------------------
// one f32 operand, mapped by dom()
#define K_UN(name, ins, dom, tol)                                                        \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "r"(dom((u32)a[i])));                             \
        d[i] = r;                                                                        \
    }
#define K_BIN(name, ins, dom, tol)                                                       \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2;" : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]));              \
        d[i] = r;                                                                        \
    }
// f64: the f32 input pattern a[i] widened exactly (cvt.f64.f32), so the f64 operand spans
// specials and a wide range of magnitudes; for finite values b[i] fills the low 29 mantissa bits
// (which makes f64 subnormals out of zeros).
#define K_F64(name, ins, dom, tol)                                                       \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        double x = (double)__uint_as_float((u32)a[i]);                                   \
        u64 xb = (u64)__double_as_longlong(x);                                           \
        if ((xb & 0x7FF0000000000000ull) != 0x7FF0000000000000ull)                       \
            xb |= (u64)((u32)b[i] & 0x1FFFFFFF);                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : "l"(xb));                                         \
        d[i] = r;                                                                        \
    }
// CUDA C expression of floats x = a[i], y = b[i], each mapped by its domain function
#define K_C(name, expr, domx, domy, tol)                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        float x = __uint_as_float(domx((u32)a[i]));                                      \
        float y = __uint_as_float(domy((u32)b[i]));                                      \
        (void)y;                                                                         \
        d[i] = __float_as_uint(expr);                                                    \
    }

// ---- variant lists (one line per case: name, instruction or expression, domain, tolerance) --
#define UN_LIST(X)                                                                       \
    X(rcp_approx_f32, "rcp.approx.f32", IDENT, T_RCP)                                    \
    X(rcp_approx_ftz_f32, "rcp.approx.ftz.f32", IDENT, T_RCP)                            \
    X(sqrt_approx_f32, "sqrt.approx.f32", IDENT, T_SQRT)                                 \
    X(sqrt_approx_ftz_f32, "sqrt.approx.ftz.f32", IDENT, T_SQRT)                         \
    X(rsqrt_approx_f32, "rsqrt.approx.f32", IDENT, T_RSQRT)                              \
    X(rsqrt_approx_ftz_f32, "rsqrt.approx.ftz.f32", IDENT, T_RSQRT)                      \
    X(ex2_approx_f32, "ex2.approx.f32", IDENT, T_EX2)                                    \
    X(ex2_approx_ftz_f32, "ex2.approx.ftz.f32", IDENT, T_EX2)                            \
    X(lg2_approx_f32, "lg2.approx.f32", IDENT, T_LG2)                                    \
    X(lg2_approx_ftz_f32, "lg2.approx.ftz.f32", IDENT, T_LG2)                            \
    X(sin_approx_f32, "sin.approx.f32", to2pi, T_SINCOS)                                 \
    X(sin_approx_ftz_f32, "sin.approx.ftz.f32", to2pi, T_SINCOS)                         \
    X(cos_approx_f32, "cos.approx.f32", to2pi, T_SINCOS)                                 \
    X(cos_approx_ftz_f32, "cos.approx.ftz.f32", to2pi, T_SINCOS)                         \
    X(sin_approx_100pi_f32, "sin.approx.f32", to100pi, T_SINCOS100)                      \
    X(cos_approx_ftz_100pi_f32, "cos.approx.ftz.f32", to100pi, T_SINCOS100)              \
    X(tanh_approx_f32, "tanh.approx.f32", IDENT, T_TANH)

#define BIN_LIST(X)                                                                      \
    X(div_approx_f32, "div.approx.f32", IDENT, T_DIV)                                    \
    X(div_approx_ftz_f32, "div.approx.ftz.f32", IDENT, T_DIV)                            \
    X(div_full_f32, "div.full.f32", IDENT, T_DIV)                                        \
    X(div_full_ftz_f32, "div.full.ftz.f32", IDENT, T_DIV)

#define F64_LIST(X)                                                                      \
    X(rcp_approx_ftz_f64, "rcp.approx.ftz.f64", IDENT, T_F64GROSS)                       \
    X(rsqrt_approx_ftz_f64, "rsqrt.approx.ftz.f64", IDENT, T_F64GROSS)                   \
    X(rsqrt_approx_f64, "rsqrt.approx.f64", IDENT, T_F64RSQRT)

// CUDA intrinsics and libm f32 functions. Tolerances of the composites (see their PTX):
//   __expf = ex2.approx(x * log2e): the same mul.f32 in the model, so only ex2 differs: T_EX2.
//   __logf = lg2.approx(x) * ln2 (mul.f32): |lg2 diff| <= 2^-22+2^-25 for x in (0.5,2), times
//     0.6931 plus one rounding of a result < 0.7 (2^-24): abs 2.5e-7; elsewhere rel 2^-22+2^-24 plus
//     two roundings (2 * 2^-24): rel 4.2e-7.
//   __powf = ex2(y * lg2(x)), x in [2^-8, 2^9) and |y| < 8 (pow_base/pow_exp), so |lg2 x| <= 9 and
//     |p| = |y lg2 x| < 72 (normal results only): |lg2 diff| <= 1.25 * 2^-22 * max(1, |lg2 x|)
//     <= 2.68e-6, |p diff| <= 8 * 2.68e-6 + ulp(p) (2^-17) = 2.91e-5, result rel diff
//     <= ln2 * 2.91e-5 + 2.5 ulp (3e-7) = 2.05e-5: rel 2.5e-5.
//   __frsqrt_rn: rsqrt.approx.ftz seed + one Newton step + a correctly rounding final fma; it is
//     documented as round-to-nearest, so the seed should not show: {"ulp":1} only covers that.
// libm f32 functions whose PTX holds an approximate instruction (the others are bit-exact):
//   exp2f = ex2.approx.f32 itself: T_EX2.
//   expf: exact reduction, ex2.approx.ftz.f32 of |r| <= 0.5, times 2^k (exact for normal results;
//     a subnormal result is rounded once more, so 2.5 ulp can become 3): {"ulp":3}.
//   erff (|x| >= 1.0029): 1 - ex2.approx.ftz(t), with ex2 < 0.37: a 2.5-ulp difference of ex2
//     (<= 2.5 * 2^-25) plus both roundings of the subtraction (results in [0.63, 1)) is <= 2.25 ulp:
//     T_EX2. Smaller |x| are exact (a polynomial).
//   tanf: odd quadrants return rcp.approx.ftz(-t) with no refinement: T_RCP (even ones are exact).
//   powf: rcp.approx.ftz.f32 seed of 1/(m+1) inside log2, followed by a residual correction (fma)
//     that cancels the seed error to second order in a hi/lo pair; only a rounding-boundary flip
//     of the final result can remain: {"ulp":2}.
// atan2f has no approximation but ptxas (sm_90, --fmad=true) contracts some of its plain
// mul.f32/add.f32 pairs into FFMA; it is kept bit-exact, so the model must contract them too.
#define T_LOGF "{\"type\":\"f32\",\"abs\":2.5e-7,\"rel\":4.2e-7}"
#define T_POWF "{\"type\":\"f32\",\"rel\":2.5e-5}"
#define T_ULP1 "{\"type\":\"f32\",\"ulp\":1}"
#define T_ULP2 "{\"type\":\"f32\",\"ulp\":2}"
#define T_EXPF "{\"type\":\"f32\",\"ulp\":3}"
#define C_LIST(X)                                                                        \
    X(c_expf_fast, __expf(x), IDENT, IDENT, T_EX2)                                       \
    X(c_logf_fast, __logf(x), IDENT, IDENT, T_LOGF)                                      \
    X(c_powf_fast, __powf(x, y), pow_base, pow_exp, T_POWF)                              \
    X(c_sinf_fast, __sinf(x), to2pi, IDENT, T_SINCOS)                                    \
    X(c_cosf_fast, __cosf(x), to2pi, IDENT, T_SINCOS)                                    \
    X(c_fdividef, __fdividef(x, y), IDENT, IDENT, T_DIV)                                 \
    X(c_rsqrtf, rsqrtf(x), IDENT, IDENT, T_RSQRT)                                        \
    X(c_frsqrt_rn, __frsqrt_rn(x), IDENT, IDENT, T_ULP1)                                 \
    X(c_sinf, sinf(x), IDENT, IDENT, T_EXACT)                                            \
    X(c_cosf, cosf(x), IDENT, IDENT, T_EXACT)                                            \
    X(c_tanf, tanf(x), IDENT, IDENT, T_RCP)                                              \
    X(c_expf, expf(x), IDENT, IDENT, T_EXPF)                                             \
    X(c_exp2f, exp2f(x), IDENT, IDENT, T_EX2)                                            \
    X(c_logf, logf(x), IDENT, IDENT, T_EXACT)                                            \
    X(c_log2f, log2f(x), IDENT, IDENT, T_EXACT)                                          \
    X(c_powf, powf(x, y), IDENT, IDENT, T_ULP2)                                          \
    X(c_erff, erff(x), IDENT, IDENT, T_EX2)                                              \
    X(c_sqrtf, sqrtf(x), IDENT, IDENT, T_EXACT)                                          \
    X(c_atan2f, atan2f(x, y), IDENT, IDENT, T_EXACT)

UN_LIST(K_UN)
BIN_LIST(K_BIN)
F64_LIST(K_F64)
C_LIST(K_C)

#define CASE(name, ins, dom, tol) {#name, 16, 128, tol},
#define CASE_C(name, expr, domx, domy, tol) {#name, 16, 128, tol},
GOLDEN_CASES {
    UN_LIST(CASE)
    BIN_LIST(CASE)
    F64_LIST(CASE)
    C_LIST(CASE_C)
};
GOLDEN_MAIN
