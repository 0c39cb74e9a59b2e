// cvt_f32: conversions from f32, bit-exact against the GPU.
//
// Covers cvt.{rni,rzi,rmi,rpi}{,.ftz}.{s8,u8,s16,u16,s32,u32,s64,u64}.f32 (all 64), the .sat
// forms with .rzi (redundant for float->int, "clamped by default", but legal), cvt.f64.f32 (+.ftz,
// +.sat), cvt.{rn,rz,rm,rp}.f16.f32 (+.ftz, .sat, .satfinite), an f16 result in a 32-bit
// register, (int)x, (double)x, and the CUDA intrinsics
// __float2half_rn/_rz/_rd/_ru, __float2int_*, __float2uint_*, __float2ll_*, __float2ull_*.
//
// Inline asm on raw registers: f32 source in a .b32 register ("r"); integer destinations of 8,
// 16 and 32 bits are written to a .b32 register ("r") and 64-bit ones to a .b64 register ("l").
// The ISA allows a cvt destination register wider than the type and sign-extends it for signed
// types (zero-extends otherwise), so cvt.rni.s8.f32 leaves e.g. 0xFFFFFF80 for -128: those upper
// bits are part of what is tested. d[i] = the destination register zero-extended to 64 bits.
// f16 results are in a .b16 register ("h"), zero-extended. Inputs a (and b for f16x2) are f32
// bit patterns (kF32). All cases are bit-exact (tolerance "").
//
// Dropped variants (ptxas rejects them for .target sm_75; the PTX is JIT-compiled as sm_75 code):
//   cvt.rn.bf16.f32 / .bf16x2 (and __float2bfloat16*): "Feature '.bf16' requires sm_80".
//   cvt.rn.f16x2.f32 (and __floats2half2_rn): "Feature 'cvt.f16x2.f32' requires sm_80".
//   cvt.rn.relu.f16.f32: "Modifier '.relu' requires sm_80".
//   cvt.rna.tf32.f32: "Feature '.tf32' requires sm_80".
//   cvt.rn.sat.f64.f32: "Illegal rounding modifier" (widening takes none; cvt.sat.f64.f32 is kept).
#include "cuda_fp16.h"
#include "golden.cuh"
GOLDEN_FAMILY("cvt_f32", kF32, kF32, kF32)

// ---- kernel shapes -------------------------------------------------------------------------
// f32 -> 8/16/32-bit integer in a 32-bit register
#define K_I32(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "r"((u32)a[i]));                                  \
        d[i] = r;                                                                        \
    }
// f32 -> 64-bit integer or f64
#define K_I64(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : "r"((u32)a[i]));                                  \
        d[i] = r;                                                                        \
    }
// f32 -> f16 in a 16-bit register
#define K_H(name, ins)                                                                   \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1;" : "=h"(r) : "r"((u32)a[i]));                                  \
        d[i] = r;                                                                        \
    }
// CUDA C expression of x = a[i] (float); the result is converted to u64 as its type says
#define K_C(name, type, expr)                                                            \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        float x = __uint_as_float((u32)a[i]);                                            \
        type r = expr;                                                                   \
        d[i] = (u64)r;                                                                   \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
