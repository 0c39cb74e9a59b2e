// cvt_f16: conversions from f16 and f16 arithmetic, bit-exact against the GPU.
//
// Covers cvt.f32.f16 (+.ftz), cvt.f64.f16, cvt.{rni,rzi,rmi,rpi}.{s8,u8,s16,u16,s32,u32,s64,u64}.f16
// (all 32), cvt.{rni,rzi,rmi,rpi}.f16.f16, the scalar f16 arithmetic add/sub/mul/fma (.rn, plain,
// .ftz, .sat), neg/abs (+.ftz), setp.<14 compares>.f16 (+.ftz), set.<cmp>.u32.f16, the packed
// f16x2 forms (add/sub/mul/fma.rn.f16x2, neg/abs.f16x2, setp.f16x2 p|q, set.f16x2.f16x2), and the
// CUDA half intrinsics (__half2float, __hadd, __hsub, __hmul, __hfma, __hadd_sat, __hfma_sat,
// __hneg, __habs, __hlt, __hequ, __hadd2, __hmul2, __hfma2, __half2int_*, __half2uint_rn,
// __half2ll_rz, __half2short_rn, hrint, htrunc, hfloor, hceil).
//
// Inline asm on raw registers: f16 operands in .b16 registers ("h", the low 16 bits of a, b, c);
// f16x2 operands are packed in a .b32 register: x2 = a | b << 16 (lanes: lo = a, hi = b) and
// y2 = c | a << 16, z2 = b | c << 16, so the two lanes see different pairs. Integer results of
// 8/16/32 bits in a .b32 register (sign-extended for signed types, PTX ISA 9.4.1), 64-bit ones in
// .b64; d[i] = the result register zero-extended, or 0/1 for a predicate (setp.f16x2 writes
// p | q << 1). Inputs are f16 bit patterns (kF16). All cases are bit-exact (tolerance "").
//
// Dropped variants (ptxas, .target sm_75):
//   min/max.f16 and .f16x2 (+ __hmin/__hmax): "requires .target sm_80".
//   fma.rn.relu.f16, min/max.NaN, the .bf16 arithmetic: sm_80 and later.
//   add.rz.f16 (any rounding but .rn): "Illegal rounding modifier" (f16 arithmetic has .rn only).
//   cvt.rn.f16.f16: "Illegal rounding modifier" (same-size float cvt takes integer rounding only).
//   testp.*.f16: "Unexpected instruction types" (testp is f32/f64 only).
//   cvt.rni.ftz.s32.f16: ".ftz does not apply to this type of convert" (.ftz is for f32 only).
//   ex2.approx.f16, tanh.approx.f16 compile for sm_75 but are approximations needing an f16
//   tolerance type; they are left out of this bit-exact family.
#include "cuda_fp16.h"
#include "golden.cuh"
GOLDEN_FAMILY("cvt_f16", kF16, kF16, kF16)

// the 32 bits of a half2 (lo lane in bits 0-15)
static __device__ __forceinline__ u32 h2bits(__half2 v) {
    u32 r;
    memcpy(&r, &v, sizeof r);
    return r;
}

#define HA ((unsigned short)a[i])
#define HB ((unsigned short)b[i])
#define HC ((unsigned short)c[i])
#define X2 ((u32)(a[i] & 0xFFFF) | (u32)(b[i] & 0xFFFF) << 16)
#define Y2 ((u32)(c[i] & 0xFFFF) | (u32)(a[i] & 0xFFFF) << 16)
#define Z2 ((u32)(b[i] & 0xFFFF) | (u32)(c[i] & 0xFFFF) << 16)

// ---- kernel shapes -------------------------------------------------------------------------
// f16 -> integer/f32 in a 32-bit register
#define K_TO32(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "h"(HA));                                         \
        d[i] = r;                                                                        \
    }
// f16 -> 64-bit integer or f64
#define K_TO64(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : "h"(HA));                                         \
        d[i] = r;                                                                        \
    }
#define K_UN16(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1;" : "=h"(r) : "h"(HA));                                         \
        d[i] = r;                                                                        \
    }
#define K_BIN16(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1, %2;" : "=h"(r) : "h"(HA), "h"(HB));                            \
        d[i] = r;                                                                        \
    }
#define K_TERN16(name, ins)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1, %2, %3;" : "=h"(r) : "h"(HA), "h"(HB), "h"(HC));               \
        d[i] = r;                                                                        \
    }
// setp on two f16, predicate written as 0/1; set.<cmp>.u32.f16 writes 0 / 0xFFFFFFFF itself
#define K_SETP16(name, ins)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }"                 \
            : "=r"(r) : "h"(HA), "h"(HB));                                               \
        d[i] = r;                                                                        \
    }
