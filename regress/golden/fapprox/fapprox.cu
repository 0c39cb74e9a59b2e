// fapprox: approximate f32/f64 instructions and the libm f32 functions, against the GPU.
//
// Covers rcp/sqrt/rsqrt/ex2/lg2/sin/cos.approx.f32 (each plain and .ftz), tanh.approx.f32,
// tanh.approx and ex2.approx in .f16 and .f16x2,
// div.approx/div.full.f32 (+.ftz), rcp.approx.ftz.f64, rsqrt.approx.f64, rsqrt.approx.ftz.f64,
// the CUDA fast intrinsics (__expf __logf __powf __sinf __cosf __fdividef rsqrtf __frsqrt_rn) and
// the libm f32 functions (sinf cosf tanf expf exp2f logf log2f powf erff sqrtf atan2f).
//
// The model reproduces the GPU's special function unit bit for bit (sfu.approx = hardware, the
// default; docs/sfu.md): every .approx f32 and f16 case here, div.approx and div.full, and so every
// intrinsic and libm function built on them, is compared exactly (""). Only the f64 forms keep a
// tolerance:
//   rcp.approx.ftz.f64, rsqrt.approx.ftz.f64: no ISA bound ("gross approximation" from the top 20
//     mantissa bits, low result word 0): {"type":"f64","rel":2^-18 = 3.815e-6}, i.e. two 2^-20
//     quantizations (input, output) plus 2^-19 for the table; our choice, not a documented bound.
//   rsqrt.approx.f64 ("emulated in software", no ISA bound): CUDA Programming Guide gives 1 ulp for
//     double rsqrt(), which is this instruction -> {"type":"f64","ulp":1.5}.
// Domain notes:
//   - sin/cos (and __sinf/__cosf): most cases map the input into [-2pi, 2pi], where the ISA bounds
//     the error, with integer operations (to2pi below: keeps sign and mantissa, replaces the
//     exponent so |x| < 6; zero, subnormal, inf and NaN inputs are left as they are). The *_100pi
//     cases map into |x| < 288 (< 100pi).
//   - div.approx: "d = a * (1/b)", including subnormal divisors and 2^126 < |b| < 2^128.
//   - __powf: the base in [2^-8, 2^9) and the exponent below 8 in magnitude (pow_base, pow_exp).
// The bf16 forms (tanh.approx.bf16, ex2.approx.ftz.bf16) need PTX for sm_90 and this family is
// built for sm_75: testbench/sfu checks them against every input instead.
#include "golden.cuh"
GOLDEN_FAMILY("fapprox", kF32, kF32, kF32)

// ---- tolerances ----------------------------------------------------------------------------
#define T_EXACT ""
#define T_RCP T_EXACT
#define T_SQRT T_EXACT
#define T_RSQRT T_EXACT
#define T_EX2 T_EXACT
#define T_LG2 T_EXACT
#define T_SINCOS T_EXACT
#define T_SINCOS100 T_EXACT
#define T_TANH T_EXACT
#define T_DIV T_EXACT
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

// CUDA intrinsics and libm f32 functions, all exact, including those built on the approximate
// instructions (__expf __logf __powf __sinf __cosf __fdividef rsqrtf tanf expf exp2f powf erff).
// atan2f has no approximation but ptxas (sm_90, --fmad=true) contracts some of its plain
// mul.f32/add.f32 pairs into FFMA; it is kept bit-exact, so the model must contract them too.
#define T_LOGF T_EXACT
#define T_POWF T_EXACT
#define T_ULP1 T_EXACT
#define T_ULP2 T_EXACT
#define T_EXPF T_EXACT
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

// one 16-bit operand (the low half of a), or two for the x2 forms
#define K_H(name, ins, tol)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short h = (unsigned short)a[i], r;                                      \
        asm(ins " %0, %1;" : "=h"(r) : "h"(h));                                          \
        d[i] = r;                                                                        \
    }
#define K_H2(name, ins, tol)                                                             \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "r"((u32)a[i]));                                  \
        d[i] = r;                                                                        \
    }
#define H_LIST(X)                                                                        \
    X(tanh_approx_f16, "tanh.approx.f16", T_EXACT)                                       \
    X(ex2_approx_f16, "ex2.approx.f16", T_EXACT)
#define H2_LIST(X)                                                                       \
    X(tanh_approx_f16x2, "tanh.approx.f16x2", T_EXACT)                                   \
    X(ex2_approx_f16x2, "ex2.approx.f16x2", T_EXACT)

UN_LIST(K_UN)
H_LIST(K_H)
H2_LIST(K_H2)
BIN_LIST(K_BIN)
F64_LIST(K_F64)
C_LIST(K_C)

#define CASE(name, ins, dom, tol) {#name, 16, 128, tol},
#define CASE_C(name, expr, domx, domy, tol) {#name, 16, 128, tol},
#define CASE_H(name, ins, tol) {#name, 16, 128, tol},
GOLDEN_CASES {
    UN_LIST(CASE)
    H_LIST(CASE_H)
    H2_LIST(CASE_H)
    BIN_LIST(CASE)
    F64_LIST(CASE)
    C_LIST(CASE_C)
};
GOLDEN_MAIN