// one integer rounding, each also with .ftz
#define IRND(X, rnd, t)                                                                  \
    X(cvt_##rnd##_##t##_f32, "cvt." #rnd "." #t ".f32")                                  \
    X(cvt_##rnd##_ftz_##t##_f32, "cvt." #rnd ".ftz." #t ".f32")
#define IRND4(X, t) IRND(X, rni, t) IRND(X, rzi, t) IRND(X, rmi, t) IRND(X, rpi, t)
#define SAT(X, t) X(cvt_rzi_sat_##t##_f32, "cvt.rzi.sat." #t ".f32")

#define I32_LIST(X)                                                                      \
    IRND4(X, s8) IRND4(X, u8) IRND4(X, s16) IRND4(X, u16) IRND4(X, s32) IRND4(X, u32)    \
    SAT(X, s8) SAT(X, u8) SAT(X, s16) SAT(X, u16) SAT(X, s32) SAT(X, u32)                \
    X(cvt_rni_ftz_sat_s8_f32, "cvt.rni.ftz.sat.s8.f32")

#define I64_LIST(X)                                                                      \
    IRND4(X, s64) IRND4(X, u64) SAT(X, s64) SAT(X, u64)                                  \
    X(cvt_f64_f32, "cvt.f64.f32") X(cvt_ftz_f64_f32, "cvt.ftz.f64.f32")                  \
    X(cvt_sat_f64_f32, "cvt.sat.f64.f32")

#define H_LIST(X)                                                                        \
    X(cvt_rn_f16_f32, "cvt.rn.f16.f32") X(cvt_rz_f16_f32, "cvt.rz.f16.f32")              \
    X(cvt_rm_f16_f32, "cvt.rm.f16.f32") X(cvt_rp_f16_f32, "cvt.rp.f16.f32")              \
    X(cvt_rn_ftz_f16_f32, "cvt.rn.ftz.f16.f32") X(cvt_rn_sat_f16_f32, "cvt.rn.sat.f16.f32") \
    X(cvt_rz_ftz_f16_f32, "cvt.rz.ftz.f16.f32")                                          \
    X(cvt_rn_satfinite_f16_f32, "cvt.rn.satfinite.f16.f32")

#define C_LIST(X)                                                                        \
    X(c_float2int_rn, int, __float2int_rn(x))     /* cvt.rni.s32.f32 */                  \
    X(c_float2int_rz, int, __float2int_rz(x))     /* cvt.rzi.s32.f32 */                  \
    X(c_float2int_rd, int, __float2int_rd(x))     /* cvt.rmi.s32.f32 */                  \
    X(c_float2int_ru, int, __float2int_ru(x))     /* cvt.rpi.s32.f32 */                  \
    X(c_float2uint_rn, unsigned, __float2uint_rn(x))                                     \
    X(c_float2uint_rz, unsigned, __float2uint_rz(x))                                     \
    X(c_float2uint_rd, unsigned, __float2uint_rd(x))                                     \
    X(c_float2uint_ru, unsigned, __float2uint_ru(x))                                     \
    X(c_float2ll_rn, long long, __float2ll_rn(x))                                        \
    X(c_float2ll_rz, long long, __float2ll_rz(x))                                        \
    X(c_float2ll_rd, long long, __float2ll_rd(x))                                        \
    X(c_float2ll_ru, long long, __float2ll_ru(x))                                        \
    X(c_float2ull_rn, unsigned long long, __float2ull_rn(x))                             \
    X(c_float2ull_rz, unsigned long long, __float2ull_rz(x))                             \
    X(c_float2ull_rd, unsigned long long, __float2ull_rd(x))                             \
    X(c_float2ull_ru, unsigned long long, __float2ull_ru(x))                             \
    X(c_int_cast, int, (int)x)                    /* cvt.rzi.s32.f32 */                  \
    X(c_double_cast, u64, (u64)__double_as_longlong((double)x)) /* cvt.f64.f32 */        \
    X(c_float2half_rn, unsigned short, __half_as_ushort(__float2half_rn(x)))             \
    X(c_float2half_rz, unsigned short, __half_as_ushort(__float2half_rz(x)))             \
    X(c_float2half_rd, unsigned short, __half_as_ushort(__float2half_rd(x)))             \
    X(c_float2half_ru, unsigned short, __half_as_ushort(__float2half_ru(x)))

// f16 result in a 32-bit destination register: zero-extended (ISA 9.4.1)
#define I32_LIST2(X) X(cvt_rn_f16_f32_b32dst, "cvt.rn.f16.f32")

I32_LIST(K_I32)
I32_LIST2(K_I32)
I64_LIST(K_I64)
H_LIST(K_H)
C_LIST(K_C)

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    I32_LIST(CASE)
    I32_LIST2(CASE)
    I64_LIST(CASE)
    H_LIST(CASE)
    C_LIST(CASE)
};
GOLDEN_MAIN