#define K_SET16(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2;" : "=r"(r) : "h"(HA), "h"(HB));                            \
        d[i] = r;                                                                        \
    }
// packed f16x2
#define K_UNX2(name, ins)                                                                \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "r"(X2));                                         \
        d[i] = r;                                                                        \
    }
#define K_BINX2(name, ins)                                                               \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2;" : "=r"(r) : "r"(X2), "r"(Y2));                            \
        d[i] = r;                                                                        \
    }
#define K_TERNX2(name, ins)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1, %2, %3;" : "=r"(r) : "r"(X2), "r"(Y2), "r"(Z2));               \
        d[i] = r;                                                                        \
    }
#define K_SETPX2(name, ins)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm("{ .reg .pred p, q; .reg .b32 t; " ins " p|q, %1, %2; selp.u32 %0, 1, 0, p; " \
            "selp.u32 t, 2, 0, q; or.b32 %0, %0, t; }"                                   \
            : "=r"(r) : "r"(X2), "r"(Y2));                                               \
        d[i] = r;                                                                        \
    }
// CUDA C expression of half x = a, y = b, z = c and half2 x2, y2, z2 (packed as above)
#define K_C(name, expr)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        __half x = __ushort_as_half(HA), y = __ushort_as_half(HB), z = __ushort_as_half(HC); \
        __half2 x2 = __halves2half2(x, y), y2 = __halves2half2(z, x), z2 = __halves2half2(y, z); \
        (void)x2; (void)y2; (void)z2;                                                    \
        d[i] = (u64)(expr);                                                              \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
