// cvt_int: conversions from integers to floating point, bit-exact against the GPU.
//
// Covers cvt.{rn,rz,rm,rp}.f32.{s8,u8,s16,u16,s32,u32,s64,u64} and cvt.{rn,rz,rm,rp}.f64.{same}
// (all 64), cvt.rn.f16.{all 8 integer types} and cvt.{rz,rm,rp}.f16.{s32,u32}, the .sat forms
// (float destination clamped to [0,1]), cvt.rn.ftz.f32.s32, integer sources held in a wider
// register (the ISA chops them to the type width), and the CUDA intrinsics __int2float_*,
// __uint2float_*, __ll2float_*, __ull2float_*, __int2double_rn, __uint2double_rn, __ll2double_*,
// __ull2double_*, __hiloint2double, __int2half_*, __uint2half_*, __ll2half_rn, __short2half_rn.
//
// Inline asm on raw registers: 8/16/32-bit sources in a .b32 register ("r"; the 8/16-bit types
// use its low bits, "the source data is truncated (chopped)", PTX ISA 9.4.1), 64-bit sources in
// .b64 ("l"); f32 results in .b32, f64 in .b64, f16 in .b16 ("h"). d[i] = result bits
// zero-extended. Inputs a, b are u64 (kU64). All cases are bit-exact (tolerance "").
//
// Dropped variants (ptxas, .target sm_75):
//   cvt.rn.bf16.{s32,...}: "Feature '.bf16' requires sm_80" (and the __int2bfloat16_* intrinsics).
#include "cuda_fp16.h"
#include "golden.cuh"
GOLDEN_FAMILY("cvt_int", kU64, kU64, kU64)

// ---- kernel shapes -------------------------------------------------------------------------
// S = source operand ("r" of the low 32 bits or "l" of all 64), D = destination kind
#define SRC_r "r"((u32)a[i])
#define SRC_l "l"(a[i])
#define K_F32(name, ins, s)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u32 r;                                                                           \
        asm(ins " %0, %1;" : "=r"(r) : SRC_##s);                                         \
        d[i] = r;                                                                        \
    }
#define K_F64(name, ins, s)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 r;                                                                           \
        asm(ins " %0, %1;" : "=l"(r) : SRC_##s);                                         \
        d[i] = r;                                                                        \
    }
#define K_F16(name, ins, s)                                                              \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        unsigned short r;                                                                \
        asm(ins " %0, %1;" : "=h"(r) : SRC_##s);                                         \
        d[i] = r;                                                                        \
    }
// CUDA C expression of x = a[i] (u64; b[i] is used directly where needed); u64 result bits
#define K_C(name, expr)                                                                  \
    GOLDEN_KERNEL(name) {                                                                \
        unsigned i = GOLDEN_TID;                                                         \
        u64 x = a[i];                                                                    \
        d[i] = (u64)(expr);                                                              \
    }

