// f64: double-precision IEEE arithmetic and libm double functions, bit-exact against the GPU.
//
// Covers add/sub/mul/fma/div/sqrt/rcp.{rn,rz,rm,rp}.f64, plain add/sub/mul.f64, mad.rn.f64,
// min/max/neg/abs.f64, testp.*.f64, copysign.f64, setp.f64 with all 14 float compares, selp.f64,
// cvt.{rni,rzi,rmi,rpi}.f64.f64, and CUDA libm double functions (sin cos tan exp exp2 log log2
// pow sqrt rsqrt fma floor ceil trunc round rint fmod hypot cbrt atan2 erf), which compile to
// sequences of IEEE instructions (see below for the approximation seeds some of them use).
//
// PTX instructions are written with inline asm on raw .b64 registers ("l" operands), so exactly
// that instruction runs (no folding, no contraction). Inputs a, b, c are f64 bit patterns (kF64);
// d[i] = result bits, or 0/1 for a predicate. All cases are bit-exact (tolerance "").
//
// Approximation instructions inside the libm sequences (checked in f64.ptx):
//   - rsqrt(x) is the single instruction rsqrt.approx.f64 (no documented ISA bound). It is the one
//     case with a tolerance: {"type":"f64","ulp":1.5} = the CUDA Programming Guide's 1 ulp maximum
//     error of double rsqrt plus 0.5 ulp for the model's correctly rounded result.
//   - Seeds refined by Newton steps, kept bit-exact on purpose (the refined value is normally the
//     same double whatever the seed; if one of these mismatches by an ulp, the seed is the suspect):
//     tan, log, log2, cbrt, pow (rcp.approx.ftz.f64), hypot (rsqrt.approx.ftz.f64),
//     cbrt (lg2.approx.ftz.f32 + ex2.approx.ftz.f32 for the first guess).
//   - erf: ex2.approx.ftz.f32 of an integer (the output of cvt.rni.f32.f32), i.e. an exact power of 2.
// Contraction: ptxas (sm_90, default --fmad=true) fuses some plain mul.f64 + add/sub.f64 pairs of
// pow (__internal_accurate_pow) into DFMA; the code of every other kernel here is identical with
// --fmad=false. To match c_pow bit-exactly the model must contract the same pairs.
//
// Dropped variants: none.
#include "golden.cuh"
GOLDEN_FAMILY("f64", kF64, kF64, kF64)

// ---- kernel shapes -------------------------------------------------------------------------
#define K_UN(name, ins)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : "l"(a[i]));                                       \
        d[i] = r;                                                                        \
    }
#define K_BIN(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1, %2;" : "=l"(r) : "l"(a[i]), "l"(b[i]));                        \
        d[i] = r;                                                                        \
    }
#define K_TERN(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1, %2, %3;" : "=l"(r) : "l"(a[i]), "l"(b[i]), "l"(c[i]));         \
        d[i] = r;                                                                        \
    }
#define K_PRED1(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p; " ins " p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(a[i])); \
        d[i] = r;                                                                        \
    }
#define K_PRED2(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }"                 \
            : "=r"(r) : "l"(a[i]), "l"(b[i]));                                           \
        d[i] = r;                                                                        \
    }
// CUDA C expression of x = a[i], y = b[i], z = c[i] as doubles
#define K_C(name, expr)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        double x = __longlong_as_double((s64)a[i]);                                      \
        double y = __longlong_as_double((s64)b[i]);                                      \
        double z = __longlong_as_double((s64)c[i]);                                      \
        (void)x; (void)y; (void)z;                                                       \
        d[i] = (u64)__double_as_longlong(expr);                                          \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