#define IRND4(X, t)                                                                      \
    X(cvt_rni_##t##_f16, "cvt.rni." #t ".f16") X(cvt_rzi_##t##_f16, "cvt.rzi." #t ".f16") \
    X(cvt_rmi_##t##_f16, "cvt.rmi." #t ".f16") X(cvt_rpi_##t##_f16, "cvt.rpi." #t ".f16")
#define TO32_LIST(X)                                                                     \
    IRND4(X, s8) IRND4(X, u8) IRND4(X, s16) IRND4(X, u16) IRND4(X, s32) IRND4(X, u32)    \
    X(cvt_f32_f16, "cvt.f32.f16") X(cvt_ftz_f32_f16, "cvt.ftz.f32.f16")
#define TO64_LIST(X) IRND4(X, s64) IRND4(X, u64) X(cvt_f64_f16, "cvt.f64.f16")

#define UN16_LIST(X)                                                                     \
    X(cvt_rni_f16_f16, "cvt.rni.f16.f16") X(cvt_rzi_f16_f16, "cvt.rzi.f16.f16")          \
    X(cvt_rmi_f16_f16, "cvt.rmi.f16.f16") X(cvt_rpi_f16_f16, "cvt.rpi.f16.f16")          \
    X(neg_f16, "neg.f16") X(neg_ftz_f16, "neg.ftz.f16")                                  \
    X(abs_f16, "abs.f16") X(abs_ftz_f16, "abs.ftz.f16")
#define ARITH(X, op)                                                                     \
    X(op##_rn_f16, #op ".rn.f16") X(op##_rn_ftz_f16, #op ".rn.ftz.f16")                  \
    X(op##_rn_sat_f16, #op ".rn.sat.f16") X(op##_f16, #op ".f16")
#define BIN16_LIST(X) ARITH(X, add) ARITH(X, sub) ARITH(X, mul) X(add_rn_ftz_sat_f16, "add.rn.ftz.sat.f16")
#define TERN16_LIST(X)                                                                   \
    X(fma_rn_f16, "fma.rn.f16") X(fma_rn_ftz_f16, "fma.rn.ftz.f16")                      \
    X(fma_rn_sat_f16, "fma.rn.sat.f16") X(fma_rn_ftz_sat_f16, "fma.rn.ftz.sat.f16")

#define SETP(X, cmp) X(setp_##cmp##_f16, "setp." #cmp ".f16") X(setp_##cmp##_ftz_f16, "setp." #cmp ".ftz.f16")
#define SETP16_LIST(X)                                                                   \
    SETP(X, eq) SETP(X, ne) SETP(X, lt) SETP(X, le) SETP(X, gt) SETP(X, ge)              \
    SETP(X, equ) SETP(X, neu) SETP(X, ltu) SETP(X, leu) SETP(X, gtu) SETP(X, geu)        \
    SETP(X, num) SETP(X, nan)
#define SET16_LIST(X)                                                                    \
    X(set_lt_u32_f16, "set.lt.u32.f16") X(set_equ_u32_f16, "set.equ.u32.f16")            \
    X(set_nan_ftz_u32_f16, "set.nan.ftz.u32.f16")

#define UNX2_LIST(X)                                                                     \
    X(neg_f16x2, "neg.f16x2") X(abs_f16x2, "abs.f16x2") X(abs_ftz_f16x2, "abs.ftz.f16x2")
#define BINX2_LIST(X)                                                                    \
    X(add_rn_f16x2, "add.rn.f16x2") X(add_rn_ftz_sat_f16x2, "add.rn.ftz.sat.f16x2")      \
    X(sub_rn_f16x2, "sub.rn.f16x2") X(mul_rn_f16x2, "mul.rn.f16x2")                      \
    X(mul_rn_sat_f16x2, "mul.rn.sat.f16x2")                                              \
    X(set_lt_f16x2_f16x2, "set.lt.f16x2.f16x2") X(set_gtu_u32_f16x2, "set.gtu.u32.f16x2")
#define TERNX2_LIST(X) X(fma_rn_f16x2, "fma.rn.f16x2") X(fma_rn_ftz_f16x2, "fma.rn.ftz.f16x2")
#define SETPX2_LIST(X)                                                                   \
    X(setp_lt_f16x2, "setp.lt.f16x2") X(setp_neu_f16x2, "setp.neu.f16x2")                \
    X(setp_ge_ftz_f16x2, "setp.ge.ftz.f16x2")

#define C_LIST(X)                                                                        \
    X(c_half2float, __float_as_uint(__half2float(x)))        /* cvt.f32.f16 */           \
    X(c_hadd, __half_as_ushort(__hadd(x, y)))                                            \
    X(c_hsub, __half_as_ushort(__hsub(x, y)))                                            \
    X(c_hmul, __half_as_ushort(__hmul(x, y)))                                            \
    X(c_hfma, __half_as_ushort(__hfma(x, y, z)))                                         \
    X(c_hadd_sat, __half_as_ushort(__hadd_sat(x, y)))                                    \
    X(c_hfma_sat, __half_as_ushort(__hfma_sat(x, y, z)))                                 \
    X(c_hneg, __half_as_ushort(__hneg(x)))                                               \
    X(c_habs, __half_as_ushort(__habs(x)))                                               \
    X(c_hlt, (u32)__hlt(x, y))                                                           \
    X(c_hequ, (u32)__hequ(x, y))                                                         \
    X(c_hadd2, h2bits(__hadd2(x2, y2)))                                                  \
    X(c_hmul2, h2bits(__hmul2(x2, y2)))                                                  \
    X(c_hfma2, h2bits(__hfma2(x2, y2, z2)))                                              \
    X(c_half2int_rn, (u32)__half2int_rn(x))                                              \
    X(c_half2int_rz, (u32)__half2int_rz(x))                                              \
    X(c_half2int_rd, (u32)__half2int_rd(x))                                              \
    X(c_half2int_ru, (u32)__half2int_ru(x))                                              \
    X(c_half2uint_rn, __half2uint_rn(x))                                                 \
    X(c_half2ll_rz, (u64)__half2ll_rz(x))                                                \
    X(c_half2short_rn, (unsigned short)__half2short_rn(x))                               \
    X(c_hrint, __half_as_ushort(hrint(x)))                                               \
    X(c_htrunc, __half_as_ushort(htrunc(x)))                                             \
    X(c_hfloor, __half_as_ushort(hfloor(x)))                                             \
    X(c_hceil, __half_as_ushort(hceil(x)))

TO32_LIST(K_TO32)
TO64_LIST(K_TO64)
UN16_LIST(K_UN16)
BIN16_LIST(K_BIN16)
TERN16_LIST(K_TERN16)
SETP16_LIST(K_SETP16)
SET16_LIST(K_SET16)
UNX2_LIST(K_UNX2)
BINX2_LIST(K_BINX2)
TERNX2_LIST(K_TERNX2)
SETPX2_LIST(K_SETPX2)
C_LIST(K_C)

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    TO32_LIST(CASE)
    TO64_LIST(CASE)
    UN16_LIST(CASE)
    BIN16_LIST(CASE)
    TERN16_LIST(CASE)
    SETP16_LIST(CASE)
    SET16_LIST(CASE)
    UNX2_LIST(CASE)
    BINX2_LIST(CASE)
    TERNX2_LIST(CASE)
    SETPX2_LIST(CASE)
    C_LIST(CASE)
};
GOLDEN_MAIN