// ---- variant lists (one line per case) -----------------------------------------------------
// dst type with the four roundings from source type t held in register kind s
#define FRND4(X, dt, t, s)                                                               \
    X(cvt_rn_##dt##_##t, "cvt.rn." #dt "." #t, s) X(cvt_rz_##dt##_##t, "cvt.rz." #dt "." #t, s) \
    X(cvt_rm_##dt##_##t, "cvt.rm." #dt "." #t, s) X(cvt_rp_##dt##_##t, "cvt.rp." #dt "." #t, s)
#define ALL_INT(X, dt)                                                                   \
    FRND4(X, dt, s8, r) FRND4(X, dt, u8, r) FRND4(X, dt, s16, r) FRND4(X, dt, u16, r)    \
    FRND4(X, dt, s32, r) FRND4(X, dt, u32, r) FRND4(X, dt, s64, l) FRND4(X, dt, u64, l)

#define F32_LIST(X)                                                                      \
    ALL_INT(X, f32)                                                                      \
    X(cvt_rn_sat_f32_s32, "cvt.rn.sat.f32.s32", r) X(cvt_rn_sat_f32_u64, "cvt.rn.sat.f32.u64", l) \
    X(cvt_rn_ftz_f32_s32, "cvt.rn.ftz.f32.s32", r)                                       \
    X(cvt_rn_f32_s8_b64src, "cvt.rn.f32.s8", l) X(cvt_rn_f32_u16_b64src, "cvt.rn.f32.u16", l) \
    X(cvt_rn_f32_s32_b64src, "cvt.rn.f32.s32", l)

#define F64_LIST(X)                                                                      \
    ALL_INT(X, f64)                                                                      \
    X(cvt_rn_sat_f64_s32, "cvt.rn.sat.f64.s32", r) X(cvt_rn_sat_f64_s64, "cvt.rn.sat.f64.s64", l) \
    X(cvt_rn_f64_s16_b64src, "cvt.rn.f64.s16", l)

#define F16_LIST(X)                                                                      \
    X(cvt_rn_f16_s8, "cvt.rn.f16.s8", r) X(cvt_rn_f16_u8, "cvt.rn.f16.u8", r)            \
    X(cvt_rn_f16_s16, "cvt.rn.f16.s16", r) X(cvt_rn_f16_u16, "cvt.rn.f16.u16", r)        \
    X(cvt_rn_f16_s32, "cvt.rn.f16.s32", r) X(cvt_rn_f16_u32, "cvt.rn.f16.u32", r)        \
    X(cvt_rn_f16_s64, "cvt.rn.f16.s64", l) X(cvt_rn_f16_u64, "cvt.rn.f16.u64", l)        \
    X(cvt_rz_f16_s32, "cvt.rz.f16.s32", r) X(cvt_rm_f16_s32, "cvt.rm.f16.s32", r)        \
    X(cvt_rp_f16_s32, "cvt.rp.f16.s32", r) X(cvt_rz_f16_u32, "cvt.rz.f16.u32", r)        \
    X(cvt_rm_f16_u32, "cvt.rm.f16.u32", r) X(cvt_rp_f16_u32, "cvt.rp.f16.u32", r)        \
    X(cvt_rz_f16_u64, "cvt.rz.f16.u64", l) X(cvt_rn_sat_f16_s32, "cvt.rn.sat.f16.s32", r)

#define C_LIST(X)                                                                        \
    X(c_int2float_rn, __float_as_uint(__int2float_rn((int)x)))      /* cvt.rn.f32.s32 */ \
    X(c_int2float_rz, __float_as_uint(__int2float_rz((int)x)))                           \
    X(c_int2float_rd, __float_as_uint(__int2float_rd((int)x)))                           \
    X(c_int2float_ru, __float_as_uint(__int2float_ru((int)x)))                           \
    X(c_uint2float_rn, __float_as_uint(__uint2float_rn((unsigned)x)))                    \
    X(c_uint2float_rz, __float_as_uint(__uint2float_rz((unsigned)x)))                    \
    X(c_uint2float_rd, __float_as_uint(__uint2float_rd((unsigned)x)))                    \
    X(c_uint2float_ru, __float_as_uint(__uint2float_ru((unsigned)x)))                    \
    X(c_ll2float_rn, __float_as_uint(__ll2float_rn((s64)x)))                             \
    X(c_ll2float_rz, __float_as_uint(__ll2float_rz((s64)x)))                             \
    X(c_ll2float_rd, __float_as_uint(__ll2float_rd((s64)x)))                             \
    X(c_ll2float_ru, __float_as_uint(__ll2float_ru((s64)x)))                             \
    X(c_ull2float_rn, __float_as_uint(__ull2float_rn(x)))                                \
    X(c_ull2float_rz, __float_as_uint(__ull2float_rz(x)))                                \
    X(c_ull2float_rd, __float_as_uint(__ull2float_rd(x)))                                \
    X(c_ull2float_ru, __float_as_uint(__ull2float_ru(x)))                                \
    X(c_int2double_rn, __double_as_longlong(__int2double_rn((int)x)))                    \
    X(c_uint2double_rn, __double_as_longlong(__uint2double_rn((unsigned)x)))             \
    X(c_ll2double_rn, __double_as_longlong(__ll2double_rn((s64)x)))                      \
    X(c_ll2double_rz, __double_as_longlong(__ll2double_rz((s64)x)))                      \
    X(c_ll2double_rd, __double_as_longlong(__ll2double_rd((s64)x)))                      \
    X(c_ll2double_ru, __double_as_longlong(__ll2double_ru((s64)x)))                      \
    X(c_ull2double_rn, __double_as_longlong(__ull2double_rn(x)))                         \
    X(c_ull2double_rz, __double_as_longlong(__ull2double_rz(x)))                         \
    X(c_ull2double_rd, __double_as_longlong(__ull2double_rd(x)))                         \
    X(c_ull2double_ru, __double_as_longlong(__ull2double_ru(x)))                         \
    X(c_hiloint2double, __double_as_longlong(__hiloint2double((int)x, (int)b[i])))       \
    X(c_float_cast_ll, __float_as_uint((float)(s64)x))              /* cvt.rn.f32.s64 */ \
    X(c_double_cast_u, __double_as_longlong((double)(unsigned)x))   /* cvt.rn.f64.u32 */ \
    X(c_int2half_rn, __half_as_ushort(__int2half_rn((int)x)))       /* cvt.rn.f16.s32 */ \
    X(c_int2half_rz, __half_as_ushort(__int2half_rz((int)x)))                            \
    X(c_int2half_rd, __half_as_ushort(__int2half_rd((int)x)))                            \
    X(c_int2half_ru, __half_as_ushort(__int2half_ru((int)x)))                            \
    X(c_uint2half_rn, __half_as_ushort(__uint2half_rn((unsigned)x)))                     \
    X(c_ll2half_rn, __half_as_ushort(__ll2half_rn((s64)x)))                              \
    X(c_short2half_rn, __half_as_ushort(__short2half_rn((short)x)))

F32_LIST(K_F32)
F64_LIST(K_F64)
F16_LIST(K_F16)
C_LIST(K_C)

#define CASE(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    F32_LIST(CASE)
    F64_LIST(CASE)
    F16_LIST(CASE)
    C_LIST(CASE)
};
GOLDEN_MAIN