#define RND(X, op)                                                                       \
    X(op##_rn_f64, #op ".rn.f64") X(op##_rz_f64, #op ".rz.f64")                          \
    X(op##_rm_f64, #op ".rm.f64") X(op##_rp_f64, #op ".rp.f64")

#define BIN_LIST(X)                                                                      \
    RND(X, add) RND(X, sub) RND(X, mul) RND(X, div)                                      \
    X(add_f64, "add.f64") X(sub_f64, "sub.f64") X(mul_f64, "mul.f64")                    \
    X(min_f64, "min.f64") X(max_f64, "max.f64") X(copysign_f64, "copysign.f64")

#define TERN_LIST(X) RND(X, fma) X(mad_rn_f64, "mad.rn.f64")

#define UN_LIST(X)                                                                       \
    RND(X, sqrt) RND(X, rcp)                                                             \
    X(neg_f64, "neg.f64") X(abs_f64, "abs.f64")                                          \
    X(cvt_rni_f64_f64, "cvt.rni.f64.f64") X(cvt_rzi_f64_f64, "cvt.rzi.f64.f64")          \
    X(cvt_rmi_f64_f64, "cvt.rmi.f64.f64") X(cvt_rpi_f64_f64, "cvt.rpi.f64.f64")

#define PRED1_LIST(X)                                                                    \
    X(testp_finite_f64, "testp.finite.f64") X(testp_infinite_f64, "testp.infinite.f64")  \
    X(testp_number_f64, "testp.number.f64") X(testp_notanumber_f64, "testp.notanumber.f64") \
    X(testp_normal_f64, "testp.normal.f64") X(testp_subnormal_f64, "testp.subnormal.f64")

#define SETP(X, cmp) X(setp_##cmp##_f64, "setp." #cmp ".f64")
#define PRED2_LIST(X)                                                                    \
    SETP(X, eq) SETP(X, ne) SETP(X, lt) SETP(X, le) SETP(X, gt) SETP(X, ge)              \
    SETP(X, equ) SETP(X, neu) SETP(X, ltu) SETP(X, leu) SETP(X, gtu) SETP(X, geu)        \
    SETP(X, num) SETP(X, nan)

// CUDA intrinsics (single instructions) and libm double functions (instruction sequences)
#define LIBM_LIST(X)                                                                     \
    X(c_dadd_rz, __dadd_rz(x, y))    /* add.rz.f64 */                                    \
    X(c_dmul_ru, __dmul_ru(x, y))    /* mul.rp.f64 */                                    \
    X(c_fma_rd, __fma_rd(x, y, z))   /* fma.rm.f64 */                                    \
    X(c_ddiv_rn, __ddiv_rn(x, y))    /* div.rn.f64 */                                    \
    X(c_drcp_rz, __drcp_rz(x))       /* rcp.rz.f64 */                                    \
    X(c_dsqrt_ru, __dsqrt_ru(x))     /* sqrt.rp.f64 */                                   \
    X(c_div_op, x / y)               /* div.rn.f64 */                                    \
    X(c_sin, sin(x))                                                                     \
    X(c_cos, cos(x))                                                                     \
    X(c_tan, tan(x))                 /* seed: rcp.approx.ftz.f64 + Newton */             \
    X(c_exp, exp(x))                                                                     \
    X(c_exp2, exp2(x))                                                                   \
    X(c_log, log(x))                 /* seed: rcp.approx.ftz.f64 + Newton */             \
    X(c_log2, log2(x))               /* seed: rcp.approx.ftz.f64 + Newton */             \
    X(c_pow, pow(x, y))              /* seed: rcp.approx.ftz.f64; contracted by ptxas */ \
    X(c_sqrt, sqrt(x))               /* sqrt.rn.f64 */                                   \
    X(c_fma, fma(x, y, z))           /* fma.rn.f64 */                                    \
    X(c_floor, floor(x))             /* cvt.rmi.f64.f64 */                               \
    X(c_ceil, ceil(x))               /* cvt.rpi.f64.f64 */                               \
    X(c_trunc, trunc(x))             /* cvt.rzi.f64.f64 */                               \
    X(c_round, round(x))                                                                 \
    X(c_rint, rint(x))               /* cvt.rni.f64.f64 */                               \
    X(c_fmin, fmin(x, y))            /* min.f64 */                                       \
    X(c_fmax, fmax(x, y))            /* max.f64 */                                       \
    X(c_fabs, fabs(x))               /* abs.f64 */                                       \
    X(c_copysign, copysign(x, y))    /* copysign.f64 d, y, x */                          \
    X(c_fmod, fmod(x, y))                                                                \
    X(c_hypot, hypot(x, y))          /* seed: rsqrt.approx.ftz.f64 + Newton */           \
    X(c_cbrt, cbrt(x))               /* seeds: lg2/ex2.approx.ftz.f32, rcp.approx.ftz.f64 */ \
    X(c_atan2, atan2(x, y))                                                              \
    X(c_erf, erf(x))

BIN_LIST(K_BIN)
TERN_LIST(K_TERN)
UN_LIST(K_UN)
PRED1_LIST(K_PRED1)
PRED2_LIST(K_PRED2)
LIBM_LIST(K_C)
K_C(c_rsqrt, rsqrt(x))               // rsqrt.approx.f64 (tolerance, see top)

// selp.f64: a where c's sign bit is set, b where it is clear
GOLDEN_KERNEL(selp_f64) {
    unsigned i = GOLDEN_TID;
    u64 r;
    asm("{ .reg .pred p; setp.lt.s64 p, %3, 0; selp.f64 %0, %1, %2, p; }"
        : "=l"(r) : "l"(a[i]), "l"(b[i]), "l"(c[i]));
    d[i] = r;
}

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    BIN_LIST(CASE)
    TERN_LIST(CASE)
    UN_LIST(CASE)
    PRED1_LIST(CASE)
    PRED2_LIST(CASE)
    LIBM_LIST(CASE)
    {"selp_f64", 16, 128, ""},
    {"c_rsqrt", 16, 128, "{\"type\":\"f64\",\"ulp\":1.5}"},
};
GOLDEN_MAIN
