// f32: single-precision IEEE arithmetic, bit-exact against the GPU.
//
// Covers add/sub/mul/fma/div/sqrt/rcp with .rn/.rz/.rm/.rp (each also .ftz), .sat (.rn.sat and
// .rn.ftz.sat), plain add/sub/mul.f32 (no rounding modifier), mad.rn.f32, min/max, neg/abs,
// testp.*, copysign, setp with all 14 float compares (plain and .ftz), selp.f32, the
// round-to-integral cvt.{rni,rzi,rmi,rpi}.f32.f32 (+.ftz), cvt.sat/.ftz.f32.f32, and the CUDA
// explicit-rounding intrinsics (__fadd_rz ... __fsqrt_ru, __saturatef, rintf, truncf, floorf,
// ceilf, roundf, fminf, fmaxf, fabsf, copysignf).
//
// Every PTX instruction is written with inline asm on raw .b32 registers ("r" operands), so the
// instruction in the string is exactly what runs: nothing is constant-folded and no mul+add is
// contracted into an fma (each kernel holds one arithmetic instruction). The C intrinsics are
// checked in f32.ptx to lower to the single instruction their name promises (see the list below).
// Inputs a, b, c are f32 bit patterns (kF32); d[i] = result bits zero-extended, or 0/1 for a
// predicate. All cases are bit-exact (tolerance "").
//
// Dropped variants: none.
#include "golden.cuh"
GOLDEN_FAMILY("f32", kF32, kF32, kF32)

// ---- kernel shapes -------------------------------------------------------------------------
#define K_UN(name, ins)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "r"((u32)a[i]));                                  \
        d[i] = r;                                                                        \
    }
#define K_BIN(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2;" : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]));              \
        d[i] = r;                                                                        \
    }
#define K_TERN(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2, %3;" : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]), "r"((u32)c[i])); \
        d[i] = r;                                                                        \
    }
// predicate result of a one-operand test (testp), written as 0/1
#define K_PRED1(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p; " ins " p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"((u32)a[i])); \
        d[i] = r;                                                                        \
    }
// predicate result of a two-operand compare (setp), written as 0/1
#define K_PRED2(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }"                 \
            : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]));                                 \
        d[i] = r;                                                                        \
    }
// CUDA C expression of x = a[i], y = b[i], z = c[i] as floats
#define K_C(name, expr)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        float x = __uint_as_float((u32)a[i]);                                            \
        float y = __uint_as_float((u32)b[i]);                                            \
        float z = __uint_as_float((u32)c[i]);                                            \
        (void)x; (void)y; (void)z;                                                       \
        d[i] = __float_as_uint(expr);                                                    \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
