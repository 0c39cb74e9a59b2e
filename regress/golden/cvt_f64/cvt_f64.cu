// cvt_f64: conversions from f64, bit-exact against the GPU.
//
// Covers cvt.{rni,rzi,rmi,rpi}.{s8,u8,s16,u16,s32,u32,s64,u64}.f64 (all 32) and their .sat forms
// with .rzi (redundant for float->int, but legal), cvt.{rn,rz,rm,rp}.f32.f64 each plain, .ftz,
// .sat and .ftz.sat, cvt.{rn,rz,rm,rp}.f16.f64 (+.sat), cvt.rni.sat.f64.f64, and the CUDA
// intrinsics __double2float_rn/rz/rd/ru, __double2int_*, __double2uint_*, __double2ll_*,
// __double2ull_*, __double2hiint, __double2loint, plus the C casts (float)x and (int)x.
//
// Inline asm on raw registers: the f64 source in a .b64 register ("l"); integer destinations of
// 8/16/32 bits in a .b32 register ("r", sign-extended for signed types as the ISA says for a wider
// destination), 64-bit ones in .b64 ("l"), f16 in .b16 ("h"). d[i] = the destination register
// zero-extended to 64 bits. NaN -> integer gives 1 << (width-1) from f64 sources (PTX ISA 8.8
// text, confirmed on the H200 for s32/u32; for s8/s16 the sign extension then applies), where an
// f32 source gives 0 for destinations narrower than 64 bits.
// Input a is f64 bit patterns (kF64). All cases are bit-exact (tolerance "").
//
// Dropped variants (ptxas, .target sm_75):
//   cvt.rn.bf16.f64: "Feature '.bf16' requires sm_80".
//   cvt.rn.relu.f16.f64: "Unexpected instruction types" (.relu is defined for f32 sources only).
#include "golden.cuh"
GOLDEN_FAMILY("cvt_f64", kF64, kF64, kF64)

// ---- kernel shapes -------------------------------------------------------------------------
#define K_I32(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : "l"(a[i]));                                       \
        d[i] = r;                                                                        \
    }
#define K_I64(name, ins)                                                                 \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : "l"(a[i]));                                       \
        d[i] = r;                                                                        \
    }
#define K_H(name, ins)                                                                   \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1;" : "=h"(r) : "l"(a[i]));                                       \
        d[i] = r;                                                                        \
    }
// CUDA C expression of x = a[i] (double); the result is converted to u64 as its type says
#define K_C(name, type, expr)                                                            \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        double x = __longlong_as_double((s64)a[i]);                                      \
        type r = expr;                                                                   \
        d[i] = (u64)r;                                                                   \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
#define IRND4(X, t)                                                                      \
    X(cvt_rni_##t##_f64, "cvt.rni." #t ".f64") X(cvt_rzi_##t##_f64, "cvt.rzi." #t ".f64") \
    X(cvt_rmi_##t##_f64, "cvt.rmi." #t ".f64") X(cvt_rpi_##t##_f64, "cvt.rpi." #t ".f64")
#define SAT(X, t) X(cvt_rzi_sat_##t##_f64, "cvt.rzi.sat." #t ".f64")
// f64 -> f32 with one rounding: plain, .ftz, .sat, .ftz.sat
#define FRND(X, rnd)                                                                     \
    X(cvt_##rnd##_f32_f64, "cvt." #rnd ".f32.f64")                                       \
    X(cvt_##rnd##_ftz_f32_f64, "cvt." #rnd ".ftz.f32.f64")                               \
    X(cvt_##rnd##_sat_f32_f64, "cvt." #rnd ".sat.f32.f64")                               \
    X(cvt_##rnd##_ftz_sat_f32_f64, "cvt." #rnd ".ftz.sat.f32.f64")

#define I32_LIST(X)                                                                      \
    IRND4(X, s8) IRND4(X, u8) IRND4(X, s16) IRND4(X, u16) IRND4(X, s32) IRND4(X, u32)    \
    SAT(X, s8) SAT(X, u8) SAT(X, s16) SAT(X, u16) SAT(X, s32) SAT(X, u32)                \
    FRND(X, rn) FRND(X, rz) FRND(X, rm) FRND(X, rp)

#define I64_LIST(X)                                                                      \
    IRND4(X, s64) IRND4(X, u64) SAT(X, s64) SAT(X, u64)                                  \
    X(cvt_rni_sat_f64_f64, "cvt.rni.sat.f64.f64")

#define H_LIST(X)                                                                        \
    X(cvt_rn_f16_f64, "cvt.rn.f16.f64") X(cvt_rz_f16_f64, "cvt.rz.f16.f64")              \
    X(cvt_rm_f16_f64, "cvt.rm.f16.f64") X(cvt_rp_f16_f64, "cvt.rp.f16.f64")              \
    X(cvt_rn_sat_f16_f64, "cvt.rn.sat.f16.f64")

#define C_LIST(X)                                                                        \
    X(c_double2float_rn, u32, __float_as_uint(__double2float_rn(x))) /* cvt.rn.f32.f64 */ \
    X(c_double2float_rz, u32, __float_as_uint(__double2float_rz(x)))                     \
    X(c_double2float_rd, u32, __float_as_uint(__double2float_rd(x)))                     \
    X(c_double2float_ru, u32, __float_as_uint(__double2float_ru(x)))                     \
    X(c_float_cast, u32, __float_as_uint((float)x))                  /* cvt.rn.f32.f64 */ \
    X(c_double2int_rn, int, __double2int_rn(x))                      /* cvt.rni.s32.f64 */ \
    X(c_double2int_rz, int, __double2int_rz(x))                                          \
    X(c_double2int_rd, int, __double2int_rd(x))                                          \
    X(c_double2int_ru, int, __double2int_ru(x))                                          \
    X(c_int_cast, int, (int)x)                                                           \
    X(c_double2uint_rn, unsigned, __double2uint_rn(x))                                   \
    X(c_double2uint_rz, unsigned, __double2uint_rz(x))                                   \
    X(c_double2uint_rd, unsigned, __double2uint_rd(x))                                   \
    X(c_double2uint_ru, unsigned, __double2uint_ru(x))                                   \
    X(c_double2ll_rn, long long, __double2ll_rn(x))                                      \
    X(c_double2ll_rz, long long, __double2ll_rz(x))                                      \
    X(c_double2ll_rd, long long, __double2ll_rd(x))                                      \
    X(c_double2ll_ru, long long, __double2ll_ru(x))                                      \
    X(c_double2ull_rn, unsigned long long, __double2ull_rn(x))                           \
    X(c_double2ull_rz, unsigned long long, __double2ull_rz(x))                           \
    X(c_double2ull_rd, unsigned long long, __double2ull_rd(x))                           \
    X(c_double2ull_ru, unsigned long long, __double2ull_ru(x))                           \
    X(c_double2hiint, unsigned, (unsigned)__double2hiint(x))         /* mov.b64 {lo,hi} */ \
    X(c_double2loint, unsigned, (unsigned)__double2loint(x))

I32_LIST(K_I32)
I64_LIST(K_I64)
H_LIST(K_H)
C_LIST(K_C)

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    I32_LIST(CASE)
    I64_LIST(CASE)
    H_LIST(CASE)
    C_LIST(CASE)
};
GOLDEN_MAIN
