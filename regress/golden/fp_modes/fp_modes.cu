// Golden family "fp_modes": the result modifiers of sm_80 to sm_90 that change what min, max, fma
// and cvt return, one kernel per variant (inline asm, so the exact instruction is in the PTX).
//   min/max .NaN                 a NaN operand gives NaN (without it, the other operand)
//   min/max .xorsign.abs         the magnitude of min/max(|a|, |b|) with the sign a ^ b
//   min/max .relu (s32)          a negative result gives 0
//   fma.rn.relu (f16, f16x2)     a negative result gives +0
//   cvt.rn{.relu}.f16x2.f32      two floats packed, a in the high half
// Built for compute_90 (the arch file): the forms need sm_80 (relu, NaN), sm_86 (xorsign) or
// sm_90 (integer relu). Inputs: a and b are f32 bit patterns (edge values crossed, then random),
// also read as s32; c holds f16 bit patterns, and the f16 kernels pair c[i] with c at other
// indices. Outputs: d[i] = the 32-bit result, zero-extended.
#include "golden.cuh"
GOLDEN_FAMILY("fp_modes", kF32, kF32, kF16)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define H0 ((unsigned short)c[i])
#define H1 ((unsigned short)c[(i * 7 + 3) % 2048])
#define H2 ((unsigned short)c[(i * 13 + 5) % 2048])
#define H3 ((unsigned short)c[(i * 29 + 11) % 2048])

#define K32(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
#define K16(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;        \
    asm(ins " %0, %1, %2;" : "=h"(r) : "h"(H0), "h"(H1)); d[i] = r; }
#define K16X2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                 \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(H0 | (u32)H2 << 16), "r"(H1 | (u32)H3 << 16)); d[i] = r; }

K32(min_nan_f32, "min.NaN.f32")
K32(max_nan_f32, "max.NaN.f32")
K32(min_ftz_nan_f32, "min.ftz.NaN.f32")
K32(min_xorsign_f32, "min.xorsign.abs.f32")
K32(max_xorsign_f32, "max.xorsign.abs.f32")
K32(min_nan_xorsign_f32, "min.NaN.xorsign.abs.f32")
K32(max_ftz_nan_xorsign_f32, "max.ftz.NaN.xorsign.abs.f32")
K32(min_relu_s32, "min.relu.s32")
K32(max_relu_s32, "max.relu.s32")
K16(min_f16, "min.f16")
K16(max_f16, "max.f16")
K16(min_nan_f16, "min.NaN.f16")
K16(max_ftz_nan_f16, "max.ftz.NaN.f16")
K16(min_xorsign_f16, "min.xorsign.abs.f16")
K16(max_nan_xorsign_f16, "max.NaN.xorsign.abs.f16")
K16X2(min_f16x2, "min.f16x2")
K16X2(max_nan_f16x2, "max.NaN.f16x2")
K16X2(min_xorsign_f16x2, "min.xorsign.abs.f16x2")

GOLDEN_KERNEL(fma_relu_f16) { unsigned i = GOLDEN_TID; unsigned short r;
    asm("fma.rn.relu.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(H0), "h"(H1), "h"(H2)); d[i] = r; }
GOLDEN_KERNEL(fma_ftz_relu_f16) { unsigned i = GOLDEN_TID; unsigned short r;
    asm("fma.rn.ftz.relu.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(H0), "h"(H1), "h"(H2)); d[i] = r; }
GOLDEN_KERNEL(fma_relu_f16x2) { unsigned i = GOLDEN_TID; u32 r;
    asm("fma.rn.relu.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(H0 | (u32)H1 << 16), "r"(H2 | (u32)H3 << 16),
        "r"(H1 | (u32)H0 << 16)); d[i] = r; }
GOLDEN_KERNEL(cvt_relu_f16_f32) { unsigned i = GOLDEN_TID; unsigned short r;
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(r) : "r"(A)); d[i] = r; }
GOLDEN_KERNEL(cvt_f16x2_f32) { unsigned i = GOLDEN_TID; u32 r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
GOLDEN_KERNEL(cvt_relu_f16x2_f32) { unsigned i = GOLDEN_TID; u32 r;
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }

GOLDEN_CASES {
    {"min_nan_f32", 16, 128, ""},
    {"max_nan_f32", 16, 128, ""},
    {"min_ftz_nan_f32", 16, 128, ""},
    {"min_xorsign_f32", 16, 128, ""},
    {"max_xorsign_f32", 16, 128, ""},
    {"min_nan_xorsign_f32", 16, 128, ""},
    {"max_ftz_nan_xorsign_f32", 16, 128, ""},
    {"min_relu_s32", 16, 128, ""},
    {"max_relu_s32", 16, 128, ""},
    {"min_f16", 16, 128, ""},
    {"max_f16", 16, 128, ""},
    {"min_nan_f16", 16, 128, ""},
    {"max_ftz_nan_f16", 16, 128, ""},
    {"min_xorsign_f16", 16, 128, ""},
    {"max_nan_xorsign_f16", 16, 128, ""},
    {"min_f16x2", 16, 128, ""},
    {"max_nan_f16x2", 16, 128, ""},
    {"min_xorsign_f16x2", 16, 128, ""},
    {"fma_relu_f16", 16, 128, ""},
    {"fma_ftz_relu_f16", 16, 128, ""},
    {"fma_relu_f16x2", 16, 128, ""},
    {"cvt_relu_f16_f32", 16, 128, ""},
    {"cvt_f16x2_f32", 16, 128, ""},
    {"cvt_relu_f16x2_f32", 16, 128, ""},
};
GOLDEN_MAIN