// op with the four IEEE roundings, each also with .ftz
#define RND_FTZ(X, op)                                                                   \
    X(op##_rn_f32, #op ".rn.f32") X(op##_rn_ftz_f32, #op ".rn.ftz.f32")                  \
    X(op##_rz_f32, #op ".rz.f32") X(op##_rz_ftz_f32, #op ".rz.ftz.f32")                  \
    X(op##_rm_f32, #op ".rm.f32") X(op##_rm_ftz_f32, #op ".rm.ftz.f32")                  \
    X(op##_rp_f32, #op ".rp.f32") X(op##_rp_ftz_f32, #op ".rp.ftz.f32")
// op.rn.sat and op.rn.ftz.sat
#define SAT(X, op) X(op##_rn_sat_f32, #op ".rn.sat.f32") X(op##_rn_ftz_sat_f32, #op ".rn.ftz.sat.f32")

#define BIN_LIST(X)                                                                      \
    RND_FTZ(X, add) RND_FTZ(X, sub) RND_FTZ(X, mul) RND_FTZ(X, div)                      \
    SAT(X, add) SAT(X, sub) SAT(X, mul)                                                  \
    X(add_f32, "add.f32") X(sub_f32, "sub.f32") X(mul_f32, "mul.f32")                    \
    X(add_ftz_f32, "add.ftz.f32") X(mul_ftz_f32, "mul.ftz.f32")                          \
    X(add_sat_f32, "add.sat.f32") X(mul_ftz_sat_f32, "mul.ftz.sat.f32")                  \
    X(min_f32, "min.f32") X(min_ftz_f32, "min.ftz.f32")                                  \
    X(max_f32, "max.f32") X(max_ftz_f32, "max.ftz.f32")                                  \
    X(copysign_f32, "copysign.f32")

#define TERN_LIST(X)                                                                     \
    RND_FTZ(X, fma) SAT(X, fma)                                                          \
    X(mad_rn_f32, "mad.rn.f32") X(mad_rn_ftz_f32, "mad.rn.ftz.f32")                      \
    X(mad_rz_f32, "mad.rz.f32") X(mad_rn_sat_f32, "mad.rn.sat.f32")

#define UN_LIST(X)                                                                       \
    RND_FTZ(X, sqrt) RND_FTZ(X, rcp)                                                     \
    X(neg_f32, "neg.f32") X(neg_ftz_f32, "neg.ftz.f32")                                  \
    X(abs_f32, "abs.f32") X(abs_ftz_f32, "abs.ftz.f32")                                  \
    X(mov_f32, "mov.f32")                                                                \
    X(cvt_rni_f32_f32, "cvt.rni.f32.f32") X(cvt_rni_ftz_f32_f32, "cvt.rni.ftz.f32.f32")  \
    X(cvt_rzi_f32_f32, "cvt.rzi.f32.f32") X(cvt_rzi_ftz_f32_f32, "cvt.rzi.ftz.f32.f32")  \
    X(cvt_rmi_f32_f32, "cvt.rmi.f32.f32") X(cvt_rmi_ftz_f32_f32, "cvt.rmi.ftz.f32.f32")  \
    X(cvt_rpi_f32_f32, "cvt.rpi.f32.f32") X(cvt_rpi_ftz_f32_f32, "cvt.rpi.ftz.f32.f32")  \
    X(cvt_rni_sat_f32_f32, "cvt.rni.sat.f32.f32")                                        \
    X(cvt_sat_f32_f32, "cvt.sat.f32.f32") X(cvt_ftz_sat_f32_f32, "cvt.ftz.sat.f32.f32")  \
    X(cvt_ftz_f32_f32, "cvt.ftz.f32.f32")

#define PRED1_LIST(X)                                                                    \
    X(testp_finite_f32, "testp.finite.f32") X(testp_infinite_f32, "testp.infinite.f32")  \
    X(testp_number_f32, "testp.number.f32") X(testp_notanumber_f32, "testp.notanumber.f32") \
    X(testp_normal_f32, "testp.normal.f32") X(testp_subnormal_f32, "testp.subnormal.f32")

#define SETP(X, cmp) X(setp_##cmp##_f32, "setp." #cmp ".f32") X(setp_##cmp##_ftz_f32, "setp." #cmp ".ftz.f32")
#define PRED2_LIST(X)                                                                    \
    SETP(X, eq) SETP(X, ne) SETP(X, lt) SETP(X, le) SETP(X, gt) SETP(X, ge)              \
    SETP(X, equ) SETP(X, neu) SETP(X, ltu) SETP(X, leu) SETP(X, gtu) SETP(X, geu)        \
    SETP(X, num) SETP(X, nan)

// CUDA intrinsics and what f32.ptx shows they lower to
#define C_LIST(X)                                                                        \
    X(c_fadd_rn, __fadd_rn(x, y))    /* add.rn.f32 */                                    \
    X(c_fadd_rz, __fadd_rz(x, y))    /* add.rz.f32 */                                    \
    X(c_fadd_rd, __fadd_rd(x, y))    /* add.rm.f32 */                                    \
    X(c_fadd_ru, __fadd_ru(x, y))    /* add.rp.f32 */                                    \
    X(c_fsub_rn, __fsub_rn(x, y))    /* sub.rn.f32 */                                    \
    X(c_fsub_rz, __fsub_rz(x, y))                                                        \
    X(c_fsub_rd, __fsub_rd(x, y))                                                        \
    X(c_fsub_ru, __fsub_ru(x, y))                                                        \
    X(c_fmul_rn, __fmul_rn(x, y))    /* mul.rn.f32 */                                    \
    X(c_fmul_rz, __fmul_rz(x, y))                                                        \
    X(c_fmul_rd, __fmul_rd(x, y))                                                        \
    X(c_fmul_ru, __fmul_ru(x, y))                                                        \
    X(c_fmaf_rn, __fmaf_rn(x, y, z)) /* fma.rn.f32 */                                    \
    X(c_fmaf_rz, __fmaf_rz(x, y, z))                                                     \
    X(c_fmaf_rd, __fmaf_rd(x, y, z))                                                     \
    X(c_fmaf_ru, __fmaf_ru(x, y, z))                                                     \
    X(c_fdiv_rn, __fdiv_rn(x, y))    /* div.rn.f32 */                                    \
    X(c_fdiv_rz, __fdiv_rz(x, y))                                                        \
    X(c_fdiv_rd, __fdiv_rd(x, y))                                                        \
    X(c_fdiv_ru, __fdiv_ru(x, y))                                                        \
    X(c_frcp_rn, __frcp_rn(x))       /* rcp.rn.f32 */                                    \
    X(c_frcp_rz, __frcp_rz(x))                                                           \
    X(c_frcp_rd, __frcp_rd(x))                                                           \
    X(c_frcp_ru, __frcp_ru(x))                                                           \
    X(c_fsqrt_rn, __fsqrt_rn(x))     /* sqrt.rn.f32 */                                   \
    X(c_fsqrt_rz, __fsqrt_rz(x))                                                         \
    X(c_fsqrt_rd, __fsqrt_rd(x))                                                         \
    X(c_fsqrt_ru, __fsqrt_ru(x))                                                         \
    X(c_div_op, x / y)               /* div.rn.f32 (default -prec-div=true) */           \
    X(c_sqrtf, sqrtf(x))             /* sqrt.rn.f32 (default -prec-sqrt=true) */         \
    X(c_saturatef, __saturatef(x))   /* cvt.sat.f32.f32 */                               \
    X(c_rintf, rintf(x))             /* cvt.rni.f32.f32 */                               \
    X(c_truncf, truncf(x))           /* cvt.rzi.f32.f32 */                               \
    X(c_floorf, floorf(x))           /* cvt.rmi.f32.f32 */                               \
    X(c_ceilf, ceilf(x))             /* cvt.rpi.f32.f32 */                               \
    X(c_roundf, roundf(x))           /* short exact sequence (see f32.ptx) */            \
    X(c_fminf, fminf(x, y))          /* min.f32 */                                       \
    X(c_fmaxf, fmaxf(x, y))          /* max.f32 */                                       \
    X(c_fabsf, fabsf(x))             /* abs.f32 */                                       \
    X(c_copysignf, copysignf(x, y))  /* copysign.f32 d, y, x */                          \
    X(c_fmaf, fmaf(x, y, z))         /* fma.rn.f32 */

BIN_LIST(K_BIN)
TERN_LIST(K_TERN)
UN_LIST(K_UN)
PRED1_LIST(K_PRED1)
PRED2_LIST(K_PRED2)
C_LIST(K_C)

// selp.f32: a where c's sign bit is set, b where it is clear
GOLDEN_KERNEL(selp_f32) {
    unsigned i = GOLDEN_TID;
    u32 r;
    asm("{ .reg .pred p; .reg .b32 t; shr.u32 t, %3, 31; setp.ne.b32 p, t, 0; selp.f32 %0, %1, %2, p; }"
        : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]), "r"((u32)c[i]));
    d[i] = r;
}

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    BIN_LIST(CASE)
    TERN_LIST(CASE)
    UN_LIST(CASE)
    PRED1_LIST(CASE)
    PRED2_LIST(CASE)
    C_LIST(CASE)
    {"selp_f32", 16, 128, ""},
};
GOLDEN_MAIN
